"""Making Kakurasu puzzles: a random shading, its clues, cells flipped until the logical
chain lands on the target grade, and a few clues left out where it is still too easy.

Why this way: a Kakurasu is a shading and the weighted sums of its rows and columns, so a
candidate is cheap and always well formed; the published ones shade about a third of the
cells and give nearly every clue. A random shading with every clue is most often too
easy for its size or has several solutions, and no clue can be added to tell those
apart; so the maker steers the shading itself, grading each change with the chain told
quietly (:func:`verdict`: the steps without their sentences, in bulk):

1. a random shading, each cell shaded with a probability around :data:`DENSITY`;
2. a hill climb over single flips until the chain completes the puzzle within the
   target grade (a puzzle the chain completes is unique);
3. while it is graded below the target, clues left out (None) in random order, each only
   if the puzzle stays within the grade, a fifth of the lines at most (:func:`omissions`);
4. a shading that does not get there is drawn again, a few times at most.

For EXTREME the climb's goal is a puzzle the chain cannot complete and a one-level trial
can (:func:`trial_solves`). ``pressure`` leans within a grade (below 0 more clues, above
0 more crossing steps). :meth:`Maker.repair` gives back a clue the puzzle left out that
``other`` does not meet. Each step in full: docs/generate.md, "Each kind's maker".
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.making import no_diagonals
from numgrid.server.kinds.making import unreachable

from . import logic
from .model import MAX_SIZE
from .model import SHADED
from .model import WHITE
from .model import Puzzle
from .techniques import Technique

MIN_SIZE = 3  # up to the reader's MAX_SIZE (16: a 16x16 takes about a second, 10 s EXTREME)
DENSITY = 0.34  # the share of shaded cells in a fresh shading (the corpus: 0.31-0.38)
DENSITY_SPREAD = 0.06  # drawn within DENSITY +- this
REDRAWS = 12  # shadings drawn within one candidate before one off target is returned
FLIPS_PER_CELL = 4.0  # flips tried on a shading, per cell of the grid
OMIT_SHARE = 0.2  # the most clues left out, as a share of the lines (see omissions())
SKIP_SHARE = 0.5  # at pressure -1, the share of clues kept without being tried
# Per grade: the most crossing steps (the chain's THRESHOLDS), and at pressure 1, how
# many more the maker may allow at the grade's upper end.
CROSSING_LIMITS = {Grade.EASY: 0, Grade.MEDIUM: 3, Grade.HARD: 8, Grade.EXPERT: 1 << 30}
STRETCH = {Grade.MEDIUM: 1, Grade.HARD: 2}
POLL_EVERY = 8  # flips or removals between budget checks


def shading(rows: int, cols: int, density: float, rng: random.Random) -> list[list[int]]:
    """A random grid of shaded (1) and white (-1) cells, each shaded with ``density``."""
    return [[SHADED if rng.random() < density else WHITE for _ in range(cols)] for _ in range(rows)]


def clues_of(grid) -> list[int | None]:
    """Every clue of a full grid, the rows' then the columns': the weights (column
    numbers in a row, row numbers in a column, from 1) of its shaded cells, added (a
    list the makers then leave clues out of: None)."""
    rows: list[int | None] = [sum(c + 1 for c, v in enumerate(row) if v == SHADED) for row in grid]
    cols = [
        sum(r + 1 for r, row in enumerate(grid) if row[c] == SHADED) for c in range(len(grid[0]))
    ]
    return rows + cols


# ---------------------------------------------------------------- grading


@dataclass(frozen=True)
class Graded:
    """What the chain made of a puzzle: its grade (None: it stalls, or it needs more
    than the crossing steps allowed), the crossing steps it took, and the cells (``r * C
    + c``) it left open."""

    grade: Grade | None
    crossings: int
    stalled: tuple[int, ...] = ()


def verdict(clues, rows: int, limit: int = 1 << 30, easy_only: bool = False) -> Graded:
    """The chain's grade of the puzzle with ``clues`` (rows, then columns; None for a
    clue left out), told quietly (:meth:`~numgrid.server.chain.Ladder.explain`): up to
    crossing, or combinations with ``easy_only``, stopping before crossing step
    ``limit + 1``. A contradiction (never from a shading's own clues) grades None."""
    top = Technique.COMBINATIONS if easy_only else Technique.CROSSING
    told = logic.explain(
        _puzzle(rows, clues), None, top, quiet=True, most={Technique.CROSSING: limit}, bulk=True
    )
    crossings = told.technique_counts[Technique.CROSSING]
    if told.contradiction:
        return Graded(None, crossings)
    if not told.solved:
        cols = len(clues) - rows
        stalled = tuple(
            r * cols + c for r, row in enumerate(told.final) for c, v in enumerate(row) if not v
        )
        return Graded(None, crossings, stalled)
    return Graded(told.grade, crossings)


def trial_solves(puzzle: Puzzle, budget: Budget) -> bool:
    """Does the chain with its trial (:func:`.logic.trial`), told quietly, complete the
    puzzle? (A puzzle so completed is unique.)"""
    return logic.explain(puzzle, None, Technique.TRIAL, budget, quiet=True, bulk=True).solved


# ---------------------------------------------------------------- the maker


def _puzzle(rows: int, clues) -> Puzzle:
    return Puzzle(rows, len(clues) - rows, tuple(clues[:rows]), tuple(clues[rows:]))


def _flip(grid, i: int) -> None:
    r, c = divmod(i, len(grid[0]))
    grid[r][c] = -grid[r][c]


class Maker:
    """Kakurasu's :class:`~numgrid.server.kinds.base.Maker`."""

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        found = no_diagonals("Kakurasu", spec)
        for field, size in (("rows", spec.rows), ("cols", spec.cols)):
            if not MIN_SIZE <= size <= MAX_SIZE:
                what = "rows" if field == "rows" else "columns"
                found.append(
                    (field, f"a Kakurasu is made {MIN_SIZE} to {MAX_SIZE} {what}, not {size}")
                )
        if found:
            return found
        shape, grades = f"{spec.rows}x{spec.cols}", reachable(spec.rows, spec.cols)
        return unreachable("Kakurasu", shape, spec.grade, grades)

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        rows, cols = spec.rows, spec.cols
        target = spec.grade
        if target is None:  # any grade: one of those made fast
            target = rng.choice([g for g in reachable(rows, cols) if g <= Grade.HARD])
        made = fallback = None
        for _ in range(REDRAWS):
            if budget.expired():
                raise SearchTimeout()
            density = DENSITY + rng.uniform(-DENSITY_SPREAD, DENSITY_SPREAD)
            grid = shading(rows, cols, density, rng)
            if target is Grade.EXTREME:
                made = self._extreme(grid, rng, budget)
            else:
                made = self._within(grid, target, pressure, rng, budget)
            if made[2] == target:
                break
            if fallback is None and made[2] is not None:
                fallback = made  # off target, but unique: the driver grades it
        else:
            made = fallback or made
        assert made is not None  # REDRAWS > 0: at least one was drawn
        grid, clues, _ = made
        return _puzzle(rows, clues), tuple(map(tuple, grid))

    @staticmethod
    def _within(grid, target: Grade, pressure: float, rng: random.Random, budget: Budget):
        """(the shading, its clues, the chain's grade): flipped until the chain grades
        it within ``target``, then clues left out while it grades it below."""
        rows, cols = len(grid), len(grid[0])
        limit = CROSSING_LIMITS[target] + round(max(pressure, 0.0) * STRETCH.get(target, 0))
        easy = target is Grade.EASY

        def judged(clues) -> Graded:
            return verdict(clues, rows, limit, easy)

        def rank(graded: Graded) -> tuple[bool, int]:
            """Solved within the target, the more crossing steps the better; else the
            fewer cells left open the better."""
            if graded.grade is None:
                return False, -len(graded.stalled)
            return True, graded.crossings

        clues = clues_of(grid)
        found = judged(clues)
        for k in range(int(FLIPS_PER_CELL * rows * cols)):
            if found.grade is target:
                break
            if not k % POLL_EVERY and budget.expired():
                raise SearchTimeout()
            i = rng.choice(found.stalled) if found.stalled else rng.randrange(rows * cols)
            _flip(grid, i)
            tried = clues_of(grid)
            now = judged(tried)
            if rank(now) >= rank(found):
                clues, found = tried, now
            else:
                _flip(grid, i)
        if found.grade is None:
            return grid, clues, None
        grade = found.grade
        if grade < target:
            grade = _harder(rows, clues, grade, target, limit, pressure, rng, budget)
        return grid, clues, grade

    @staticmethod
    def _extreme(grid, rng: random.Random, budget: Budget):
        """(the shading, its clues, EXTREME or the chain's grade): cells flipped toward a
        shading the chain without trial cannot complete but a one-level trial can (which
        proves it unique): where it stalls, while neither completes it; then, if the
        chain without trial still completes it, clues left out while one of them does, until only
        the trial does."""
        rows, cols = len(grid), len(grid[0])

        def judged(clues) -> tuple[tuple[int, int], tuple[int, ...]]:
            """(rank, the cells left open): completed by a trial only, above completed
            without a trial (the more crossing steps the better), above neither (the fewer
            cells left open the better)."""
            graded = verdict(clues, rows)
            if graded.grade is not None:
                return (1, graded.crossings), ()
            if trial_solves(_puzzle(rows, clues), budget):
                return (2, 0), ()
            return (0, -len(graded.stalled)), graded.stalled

        clues = clues_of(grid)
        rank, stalled = judged(clues)
        for k in range(int(FLIPS_PER_CELL * rows * cols)):
            if rank[0] == 2:
                break
            if not k % POLL_EVERY and budget.expired():
                raise SearchTimeout()
            i = rng.choice(stalled) if stalled else rng.randrange(rows * cols)
            _flip(grid, i)
            tried = clues_of(grid)
            now, left_open = judged(tried)
            if now >= rank:
                clues, rank, stalled = tried, now, left_open
            else:
                _flip(grid, i)
        if rank[0] == 1:  # the chain completes it without a trial: clues left out
            order = list(range(len(clues)))
            rng.shuffle(order)
            left = omissions(len(clues))
            for x in order:
                if not left or rank[0] == 2:
                    break
                kept, clues[x] = clues[x], None
                now, _ = judged(clues)
                if now[0]:
                    rank, left = now, left - 1
                else:
                    clues[x] = kept
        if rank[0] == 2:
            return grid, clues, Grade.EXTREME
        if rank[0] == 1:
            return grid, clues, verdict(clues, rows).grade
        return grid, clues, None

    def repair(self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random):
        """A clue left out that ``solution`` and ``other`` make differently, given back;
        None when every clue is there."""
        rows = puzzle.rows
        shown = clues_of(solution)
        theirs = clues_of(other)
        clues = [*puzzle.row_clues, *puzzle.column_clues]
        telling = [x for x, clue in enumerate(clues) if clue is None and shown[x] != theirs[x]]
        if not telling:
            return None
        x = rng.choice(telling)
        clues[x] = shown[x]
        return _puzzle(rows, clues)


def _harder(rows: int, clues, grade, target, limit, pressure, rng, budget) -> Grade:
    """Leave clues out (in place), in random order, each only if the chain still grades
    the puzzle within ``target``, until it reaches it: the grade then."""
    skip = SKIP_SHARE * max(-pressure, 0.0)
    order = list(range(len(clues)))
    rng.shuffle(order)
    left = omissions(len(clues))
    for k, x in enumerate(order):
        if not k % POLL_EVERY and budget.expired():
            raise SearchTimeout()
        if not left:
            break
        if skip and rng.random() < skip:
            continue
        kept, clues[x] = clues[x], None
        now = verdict(clues, rows, limit).grade
        if now is None or now > target:
            clues[x] = kept
        else:
            grade, left = now, left - 1
            if grade == target:
                break
    return grade


def omissions(lines: int) -> int:
    """The most clues a puzzle of ``lines`` rows and columns leaves out: a fifth (the
    corpus leaves out at most 4 of 14 to 22)."""
    return max(1, int(OMIT_SHARE * lines))


def reachable(rows: int, cols: int) -> list[Grade]:
    """The grades a puzzle of this shape is made at. Measured (2026-11, 60 to 300 draws
    of each shape 3x3 to 6x12 and grade; the corpus agrees: its 22 puzzles up to 6x6 are
    all EASY): the smallest need no crossing step; thin ones (3 or 4 cells across) rarely
    more than 3, and with 3 never a trial below 3x8; more than 8 crossing steps (EXPERT)
    take 7 cells across, or 6x7, 5x9; from 7x7 on every grade is made."""
    small, large = sorted((rows, cols))
    grades = [Grade.EASY]
    if (small, large) not in ((3, 3), (3, 4), (3, 5), (4, 4)):
        grades.append(Grade.MEDIUM)
    if small >= 5 or (small == 4 and large >= 8):
        grades.append(Grade.HARD)
    if small >= 7 or (small == 6 and large >= 7) or (small == 5 and large >= 9):
        grades.append(Grade.EXPERT)
    if small >= 5 or (small == 4 and large >= 5) or (small == 3 and large >= 8):
        grades.append(Grade.EXTREME)
    return grades


MAKER = Maker()
