"""Kakuro as a penpa-edit link: penpa's ``kakuro`` grid, numgrid's whole grid frame
included (what penpa makes of a puzz.link Kakuro); every black cell a ``kakuro``
symbol, its sums small in white, the down sum in the bottom-left quarter and the across
sum in the top-right one."""

from __future__ import annotations

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

from .model import WHITE
from .model import Clue
from .model import Puzzle

SYMBOL = "kakuro"  # penpa's symbol of a black cell, and its grid type and genre tag
DOWN, ACROSS = 2, 1  # the quarters of a black cell its sums are written in
WHITE_TEXT = 4  # penpa's style of white text


def _why_not(sheet: penpa.Sheet) -> str | None:
    if SYMBOL not in sheet.symbols.values() and sheet.gridtype != SYMBOL:
        return "the penpa link draws no Kakuro cells (penpa's kakuro symbol or grid)"
    return None


def _sum(sheet: penpa.Sheet, cell: Cell, q: int, findings: list[Finding]) -> int | None:
    text = sheet.corner_at(cell, q)
    if not text:
        return None
    if decimal(text) and len(text) <= 6:
        return int(text)
    findings.append(error("bad_clue", f"{cell_name(cell)}: the sum {quoted(text)}", cell))
    return None


def read(text: str, max_cells: int = 20_000) -> Board:
    sheet = penpa.sheet_of(text, _why_not)
    f = sheet.frame
    if f.rows * f.cols > max_cells:
        raise penpa.refused(f"grid of {f.rows}x{f.cols} is over the limit of {max_cells} cells")
    findings: list[Finding] = []
    squares = []
    for r in range(f.rows):
        row: list[Clue | None] = []
        for c in range(f.cols):
            if sheet.symbol_at((r, c)) == SYMBOL:
                down, across = (_sum(sheet, (r, c), q, findings) for q in (DOWN, ACROSS))
                row.append(Clue(down, across))
            else:
                if sheet.number_at((r, c)):
                    where = cell_name((r, c))
                    findings.append(error("bad_cell", f"{where}: a white cell holds no given"))
                row.append(WHITE)
        squares.append(tuple(row))
    refuse(findings)
    return Board.empty(Puzzle(tuple(squares)))


def write(board: Board) -> str:
    puzzle = board.puzzle
    drawing = penpa.Drawing(
        penpa.Frame(puzzle.cols, puzzle.rows, (0, 0, 0, 0)),
        gridtype=SYMBOL,
        tags=(SYMBOL,),
        tabs=("Surface", "Number Normal"),
    )
    for r, row in enumerate(puzzle.squares):
        for c, square in enumerate(row):
            if square is WHITE:
                continue
            clued = square.down is not None or square.across is not None
            drawing.symbol((r, c), 1 if clued else 2, SYMBOL)
            for q, value in ((DOWN, square.down), (ACROSS, square.across)):
                if value is not None:
                    drawing.corner((r, c), q, str(value), WHITE_TEXT)
    return drawing.link()


FORMAT = Format("penpa", penpa.sniffer(_why_not), read, write)
