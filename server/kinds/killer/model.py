"""A Killer Sudoku: a units grid (:mod:`..units`, the usual boxes) cut into *cages*,
each a group of cells with a *sum*: the cage's digits all differ and add up to it.

A :class:`Puzzle` is a faithful reading of a description and may be broken (a sum no
digits make, cages that overlap or leave cells out): :mod:`.checks` says what is wrong.
Its :attr:`~Puzzle.shape` is the grid's units alone (what the units ladder, checks and
engines read): the cages are each module's own rule on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from numgrid.server.chain import names
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.kinds.units import model as units


@dataclass(frozen=True)
class Cage:
    """A cage: its sum and its cells, in reading order."""

    sum: int
    cells: tuple[Cell, ...]

    @property
    def first(self) -> Cell:
        """The cell its sum is printed in: the first in reading order."""
        return self.cells[0]


@dataclass(frozen=True, eq=False)
class Puzzle(units.Puzzle):
    """Two puzzles are equal when their grids, rules, givens and cages are, however each
    description numbered its cages (:attr:`cages` are kept in the order of their first
    cells)."""

    cages: tuple[Cage, ...] = ()

    def _key(self) -> tuple[object, ...]:
        return (*super()._key(), self.cages)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def cage_name(self, k: int) -> str:
        """``cage 3 (17: r0c0 and r0c1)``: its number from 1, its sum and its cells (no
        more than nine of them: a broken puzzle's message stays a sentence)."""
        cage = self.cages[k]
        return f"cage {k + 1} ({cage.sum}: {names(cage.cells, 9)})"

    @cached_property
    def cage_at(self) -> dict[Cell, int]:
        """Per caged cell, its cage's index (a cell in two cages: the first)."""
        out: dict[Cell, int] = {}
        for k, cage in enumerate(self.cages):
            for cell in cage.cells:
                out.setdefault(cell, k)
        return out

    @property
    def variant(self) -> str:
        """``plain`` or ``X (both main diagonals hold every digit once)``."""
        return "X (both main diagonals hold every digit once)" if self.diagonals else "plain"


def cages_of(sums: Grid, numbers: Grid) -> tuple[Cage, ...]:
    """Cages from a grid of cage numbers and a grid of sums (a cage's sum at one of its
    cells, 0 elsewhere; a cage with no sum or two gets the largest, the checks say so)."""
    cells: dict[int, list[Cell]] = {}
    totals: dict[int, int] = {}
    for r, row in enumerate(numbers):
        written = sums[r]
        for c, k in enumerate(row):
            group = cells.get(k)
            if group is None:
                cells[k] = [(r, c)]
                totals[k] = written[c]
            else:
                group.append((r, c))
                if written[c] > totals[k]:
                    totals[k] = written[c]
    # each cage's cells in reading order, the cages in the order of their first cells
    return tuple(Cage(totals[k], tuple(group)) for k, group in cells.items())


def ordered(cages: list[Cage] | tuple[Cage, ...]) -> tuple[Cage, ...]:
    """Cages in the order of their first cells (one puzzle, one order)."""
    return tuple(sorted(cages, key=lambda cage: (cage.cells, cage.sum)))


def total(n: int) -> int:
    """What every cage adds up to when the cages cover the grid: N x (1 + ... + N)."""
    return n * n * (n + 1) // 2
