"""Making units puzzles: a random full grid (with random regions when the kind has
them, both main diagonals holding every digit too in the X variant), then givens taken
away, in pairs symmetric about the centre as publishers do, while the native engine
still finds one solution. ``pressure`` (the generator's lean toward harder puzzles)
decides how many givens may be kept beyond the fewest found."""

from __future__ import annotations

import random
from collections.abc import Callable

from numgrid.server.core import Budget, Cell, Grid, SearchTimeout
from numgrid.server.kinds.base import Spec

from . import native
from .model import Puzzle

SWAPS = 6  # region swaps per cell when regions are drawn


def _solution(puzzle: Puzzle, rng: random.Random, budget: Budget) -> Grid | None:
    """A random filling of ``puzzle`` (its givens held), or None when it has none."""
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
        found, _, _ = native.count(t, t.fresh(trial), limit=1, budget=budget)
        if found:
            values = t.values(found[0])
            return tuple(tuple(values[r * n : r * n + n]) for r in range(n))
    return None


def _connected(cells: set[Cell]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(cells)


def random_regions(n: int, rng: random.Random) -> Grid:
    """N connected regions of N cells: the rows, then many swaps of a cell on a border
    for one across it, each keeping both regions connected."""
    region = {(r, c): r for r in range(n) for c in range(n)}
    members: list[set[Cell]] = [{(r, c) for c in range(n)} for r in range(n)]
    cells = list(region)
    for _ in range(SWAPS * n * n):
        a = rng.choice(cells)
        ra = region[a]
        near = [
            b
            for b in ((a[0] - 1, a[1]), (a[0] + 1, a[1]), (a[0], a[1] - 1), (a[0], a[1] + 1))
            if b in region and region[b] != ra
        ]
        if not near:
            continue
        rb = region[rng.choice(near)]
        # a cell of rb's that touches ra goes back, so both keep N cells
        back = [
            b
            for b in members[rb]
            if any(
                region.get(x) == ra and x != a
                for x in ((b[0] - 1, b[1]), (b[0] + 1, b[1]), (b[0], b[1] - 1), (b[0], b[1] + 1))
            )
        ]
        rng.shuffle(back)
        for b in back[:3]:
            new_a = (members[ra] - {a}) | {b}
            new_b = (members[rb] - {b}) | {a}
            if _connected(new_a) and _connected(new_b):
                members[ra], members[rb] = new_a, new_b
                region[a], region[b] = rb, ra
                break
    return tuple(tuple(region[r, c] for c in range(n)) for r in range(n))


class UnitsMaker:
    """The :class:`~numgrid.server.kinds.base.Maker` of a units kind: ``sizes`` it
    makes, ``boxes`` per size (None: random regions), ``title`` for messages."""

    def __init__(
        self,
        title: str,
        sizes: tuple[int, ...],
        boxes: Callable[[int], tuple[int, int] | None] | None,
    ) -> None:
        self.title, self.sizes, self.boxes = title, sizes, boxes

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        n = spec.rows
        if spec.cols != n:
            return [("cols", f"a {self.title} is square: {n}x{spec.cols} is not")]
        if n not in self.sizes:
            sizes = ", ".join(f"{k}x{k}" for k in self.sizes)
            return [("rows", f"a {self.title} is {sizes}, not {n}x{n}")]
        return []

    def _blank(self, n: int, rng: random.Random, diagonals: bool) -> Puzzle:
        empty = tuple((0,) * n for _ in range(n))
        if self.boxes is not None:
            return Puzzle(n, self.boxes(n), None, diagonals, empty)
        return Puzzle(n, None, random_regions(n, rng), diagonals, empty)

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        n = spec.rows
        while True:
            if budget.expired():
                raise SearchTimeout()
            blank = self._blank(n, rng, spec.diagonals)
            solution = _solution(blank, rng, budget)
            if solution is not None:
                break
        t = native.tables(blank.shape)
        values = [v for row in solution for v in row]
        # Cells in pairs symmetric about the centre, tried in random order.
        pairs = sorted({tuple(sorted((i, n * n - 1 - i))) for i in range(n * n)})
        rng.shuffle(pairs)
        # The easier the target, the more pairs are kept that could go.
        keep_share = max(0.0, min(0.6, 0.25 - 0.35 * pressure))
        for pair in pairs:
            if budget.expired():
                raise SearchTimeout()
            if rng.random() < keep_share:
                continue
            trial = list(values)
            for i in pair:
                trial[i] = 0
            found, complete, _ = native.count(t, t.fresh(trial), limit=2, budget=budget)
            if complete and len(found) == 1:
                values = trial
        givens = tuple(tuple(values[r * n : r * n + n]) for r in range(n))
        return Puzzle(n, blank.boxes, blank.regions, blank.diagonals, givens), solution

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
        if not differ:
            return None
        r, c = rng.choice(differ)
        rows = [list(row) for row in puzzle.givens]
        rows[r][c] = solution[r][c]
        givens = tuple(tuple(row) for row in rows)
        return Puzzle(n, puzzle.boxes, puzzle.regions, puzzle.diagonals, givens)

    def __repr__(self) -> str:
        return f"UnitsMaker({self.title!r})"


__all__ = ["UnitsMaker", "random_regions"]
