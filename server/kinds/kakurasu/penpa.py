"""Kakurasu as a penpa-edit link: the grid with one row of margin above and one column
to its left (penpa's margins ``[1,0,1,0]``) holding the clues as big numbers, each
column's above it and each row's to its left; clues below and to the right (margins
``[0,1,0,1]``) are read too. Solved by shading, so the link opens in penpa's surface
mode; titled Kakurasu (penpa has no genre tag for it)."""

from __future__ import annotations

from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import refuse

from . import formats  # its size limits; formats lists this format, so read at call time
from .model import MAX_SIZE
from .model import Puzzle

BEFORE, AFTER = (1, 0, 1, 0), (0, 1, 0, 1)  # clues above and left, or below and right
WORDS: dict[str, Any] = {
    "title": "Kakurasu",
    "edit_mode": "surface",
    "submode": ("", 1),
    "tabs": ("Surface",),
}


def _why_not(sheet: penpa.Sheet) -> str | None:
    if sheet.frame.space not in (BEFORE, AFTER):
        return "a Kakurasu has one row and one column of clues (penpa's margins [1,0,1,0])"
    if sheet.corners or sheet.symbols:
        return "the penpa link draws small numbers or symbols: not a Kakurasu"
    return None


def _clue(sheet: penpa.Sheet, cell: Cell, findings: list[Finding]) -> int | None:
    text = sheet.number_at(cell)
    if not text:
        return None
    if decimal(text) and len(text) <= formats.CLUE_DIGITS:
        return int(text)
    message = f"{cell_name(cell)}: the clue {quoted(text)} is not a number"
    findings.append(error("bad_clue", message, cell))
    return None


def read(text: str, max_cells: int = MAX_SIZE * MAX_SIZE) -> Board:
    sheet = penpa.sheet_of(text, _why_not)
    f = sheet.frame
    refuse(formats.size_errors(f.rows, f.cols, max_cells))
    findings: list[Finding] = []
    top = f.space == BEFORE
    column_clues = tuple(_clue(sheet, (-1 if top else f.rows, c), findings) for c in range(f.cols))
    row_clues = tuple(_clue(sheet, (r, -1 if top else f.cols), findings) for r in range(f.rows))
    inside = [(r, c) for r in range(f.rows) for c in range(f.cols) if sheet.number_at((r, c))]
    if inside:
        findings.append(
            error("bad_clue", f"{cell_name(inside[0])}: a Kakurasu has no numbers in its grid")
        )
    refuse(findings)
    puzzle = Puzzle(f.rows, f.cols, row_clues, column_clues)
    return Board.empty(puzzle)


def write(board: Board) -> str:
    puzzle = board.puzzle
    drawing = penpa.Drawing(penpa.Frame(puzzle.cols + 1, puzzle.rows + 1, BEFORE), **WORDS)
    for c, clue in enumerate(puzzle.column_clues):
        if clue is not None:
            drawing.number((-1, c), str(clue))
    for r, clue in enumerate(puzzle.row_clues):
        if clue is not None:
            drawing.number((r, -1), str(clue))
    return drawing.link()


FORMAT = Format("penpa", penpa.sniffer(_why_not), read, write)
