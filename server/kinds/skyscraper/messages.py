"""The service's ``SkyscraperPuzzle`` message: read through the kind's own JSON reader (so
a structured puzzle passes exactly the checks a text one does), sized up before it is,
named field by field in errors, and written back (the kind's :class:`Wire`)."""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.kinds.base import Wire
from numgrid.server.kinds.base import counted
from numgrid.server.kinds.base import given_field
from numgrid.server.kinds.base import message_json
from numgrid.server.kinds.base import square_shape
from numgrid.v1 import puzzle_pb2

from .model import SIDES


def parts(message: puzzle_pb2.SkyscraperPuzzle, limit: int) -> int:
    """The clues, rows and values the message holds."""
    grids = (message.givens, message.entries)
    outer = sum(len(getattr(message, side.value)) for side in SIDES)
    outer += sum(len(grid.rows) for grid in grids)
    return counted(
        outer, lambda: sum(len(row.values) for grid in grids for row in grid.rows), limit
    )


def cell_field(message: puzzle_pb2.SkyscraperPuzzle, cell: Cell) -> str:
    """A clue is named by its side's field (its cell is outside the grid: row -1 or N,
    column -1 or N), a cell by its given, else by its entry."""
    r, c = cell
    n = message.size
    if r in (-1, n) and 0 <= c < n:
        return f"{'top' if r < 0 else 'bottom'}[{c}]"
    if c in (-1, n) and 0 <= r < n:
        return f"{'left' if c < 0 else 'right'}[{r}]"
    given = given_field(message, cell)
    if given is not None:
        return given
    return f"entries.rows[{r}].values[{c}]"


def _grid(grid) -> puzzle_pb2.Grid:
    return puzzle_pb2.Grid(rows=[puzzle_pb2.GridRow(values=row) for row in grid])


def to_proto(board: Board) -> puzzle_pb2.Puzzle:
    puzzle = board.puzzle
    message = puzzle_pb2.SkyscraperPuzzle(
        size=puzzle.size,
        max_height=puzzle.height,
        diagonals=puzzle.diagonals,
        **{side.value: puzzle.clues(side) for side in SIDES},
    )
    if any(any(row) for row in puzzle.givens):
        message.givens.CopyFrom(_grid(puzzle.givens))
    own = puzzle.entered(board.entries)
    if any(any(row) for row in own):
        message.entries.CopyFrom(_grid(own))
    return puzzle_pb2.Puzzle(skyscraper=message)


WIRE = Wire(message_json("skyscraper"), square_shape, parts, cell_field, to_proto)
