"""The picture the service should answer for a puzzle text, from the library itself."""

from __future__ import annotations

from numgrid.server import operations
from numgrid.server import pictures
from numgrid.server.core import Budget
from numgrid.server.engines import Engine

MAX_CELLS = 10_000


def library_picture(kind, text: str, **options) -> pictures.Picture:
    board, _ = operations.read_board(kind, text, None, MAX_CELLS)
    rendered = operations.render(
        kind, board, engine=Engine.AUTO, budget=Budget.seconds(30), **options
    )
    return rendered.picture
