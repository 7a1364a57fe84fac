"""The shape of a units grid: which cells share a unit.

Vocabulary (Norvig's, named once for the whole package):

- *size* N: the grid is N x N and holds the digits 1..N.
- *cell*: an index ``r * N + c`` (a :data:`~numgrid.server.core.Cell` ``(r, c)`` in
  messages and grids).
- *unit*: cells that hold N different digits, each once: a row, a column, a box (a
  rectangle of a grid cut into equal boxes), a region (N connected cells read from the
  puzzle) or a main diagonal. A *cage* (fewer cells, digits all different, e.g. under a
  sum) is listed with the units, but only its cells' differences apply: every digit
  need not be in it (:meth:`Shape.fills`).
- *peers* of a cell: the other cells of its units.
- *candidates*: the digits a cell may still hold, as bits (bit ``d - 1`` for ``d``).

A :class:`Shape` is frozen and hashable, built once per (size, boxes, regions,
diagonals) by :func:`shape`; the engines and the logical solvers compile their tables
from it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from numgrid.server.core import Cell
from numgrid.server.core import GroupType
from numgrid.server.core import cell_name

UNIT_TYPES = (GroupType.ROW, GroupType.COLUMN, GroupType.BOX, GroupType.REGION)


@dataclass(frozen=True)
class Unit:
    """N cells that hold different digits: a row, column, box, region or diagonal."""

    type: GroupType
    index: int  # its number among units of its type; a diagonal's 0 from the top-left
    cells: tuple[int, ...]  # cell indices, in reading order (a diagonal: from its top)


@dataclass(frozen=True)
class UnitGroup:
    """A unit as the board reports and steps name it (the ``Group`` protocol of
    :mod:`numgrid.server.core`): its cells as ``(r, c)``."""

    type: GroupType
    index: int
    cells: tuple[Cell, ...]
    name: str

    clue = None
    clue_cell = None
    operation = ""


@dataclass(frozen=True)
class Shape:
    """An N x N grid's units, each cell's units and peers. Built by :func:`shape`."""

    size: int
    boxes: tuple[int, int] | None  # (rows, columns) of a box, None without boxes
    regions: tuple[tuple[Cell, ...], ...] | None  # None without regions
    diagonals: bool
    units: tuple[Unit, ...]  # rows, columns, then boxes or regions, then diagonals
    cell_units: tuple[tuple[int, ...], ...]  # per cell, the indices of its units
    peers: tuple[tuple[int, ...], ...]  # per cell, its peers in index order
    cages: tuple[tuple[Cell, ...], ...] | None = None  # groups of different digits, not units

    @functools.cached_property
    def groups(self) -> tuple[UnitGroup, ...]:
        """The units as board reports and steps name them (made when first asked: an
        engine never does)."""
        return tuple(
            UnitGroup(unit.type, unit.index, tuple(map(self.cell, unit.cells)), self.name(unit))
            for unit in self.units
        )

    def __hash__(self) -> int:
        """By what the shape is built from (the engines' tables are cached by shape:
        hashing every unit at each search would cost more than small searches)."""
        return hash((self.size, self.boxes, self.regions, self.diagonals, self.cages))

    @property
    def cells(self) -> int:
        """How many cells: N * N."""
        return self.size * self.size

    def cell(self, index: int) -> Cell:
        """A cell index as ``(r, c)``."""
        return divmod(index, self.size)

    def index(self, cell: Cell) -> int:
        return cell[0] * self.size + cell[1]

    def name(self, unit: Unit) -> str:
        """``row 3``, ``column 0``, ``box 2``, ``region at r0c4``, ``diagonal r0c0-r8c8``.
        Rows, columns and boxes count from 0 as cells do; a region is named by its first
        cell in reading order, as no format draws its number and formats number regions
        differently (a run or cage is named at its clue cell likewise)."""
        if unit.type is GroupType.DIAGONAL:
            first, last = self.cell(unit.cells[0]), self.cell(unit.cells[-1])
            return f"diagonal {cell_name(first)}-{cell_name(last)}"
        if unit.type is GroupType.REGION and unit.cells:
            return f"region at {cell_name(self.cell(min(unit.cells)))}"
        if unit.type in (GroupType.REGION, GroupType.CAGE):  # a region: one left empty
            return f"{unit.type.value} {unit.index + 1}"
        return f"{unit.type.value} {unit.index}"

    def fills(self, unit: Unit) -> bool:
        """Whether a unit holds every digit (a cage of fewer cells does not)."""
        return len(unit.cells) == self.size

    def units_holding(self, cells: Iterable[int]) -> set[int]:
        """The indices of the units that hold every one of ``cells`` (cell indices; at
        least one)."""
        return set.intersection(*(set(self.cell_units[i]) for i in cells))

    def box_of(self, index: int) -> int:
        """The index (in :attr:`units`) of the box or region holding a cell; -1 when the
        grid has neither."""
        for u in self.cell_units[index]:
            if self.units[u].type in (GroupType.BOX, GroupType.REGION):
                return u
        return -1


def _build(
    n: int,
    boxes: tuple[int, int] | None,
    regions: tuple[tuple[Cell, ...], ...] | None,
    diagonals: bool,
    cages: tuple[tuple[Cell, ...], ...] | None,
) -> Shape:
    units = [Unit(GroupType.ROW, r, tuple(r * n + c for c in range(n))) for r in range(n)]
    units += [Unit(GroupType.COLUMN, c, tuple(r * n + c for r in range(n))) for c in range(n)]
    if boxes is not None:
        bh, bw = boxes
        for b in range(n):
            top, left = (b // (n // bw)) * bh, (b % (n // bw)) * bw
            cells = tuple((top + i) * n + left + j for i in range(bh) for j in range(bw))
            units.append(Unit(GroupType.BOX, b, cells))
    if regions is not None:
        for k, region in enumerate(regions):
            cells = tuple(sorted(r * n + c for r, c in region))
            units.append(Unit(GroupType.REGION, k, cells))
    if diagonals:
        units.append(Unit(GroupType.DIAGONAL, 0, tuple(k * n + k for k in range(n))))
        units.append(Unit(GroupType.DIAGONAL, 1, tuple(k * n + n - 1 - k for k in range(n))))
    for k, cage in enumerate(cages or ()):
        units.append(Unit(GroupType.CAGE, k, tuple(sorted(r * n + c for r, c in cage))))
    of: list[list[int]] = [[] for _ in range(n * n)]
    for u, unit in enumerate(units):
        for i in unit.cells:
            of[i].append(u)
    peers = tuple(
        tuple(sorted({j for u in of[i] for j in units[u].cells} - {i})) for i in range(n * n)
    )
    return Shape(n, boxes, regions, diagonals, tuple(units), tuple(map(tuple, of)), peers, cages)


@functools.lru_cache(maxsize=256)
def shape(
    n: int,
    boxes: tuple[int, int] | None = None,
    regions: tuple[tuple[Cell, ...], ...] | None = None,
    diagonals: bool = False,
    cages: tuple[tuple[Cell, ...], ...] | None = None,
) -> Shape:
    """The shape of an N x N grid with boxes of ``boxes`` = (rows, columns) (they must
    tile it) or irregular ``regions`` (each a tuple of cells; a partition is the checks'
    business, not this one's), both main diagonals as units when ``diagonals``, and
    ``cages``: groups of fewer than N cells whose digits differ (cages under sums; their
    sums are the kind's own constraint), peers of each other but no unit to fill."""
    return _build(n, boxes, regions, diagonals, cages)


@functools.cache
def box_shape(n: int) -> tuple[int, int] | None:
    """The usual boxes of an N x N grid (rows, columns): as near square as N allows, the
    wider side across (2 rows x 3 columns for 6); None for a prime N."""
    best = None
    for h in range(1, n + 1):
        if n % h == 0 and h <= n // h:
            best = (h, n // h)
    if best is None or best[0] == 1:
        return None
    return best
