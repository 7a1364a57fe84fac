"""Logical Kakurasu solving: hints, step-by-step explanations and difficulty grades.

The solver keeps every cell's value (shaded, white or open) and applies named techniques,
simplest first (:class:`Technique`, defined with the techniques in :mod:`.techniques`),
each on one row or column: sum bounds (what a line still needs against its open
weights), combinations (the sets of weights that make the clue agree on a cell),
crossing (the same once the line's white cells rule sets out: exact for one line), then
a trial as the last resort, screened by the native engine's propagation
(:func:`.native.closure`, which techniques 1-3 match step by step). Each technique,
with an example sentence, and the grade limits (:data:`THRESHOLDS`) are in
docs/hints.md, "Kakurasu".

API (plain functions; the position is rebuilt per call, nothing is shared):

- ``next_step(puzzle, candidates_or_entries=None, max_technique=TRIAL,
  placements_only=False, budget=None) -> Step | None``: the simplest step from a position
  (every step places cells, so ``placements_only`` changes nothing).
- ``explain(puzzle, entries=None, max_technique=TRIAL, budget=None) -> Explanation``,
  ``last_resort(puzzle, candidates_or_entries=None, budget=None) -> Step | None``,
  ``grade(counts_or_explanation) -> Grade``, ``position(puzzle, given) -> Position``: as
  for every kind (:class:`~numgrid.server.chain.Ladder`). A position is a marks grid
  (1 shaded, -1 white, 0 open; checked first), candidates (``{cell: values}``) or a
  :class:`Position`.

A step places 1 (shaded) or -1 (white), never eliminates (a cell has two values).
Malformed puzzles and marks raise :class:`PuzzleError` (every finding); a position that
cannot be completed raises :class:`Contradiction`. Every step is implied by the rules and
the position alone; ``benchmarks/explain.py --kind kakurasu`` checks every step of every
corpus puzzle against its published solution.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping

from numgrid.server.chain import WHOLE
from numgrid.server.chain import Contradiction as Contradiction  # the kind's, for callers
from numgrid.server.chain import Grade
from numgrid.server.chain import Ladder
from numgrid.server.chain import Thresholds
from numgrid.server.chain import reader
from numgrid.server.chain import relevant_steps
from numgrid.server.chain import said
from numgrid.server.chain import technique_table
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.kinds.judging import judge_entries

from . import native
from .checks import check_puzzle
from .checks import validate_board
from .model import OPEN
from .model import SHADED
from .model import WHITE
from .model import Puzzle
from .techniques import SCOPES
from .techniques import Position
from .techniques import Technique
from .techniques import layout_of
from .techniques import outcome
from .techniques import value_text

THRESHOLDS: Thresholds = {
    Grade.EASY: (Technique.COMBINATIONS, {}),
    Grade.MEDIUM: (Technique.CROSSING, {Technique.CROSSING: 3}),
    Grade.HARD: (Technique.CROSSING, {Technique.CROSSING: 8}),
}


# ---------------------------------------------------------------- positions


def _from_entries(puzzle: Puzzle, entries: Grid) -> Position:
    """Marks checked as a board is (1, -1 or 0; no line over, short or wrong), then
    decided."""
    layout = layout_of(puzzle)
    judge_entries(Board(puzzle, entries), validate_board, check_puzzle)
    return Position(layout, [entries[r][c] for r, c in layout.cells])


def _from_candidates(puzzle: Puzzle, candidates: Mapping[Cell, Iterable[int]]) -> Position:
    """``{cell: values}`` (1, -1 or both); missing cells: both. One value decides a cell,
    and the cells decided are checked as marks are."""
    layout = layout_of(puzzle)
    values, findings = [OPEN] * len(layout.cells), []
    index = {cell: i for i, cell in enumerate(layout.cells)}
    for cell, given in candidates.items():
        if cell not in index:
            findings.append(Finding("not_a_cell", f"{cell!r} is not a cell of the grid"))
            continue
        allowed = set(given)
        if not allowed or not allowed <= {SHADED, WHITE}:
            message = f"{cell_name(cell)}: candidates must be 1 (shaded), -1 (white) or both"
            findings.append(Finding("bad_candidates", message, (cell,)))
        elif len(allowed) == 1:
            values[index[cell]] = allowed.pop()
    if findings:
        raise PuzzleError(findings)
    cols = puzzle.cols
    return _from_entries(
        puzzle, tuple(tuple(values[r : r + cols]) for r in range(0, len(values), cols))
    )


def _empty(puzzle: Puzzle) -> Position:
    return Position(layout_of(puzzle), [OPEN] * (puzzle.rows * puzzle.cols))


position = reader(Position, _from_entries, _from_candidates, _empty)


# ---------------------------------------------------------------- 4. trial, and the chain

TRIAL_SCREEN = 4  # refuted assumptions (found by fast propagation) replayed step by step
TRIAL_STEPS = 400  # steps of techniques 1-3 a replayed assumption may take
TRIAL_UP_TO = Technique.CROSSING


def relevant(chain: list[Step], groups: tuple, cells: tuple[Cell, ...]) -> list[Step]:
    """The steps of ``chain`` that the given groups and cells depend on, in order (a
    step counts by the cells it decides)."""
    return relevant_steps(chain, groups, cells, _decides)


def _decides(step: Step, needed: set[Cell]) -> bool:
    return any(c in needed for c, _ in step.placements)


def _state(pos: Position) -> native.State:
    state = native.empty_state(pos.layout.puzzle)
    for (r, c), value in zip(pos.layout.cells, pos.values, strict=True):
        if value:
            state.set(r, c, value)
    return state


def screen(
    puzzle: Puzzle,
    state: native.State,
    open_cells: Iterable[int],
    poll: Callable[[], None] = lambda: None,
) -> list[tuple[int, int]]:
    """Assumptions ``(cell, value)`` that fast propagation (exact per line, techniques
    1-3's fixpoint) refutes, the cells the native engine would branch on first, until
    ``TRIAL_SCREEN`` are found (``poll`` called before each cell)."""
    known: list[tuple[int, int]] = []
    for i in sorted(open_cells, key=lambda i: _constrained(puzzle, state, i)):
        poll()
        r, c = divmod(i, puzzle.cols)
        for value in (SHADED, WHITE):
            assumed = state.copy()
            assumed.set(r, c, value)
            if not native.closure(puzzle, assumed, {r, puzzle.rows + c}):
                known.append((i, value))
        if len(known) >= TRIAL_SCREEN:
            break
    return known


def _screen(pos: Position) -> list[tuple[int, int]]:
    """The screen's refutations (:func:`screen`) from a position. Those found by earlier
    trials still hold (a position only gains decided cells) and are used first."""
    known = [(i, v) for i, v in pos.refuted if pos.values[i] == OPEN]
    if not known:
        open_cells = [i for i, v in enumerate(pos.values) if v == OPEN]
        known = screen(pos.layout.puzzle, _state(pos), open_cells, pos.poll)
    pos.refuted = known
    return known


def _constrained(puzzle: Puzzle, state: native.State, i: int) -> tuple[int, int]:
    """How many ways the row and column of cell ``i`` can still go (fewest first)."""
    r, c = divmod(i, puzzle.cols)
    row = native.lives(puzzle.cols, puzzle.row_clues[r], state.row_shaded[r], state.row_white[r])
    col = native.lives(puzzle.rows, puzzle.column_clues[c], state.col_shaded[c], state.col_white[c])
    return row + col, i


def trial(pos: Position) -> Step | None:
    """Assume a cell shaded or white and follow techniques 1-3; a contradiction decides
    the cell the other way. Of the first few assumptions fast propagation refutes, the one
    with the shortest chain is explained."""
    best = LADDER.shortest_refutation(pos, _screen(pos), TRIAL_UP_TO, TRIAL_STEPS)
    if best is None:
        return None
    i, value, chain, found = best
    cell = pos.layout.cells[i]
    placed = {i: -value}
    reason = said(
        pos,
        lambda: (
            f"Trial (a last resort): if {cell_name(cell)} were {value_text(value)}, "
            f"{LADDER.then(chain, found.groups, found.cells)}{found.reason}; "
            f"so {outcome(pos, placed)}."
        ),
    )
    return Step(Technique.TRIAL, ((cell, -value),), (), found.groups, (cell,), reason)


TECHNIQUES = technique_table(Technique, {**SCOPES, WHOLE: (trial,)})


def _keys(pos: Position, scope: str) -> int:
    return len(pos.layout.lines)


LADDER = Ladder(Technique, TECHNIQUES, _keys, position, THRESHOLDS, relevant, say=value_text)
find, first_step, last_resort = LADDER.find, LADDER.first_step, LADDER.last_resort
next_step, explain, grade = LADDER.next_step, LADDER.explain, LADDER.grade
