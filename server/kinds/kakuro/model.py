"""Kakuro in a few words.

- *white cell*: a cell the player fills with a digit 1-9.
- *black cell*: holds an optional *down* clue and an optional *across* clue.
- *run*: a maximal horizontal (across) or vertical (down) sequence of white cells;
  its *clue* sits in the black cell just before it (to its left, or above it).
- *board*: a puzzle plus the digits a player has entered (``0`` = empty).

A :class:`Puzzle` may be structurally broken (runs without clues, impossible sums):
it is only a faithful reading of a description. :mod:`.checks` says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import cast

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import GroupType
from numgrid.server.core import cell_name

ACROSS = "across"
DOWN = "down"


@dataclass(frozen=True)
class Clue:
    """A black cell. ``None`` means that direction has no clue."""

    down: int | None = None
    across: int | None = None


BLACK = Clue()
WHITE = None  # a white cell is simply "no clue here"

Square = Clue | None


@dataclass(frozen=True)
class Run:
    direction: str  # ACROSS or DOWN
    clue_cell: Cell | None  # None when the run starts at the grid's edge
    clue: int | None
    cells: tuple[Cell, ...]

    operation = ""  # a run has no operation: its clue is a sum
    index = 0

    @property
    def type(self) -> GroupType:
        return GroupType(self.direction)

    @property
    def name(self) -> str:
        """How messages refer to a run: ``across 16 at r4c0`` / ``down run at r0c3``."""
        where = cell_name(self.clue_cell or self.cells[0])
        what = f"{self.direction} {self.clue}" if self.clue is not None else f"{self.direction} run"
        return f"{what} at {where}"


@dataclass(frozen=True)
class Puzzle:
    squares: tuple[tuple[Square, ...], ...]

    @property
    def rows(self) -> int:
        return len(self.squares)

    @property
    def cols(self) -> int:
        return len(self.squares[0]) if self.squares else 0

    def is_white(self, cell: Cell) -> bool:
        return self.squares[cell[0]][cell[1]] is WHITE

    @cached_property
    def white_cells(self) -> tuple[Cell, ...]:
        return tuple(
            (r, c) for r, row in enumerate(self.squares) for c, sq in enumerate(row) if sq is WHITE
        )

    @cached_property
    def runs(self) -> tuple[Run, ...]:
        """Every maximal white sequence in both directions, clued or not, length 1 included."""
        found: list[Run] = []
        for direction, (dr, dc) in ((ACROSS, (0, 1)), (DOWN, (1, 0))):
            for r, c in self.white_cells:
                pr, pc = r - dr, c - dc
                if pr >= 0 and pc >= 0 and self.squares[pr][pc] is WHITE:
                    continue  # not the first cell of its run
                cells = []
                rr, cc = r, c
                while rr < self.rows and cc < self.cols and self.squares[rr][cc] is WHITE:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if pr >= 0 and pc >= 0:
                    sq = cast(Clue, self.squares[pr][pc])  # not WHITE: the run began here
                    clue = sq.across if direction == ACROSS else sq.down
                    found.append(Run(direction, (pr, pc), clue, tuple(cells)))
                else:
                    found.append(Run(direction, None, None, tuple(cells)))
        return tuple(found)

    def empty_grid(self) -> Grid:
        return tuple((0,) * self.cols for _ in range(self.rows))

    def transposed(self) -> Puzzle:
        """Swap rows and columns (and so across and down): a different valid puzzle."""
        return Puzzle(
            tuple(
                tuple(
                    WHITE if (sq := self.squares[r][c]) is WHITE else Clue(sq.across, sq.down)
                    for r in range(self.rows)
                )
                for c in range(self.cols)
            )
        )
