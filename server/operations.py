"""What each RPC does, as plain functions over the engine library (no gRPC in here).

Every function takes a *kind* (:mod:`numgrid.server.kinds`), a board already read and
checked by :func:`read_board`, and a :class:`~numgrid.server.core.Budget`. Every search
asks the uniqueness question (``engines.find(..., limit=2)``), so a solution comes
with the knowledge of whether it is the only one. Hints, explanations and difficulty
come from the kind's logical solver (``kind.logic.next_step``, ``kind.logic.explain``).
"""

from __future__ import annotations

import enum
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from numgrid.server import engines
from numgrid.server.chain import Explanation
from numgrid.server.core import BeyondLogic
from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Stats
from numgrid.server.core import Step
from numgrid.server.core import Verdict
from numgrid.server.core import cell_name
from numgrid.server.core import wrong_entries
from numgrid.server.engines import Answer
from numgrid.server.engines import Engine
from numgrid.server.kinds.base import Kind
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Highlight
from numgrid.server.pictures import Picture

Warnings = tuple[Finding, ...]


def read_board(kind: Kind[Any], text: str, fmt: str | None, max_cells: int) -> tuple[Any, Warnings]:
    """Read ``text`` (``fmt`` None: detect it) and check it: the board and its warnings.

    PuzzleError carries every error found, not just the first.
    """
    board = kind.formats.read(text, fmt, max_cells)
    return board, check_board(kind, board, max_cells)


def check_board(kind: Kind[Any], board: Board, max_cells: int) -> Warnings:
    """The warnings of a well-formed board; PuzzleError with every error otherwise."""
    findings = kind.checks.check_puzzle(board.puzzle, board.entries, max_cells)
    errors = [f for f in findings if f.is_error]
    if errors:
        raise PuzzleError(errors)
    return tuple(f for f in findings if not f.is_error)


def _search(kind: Kind[Any], board: Board, engine: Engine, budget: Budget, *, hold: bool) -> Answer:
    fixed = board.entries if hold and board.has_entries else None
    return engines.find(kind, board.puzzle, engine=engine, limit=2, fixed=fixed, budget=budget)


# ---------------------------------------------------------------- Validate


@dataclass(frozen=True)
class Validation:
    report: BoardReport  # groups, cells, findings, solved, wrong_entries
    verdict: Verdict | None  # only with compare
    stats: tuple[Stats, ...] = ()


def validate(
    kind: Kind[Any], board: Board, *, compare: bool, engine: Engine, budget: Budget
) -> Validation:
    """Judge every group and cell; with ``compare``, also list entries that differ from the
    unique solution (none are listed when the puzzle has no unique solution)."""
    if not compare:
        return Validation(kind.checks.validate_board(board, None), None)
    answer = _search(kind, board, engine, budget, hold=False)
    solution = answer.solutions[0] if answer.verdict is Verdict.UNIQUE else None
    return Validation(kind.checks.validate_board(board, solution), answer.verdict, answer.stats)


# ---------------------------------------------------------------- Solve, CheckUniqueness


def check_uniqueness(
    kind: Kind[Any], board: Board, *, engine: Engine, budget: Budget, hold_entries: bool
) -> Answer:
    """One solution (UNIQUE), two different ones with the cells where they differ
    (MULTIPLE), none (NO_SOLUTION), or TIMEOUT. Solve is the same search: proving the
    solution unique is what serves it."""
    return _search(kind, board, engine, budget, hold=hold_entries)


solve = check_uniqueness


# ---------------------------------------------------------------- Render


@dataclass(frozen=True)
class Rendered:
    picture: Picture | None  # None: the solution was asked for and is not unique
    verdict: Verdict | None  # only with show_solution
    solution: Any = None  # the unique solution drawn, with show_solution
    stats: tuple[Stats, ...] = ()


