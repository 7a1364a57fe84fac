"""The service's ``KillerPuzzle`` message: read through the kind's JSON reader, sized up
before it is, named field by field in errors, and written back."""

from __future__ import annotations

from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.kinds.base import Wire
from numgrid.server.kinds.base import cell_ref
from numgrid.server.kinds.base import counted
from numgrid.server.kinds.base import fill_grid
from numgrid.server.kinds.base import given_field
from numgrid.server.kinds.base import message_json
from numgrid.server.kinds.base import square_shape
from numgrid.v1 import puzzle_pb2


def _parts(message: Any, limit: int) -> int:
    grids = (message.givens, message.entries)
    outer = len(message.cages) + sum(len(grid.rows) for grid in grids)
    return counted(
        outer,
        lambda: (
            sum(len(cage.cells) for cage in message.cages)
            + sum(len(row.values) for g in grids for row in g.rows)
        ),
        limit,
    )


def _cell_field(message: Any, cell: Cell) -> str:
    given = given_field(message, cell)
    if given is not None:
        return given
    r, c = cell
    if not message.entries.rows:
        for k, cage in enumerate(message.cages):
            for j, ref in enumerate(cage.cells):
                if (ref.row, ref.column) == cell:
                    return f"cages[{k}].cells[{j}]"
    return f"entries.rows[{r}].values[{c}]"


def _to_proto(board: Board) -> puzzle_pb2.Puzzle:
    """The message the kind's JSON format writes, built field by field: every answer
    carrying the puzzle builds one, and protobuf's JSON parser is slow."""
    puzzle = board.puzzle
    message = puzzle_pb2.KillerPuzzle(
        size=puzzle.size,
        cages=[
            puzzle_pb2.KillerCage(sum=cage.sum, cells=[cell_ref(c) for c in cage.cells])
            for cage in puzzle.cages
        ],
        diagonals=puzzle.diagonals,
    )
    fill_grid(message.givens, puzzle.givens)
    fill_grid(message.entries, puzzle.entered(board.entries))
    return puzzle_pb2.Puzzle(killer=message)


WIRE = Wire(message_json("killer"), square_shape, _parts, _cell_field, _to_proto)
