"""A units puzzle: an N x N grid of the digits 1..N, its units (rows, columns, and boxes
or regions, and both main diagonals in the X variant) each holding every digit once,
and the digits given.

A :class:`Puzzle` is a faithful reading of a description and may be broken (a given out
of range, regions that do not tile the grid): :mod:`.checks` says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.kinds.latin import GivenSquare

from .shape import Shape
from .shape import UnitGroup
from .shape import shape

DIGITS = "123456789ABCDEFG"  # a cell's digit as one character, up to 16


@dataclass(frozen=True, eq=False)
class Puzzle(GivenSquare):
    """Two puzzles are equal when their grids, rules and givens are, however each
    description numbered its regions (a corpus text writes its own numbers, a Solo ID has
    none): see :attr:`canonical_regions`."""

    size: int
    boxes: tuple[int, int] | None  # (rows, columns) of a box; None with regions
    regions: Grid | None  # per cell its region's number, 0..N-1; None with boxes
    diagonals: bool  # the X variant: both main diagonals hold every digit once
    givens: Grid  # the digits printed in the grid, 0 elsewhere

    @cached_property
    def canonical_regions(self) -> Grid | None:
        """The regions numbered 0, 1, ... in the order their first cells are read."""
        if self.regions is None:
            return None
        order: dict[int, int] = {}
        for row in self.regions:
            for k in row:
                order.setdefault(k, len(order))
        return tuple(tuple(order[k] for k in row) for row in self.regions)

    def _key(self) -> tuple[object, ...]:
        return (self.size, self.boxes, self.canonical_regions, self.diagonals, self.givens)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @cached_property
    def region_cells(self) -> tuple[tuple[Cell, ...], ...] | None:
        """Each region's cells by its number (numbers out of 0..N-1 left out)."""
        if self.regions is None:
            return None
        out: list[list[Cell]] = [[] for _ in range(self.size)]
        for r, row in enumerate(self.regions):
            for c, k in enumerate(row):
                if 0 <= k < self.size:
                    out[k].append((r, c))
        return tuple(map(tuple, out))

    @cached_property
    def shape(self) -> Shape:
        return shape(self.size, self.boxes, self.region_cells, self.diagonals)

    @property
    def groups(self) -> tuple[UnitGroup, ...]:
        return self.shape.groups

    @property
    def flat_givens(self) -> list[int]:
        return [v for row in self.givens for v in row]

    def empty_grid(self) -> Grid:
        return ((0,) * self.size,) * self.size

    @property
    def variant(self) -> str:
        """``plain`` or ``X (both main diagonals hold every digit once)``."""
        return "X (both main diagonals hold every digit once)" if self.diagonals else "plain"


def digit_char(value: int) -> str:
    """A digit as one character (1-9, then A-G for 10-16), ``.`` for 0."""
    return DIGITS[value - 1] if 1 <= value <= len(DIGITS) else "."