def render(
    kind: Kind[Any],
    board: Board,
    *,
    show_entries: bool,
    show_solution: bool,
    highlights: dict[Cell, Highlight],
    engine: Engine,
    budget: Budget,
    hold_entries: bool = False,
) -> Rendered:
    """The board drawn by its kind (``kind.picture.draw``): the entries if ``show_entries``,
    the unique solution if ``show_solution`` (no picture when there is none, or the
    search ran out of time: see ``verdict``), ``highlights`` over the cells."""
    solution, verdict = None, None
    stats: tuple[Stats, ...] = ()
    if show_solution:
        answer = _search(kind, board, engine, budget, hold=hold_entries)
        verdict, stats = answer.verdict, answer.stats
        if verdict is not Verdict.UNIQUE:
            return Rendered(None, verdict, None, stats)
        solution = answer.solutions[0]
    contents = Contents(board.entries if show_entries else None, solution, highlights)
    return Rendered(kind.picture.draw(board.puzzle, contents), verdict, solution, stats)


# ---------------------------------------------------------------- difficulty

DIFFICULTY_SHARE = 0.5  # of the time left after the search, at most, for the grade
DIFFICULTY_SECONDS = 2.0  # and never more than this (the corpus's slowest takes 0.6 s)
_DIFFICULTY_CACHE_SIZE = 256


@dataclass(frozen=True)
class Difficulty:
    """How hard a puzzle is for a person, from its logical solution (``kind.logic.explain``)."""

    grade: Any  # the kind's grade (an IntEnum, e.g. EXPERT), None unless solved by logic
    hardest: Any  # the hardest technique used, None when no step was needed
    counts: dict[Any, int] = field(hash=False)  # {technique: steps}, every technique of the kind
    solved_by_logic: bool
    score: int = 0  # the sum of the chain's step weights (Explanation.score): higher is harder


def difficulty_of(explanation: Explanation) -> Difficulty:
    counts = dict(explanation.technique_counts)
    used = [t for t, n in counts.items() if n]
    return Difficulty(
        explanation.grade if explanation.solved else None,
        max(used) if used else None,
        counts,
        explanation.solved,
        explanation.score,
    )


class _Cache:
    """The last few difficulties computed, by puzzle (and entries held): a grade is the
    same every time, and a client that solves a puzzle twice should not pay twice.

    Keyed by a digest of the puzzle's text (:func:`_fingerprint`), not by the puzzle: a
    puzzle object carries what the engines derived from it (runs, cage tables, ...), and
    256 of them kept alive grew a server under load by about 10 MB over a minute."""

    def __init__(self, size: int):
        self.size, self.lock = size, threading.Lock()
        self.items: OrderedDict[bytes, Difficulty] = OrderedDict()

    def get(self, key: bytes) -> Difficulty | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: bytes, value: Difficulty) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_difficulties = _Cache(_DIFFICULTY_CACHE_SIZE)


