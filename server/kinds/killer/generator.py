"""Making Killer Sudoku: a random full grid with the usual boxes, then cages grown at
random over it (each a connected group of different digits, two to four cells, a few
larger when the target is hard), each cage's sum read off the grid. Where a second
solution differs, the cage of a differing cell is split (or, when it cannot be, merged
with a neighbour whose digits it does not share), so that the second solution no longer
fits."""

from __future__ import annotations

import random

from numgrid.server.core import Budget, Cell, Grid, SearchTimeout
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.units import maker as units
from numgrid.server.kinds.units.shape import box_shape

from .formats import SIZES
from .model import Cage, Puzzle, ordered


def _near(cell: Cell, n: int) -> list[Cell]:
    r, c = cell
    return [
        (a, b)
        for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= a < n and 0 <= b < n
    ]


def grow_cages(solution: Grid, rng: random.Random, largest: int) -> list[tuple[Cell, ...]]:
    """Connected cages of different digits covering the grid, 1 to ``largest`` cells."""
    n = len(solution)
    free = {(r, c) for r in range(n) for c in range(n)}
    cages: list[tuple[Cell, ...]] = []
    order = sorted(free)
    rng.shuffle(order)
    for start in order:
        if start not in free:
            continue
        want = rng.randint(2, largest)
        cage = [start]
        free.discard(start)
        digits = {solution[start[0]][start[1]]}
        while len(cage) < want:
            options = [
                x
                for cell in cage
                for x in _near(cell, n)
                if x in free and solution[x[0]][x[1]] not in digits
            ]
            if not options:
                break
            pick = rng.choice(options)
            cage.append(pick)
            free.discard(pick)
            digits.add(solution[pick[0]][pick[1]])
        cages.append(tuple(sorted(cage)))
    return cages


def _puzzle(n: int, cages: list[tuple[Cell, ...]], solution: Grid) -> Puzzle:
    return Puzzle(
        n,
        box_shape(n),
        None,
        False,
        tuple((0,) * n for _ in range(n)),
        ordered([Cage(sum(solution[r][c] for r, c in cells), cells) for cells in cages]),
    )


class KillerMaker:
    """The :class:`~numgrid.server.kinds.base.Maker` of Killer Sudoku."""

    def __init__(self) -> None:
        self.units = units.UnitsMaker("Killer Sudoku", SIZES, box_shape)

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        return self.units.problems(spec)

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        n = spec.rows
        blank = Puzzle(n, box_shape(n), None, False, tuple((0,) * n for _ in range(n)))
        while True:
            if budget.expired():
                raise SearchTimeout()
            solution = units._solution(blank, rng, budget)
            if solution is not None:
                break
        largest = 3 if n == 4 else 4 + (pressure > 0.3) + (n == 9 and pressure > 0.6)
        return _puzzle(n, grow_cages(solution, rng, largest), solution), solution

    def repair(
        self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random
    ) -> Puzzle | None:
        """A cage holding a cell where the solutions differ is split in two connected
        parts (or, a single cell's, merged into a neighbour's cage whose digits it does
        not repeat): the sums then tell the two solutions apart more often."""
        n = puzzle.size
        differ = [(r, c) for r in range(n) for c in range(n) if solution[r][c] != other[r][c]]
        if not differ:
            return None
        cages = [cage.cells for cage in puzzle.cages]
        at = {cell: k for k, cells in enumerate(cages) for cell in cells}
        rng.shuffle(differ)
        for cell in differ:
            k = at[cell]
            cells = cages[k]
            if len(cells) > 1:
                # cut off the differing cell with the part of the cage connected to it
                rest = [x for x in cells if x != cell]
                if units._connected(set(rest)):
                    cages[k : k + 1] = [(cell,), tuple(rest)]
                    return _puzzle(n, cages, solution)
                continue
        # every differing cell already alone: a given, as a one-cell cage holds one
        r, c = rng.choice(differ)
        givens = [list(row) for row in puzzle.givens]
        givens[r][c] = solution[r][c]
        return Puzzle(
            n, puzzle.boxes, None, puzzle.diagonals, tuple(map(tuple, givens)), puzzle.cages
        )

    def __repr__(self) -> str:
        return "KillerMaker()"


MAKER = KillerMaker()
