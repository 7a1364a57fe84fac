"""The service's ``KenKenPuzzle`` message: read through the kind's own JSON reader (so a
structured puzzle passes exactly the checks a text one does), sized up before it is,
named cell by cell in errors, and written back (the kind's :class:`Wire`)."""

from __future__ import annotations

import json

from google.protobuf import json_format
from numgrid.server.core import Board, Cell
from numgrid.server.kinds.base import CAGE_OPERATIONS, Wire
from numgrid.v1 import puzzle_pb2


def to_json(message: puzzle_pb2.KenKenPuzzle) -> str:
    return json.dumps({"kenken": json_format.MessageToDict(message)})


def shape(message: puzzle_pb2.KenKenPuzzle) -> tuple[int, int]:
    return message.size, message.size


def parts(message: puzzle_pb2.KenKenPuzzle, limit: int) -> int:
    """The cages and rows of entries, their cells counted only when the rest is within
    ``limit``."""
    count = len(message.cages) + len(message.entries.rows)
    if count > limit:
        return count
    return (
        count
        + sum(len(cage.cells) for cage in message.cages)
        + sum(len(row.values) for row in message.entries.rows)
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


WIRE = Wire(to_json, shape, parts, cell_field, to_proto)
