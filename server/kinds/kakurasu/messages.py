"""The service's ``KakurasuPuzzle`` message: read through the kind's own JSON reader (so
a structured puzzle passes exactly the checks a text one does), sized up before it is,
named cell by cell in errors, and written back (the kind's :class:`Wire`)."""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.kinds.base import Wire
from numgrid.server.kinds.base import counted
from numgrid.server.kinds.base import message_json
from numgrid.v1 import puzzle_pb2

from .formats import JSON_NO_CLUE


def shape(message: puzzle_pb2.KakurasuPuzzle) -> tuple[int, int]:
    return message.rows, message.columns


def parts(message: puzzle_pb2.KakurasuPuzzle, limit: int) -> int:
    """The clues, rows of marks and marks the message holds."""
    rows = message.entries.rows
    outer = len(message.row_clues) + len(message.column_clues) + len(rows)
    return counted(outer, lambda: sum(len(row.values) for row in rows), limit)


def cell_field(message: puzzle_pb2.KakurasuPuzzle, cell: Cell) -> str:
    """A cell is named by its mark."""
    return f"entries.rows[{cell[0]}].values[{cell[1]}]"


def _clues(clues) -> list[int]:
    return [JSON_NO_CLUE if clue is None else clue for clue in clues]


def to_proto(board: Board) -> puzzle_pb2.Puzzle:
    puzzle = board.puzzle
    message = puzzle_pb2.KakurasuPuzzle(
        rows=puzzle.rows,
        columns=puzzle.cols,
        row_clues=_clues(puzzle.row_clues),
        column_clues=_clues(puzzle.column_clues),
    )
    if board.has_entries:
        message.entries.rows.extend(puzzle_pb2.GridRow(values=row) for row in board.entries)
    return puzzle_pb2.Puzzle(kakurasu=message)


WIRE = Wire(message_json("kakurasu"), shape, parts, cell_field, to_proto)