def _fingerprint(*parts: object) -> bytes:
    """A 128-bit digest of ``repr(parts)``: puzzles are frozen dataclasses, whose repr
    gives every field and nothing derived."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).digest()


def _share(budget: Budget, share: float, cap: float | None = None) -> Budget:
    """A budget for part of the time ``budget`` has left; cancelled with it."""
    remaining = budget.remaining()
    limits = [x for x in (None if remaining is None else remaining * share, cap) if x is not None]
    deadline = time.monotonic() + min(limits) if limits else None
    return Budget(deadline, budget.cancelled)


def difficulty(
    kind: Kind[Any], board: Board, answer: Answer, *, budget: Budget, hold_entries: bool
) -> Difficulty | None:
    """The difficulty of a puzzle whose search said UNIQUE, from its logical solution: from
    the empty grid, or from the entries when they were held. None for other verdicts, a
    kind whose logical solver stalls, or when the time allowed for it runs out (half what
    ``budget`` has left, at most DIFFICULTY_SECONDS): a grade never fails a call."""
    if answer.verdict is not Verdict.UNIQUE:
        return None
    entries = board.entries if hold_entries and board.has_entries else None
    key = _fingerprint(kind.name, board.puzzle, entries)
    found = _difficulties.get(key)
    if found is not None:
        return found
    limited = _share(budget, DIFFICULTY_SHARE, DIFFICULTY_SECONDS)
    try:
        found = difficulty_of(
            kind.logic.explain(
                board.puzzle, entries, max(kind.logic.Technique), budget=limited, quiet=True
            )
        )
    except (SearchTimeout, BeyondLogic):
        return None
    _difficulties.put(key, found)
    return found


# ---------------------------------------------------------------- Explain


@dataclass(frozen=True)
class Explained:
    steps: tuple[Step, ...]  # the kind's steps, in order
    solved: bool  # the chain completed the grid
    difficulty: Difficulty


def explain(
    kind: Kind[Any], board: Board, *, max_technique: enum.IntEnum | None = None, budget: Budget
) -> Explained:
    """Every logical step from the board's entries (an empty grid if none) until the grid
    is full, the techniques up to ``max_technique`` (None: all, trial included) are
    stuck, or the entries turn out to have no completion (the steps up to there).

    Raises PuzzleError when the entries break a rule or the techniques cannot take the
    puzzle on (:class:`BeyondLogic`), SearchTimeout past the budget."""
    entries = board.entries if board.has_entries else None
    limit = max(kind.logic.Technique) if max_technique is None else max_technique
    try:
        explanation = kind.logic.explain(board.puzzle, entries, limit, budget=budget)
    except BeyondLogic as e:
        raise PuzzleError([Finding("beyond_logic", str(e))]) from None
    return Explained(explanation.steps, explanation.solved, difficulty_of(explanation))


# ---------------------------------------------------------------- Hint


@dataclass(frozen=True)
class Hint:
    # "MISTAKE", "STEP", "NO_STEP", "SOLVED", "NOT_UNIQUE"; "" when the search timed out
    kind: str
    explanation: str
    cells: tuple[Cell, ...] = ()
    placements: tuple[tuple[Cell, int], ...] = ()
    findings: tuple[Finding, ...] = ()
    verdict: Verdict | None = None  # None when no search was needed
    stats: tuple[Stats, ...] = ()
    step: Any = None  # STEP: the step; NO_STEP: the trial step offered, if any


HINT_LOGIC_SHARE = 0.8  # of the time left after the search: the rest answers with a reveal


def _names(cells: Iterable[Cell]) -> str:
    names = [cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _words(technique: enum.IntEnum) -> str:
    return technique.name.lower().replace("_", " ")


def default_hint_technique(kind: Kind[Any]) -> enum.IntEnum:
    """All techniques but the last resort (TRIAL)."""
    return max(t for t in kind.logic.Technique if t.name != "TRIAL")


def _players(board: Board, cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Of ``cells`` (those of a broken rule), the ones the player can fix: entered, not
    given (a given in a duplicate is named by the finding, not offered to fix)."""
    given = getattr(board.puzzle, "given", None)  # puzzles with givens say which
    return tuple(c for c in cells if board.entry(c) and not (given and given(c)))


def hint(
    kind: Kind[Any],
    board: Board,
    *,
    engine: Engine,
    budget: Budget,
    max_technique: enum.IntEnum | None = None,
    placements_only: bool = False,
) -> Hint:
    """The next step for a player, never wrong.

    In order: an entry that breaks a rule (MISTAKE, no search needed); a board already
    solved (SOLVED); a puzzle without a unique solution (NOT_UNIQUE); entries that differ
    from the unique solution (MISTAKE); else the simplest logical step from the entries
    with techniques up to ``max_technique`` (None: all but TRIAL), only one that places
    a digit with ``placements_only`` (STEP). If those techniques are stuck: NO_STEP, with
    a trial step offered as a last resort (when one exists) and one cell revealed from
    the solution, both labelled as such. The entries are what is being checked, so they
    are never held fixed here.
    """
    report = kind.checks.validate_board(board, None)
    if report.findings:
        at_fault = tuple(dict.fromkeys(c for f in report.findings for c in f.cells))
        cells = _players(board, at_fault) or at_fault
        first = report.findings[0].message
        more = len(report.findings) - 1
        rest = f" (and {more} more rule{'s' if more > 1 else ''} broken)" if more else ""
        return Hint("MISTAKE", f"Fix {_names(cells)}: {first}{rest}.", cells, (), report.findings)
    if report.solved:
        return Hint("SOLVED", "The board is solved: every group is complete and correct.")

    answer = _search(kind, board, engine, budget, hold=False)
    verdict, stats = answer.verdict, answer.stats
    if verdict is Verdict.TIMEOUT:
        text = "No hint: the time limit ran out before the solution was found."
        return Hint("", text, verdict=verdict, stats=stats)
    if verdict is not Verdict.UNIQUE:
        why = "several solutions" if verdict is Verdict.MULTIPLE else "no solution"
        text = f"The puzzle has {why}, so no hint can be trusted."
        return Hint("NOT_UNIQUE", text, verdict=verdict, stats=stats)

    solution = answer.solutions[0]
    wrong = wrong_entries(report.cells, board.entries, solution)  # the report's cells
    if wrong:
        findings = tuple(
            Finding(
                "wrong_entry",
                f"{cell_name(c)}: {kind.logic.value_text(board.entries[c[0]][c[1]])} is not what "
                "the puzzle's unique solution has there",
                (c,),
            )
            for c in wrong
        )
        verb = "differs" if len(wrong) == 1 else "differ"
        text = f"Fix {_names(wrong)}: the entry {verb} from the puzzle's unique solution."
        return Hint("MISTAKE", text, wrong, (), findings, verdict, stats)

    found = _Found(verdict, stats, solution)
    allowed = default_hint_technique(kind) if max_technique is None else max_technique
    logic_budget = _share(budget, HINT_LOGIC_SHARE)
    try:
        step = kind.logic.next_step(
            board.puzzle, board.entries, allowed, placements_only, budget=logic_budget
        )
    except SearchTimeout:
        return _no_step(kind, board, found, None, "the time ran out before a step was found")
    except BeyondLogic as e:
        return _no_step(kind, board, found, None, str(e))
    if step is None:
        return _stuck(kind, board, found, allowed, logic_budget)
    acted = [c for c, _ in step.placements] or [c for c, _ in step.eliminations]
    cells = tuple(dict.fromkeys(acted))
    return Hint("STEP", step.explanation, cells, step.placements, (), verdict, stats, step)


