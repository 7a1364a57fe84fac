"""The service's ``KenKenPuzzle`` message: read through the kind's own JSON reader (so a
structured puzzle passes exactly the checks a text one does), sized up before it is,
named cell by cell in errors, and written back (the kind's :class:`Wire`)."""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.kinds.base import CAGE_OPERATIONS
from numgrid.server.kinds.base import Wire
from numgrid.server.kinds.base import counted
from numgrid.server.kinds.base import message_json
from numgrid.server.kinds.base import square_shape
from numgrid.v1 import puzzle_pb2


def parts(message: puzzle_pb2.KenKenPuzzle, limit: int) -> int:
    """The cages and rows of entries, and their cells."""
    cages, rows = message.cages, message.entries.rows
    return counted(
        len(cages) + len(rows),
        lambda: sum(len(cage.cells) for cage in cages) + sum(len(row.values) for row in rows),
        limit,
    )


def cell_field(message: puzzle_pb2.KenKenPuzzle, cell: Cell) -> str:
    """The cage cell that names ``cell``, else its entry."""
    for i, cage in enumerate(message.cages):
        for j, ref in enumerate(cage.cells):
            if (ref.row, ref.column) == cell:
                return f"cages[{i}].cells[{j}]"
    return f"entries.rows[{cell[0]}].values[{cell[1]}]"


def to_proto(board: Board) -> puzzle_pb2.Puzzle:
    puzzle = board.puzzle
    message = puzzle_pb2.KenKenPuzzle(
        size=puzzle.size,
        cages=[
            puzzle_pb2.Cage(
                target=cage.target,
                operation=CAGE_OPERATIONS[cage.operation],
                cells=[puzzle_pb2.CellRef(row=r, column=c) for r, c in cage.cells],
            )
            for cage in puzzle.cages
        ],
    )
    if board.has_entries:
        message.entries.rows.extend(puzzle_pb2.GridRow(values=row) for row in board.entries)
    return puzzle_pb2.Puzzle(kenken=message)


WIRE = Wire(message_json("kenken"), square_shape, parts, cell_field, to_proto)
