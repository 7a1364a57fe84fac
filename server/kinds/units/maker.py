"""Making units puzzles: a random full grid (with random regions when the kind has
them, both main diagonals holding every digit too in the X variant), then givens taken
away, in pairs symmetric about the centre as publishers do, while the native engine
still finds one solution. ``pressure`` (the generator's lean toward harder puzzles)
decides how many givens may be kept beyond the fewest found."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable
from collections.abc import Mapping

from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.making import unreachable

from . import native
from .ladder import SCORE_LIMITS
from .ladder import WEIGHTS
from .ladder import Technique
from .model import Puzzle
from .shape import Shape
from .techniques import members

SWAPS = 6  # region swaps per cell when regions are drawn
FILL_NODES = 1_000  # search nodes a fill may take before its regions are drawn again
ORDERS = 8  # orders of taking givens away tried on one full grid, at most
KEEP_SHARE = 0.25  # of the pairs that could go, kept at pressure 0 (EASY or any grade)


def _solution(puzzle: Puzzle, rng: random.Random, budget: Budget) -> Grid | None:
    """A random filling of ``puzzle`` (its givens held), or None when none is found
    within :data:`FILL_NODES` nodes a try (some random regions with diagonals have none,
    and proving it can take minutes)."""
    sh = puzzle.shape
    t = native.tables(sh)
    n = sh.size
    givens = puzzle.flat_givens
    order = list(range(sh.cells))
    rng.shuffle(order)
    # A few random digits first, then the engine completes them; a dead end starts over.
    for _ in range(20):
        if budget.expired():
            raise SearchTimeout()
        trial = list(givens)
        for i in order[:n]:
            if not trial[i]:
                trial[i] = rng.randint(1, n)
        if any(g > n for g in trial):
            continue
        found, complete, _ = native.count(
            t, t.fresh(trial), limit=1, budget=budget, most_nodes=FILL_NODES
        )
        if budget.expired():
            raise SearchTimeout()
        if not complete:
            return None  # regions (and diagonals) that are slow to fill, if they fill
        if found:
            values = t.values(found[0])
            return tuple(tuple(values[r * n : r * n + n]) for r in range(n))
    return None


def random_regions(n: int, rng: random.Random) -> Grid:
    """N connected regions of N cells: the rows, then many swaps of a cell on a border
    for one across it, each keeping both regions connected. Cell sets are bit masks
    (cell ``r * n + c``), so a region's connectedness is a flood fill of a few shifts."""
    full = (1 << n * n) - 1
    right_ok = sum(1 << (r * n + c) for r in range(n) for c in range(1, n))  # shifted left
    left_ok = sum(1 << (r * n + c) for r in range(n) for c in range(n - 1))

    def beside(mask: int) -> int:
        return ((mask << 1) & right_ok | (mask >> 1) & left_ok | mask << n | mask >> n) & full

    def connected(mask: int) -> bool:
        seen = mask & -mask
        while True:
            grown = (seen | beside(seen)) & mask
            if grown == seen:
                return seen == mask
            seen = grown

    region = [i // n for i in range(n * n)]
    cells = [((1 << n) - 1) << (r * n) for r in range(n)]
    for _ in range(SWAPS * n * n):
        a = rng.randrange(n * n)
        ra, a_bit = region[a], 1 << a
        across = beside(a_bit) & ~cells[ra]
        if not across:
            continue
        rb = region[rng.choice(list(members(across)))]
        # a cell of rb's that touches ra (elsewhere than at a) goes back: both keep N cells
        back = list(members(beside(cells[ra] & ~a_bit) & cells[rb]))
        rng.shuffle(back)
        for b in back[:3]:
            b_bit = 1 << b
            new_a = cells[ra] & ~a_bit | b_bit
            new_b = cells[rb] & ~b_bit | a_bit
            if connected(new_a) and connected(new_b):
                cells[ra], cells[rb] = new_a, new_b
                region[a], region[b] = rb, ra
                break
    return tuple(tuple(region[r * n : r * n + n]) for r in range(n))


def _still_unique(
    t: native.Tables, trial: list[int], cells: tuple[int, ...], solution: list[int], budget: Budget
) -> bool:
    """Whether ``trial`` (a unique puzzle with ``cells`` emptied) still has ``solution``
    alone: a second solution would differ from it in one of those cells (elsewhere the
    two agree with the givens, and the puzzle before was unique), so for each cell in
    turn the engine looks for a solution with another digit there (the cells before it
    held), which is cheaper than counting two solutions."""
    pos = t.fresh(trial)
    for i in cells:
        found, complete, _ = native.count(t, pos & ~t.bit(solution[i], i), limit=1, budget=budget)
        if not complete:
            raise SearchTimeout()
        if found:
            return False
        pos = (pos & ~t.cell(i)) | t.bit(solution[i], i)
    return True


def _below(puzzle: Puzzle, grade: Grade) -> bool:
    """Whether the chain is sure to grade ``puzzle`` below ``grade``: singles alone
    complete it (so the chain uses nothing else), and even with a hidden single's points
    for every open cell its score stays within a lower grade's limit (the ladder's
    SCORE_LIMITS)."""
    if grade <= Grade.EASY or not _singles_solve(puzzle):
        return False
    singles = (Technique.FULL_HOUSE, Technique.NAKED_SINGLE, Technique.HIDDEN_SINGLE)
    empty = sum(1 for v in puzzle.flat_givens if not v)
    most = max(WEIGHTS[t] for t in singles) * empty * 81 / puzzle.shape.cells
    reachable = Grade.EASY
    while reachable in SCORE_LIMITS and most > SCORE_LIMITS[reachable]:
        reachable = Grade(reachable + 1)
    return reachable < grade


def _singles_solve(puzzle: Puzzle) -> bool:
    """Whether naked and hidden singles alone complete the grid (the native engine's
    rounds without locked candidates: the fixpoint the chain's singles reach too)."""
    t = _singles_tables(puzzle.shape)
    settled = native.settle(t, t.fresh(puzzle.flat_givens), 0)
    return settled is not None and settled[1] == t.guards


@functools.lru_cache(maxsize=16)
def _singles_tables(shape: Shape) -> native.Tables:
    return dataclasses.replace(native.tables(shape), written_locked=None)


def _given(puzzle: Puzzle, solution: Grid, cell: Cell) -> Puzzle:
    """``puzzle`` with the solution's digit at ``cell`` given."""
    r, c = cell
    rows = [list(row) for row in puzzle.givens]
    rows[r][c] = solution[r][c]
    givens = tuple(tuple(row) for row in rows)
    return Puzzle(puzzle.size, puzzle.boxes, puzzle.regions, puzzle.diagonals, givens)


class UnitsMaker:
    """The :class:`~numgrid.server.kinds.base.Maker` of a units kind: ``sizes`` it
    makes, ``boxes`` per size (None: random regions), ``title`` for messages, and the
    grades ``reachable`` by (size, X variant) where not every grade is (measured: a
    grade no such puzzle reaches is refused at once, not searched for until the time
    cap)."""

    def __init__(
        self,
        title: str,
        sizes: tuple[int, ...],
        boxes: Callable[[int], tuple[int, int] | None] | None,
        reachable: Mapping[tuple[int, bool], tuple[Grade, ...]] | None = None,
    ) -> None:
        self.title, self.sizes, self.boxes = title, sizes, boxes
        self.reachable = reachable or {}

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        n = spec.rows
        if spec.cols != n:
            return [("cols", f"a {self.title} is square: {n}x{spec.cols} is not")]
        if n not in self.sizes:
            sizes = ", ".join(f"{k}x{k}" for k in self.sizes)
            return [("rows", f"a {self.title} is {sizes}, not {n}x{n}")]
        grades = self.reachable.get((n, spec.diagonals), tuple(Grade))
        title = f"{self.title} (X variant)" if spec.diagonals else self.title
        return unreachable(title, f"{n}x{n}", spec.grade, grades)

    def _blank(self, n: int, rng: random.Random, diagonals: bool) -> Puzzle:
        empty = tuple((0,) * n for _ in range(n))
        if self.boxes is not None:
            return Puzzle(n, self.boxes(n), None, diagonals, empty)
        return Puzzle(n, None, random_regions(n, rng), diagonals, empty)

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        """A full grid, then givens taken away (:meth:`_emptied`); taken away again in
        another order, from the same grid, while the puzzle is :func:`_below` the target
        grade for sure, so that the driver's chain is spent on the others (a new grid
        after :data:`ORDERS` orders)."""
        n = spec.rows
        while True:
            while True:
                if budget.expired():
                    raise SearchTimeout()
                blank = self._blank(n, rng, spec.diagonals)
                solution = _solution(blank, rng, budget)
                if solution is not None:
                    break
            for _ in range(ORDERS):
                puzzle = self._emptied(spec, blank, solution, rng, pressure, budget)
                if spec.grade is None or not _below(puzzle, spec.grade):
                    return puzzle, solution

    def _emptied(
        self,
        spec: Spec,
        blank: Puzzle,
        solution: Grid,
        rng: random.Random,
        pressure: float,
        budget: Budget,
    ) -> Puzzle:
        n = spec.rows
        t = native.tables(blank.shape)
        values = [v for row in solution for v in row]
        solution_values = list(values)
        # Cells in pairs symmetric about the centre, tried in random order.
        pairs = sorted({tuple(sorted((i, n * n - 1 - i))) for i in range(n * n)})
        rng.shuffle(pairs)
        # The easier the target, the more pairs are kept that could go; past EASY none
        # to begin with (a puzzle with more givens than it needs is seldom past EASY).
        base = KEEP_SHARE if spec.grade is None or spec.grade == Grade.EASY else 0.0
        keep_share = max(0.0, min(0.6, base - 0.35 * pressure))
        for pair in pairs:
            if budget.expired():
                raise SearchTimeout()
            if rng.random() < keep_share:
                continue
            trial = list(values)
            for i in pair:
                trial[i] = 0
            if _still_unique(t, trial, pair, solution_values, budget):
                values = trial
        givens = tuple(tuple(values[r * n : r * n + n]) for r in range(n))
        return Puzzle(n, blank.boxes, blank.regions, blank.diagonals, givens)

    def repair(
        self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random
    ) -> Puzzle | None:
        """One more given, where the two solutions differ."""
        n = puzzle.size
        differ = [
            (r, c)
            for r in range(n)
            for c in range(n)
            if solution[r][c] != other[r][c] and not puzzle.givens[r][c]
        ]
        return _given(puzzle, solution, rng.choice(differ)) if differ else None

    def nudge(
        self, puzzle: Puzzle, solution: Grid, harder: bool, rng: random.Random
    ) -> Puzzle | None:
        """Toward an easier puzzle, one more given at random; not toward a harder one:
        a candidate's givens are already as few as keep it unique, pair by pair."""
        n = puzzle.size
        empty = [(r, c) for r in range(n) for c in range(n) if not puzzle.givens[r][c]]
        return None if harder or not empty else _given(puzzle, solution, rng.choice(empty))

    def __repr__(self) -> str:
        return f"UnitsMaker({self.title!r})"


__all__ = ["UnitsMaker", "random_regions"]
