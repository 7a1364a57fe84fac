"""Each puzzle kind's drawing: one module per kind, named as its ``Puzzle`` oneof field,
whose ``KIND`` (a :class:`~.cells.Drawing`) says how it is drawn, played and named.

:data:`DRAWINGS` is derived from the proto descriptor: every field of the ``Puzzle``
oneof ``kind``, in the proto's order, with the module of that name. A new kind adds
its module here and its field to the proto; nothing else on the client names it.
"""

from __future__ import annotations

import importlib

from numgrid.v1 import puzzle_pb2

from .cells import Drawing

# The kinds the client knows: the fields of the Puzzle oneof, in the proto's order.
NAMES: tuple[str, ...] = tuple(
    field.name for field in puzzle_pb2.Puzzle.DESCRIPTOR.oneofs_by_name["kind"].fields
)


def _drawing(name: str) -> Drawing:
    """The ``KIND`` of the module named as the oneof field (imported by name: the list of
    kinds is the proto's, not this package's)."""
    drawing = importlib.import_module(f"{__name__}.{name}").KIND
    if not isinstance(drawing, Drawing) or drawing.name != name:
        raise TypeError(f"{__name__}.{name}.KIND is not the Drawing of {name!r}")
    return drawing


DRAWINGS: dict[str, Drawing] = {name: _drawing(name) for name in NAMES}
