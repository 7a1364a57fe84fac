"""Logical Skyscraper solving: hints, step-by-step explanations and difficulty grades.

The solver keeps the candidates of every cell and applies named techniques, simplest
first (:class:`Technique`, defined with the techniques in :mod:`.techniques`; the latin
ones are shared with the other latin squares, :mod:`..latin`): edge clues, clue pairs,
naked and hidden singles, visibility bounds, naked and hidden subsets, sequences (the
arrangements of a clued line that fit its candidates), then a trial as the last resort,
screened by the native engine's propagation. Placing a height removes it from the rest
of its lines at once, and a line holding its N - H empty lots takes the empty lot from
its other cells (the rules, not techniques). Each technique, with an example sentence,
the grade limits (:data:`THRESHOLDS`) and how they pair with Tatham's Towers tiers are
in docs/hints.md, "Skyscraper".

API (plain functions; the position is rebuilt per call, nothing is shared):
``next_step(puzzle, candidates_or_entries=None, max_technique=TRIAL,
placements_only=False, budget=None)``, ``explain(puzzle, entries=None,
max_technique=TRIAL, budget=None)``, ``last_resort(puzzle, candidates_or_entries=None,
budget=None)``, ``grade(counts_or_explanation)``, ``position(puzzle, given)``; as for
every kind (:class:`~numgrid.server.chain.Ladder`). A position is an entries grid
(0 = open, -1 = an empty lot), candidates (``{cell: values}``; one candidate counts as placed) or a
:class:`Position`; the givens are always placed.

Every step is implied by the rules and the position alone (never by assuming the
solution is unique); ``benchmarks/explain.py --kind skyscraper`` checks every step of
every corpus puzzle against its published solution.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from functools import partial

from numgrid.server.chain import WHOLE
from numgrid.server.chain import Explanation
from numgrid.server.chain import Grade
from numgrid.server.chain import Ladder
from numgrid.server.chain import Reason
from numgrid.server.chain import Thresholds
from numgrid.server.chain import open_cells
from numgrid.server.chain import reader
from numgrid.server.chain import relevant_steps
from numgrid.server.chain import technique_table
from numgrid.server.chain import touched
from numgrid.server.chain import words
from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.core import value_text
from numgrid.server.kinds.judging import finding
from numgrid.server.kinds.judging import judge_entries
from numgrid.server.kinds.latin import make_step
from numgrid.server.kinds.masks import single

from . import native
from .checks import check_puzzle
from .checks import validate_board
from .model import Puzzle
from .techniques import CELL
from .techniques import LINE
from .techniques import SCOPES
from .techniques import VIEW
from .techniques import Position
from .techniques import Technique
from .techniques import layout_of

THRESHOLDS: Thresholds = {
    Grade.EASY: (Technique.VISIBILITY_BOUNDS, {}),
    Grade.MEDIUM: (Technique.SEQUENCES, {Technique.SEQUENCES: 2}),
    Grade.HARD: (Technique.SEQUENCES, {Technique.SEQUENCES: 8}),
}


# ---------------------------------------------------------------- positions


def _from_entries(puzzle: Puzzle, entries: Grid) -> Position:
    """Entries checked as a board is (values in range, none over a given, no repeat in a
    line, no clue already broken), then placed with the givens."""
    layout = layout_of(puzzle)
    frame = layout.frame
    n = frame.size
    judge_entries(Board(puzzle, entries), validate_board, check_puzzle, (n, n))
    pos = Position(layout, [frame.full] * (n * n))
    for i, (r, c) in enumerate(frame.cells):
        value = puzzle.givens[r][c] or entries[r][c]
        if value:
            pos.place(i, value)  # checked above: no rule is broken
    return pos


def _mask_of(frame, given) -> int | None:
    """A cell's candidates as a mask: an int is one already, else an iterable of values
    (None when one is not a value of the puzzle)."""
    if isinstance(given, int):
        return given if 0 < given <= frame.full else 0
    mask = 0
    for value in given:
        if value != EMPTY and not 1 <= value <= frame.height:
            return None
        if value == EMPTY and not frame.empties:
            return None
        mask |= frame.bit(value)
    return mask


def _from_candidates(puzzle: Puzzle, candidates: Mapping[Cell, object]) -> Position:
    """``{cell: values}`` (an iterable of values, EMPTY included, or a mask); missing
    cells: every value. The givens hold; a cell with one candidate is placed."""
    layout = layout_of(puzzle)
    frame = layout.frame
    n = frame.size
    masks, findings = [frame.full] * (n * n), []
    cells = set(frame.cells)
    for cell, given in candidates.items():
        if not (isinstance(cell, tuple) and len(cell) == 2 and cell in cells):
            findings.append(finding("not_a_cell", f"{cell!r} is not a cell of the grid"))
            continue
        mask = _mask_of(frame, given)
        if mask is None:
            allowed = f"1-{frame.height}" + (" or -1" if frame.empties else "")
            findings.append(
                finding("bad_digit", f"{cell_name(cell)}: candidates must be {allowed}", [cell])
            )
        elif not mask:
            findings.append(finding("no_candidates", f"{cell_name(cell)}: no candidate", [cell]))
        else:
            masks[cell[0] * n + cell[1]] = mask
    for i, (r, c) in enumerate(frame.cells):
        if puzzle.givens[r][c]:
            masks[i] &= frame.bit(puzzle.givens[r][c])
            if not masks[i]:
                findings.append(
                    finding("no_candidates", f"{cell_name((r, c))}: not its given", [(r, c)])
                )
    if findings:
        raise PuzzleError(findings)
    return Position.placing_singles(layout, masks)


position = reader(Position, _from_entries, _from_candidates)


# ---------------------------------------------------------------- 9. trial, and the chain

TRIAL_SCREEN = 4  # refuted assumptions (found by fast propagation) replayed step by step
TRIAL_STEPS = 400  # steps of techniques 1-8 a replayed assumption may take
TRIAL_UP_TO = Technique.SEQUENCES
TWO_LEVEL_PASSES = ((2, 2), (3, 3), (4, 16))  # candidates of the second cell, per pass


def _lines_of(cell: Cell, size: int) -> set[tuple[str, int]]:
    """The lines through a cell; with ``size``, the diagonals of a grid that size too."""
    r, c = cell
    out = {("row", r), ("column", c)}
    if size and r == c:
        out.add(("diagonal", 0))
    if size and r + c == size - 1:
        out.add(("diagonal", 1))
    return out


def relevant(chain: list[Step], groups: tuple, cells, size: int = 0) -> list[Step]:
    """The steps of ``chain`` that the given groups and cells depend on, in order. A
    placement also touches its lines (with ``size``: the diagonals of a grid that size)."""
    return relevant_steps(chain, groups, cells, partial(_reaches, size=size))


def _reaches(step: Step, needed: set[Cell], size: int) -> bool:
    if touched(step) & needed:
        return True
    lines = set().union(*(_lines_of(c, size) for c, _ in step.placements))
    return any(lines & _lines_of(c, size) for c in needed)


def _closure(pos: Position, masks: list[int], i: int | None = None, value: int = 0):
    """The candidates after assuming ``cell i = value`` (None: nothing) in ``masks`` and
    propagating as the native engine does (the deductions of techniques 1-8, without the
    words); None on a contradiction. From a fixpoint of that propagation, only the lines
    of cell ``i`` are due."""
    comp = native.compiled(pos.layout.puzzle)
    cand = list(masks)
    if i is None:
        placed, due = [j for j, m in enumerate(cand) if single(m)], set(range(len(comp.lines)))
    else:
        cand[i] &= pos.frame.bit(value)
        if not cand[i]:
            return None
        placed, due = [i], set(comp.cell_lines[i])
    if native.propagate(comp, cand, placed, due) >= 0:
        return None
    return cand


def _screen(pos: Position) -> list[tuple[int, int]]:
    """Assumptions ``(cell, value)`` that fast propagation refutes: cells with fewest
    candidates first, until ``TRIAL_SCREEN`` are found. What propagation refutes stays
    refuted with fewer candidates, so those found by earlier trials come first."""
    frame, masks = pos.frame, pos.masks
    known = [(i, v) for i, v in pos.refuted if not pos.placed[i] and masks[i] & frame.bit(v)]
    if not known:
        base = _closure(pos, masks) or masks
        for i in open_cells(masks, pos.placed):
            pos.poll()
            known.extend(
                (i, v) for v in frame.values_of(masks[i]) if _closure(pos, base, i, v) is None
            )
            if len(known) >= TRIAL_SCREEN:
                break
    pos.refuted = known
    return known


def trial(pos: Position) -> Step | None:
    """Assume one candidate, follow techniques 1-8; a contradiction eliminates it. Of the
    first few assumptions the screen refutes, the one with the shortest chain is told.
    When the screen refutes none, a two-level trial (:func:`_two_level`)."""
    if pos.solved:
        return None
    frame = pos.frame
    chain_of = ladder(pos.layout.puzzle)
    best = chain_of.shortest_refutation(pos, _screen(pos), TRIAL_UP_TO, TRIAL_STEPS)
    text: Reason
    if best is not None:
        i, value, chain, found = best
        groups, named = found.groups, []

        def text() -> str:
            return f"{chain_of.then(chain, found.groups, found.cells)}{found.reason}"
    else:
        deeper = _two_level(pos)
        if deeper is None:
            return None
        i, value, text, groups, named = deeper
    cell = cell_name(frame.cells[i])

    def reason() -> str:
        return f"Trial (a last resort): if {cell} were {value_text(value)}, {words(text)}"

    removal = {i: frame.bit(value)}
    return make_step(pos, Technique.TRIAL, removal, groups, [i, *named], reason, "; so ")


def _two_level(pos: Position):
    """An assumption after which some cell has no candidate that survives a second one:
    ``cell i = value`` is propagated fast, then each candidate of a cell ``x`` with two
    candidates (in later passes: three, then any); when all fail, both levels are
    replayed with techniques 1-8 for the sentence. (cell, value, text, groups, cells).

    An assumption that a solution of the puzzle holds is skipped: the propagation is
    sound, so that solution's value of every cell survives the second one. Each
    assumption that fails to refute is searched for such a solution (a grid of many
    solutions, a 9x9 without clues, had every cell's every value tried against every
    other's: 30 s)."""
    masks = pos.masks
    cells = open_cells(masks, pos.placed)
    base = _closure(pos, masks) or masks
    held: list[tuple[int, ...]] = []  # solutions found, a value per cell
    for low, high in TWO_LEVEL_PASSES:
        for i in cells:
            for value in pos.frame.values_of(masks[i]):
                pos.poll()
                if any(solution[i] == value for solution in held):
                    continue
                after = _closure(pos, base, i, value)
                if after is None:
                    continue
                for x, m in enumerate(after):
                    if low <= m.bit_count() <= high and all(
                        _closure(pos, after, x, b) is None for b in pos.frame.values_of(m)
                    ):
                        told = _explain_two(pos, i, value, x)
                        if told is not None:
                            return told
                solution = _solution_within(pos, after)
                if solution is not None:
                    held.append(solution)
    return None


FILLING_NODES = 200  # nodes a search for a solution within an assumption's candidates takes


def _solution_within(pos: Position, after: list[int]) -> tuple[int, ...] | None:
    """A solution of the puzzle within ``after`` (a value per cell): searched for with
    the values decided there held, and checked against the rest; None when the native
    engine finds none in :data:`FILLING_NODES` nodes, or none within."""
    frame, n = pos.frame, pos.frame.size
    decided = [frame.value_of(m) if single(m) else 0 for m in after]
    fixed = tuple(tuple(decided[r * n : r * n + n]) for r in range(n))
    found = native.search(pos.layout.puzzle, limit=1, fixed=fixed, most_nodes=FILLING_NODES)
    if not found.solutions:
        return None
    solution = tuple(v for row in found.solutions[0] for v in row)
    # a position given as candidates (a hint's) may have lost values by no deduction
    if not all(frame.bit(v) & m for v, m in zip(solution, after, strict=True)):
        return None
    return solution


def _explain_two(pos: Position, i: int, value: int, x: int):
    """The sentence of a two-level trial, or None if techniques 1-8 do not reach it."""
    frame = pos.frame
    chain_of = ladder(pos.layout.puzzle)
    told = chain_of.two_level(pos, i, value, x, TRIAL_UP_TO, TRIAL_STEPS, frame.values_of)
    if told is None:
        return None
    text, found = told
    if found is not None:  # one level after all
        return i, value, text, found.groups, []
    return i, value, text, tuple(frame.lines[k] for k in frame.cell_lines[x]), [x]


TECHNIQUES = technique_table(Technique, {**SCOPES, WHOLE: (trial,)})


def _keys(pos: Position, scope: str) -> int:
    if scope == VIEW:
        return len(pos.layout.views)
    if scope == LINE:
        return len(pos.frame.lines)
    if scope == CELL:
        return len(pos.frame.cells)
    raise ValueError(f"no scope {scope!r}")


@functools.cache
def _ladder(size: int, diagonals: bool) -> Ladder:
    """The chain for puzzles of one size and variant (what a placement touches differs)."""
    touches = functools.partial(relevant, size=size if diagonals else 0)
    return Ladder(Technique, TECHNIQUES, _keys, position, THRESHOLDS, touches)


def ladder(puzzle: Puzzle) -> Ladder:
    """The chain for ``puzzle``."""
    return _ladder(puzzle.size, puzzle.diagonals)


def next_step(
    puzzle: Puzzle,
    candidates_or_entries=None,
    max_technique=None,
    placements_only: bool = False,
    budget=None,
) -> Step | None:
    """The simplest step from a position (see :meth:`Ladder.next_step`)."""
    return ladder(puzzle).next_step(
        puzzle, candidates_or_entries, max_technique, placements_only, budget=budget
    )


def explain(
    puzzle: Puzzle, entries=None, max_technique=None, budget=None, quiet: bool = False
) -> Explanation:
    """Every step until the grid is full or the techniques run out (see
    :meth:`Ladder.explain`)."""
    return ladder(puzzle).explain(puzzle, entries, max_technique, budget=budget, quiet=quiet)


def last_resort(puzzle: Puzzle, candidates_or_entries=None, budget=None) -> Step | None:
    """The trial step from a position, or None."""
    return ladder(puzzle).last_resort(puzzle, candidates_or_entries, budget=budget)


grade = _ladder(0, False).grade  # from the technique counts alone: any ladder's
