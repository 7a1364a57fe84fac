"""Making Killer Sudoku: a random full grid with the usual boxes, then cages grown at
random over it (each a connected group of different digits, two to four cells, a few
larger when the target is hard), each cage's sum read off the grid. Where a second
solution differs, the cage of a differing cell is split (or, when it cannot be, the
cell moves into a neighbouring cage whose digits it does not share; failing both, a
two-cell cage there goes, each cell moving so), so that the second solution no longer
fits.

How hard a layout is follows from its cages: small cages whose sums few sets of digits
make (3 in two cells: 1+2) give an easy puzzle, as Tatham's Solo makes its easiest
killers of two-cell cages. The *lean* (the target grade's place, moved by the driver's
pressure) sets the largest cage and how often a cage grows into the neighbour that
leaves it the fewest combinations rather than into any neighbour."""

from __future__ import annotations

import random
from collections.abc import Iterable

from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds import cagesums
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.judging import connected_parts
from numgrid.server.kinds.units import maker as units
from numgrid.server.kinds.units.shape import box_shape

from .formats import SIZES
from .model import Cage
from .model import Puzzle
from .model import ordered


def _connected(cells: list[Cell]) -> bool:
    return len(connected_parts(cells)) == 1


def _beside(cell: Cell) -> list[Cell]:
    """The four cells that share a side with ``cell`` (some may be off the grid)."""
    r, c = cell
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]


def _near(cell: Cell, n: int) -> list[Cell]:
    """The cells of an N x N grid that share a side with ``cell``."""
    return [(a, b) for a, b in _beside(cell) if 0 <= a < n and 0 <= b < n]


def grow_cages(
    solution: Grid, rng: random.Random, largest: int, tight: float = 0.0
) -> list[tuple[Cell, ...]] | None:
    """Connected cages of different digits covering the grid, 2 to ``largest`` cells
    (a cell left alone joins a neighbour's cage that lacks its digit); None when one
    cannot. With probability ``tight`` a cage grows into the neighbour that leaves its
    sum the fewest combinations (an easier cage), else into any."""
    n = len(solution)
    free = {(r, c) for r in range(n) for c in range(n)}
    cages: list[list[Cell]] = []
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
            if rng.random() < tight:
                total, size = sum(digits), len(cage) + 1
                pick = min(
                    options,
                    key=lambda x: (
                        len(cagesums.combos(total + solution[x[0]][x[1]], size, n)),
                        rng.random(),
                    ),
                )
            else:
                pick = rng.choice(options)
            cage.append(pick)
            free.discard(pick)
            digits.add(solution[pick[0]][pick[1]])
        cages.append(cage)
    at = {cell: k for k, cage in enumerate(cages) for cell in cage}
    for k, cage in enumerate(cages):
        if len(cage) != 1:
            continue
        (cell,) = cage
        digit = solution[cell[0]][cell[1]]
        homes = [
            at[x]
            for x in _near(cell, n)
            if at[x] != k
            and len(cages[at[x]]) < n
            and digit not in {solution[r][c] for r, c in cages[at[x]]}
        ]
        if not homes:
            return None
        home = rng.choice(homes)
        cages[home].append(cell)
        cages[k] = []
        at[cell] = home
    return [tuple(sorted(cage)) for cage in cages if cage]


def _puzzle(
    n: int, cages: Iterable[Iterable[Cell]], solution: Grid, diagonals: bool = False
) -> Puzzle:
    """The puzzle of ``cages`` (each cage's cells in any order) over ``solution``."""
    return Puzzle(
        n,
        box_shape(n),
        None,
        diagonals,
        tuple((0,) * n for _ in range(n)),
        ordered(
            [Cage(sum(solution[r][c] for r, c in cells), tuple(sorted(cells))) for cells in cages]
        ),
    )


# Where a target grade starts (the driver's pressure moves it).
LEAN: dict[Grade, float] = {Grade.EASY: -1.0}
MERGED = 5  # the most cells of a cage that nudge() makes of two


def _part(cage: list[Cell], cell: Cell, rng: random.Random, size: int) -> list[Cell]:
    """A connected part of ``cage`` of ``size`` cells grown from ``cell`` (empty when it
    cannot grow that far)."""
    part, inside = [cell], set(cage)
    while len(part) < size:
        options = [x for cell in part for x in _beside(cell) if x in inside and x not in part]
        if not options:
            return []
        part.append(rng.choice(options))
    return part


def _cut(
    cage: list[Cell], rng: random.Random, tries: int, start: Cell | None = None
) -> tuple[list[Cell], list[Cell]] | None:
    """A cage of four cells or more cut in two connected parts of two cells or more, the
    first grown from ``start`` (a random cell of the cage at each try when None); None
    when ``tries`` draws find none."""
    if len(cage) < 4:
        return None
    for _ in range(tries):
        cell = rng.choice(cage) if start is None else start
        part = _part(cage, cell, rng, rng.randint(2, len(cage) - 2))
        rest = [x for x in cage if x not in part]
        if part and _connected(rest):
            return part, rest
    return None


