"""Killer Sudoku as a penpa-edit link: the grid's boxes as thick lines, the cages as
penpa's cage mode draws them (a list of cells each in ``killercages``, a dashed outline
in ``cage``, the sum small in the top-left corner of the cage's first cell), the givens
as big numbers, the X rule as both long diagonals."""

from __future__ import annotations

import re
from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.units import penpa as units

from . import formats  # its family; formats lists this format, so it is read at call time
from .model import Cage

LAYER = "killercages"
penpa.name_layer("6", LAYER)  # penpa abbreviates the layer "z6"
WORDS: dict[str, Any] = {"tags": ("killer",), "tabs": ("Surface", "Number Normal")}
_SUM = re.compile(r"^[0-9]{1,3}$")


def _cage_lists(sheet: penpa.Sheet) -> list[list[int]] | None:
    raw = sheet.layers.get(LAYER)
    if not (isinstance(raw, list) and raw):
        return None
    if not all(isinstance(cage, list) and all(type(k) is int for k in cage) for cage in raw):
        return None
    return raw


def _why_not(sheet: penpa.Sheet) -> str | None:
    why = units.why_not(sheet, formats.SIZES)
    if why is None and _cage_lists(sheet) is None:
        why = "the penpa link draws no cages (lists of cells in penpa's cage mode)"
    if why is None and sheet.symbols:
        why = "the penpa link draws symbols: not a plain Killer Sudoku"
    if why is None and not units.has_boxes(sheet):
        why = "the penpa link's thick lines are not the usual boxes of its grid"
    return why


def _cage(sheet: penpa.Sheet, points: list[int], findings: list[Finding]) -> Cage | None:
    n = sheet.frame.rows
    cells: list[Cell] = []
    for point in points:
        cell = sheet.frame.where(point)
        if cell is None or not (0 <= cell[0] < n and 0 <= cell[1] < n):
            shown = quoted(str(point), 12)
            findings.append(error("bad_cage", f"a cage holds the point {shown}, not a cell"))
            return None
        cells.append(cell)
    cells = sorted(set(cells))
    if not cells:
        return None
    sums = [sheet.corner_at(cell, 0) for cell in cells if sheet.corner_at(cell, 0)]
    if not sums:
        where = cell_name(cells[0])
        findings.append(error("no_sum", f"the cage at {where} has no sum", *cells))
        return None
    if not _SUM.match(sums[0]):
        findings.append(
            error("bad_sum", f"{cell_name(cells[0])}: the cage's sum {quoted(sums[0])}", *cells)
        )
        return None
    return Cage(int(sums[0]), tuple(cells))


def read(text: str, max_cells: int = 9 * 9) -> Board:
    sheet = penpa.sheet_of(text, _why_not)
    n = sheet.frame.rows
    findings: list[Finding] = formats.FAMILY.size_errors(n, max_cells)
    givens = units.givens(sheet, findings)
    lists = _cage_lists(sheet) or []
    if len(lists) > n * n:  # as the f-puzzles reader: more cages than cells is refused
        findings.append(error("bad_cage", f"the link draws {len(lists)} cages for {n * n} cells"))
        lists = lists[: n * n]
    cages = [_cage(sheet, points, findings) for points in lists]
    puzzle = formats._puzzle(n, givens, sheet.has_diagonals(), [c for c in cages if c is not None])
    if findings:
        raise formats.fail(findings, puzzle)
    return Board.empty(puzzle)


def write(board: Board) -> str:
    puzzle = board.puzzle
    drawing = units.drawing(puzzle, **WORDS)
    drawing.layers[LAYER] = [
        sorted(drawing.frame.cell(*cell) for cell in cage.cells) for cage in puzzle.cages
    ]
    for cage in puzzle.cages:
        drawing.outline(cage.cells)
        drawing.corner(cage.first, 0, str(cage.sum))
    return drawing.link()


FORMAT = Format("penpa", penpa.sniffer(_why_not), read, write)
