"""Each puzzle kind's drawing: one module per kind, named as its ``Puzzle`` oneof field,
that says how the kind is drawn, played and named: its functions (``draw``,
``entries``, ``with_entries``, ``solution_text``, ``layout``, ``shape``) and its values
in capitals (``TITLE``, ``DEFAULT_SIZE``, and where it has them ``SIZE_NOTE``,
``FILES``, ``GENERATE_OPTIONS``), gathered here into a :class:`~.cells.Drawing`. Kinds
of one family take its shared functions by name (``from .units import entries as
entries``).

:data:`DRAWINGS` is derived from the proto descriptor: every field of the ``Puzzle``
oneof ``kind``, in the proto's order, with the module of that name. A new kind adds
its module here and its field to the proto; nothing else on the client names it.
"""

from __future__ import annotations

import importlib
from dataclasses import MISSING
from dataclasses import fields

from numgrid.v1 import puzzle_pb2

from .cells import Drawing

# The kinds the client knows: the fields of the Puzzle oneof, in the proto's order.
NAMES: tuple[str, ...] = tuple(
    field.name for field in puzzle_pb2.Puzzle.DESCRIPTOR.oneofs_by_name["kind"].fields
)


def _drawing(name: str) -> Drawing:
    """The drawing of the module named as the oneof field (imported by name: the list of
    kinds is the proto's, not this package's): each field of :class:`Drawing` from the
    module's function of that name, or its value of that name in capitals."""
    module = importlib.import_module(f"{__name__}.{name}")
    found = {}
    for field in fields(Drawing):
        attribute = (
            field.name if callable(getattr(module, field.name, None)) else field.name.upper()
        )
        if hasattr(module, attribute):
            found[field.name] = getattr(module, attribute)
        elif field.default is MISSING and field.name != "name":
            raise TypeError(f"{module.__name__} has no {field.name} (or {attribute})")
    return Drawing(**{**found, "name": name})


DRAWINGS: dict[str, Drawing] = {name: _drawing(name) for name in NAMES}
