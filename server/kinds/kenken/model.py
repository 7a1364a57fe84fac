"""KenKen (Calcudoku) in a few words.

- *size* N: the grid is N x N and holds the digits 1..N.
- *line*: a row or a column; each digit appears once in every line (a latin square).
- *cage*: connected cells whose digits give the cage's *target* under its *operation*:
  ``+`` add, ``x`` multiply, ``-`` the larger minus the smaller, ``/`` the larger divided
  by the smaller (``-`` and ``/`` on two cells); none given: a one-cell cage's digit is
  the target, a larger cage's digits give it by *some* operation (janko.at publishes
  such cages: 67 of the corpus's 322 puzzles have them). Digits may repeat in a cage
  when not in one line.
- *board*: a puzzle plus the digits a player has entered (``0`` = empty).

A :class:`Puzzle` may be structurally broken (cells in no cage, cages not connected,
impossible targets): it is only a faithful reading of a description; :mod:`.checks`
says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from numgrid.server.core import Cell
from numgrid.server.core import GroupType
from numgrid.server.core import cell_name
from numgrid.server.kinds import latin
from numgrid.server.kinds.latin import Line

ADD, SUBTRACT, MULTIPLY, DIVIDE, NONE = "+", "-", "x", "/", ""
# An operation as texts write it: typed, or typeset (the signs a page or a document
# prints); "" on a cage whose operation is hidden or has one cell.
WRITTEN = {
    "+": ADD,
    "-": SUBTRACT,
    "\N{MINUS SIGN}": SUBTRACT,
    "*": MULTIPLY,
    "x": MULTIPLY,
    "X": MULTIPLY,
    "\N{MULTIPLICATION SIGN}": MULTIPLY,
    "/": DIVIDE,
    ":": DIVIDE,
    "\N{DIVISION SIGN}": DIVIDE,
    "": NONE,
}
OPERATIONS = (ADD, SUBTRACT, MULTIPLY, DIVIDE, NONE)
MAX_SIZE = 16  # digits beyond 9 are written as numbers (Tatham's Keen goes to 9)


@dataclass(frozen=True)
class Cage:
    """A cage. ``cells`` are in reading order; the clue is written in the first."""

    target: int
    operation: str  # one of OPERATIONS; NONE on several cells: any operation
    cells: tuple[Cell, ...]

    type = GroupType.CAGE
    index = 0

    @property
    def clue(self) -> int:
        return self.target

    @property
    def clue_cell(self) -> Cell:
        return self.cells[0]

    @property
    def label(self) -> str:
        """As printed in the cage's corner: ``12x``, ``3-``, ``5``."""
        return f"{self.target}{self.operation}"

    @property
    def name(self) -> str:
        """How messages refer to a cage: ``cage 12x at r0c0``."""
        return f"cage {self.label} at {cell_name(self.clue_cell)}"


@dataclass(frozen=True)
class Puzzle(latin.Square):
    size: int
    cages: tuple[Cage, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        """The rows, then the columns."""
        return latin.lines(self.size)

    @cached_property
    def cage_of(self) -> dict[Cell, int]:
        """The index of the cage each cell is in (the last one, if in several)."""
        return {cell: i for i, cage in enumerate(self.cages) for cell in cage.cells}

    def transposed(self) -> Puzzle:
        """Swap rows and columns: a different valid puzzle with the transposed solution."""
        return Puzzle(
            self.size,
            tuple(
                Cage(cage.target, cage.operation, tuple(sorted((c, r) for r, c in cage.cells)))
                for cage in self.cages
            ),
        )
