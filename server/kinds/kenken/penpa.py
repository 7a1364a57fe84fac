"""KenKen as a penpa-edit link: a square grid whose cages are thick lines, each cage's
clue small in the top-left corner of its first cell (``12`` and the multiplication
sign, ``3`` and the minus sign, ``2`` and the division sign, ``7+``, ``4``), titled
KenKen (penpa has no genre tag for it)."""

from __future__ import annotations

import re
from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import square_size_errors

from .model import ADD
from .model import DIVIDE
from .model import MAX_SIZE
from .model import MULTIPLY
from .model import NONE
from .model import SUBTRACT
from .model import WRITTEN
from .model import Cage
from .model import Puzzle

_CLUE = re.compile(r"^([0-9]{1,6})\s*(\S?)$")
_GLYPH = {
    ADD: "+",
    SUBTRACT: "\N{MINUS SIGN}",
    MULTIPLY: "\N{MULTIPLICATION SIGN}",
    DIVIDE: "\N{DIVISION SIGN}",
    NONE: "",
}
WORDS: dict[str, Any] = {"title": "KenKen", "tabs": ("Surface", "Number Normal")}


def _why_not(sheet: penpa.Sheet) -> str | None:
    f = sheet.frame
    if any(f.space) or f.rows != f.cols or f.rows > MAX_SIZE:
        return f"a KenKen is a square grid of at most {MAX_SIZE} a side, with no clues outside"
    if not sheet.corners:
        return "the penpa link has no cage clues (small numbers in cell corners)"
    if sheet.symbols or sheet.layers.get("cage"):
        return "the penpa link draws symbols or dashed cages: not a KenKen"
    return None


def _cage(sheet: penpa.Sheet, cells: list[Cell], findings: list[Finding]) -> Cage | None:
    clues = [(cell, sheet.corner_at(cell, 0)) for cell in cells if sheet.corner_at(cell, 0)]
    where = cell_name(cells[0])
    if len(clues) != 1:
        many = "no clue" if not clues else f"{len(clues)} clues"
        findings.append(error("bad_cage", f"the cage at {where} has {many}", *cells))
        return None
    cell, text = clues[0]
    m = _CLUE.match(text)
    if m is None or m.group(2) not in WRITTEN:
        findings.append(error("bad_clue", f"{cell_name(cell)}: clue {quoted(text)}", cell))
        return None
    return Cage(int(m.group(1)), WRITTEN[m.group(2)], tuple(cells))


def read(text: str, max_cells: int = MAX_SIZE * MAX_SIZE) -> Board:
    sheet = penpa.sheet_of(text, _why_not)
    n = sheet.frame.rows
    findings = square_size_errors(n, max_cells, MAX_SIZE)
    if findings:
        raise PuzzleError(findings)
    given = [(r, c) for r in range(n) for c in range(n) if sheet.number_at((r, c))]
    if given:
        findings.append(
            error("no_givens_here", f"{cell_name(given[0])}: a KenKen has no given digits", *given)
        )
    cells: dict[int, list[Cell]] = {}
    for r, row in enumerate(sheet.regions):
        for c, k in enumerate(row):
            cells.setdefault(k, []).append((r, c))
    cages = [_cage(sheet, group, findings) for group in cells.values()]
    if findings:
        raise PuzzleError(findings)
    return Board.empty(Puzzle(n, tuple(cage for cage in cages if cage is not None)))


def write(board: Board) -> str:
    puzzle = board.puzzle
    n = puzzle.size
    drawing = penpa.Drawing(penpa.Frame(n, n, (0, 0, 0, 0)), **WORDS)
    regions = [[-1] * n for _ in range(n)]
    for k, cage in enumerate(puzzle.cages):
        for r, c in cage.cells:
            regions[r][c] = k
        drawing.corner(cage.cells[0], 0, f"{cage.target}{_GLYPH[cage.operation]}")
    drawing.borders(tuple(map(tuple, regions)))
    return drawing.link()


FORMAT = Format("penpa", penpa.sniffer(_why_not), read, write)
