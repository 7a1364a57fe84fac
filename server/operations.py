"""What each RPC does, as plain functions over the engine library (no gRPC in here).

Every function takes a *kind* (:mod:`numgrid.server.kinds`), a board already read and
checked by :func:`read_board`, and a :class:`~numgrid.server.core.Budget`. Every search
asks the uniqueness question (``engines.find(..., limit=2)``), so a solution comes
with the knowledge of whether it is the only one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from numgrid.server import engines
from numgrid.server.core import Budget, Cell, Finding, PuzzleError, Stats, Verdict, cell_name
from numgrid.server.engines import Answer, Engine
from numgrid.server.kinds.base import Kind

Warnings = tuple[Finding, ...]


def read_board(kind: Kind, text: str, fmt: str | None, max_cells: int) -> tuple[Any, Warnings]:
    """Read ``text`` (``fmt`` None: detect it) and check it: the board and its warnings.

    PuzzleError carries every error found, not just the first.
    """
    board = kind.read(text, fmt, max_cells)
    return board, check_board(kind, board, max_cells)


def check_board(kind: Kind, board, max_cells: int) -> Warnings:
    """The warnings of a well-formed board; PuzzleError with every error otherwise."""
    findings = kind.check(board.puzzle, board.entries, max_cells)
    errors = [f for f in findings if f.is_error]
    if errors:
        raise PuzzleError(errors)
    return tuple(f for f in findings if not f.is_error)


def _has_entries(board) -> bool:
    return any(any(row) for row in board.entries)


def _search(kind: Kind, board, engine: Engine, budget: Budget, *, hold: bool) -> Answer:
    fixed = board.entries if hold and _has_entries(board) else None
    return engines.find(kind, board.puzzle, engine=engine, limit=2, fixed=fixed, budget=budget)


# ---------------------------------------------------------------- Validate


@dataclass(frozen=True)
class Validation:
    report: Any  # the kind's BoardReport: runs, cells, findings, solved, wrong_entries
    verdict: Verdict | None  # only with compare
    stats: tuple[Stats, ...] = ()


def validate(kind: Kind, board, *, compare: bool, engine: Engine, budget: Budget) -> Validation:
    """Judge every run and cell; with ``compare``, also list entries that differ from the
    unique solution (none are listed when the puzzle has no unique solution)."""
    if not compare:
        return Validation(kind.validate(board, None), None)
    answer = _search(kind, board, engine, budget, hold=False)
    solution = answer.solutions[0] if answer.verdict is Verdict.UNIQUE else None
    return Validation(kind.validate(board, solution), answer.verdict, answer.stats)


# ---------------------------------------------------------------- Solve, CheckUniqueness


def solve(kind: Kind, board, *, engine: Engine, budget: Budget, hold_entries: bool) -> Answer:
    """A solution and whether it is the only one (UNIQUE, MULTIPLE, NO_SOLUTION, TIMEOUT)."""
    return _search(kind, board, engine, budget, hold=hold_entries)


def check_uniqueness(
    kind: Kind, board, *, engine: Engine, budget: Budget, hold_entries: bool
) -> Answer:
    """One solution, two different ones with the cells where they differ, or none."""
    return _search(kind, board, engine, budget, hold=hold_entries)


# ---------------------------------------------------------------- Hint


@dataclass(frozen=True)
class Hint:
    kind: str  # "MISTAKE", "REVEAL", "SOLVED", "NOT_UNIQUE"; "" when the search timed out
    explanation: str
    cells: tuple[Cell, ...] = ()
    placements: tuple[tuple[Cell, int], ...] = ()
    findings: tuple[Finding, ...] = ()
    verdict: Verdict | None = None  # None when no search was needed
    stats: tuple[Stats, ...] = ()


def _names(cells) -> str:
    names = [cell_name(c) for c in cells]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def hint(kind: Kind, board, *, engine: Engine, budget: Budget) -> Hint:
    """The next step for a player, minimal but never wrong.

    In order: an entry that breaks a rule (MISTAKE, no search needed); a board already
    solved (SOLVED); a puzzle without a unique solution (NOT_UNIQUE); entries that differ
    from the unique solution (MISTAKE); else one empty cell revealed from the solution
    (REVEAL; the explanation says so: it is not a deduction). The entries are what is
    being checked, so they are never held fixed here.
    """
    report = kind.validate(board, None)
    if report.findings:
        cells = tuple(dict.fromkeys(c for f in report.findings for c in f.cells))
        first = report.findings[0].message
        more = len(report.findings) - 1
        rest = f" (and {more} more rule{'s' if more > 1 else ''} broken)" if more else ""
        return Hint("MISTAKE", f"Fix {_names(cells)}: {first}{rest}.", cells, (), report.findings)
    if report.solved:
        return Hint("SOLVED", "The board is solved: every run is complete and correct.")

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
    wrong = kind.validate(board, solution).wrong_entries
    if wrong:
        findings = tuple(
            Finding(
                "wrong_entry",
                f"{cell_name(c)}: {board.entries[c[0]][c[1]]} is not the digit of the "
                "puzzle's unique solution",
                (c,),
            )
            for c in wrong
        )
        verb = "differs" if len(wrong) == 1 else "differ"
        text = f"Fix {_names(wrong)}: the entry {verb} from the puzzle's unique solution."
        return Hint("MISTAKE", text, wrong, (), findings, verdict, stats)

    r, c = next(
        (r, c)
        for r, row in enumerate(solution)
        for c, digit in enumerate(row)
        if digit and not board.entries[r][c]
    )
    digit = solution[r][c]
    text = (
        f"{cell_name((r, c))} is {digit}: revealed from the puzzle's unique solution, "
        "not deduced step by step."
    )
    return Hint("REVEAL", text, ((r, c),), (((r, c), digit),), (), verdict, stats)
