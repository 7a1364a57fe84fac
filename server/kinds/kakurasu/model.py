"""Kakurasu in a few words.

- *grid*: R rows and C columns of cells, each *shaded* or *white*.
- *weight*: a cell counts in its row by its column number (1 to C, left to right) and in
  its column by its row number (1 to R, top to bottom): cell ``r2c0`` weighs 1 in row 2
  and 3 in column 0 (positions are 0-based, weights 1-based).
- *clue*: a row's clue is the sum of the weights of its shaded cells (their column
  numbers); a column's, of its shaded cells' row numbers. ``None``: no clue given (46 of
  the corpus's 210 puzzles leave some out); such a line may hold any shading.
- *line*: a row or a column, with its clue.
- *values*, in grids, entries, solutions and steps: :data:`SHADED` (1), :data:`WHITE`
  (-1, decided not shaded: :data:`~numgrid.server.core.EMPTY`) and :data:`OPEN` (0, not
  decided yet).
- *board*: a puzzle plus the player's marks.

A :class:`Puzzle` may be structurally broken (too few clues, a clue above its line's
total): it is only a faithful reading of a description; :mod:`.checks` says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from numgrid.server.core import EMPTY
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import GroupType

SHADED, WHITE, OPEN = 1, EMPTY, 0
VALUES = (SHADED, WHITE, OPEN)
MAX_SIZE = 16  # rows and columns; a line of 16 has at most 1,314 ways to make a clue


def total(count: int) -> int:
    """What all the weights 1..count add up to: the largest clue of a line of ``count``."""
    return count * (count + 1) // 2


@dataclass(frozen=True)
class Line:
    """A row or a column: its shaded cells' weights add up to its clue (if it has one).
    ``cells`` are in order, so the cell at position ``j`` weighs ``j + 1``."""

    type: GroupType  # ROW or COLUMN
    index: int
    cells: tuple[Cell, ...]
    clue: int | None

    clue_cell = None  # the clue is written outside the grid
    operation = ""

    @property
    def name(self) -> str:
        """How messages refer to a line: ``row 2 (clue 7)``, ``column 0`` without a clue."""
        given = f" (clue {self.clue})" if self.clue is not None else ""
        return f"{self.type.value} {self.index}{given}"

    def weight(self, cell: Cell) -> int:
        return (cell[1] if self.type is GroupType.ROW else cell[0]) + 1


@dataclass(frozen=True)
class Puzzle:
    rows: int
    cols: int
    row_clues: tuple[int | None, ...]  # top to bottom
    column_clues: tuple[int | None, ...]  # left to right

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    @cached_property
    def lines(self) -> tuple[Line, ...]:
        """The rows, then the columns (clues past the grid's size are left out)."""
        rows = (
            Line(GroupType.ROW, r, tuple((r, c) for c in range(self.cols)), clue)
            for r, clue in zip(range(self.rows), self.row_clues, strict=False)
        )
        cols = (
            Line(GroupType.COLUMN, c, tuple((r, c) for r in range(self.rows)), clue)
            for c, clue in zip(range(self.cols), self.column_clues, strict=False)
        )
        return (*rows, *cols)

    def empty_grid(self) -> Grid:
        return tuple((OPEN,) * self.cols for _ in range(self.rows))

    def transposed(self) -> Puzzle:
        """Rows and columns swapped: a valid puzzle whose solution is transposed."""
        return Puzzle(self.cols, self.rows, self.column_clues, self.row_clues)
