"""Jigsaw Sudoku as a penpa-edit link: a square grid with the regions as thick lines
and the givens as big numbers (the X rule as both long diagonals), tagged ``irregular``
as penpa tags it. A grid whose regions are the usual boxes is read here only when so tagged."""

from __future__ import annotations

from typing import Any

from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.units import penpa as units

from . import formats  # its family; formats lists this format, so it is read at call time

TAG = "irregular"  # penpa's genre tag
WORDS: dict[str, Any] = {"tags": (TAG,), "tabs": ("Surface", "Number Normal")}


def _why_not(sheet: penpa.Sheet) -> str | None:
    why = units.why_not(sheet, formats.FAMILY.sizes)
    if why is None and (sheet.corners or sheet.symbols):
        why = "the penpa link draws small clues or symbols: not a plain Jigsaw Sudoku"
    if why is None and len(set(sum(sheet.regions, ()))) != sheet.frame.rows:
        why = f"the penpa link's thick lines do not cut its grid into {sheet.frame.rows} regions"
    if why is None and units.has_boxes(sheet) and TAG not in sheet.tags:
        why = "the penpa link's regions are the usual boxes (and it is not tagged irregular)"
    return why


FORMAT = units.link_format(lambda: formats.FAMILY, _why_not, WORDS, regions=True)