# No 4x4 Killer was made EXTREME: 3 seeds at 120 s each (the driver, nudges included),
# none of 1,500 draws at every pressure (``benchmarks/reachable.py --kind killer --size
# 4``: every unique one EASY); the other grades are made, in up to half a minute
# (docs/generate.md). No 4x4 Killer-X was made EXPERT or EXTREME (3 seeds at 120 s each;
# of 2,000 draws with --diagonals, 1,766 EASY and 1 MEDIUM).
REACHABLE = {
    (4, False): (Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXPERT),
    (4, True): (Grade.EASY, Grade.MEDIUM, Grade.HARD),
}


def _homes(cell: Cell, cages: list[list[Cell]], at: dict[Cell, int], solution: Grid) -> list[int]:
    """The cages beside ``cell`` but its own that lack its digit and have room."""
    n = len(solution)
    digit = solution[cell[0]][cell[1]]
    return sorted(
        {
            at[x]
            for x in _near(cell, n)
            if at[x] != at[cell]
            and len(cages[at[x]]) < n
            and digit not in {solution[r][c] for r, c in cages[at[x]]}
        }
    )


class KillerMaker:
    """The :class:`~numgrid.server.kinds.base.Maker` of Killer Sudoku."""

    def __init__(self) -> None:
        self.units = units.UnitsMaker("Killer Sudoku", SIZES, box_shape, REACHABLE)

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        return self.units.problems(spec)

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        n = spec.rows
        blank = Puzzle(n, box_shape(n), None, spec.diagonals, tuple((0,) * n for _ in range(n)))
        while True:
            if budget.expired():
                raise SearchTimeout()
            solution = units._solution(blank, rng, budget)
            if solution is not None:
                break
        lean = max(-1.0, min(1.0, pressure + (LEAN.get(spec.grade, 0.0) if spec.grade else 0.0)))
        if lean <= -0.75:
            largest = 2
        elif n == 4 or lean < -0.3:
            largest = 3
        else:
            largest = 4 + (lean > 0.3) + (n == 9 and lean > 0.6)
        while True:
            cages = grow_cages(solution, rng, largest, max(0.0, -lean))
            if cages is not None:
                return _puzzle(n, cages, solution, spec.diagonals), solution
            if budget.expired():
                raise SearchTimeout()

    def repair(
        self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random
    ) -> Puzzle | None:
        """A cell where the solutions differ changes cage: its cage split in two parts of
        two cells or more, or the cell moved into a neighbouring cage that lacks its digit
        (both cages keep two cells or more, connected); failing both, a cage of two (the
        easiest puzzles' cages) at such a cell goes, each of its cells moved into a
        neighbouring cage lacking its digit. The sums change, and the second solution no
        longer fits them, more often than not."""
        n = puzzle.size
        differ = [(r, c) for r in range(n) for c in range(n) if solution[r][c] != other[r][c]]
        cages = [list(cage.cells) for cage in puzzle.cages]
        at = {cell: k for k, cells in enumerate(cages) for cell in cells}
        rng.shuffle(differ)
        for cell in differ:
            k = at[cell]
            cage = cages[k]
            cut = _cut(cage, rng, 8, cell)
            if cut is not None:
                cages[k : k + 1] = list(cut)
                return _puzzle(n, cages, solution, puzzle.diagonals)
            rest = [x for x in cage if x != cell]
            if len(rest) < 2 or not _connected(rest):
                continue
            homes = _homes(cell, cages, at, solution)
            if homes:
                cages[rng.choice(homes)].append(cell)
                cages[k] = rest
                return _puzzle(n, cages, solution, puzzle.diagonals)
        for cell in differ:
            k = at[cell]
            if len(cages[k]) != 2:
                continue
            (partner,) = [x for x in cages[k] if x != cell]
            homes = _homes(cell, cages, at, solution)
            if not homes:
                continue
            home = rng.choice(homes)
            others = [
                j
                for j in _homes(partner, cages, at, solution)
                if j != home or len(cages[home]) + 1 < n
            ]
            if others:
                cages[rng.choice(others)].append(partner)
                cages[home].append(cell)
                del cages[k]
                return _puzzle(n, cages, solution, puzzle.diagonals)
        return None

    def nudge(
        self, puzzle: Puzzle, solution: Grid, harder: bool, rng: random.Random
    ) -> Puzzle | None:
        """Toward a harder puzzle, two touching cages of different digits become one (of
        at most five cells); toward an easier one, a cage of four cells or more is cut
        in two connected parts of two or more."""
        n = puzzle.size
        cages = [list(cage.cells) for cage in puzzle.cages]
        at = {cell: k for k, cells in enumerate(cages) for cell in cells}
        order = list(range(len(cages)))
        rng.shuffle(order)
        for k in order:
            cage = cages[k]
            if harder:
                digits = {solution[r][c] for r, c in cage}
                near = sorted({at[x] for cell in cage for x in _near(cell, n)} - {k})
                rng.shuffle(near)
                for j in near:
                    other = cages[j]
                    if len(cage) + len(other) <= MERGED and not digits & {
                        solution[r][c] for r, c in other
                    }:
                        kept = [c for i, c in enumerate(cages) if i not in (j, k)]
                        return _puzzle(n, [cage + other, *kept], solution, puzzle.diagonals)
            elif (cut := _cut(cage, rng, 4)) is not None:
                others = [c for i, c in enumerate(cages) if i != k]
                return _puzzle(n, [*cut, *others], solution, puzzle.diagonals)
        return None

    def __repr__(self) -> str:
        return "KillerMaker()"


MAKER = KillerMaker()
