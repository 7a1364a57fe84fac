"""Jigsaw Sudoku as a penpa-edit link: a square grid with the regions as thick lines
and the givens as big numbers (the X rule as both long diagonals), tagged ``irregular``
as penpa tags it. A grid whose regions are the usual boxes is read here only when so tagged."""

from __future__ import annotations

from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.textformats import Format
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


def sniff(text: str) -> str | None:
    found = penpa.sniffed(text)
    return _why_not(found) if isinstance(found, penpa.Sheet) else found


def read(text: str, max_cells: int = 9 * 9) -> Board:
    sheet = penpa.read(text)
    why = _why_not(sheet)
    if why is not None:
        raise penpa.refused(why)
    n = sheet.frame.rows
    findings: list[Finding] = formats.FAMILY.size_errors(n, max_cells)
    givens = units.givens(sheet, findings)
    puzzle = formats.FAMILY.puzzle(n, givens, sheet.regions, sheet.has_diagonals())
    if findings:
        raise units.fail(findings, puzzle)
    return Board.empty(puzzle)


def write(board: Board) -> str:
    return units.drawing(board.puzzle, **WORDS).link()


FORMAT = Format("penpa", sniff, read, write)
