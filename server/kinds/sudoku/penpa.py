"""Sudoku as a penpa-edit link: penpa's own ``sudoku`` grid (what it makes of a
puzz.link Sudoku) with the boxes as thick lines, the givens as big numbers, the X
rule as both long diagonals; written to open in penpa's Sudoku entry mode."""

from __future__ import annotations

from typing import Any

from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.units import penpa as units

from . import formats  # its family; formats lists this format, so it is read at call time

WORDS: dict[str, Any] = {
    "gridtype": "sudoku",
    "tags": ("classic",),
    "edit_mode": "sudoku",
    "submode": ("1", 9),
    "tabs": ("Surface", "Sudoku Normal"),
}


def _why_not(sheet: penpa.Sheet) -> str | None:
    why = units.why_not(sheet, formats.FAMILY.sizes)
    if why is None and (sheet.corners or sheet.symbols):
        why = "the penpa link draws small clues or symbols: not a plain Sudoku"
    if why is None and "irregular" in sheet.tags:
        why = "the penpa link is tagged irregular: its regions are not boxes"
    if why is None and not units.has_boxes(sheet):
        why = "the penpa link's thick lines are not the usual boxes of its grid"
    return why


FORMAT = units.link_format(lambda: formats.FAMILY, _why_not, WORDS, regions=False)
