"""Logical Kakuro solving: hints, step-by-step explanations and difficulty grades.

The solver keeps the candidates of every white cell and applies named techniques,
simplest first (:class:`Technique`, defined with the techniques in :mod:`.techniques`):
last cell of a run, combinations, crossing runs, required digits, naked subsets,
combination elimination, region sums (:mod:`.logic_regions`), then a trial as the last
resort. Each technique, with an example sentence, and the grade limits
(:data:`THRESHOLDS`, set from the corpus) are in docs/hints.md, "Kakuro".

API (plain functions; the position is rebuilt per call, nothing is shared):

- ``next_step(puzzle, candidates_or_entries=None, max_technique=TRIAL,
  placements_only=False) -> Step | None``: the simplest step from a position.
- ``explain(puzzle, entries=None, max_technique=TRIAL) -> Explanation``: every step until
  the grid is full or the techniques run out, with ``.solved``, ``.grade`` and
  ``.technique_counts`` (and where the chain stopped: ``.final``, ``.candidates``,
  ``.contradiction``).
- ``last_resort(puzzle, candidates_or_entries) -> Step | None``: the trial step from a
  position, whatever simpler techniques could still do there (a hint offers it when the
  techniques it may use are stuck).
- ``grade(counts_or_explanation) -> Grade``; ``position(puzzle, given) -> Position``: an
  entries grid (0 = empty, checked first), candidates (``{cell: digits}``) or a Position.

All take an optional ``budget`` (:class:`~numgrid.server.core.Budget`): region sums and
trials poll it (on large grids one of their searches can take seconds), ``explain`` polls
it between steps, and all raise :class:`~numgrid.server.core.SearchTimeout` once it has
run out. Malformed puzzles and entries raise :class:`PuzzleError` (every finding); a
position that cannot be completed raises :class:`Contradiction`. Every step is implied
by the rules and the position alone (never by assuming that the solution is unique);
``benchmarks/explain.py --kind kakuro`` checks every step of every corpus puzzle.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping

from numgrid.server.chain import WHOLE
from numgrid.server.chain import Grade
from numgrid.server.chain import Ladder
from numgrid.server.chain import Thresholds
from numgrid.server.chain import open_cells
from numgrid.server.chain import reader
from numgrid.server.chain import relevant_steps
from numgrid.server.chain import technique_table
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import value_text as value_text  # a value in its sentences
from numgrid.server.kinds.judging import candidate_masks
from numgrid.server.kinds.judging import finding
from numgrid.server.kinds.judging import judge_entries
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digits_of

from . import native
from .checks import validate_board
from .logic_regions import region_sum
from .model import Puzzle
from .model import Run
from .sums import ALL_DIGITS
from .techniques import RUN
from .techniques import SCOPES
from .techniques import Contradiction
from .techniques import Position
from .techniques import Step
from .techniques import Technique
from .techniques import label
from .techniques import layout_of
from .techniques import make_step
from .techniques import view

# Per grade: the hardest technique allowed and the most steps allowed of some techniques.
THRESHOLDS: Thresholds = {
    Grade.EASY: (Technique.REQUIRED_DIGIT, {Technique.REQUIRED_DIGIT: 3}),
    Grade.MEDIUM: (
        Technique.COMBINATION_ELIMINATION,
        {Technique.COMBINATION_ELIMINATION: 3, Technique.NAKED_SUBSET: 2},
    ),
    Grade.HARD: (Technique.COMBINATION_ELIMINATION, {Technique.COMBINATION_ELIMINATION: 12}),
    Grade.EXPERT: (Technique.REGION_SUM, {}),
}


# ---------------------------------------------------------------- positions


def _from_entries(puzzle: Puzzle, entries: Grid) -> Position:
    layout = layout_of(puzzle)
    shape = (puzzle.rows, puzzle.cols)
    judge_entries(Board(puzzle, entries), validate_board, _bad_digits, shape)
    findings = []
    masks = [bit(entries[r][c]) if entries[r][c] else ALL_DIGITS for r, c in layout.cells]
    pos = Position(layout, masks)
    for r, run in enumerate(layout.runs):
        try:
            view(pos, r)
        except Contradiction as why:
            findings.append(
                finding(
                    "entries_impossible",
                    f"{label(run)}: the entries cannot be completed ({why.reason})",
                    [c for c in run.cells if entries[c[0]][c[1]]],
                )
            )
    if findings:
        raise PuzzleError(findings)
    return pos


def _from_candidates(puzzle: Puzzle, candidates: Mapping[Cell, int | Iterable[int]]) -> Position:
    """``{cell: digits}`` (an iterable of digits, or a 9-bit mask); missing cells: all."""
    layout = layout_of(puzzle)

    def outside(cell: Cell) -> Finding:
        return finding("not_white", f"{cell_name(cell)} is not a white cell")

    masks = [ALL_DIGITS] * len(layout.cells)
    masks = candidate_masks(candidates, layout.index, masks, 9, outside, "digits 1-9")
    return Position(layout, masks)


def _bad_digits(puzzle: Puzzle, entries: Grid) -> list[Finding]:
    found = []
    for cell in layout_of(puzzle).cells:
        d = entries[cell[0]][cell[1]]
        if not isinstance(d, int) or not 0 <= d <= 9:
            found.append(finding("bad_digit", f"{cell_name(cell)}: {d!r} is not 0-9", [cell]))
    return found


position = reader(Position, _from_entries, _from_candidates)


# ---------------------------------------------------------------- 8. trial, and the chain

TRIAL_SCREEN = 6  # failing assumptions (found by fast propagation) replayed step by step
TRIAL_STEPS = 80  # steps of techniques 1-6 a replayed assumption may take


def relevant(chain: list[Step], runs: tuple[Run, ...], cells: tuple[Cell, ...]) -> list[Step]:
    """The steps of ``chain`` that the given runs and cells depend on, in order."""
    return relevant_steps(chain, runs, cells)


def trial(pos: Position) -> Step | None:
    """Assume one candidate and follow techniques 1-6; a contradiction eliminates it.
    Cells with fewest candidates are tried first (screened by the native engine's
    propagation, which reaches the same fixpoint as techniques 1-6); of the first few
    failing assumptions, the one with the shortest chain is explained."""
    layout, masks = pos.layout, pos.masks
    failing = []
    for i in open_cells(masks):
        pos.poll()
        for d in digits_of(masks[i]):
            assumed = list(masks)
            assumed[i] = bit(d)
            if not native.propagate(layout.compiled, assumed, set(layout.cell_runs[i])):
                failing.append((i, d))
        if len(failing) >= TRIAL_SCREEN:
            break
    up_to = Technique.COMBINATION_ELIMINATION
    best = LADDER.shortest_refutation(pos, failing, up_to, TRIAL_STEPS)
    if best is None:
        return None
    i, d, chain, found = best
    cell = cell_name(layout.cells[i])
    then = LADDER.then(chain, found.groups, found.cells)
    reason = f"Trial (a last resort): if {cell} were {d}, {then}{found.reason}"
    return make_step(pos, Technique.TRIAL, {i: bit(d)}, found.groups, [i], reason, "; so ")


TECHNIQUES = technique_table(Technique, {**SCOPES, WHOLE: (region_sum, trial)})


def _crossing_ahead(pos: Position, step: Step, max_technique: Technique) -> Step | None:
    """A crossing reads the runs' clues and placed digits, which markup never changes:
    the placement a placements-only hint's chain would reach after marking up every run."""
    if step.technique is Technique.COMBINATIONS and max_technique >= Technique.CROSSING:
        return LADDER.find(pos, Technique.CROSSING)
    return None


LADDER = Ladder(
    Technique,
    TECHNIQUES,
    lambda pos, scope: len(pos.layout.runs) if scope == RUN else len(pos.masks),
    position,
    THRESHOLDS,
    relevant,
    lookahead=_crossing_ahead,
)
find, first_step, last_resort = LADDER.find, LADDER.first_step, LADDER.last_resort
next_step, explain, grade = LADDER.next_step, LADDER.explain, LADDER.grade