@dataclass(frozen=True)
class _Found:
    verdict: Verdict
    stats: tuple[Stats, ...]
    solution: Any


def _stuck(
    kind: Kind[Any], board: Board, found: _Found, allowed: enum.IntEnum, budget: Budget
) -> Hint:
    """No step with the allowed techniques: where they stall, a trial (the last resort)
    and a cell revealed from the solution."""
    why = f"no logical step with the techniques up to {_words(allowed)} is left"
    try:
        stalled = kind.logic.explain(board.puzzle, board.entries, allowed, budget=budget)
        trial = None
        if allowed < max(kind.logic.Technique):
            trial = kind.logic.last_resort(board.puzzle, stalled.candidates, budget=budget)
    except SearchTimeout:
        return _no_step(kind, board, found, None, why)
    except BeyondLogic as e:
        return _no_step(kind, board, found, None, str(e))
    open_cells = {c: len(ds) for c, ds in stalled.candidates.items() if len(ds) > 1}
    if trial is not None:
        reveal = (trial.placements or trial.eliminations)[0][0]
    elif open_cells:  # the most constrained cell: the one a player would look at next
        reveal = min(open_cells, key=lambda c: (open_cells[c], c))
    else:
        reveal = None
    return _no_step(kind, board, found, trial, why, reveal)


def _no_step(
    kind: Kind[Any],
    board: Board,
    found: _Found,
    trial: Step | None,
    why: str,
    reveal: Cell | None = None,
) -> Hint:
    """NO_STEP: ``why``, the trial offered (if any), and ``reveal`` (else the first empty
    cell) filled in from the unique solution, the explanation saying it is not deduced."""
    solution = found.solution
    if reveal is None:
        reveal = next(
            (r, c)
            for r, row in enumerate(solution)
            for c, digit in enumerate(row)
            if digit and not board.entries[r][c]
        )
    digit = solution[reveal[0]][reveal[1]]
    parts = [why[0].upper() + why[1:] + "."]
    if trial is not None:  # its explanation starts "Trial (a last resort): ..."
        label = "" if trial.explanation.startswith("Trial") else "A trial, as a last resort: "
        parts.append(label + trial.explanation)
    shown = "Or reveal" if trial is not None else "Revealed instead"
    parts.append(
        f"{shown}: {cell_name(reveal)} is {kind.logic.value_text(digit)}, taken from the puzzle's "
        "unique solution, not deduced."
    )
    return Hint(
        "NO_STEP",
        " ".join(parts),
        (reveal,),
        ((reveal, digit),),
        (),
        found.verdict,
        found.stats,
        trial,
    )
