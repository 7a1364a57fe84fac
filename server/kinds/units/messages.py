"""A units kind's proto message (its field of the ``numgrid.v1.Puzzle`` oneof): read
through the kind's own JSON reader, sized up before it is, named field by field in
errors, and written back (the kind's :class:`~numgrid.server.kinds.base.Wire`)."""

from __future__ import annotations

from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.kinds.base import Wire
from numgrid.server.kinds.base import counted
from numgrid.server.kinds.base import fill_grid
from numgrid.server.kinds.base import given_field
from numgrid.server.kinds.base import message_json
from numgrid.server.kinds.base import square_shape
from numgrid.v1 import puzzle_pb2

from .formats import Family

GRIDS = ("givens", "entries", "regions")


def wire(family: Family) -> Wire:
    """The Wire of a kind whose message is ``Puzzle.<family.key>``."""
    key = family.key

    def parts(message: Any, limit: int) -> int:
        grids = [getattr(message, name) for name in GRIDS if hasattr(message, name)]
        outer = sum(len(grid.rows) for grid in grids)
        return counted(outer, lambda: sum(len(row.values) for g in grids for row in g.rows), limit)

    def cell_field(message: Any, cell: Cell) -> str:
        given = given_field(message, cell)
        if given is not None:
            return given
        r, c = cell
        if hasattr(message, "regions") and not message.entries.rows:
            return f"regions.rows[{r}].values[{c}]"
        return f"entries.rows[{r}].values[{c}]"

    def to_proto(board: Board) -> puzzle_pb2.Puzzle:
        """The message the kind's JSON format writes, built field by field: every answer
        carrying the puzzle builds one, and protobuf's JSON parser is slow."""
        puzzle = board.puzzle
        message = getattr(puzzle_pb2.Puzzle(), key).__class__(size=puzzle.size)
        if puzzle.boxes is not None:
            message.box_rows, message.box_columns = puzzle.boxes
        if puzzle.canonical_regions is not None:
            regions = puzzle.canonical_regions
            fill_grid(message.regions, tuple(tuple(k + 1 for k in row) for row in regions))
        message.diagonals = puzzle.diagonals
        fill_grid(message.givens, puzzle.givens)
        fill_grid(message.entries, puzzle.entered(board.entries))
        return puzzle_pb2.Puzzle(**{key: message})

    return Wire(message_json(key), square_shape, parts, cell_field, to_proto)
