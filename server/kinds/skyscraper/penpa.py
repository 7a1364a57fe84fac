"""Skyscraper as a penpa-edit link: the grid inside a ring of one cell a side (penpa's
margins ``[1,1,1,1]``, what it makes of a puzz.link Skyscrapers), the clues big numbers
in the ring, the given heights big numbers in the grid (``-`` a given empty lot), the
diagonal rule as both long diagonals drawn. penpa has no word for the empty lots rule:
numgrid writes the heights in the title and rules (``heights 1-4``) and reads them back
from there, as a setter would write them."""

from __future__ import annotations

import re

from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import square_size_errors

from . import checks
from .model import MAX_SIZE
from .model import SIDES
from .model import Puzzle

TAG = "skyscrapers"  # penpa's genre tag
RING = (1, 1, 1, 1)
_HEIGHTS = re.compile(r"heights?\s+1\s*(?:-|\N{EN DASH}|to)\s*([0-9]{1,2})", re.IGNORECASE)
NO_CLUE = ("", "?")  # a '?' clue (puzz.link's) says nothing


def _why_not(sheet: penpa.Sheet) -> str | None:
    f = sheet.frame
    if f.space != RING:
        return "a Skyscraper is a grid in a ring of clues (penpa's margins [1,1,1,1])"
    if sheet.corners or sheet.symbols:
        return "the penpa link draws small numbers or symbols: not a Skyscraper"
    return None


def _value(sheet: penpa.Sheet, cell: Cell, what: str, findings: list[Finding]) -> int:
    text = sheet.number_at(cell)
    if text in NO_CLUE:
        return 0
    if what == "given" and text == "-":
        return EMPTY
    if decimal(text) and len(text) < 3:
        return int(text)
    findings.append(error("bad_value", f"{cell_name(cell)}: the {what} {quoted(text)}", cell))
    return 0


def read(text: str, max_cells: int = MAX_SIZE * MAX_SIZE) -> Board:
    sheet = penpa.sheet_of(text, _why_not)
    n = sheet.frame.rows
    if sheet.frame.cols != n:
        shape = f"{n}x{sheet.frame.cols}"
        raise penpa.refused(f"the penpa link's grid is {shape}: a Skyscraper is square")
    findings = square_size_errors(n, max_cells, MAX_SIZE)
    if findings:
        raise PuzzleError(findings)
    sides = tuple(
        tuple(_value(sheet, side.clue_cell(i, n), "clue", findings) for i in range(n))
        for side in SIDES
    )
    givens = tuple(
        tuple(_value(sheet, (r, c), "given", findings) for c in range(n)) for r in range(n)
    )
    said = _HEIGHTS.search(f"{sheet.title}\n{sheet.rules}")
    height = int(said.group(1)) if said else n
    top, bottom, left, right = sides
    puzzle = Puzzle(n, height, sheet.has_diagonals(), top, bottom, left, right, givens)
    if findings:
        raise PuzzleError(findings + [f for f in checks.check_puzzle(puzzle) if f.is_error])
    return Board.empty(puzzle)


def write(board: Board) -> str:
    puzzle = board.puzzle
    n = puzzle.size
    title, rules = "Skyscrapers", ""
    if puzzle.height < n:
        title += f" (heights 1-{puzzle.height})"
        lots = "one empty lot" if puzzle.empties == 1 else f"{puzzle.empties} empty lots"
        rules = f"Towers of heights 1-{puzzle.height}: each row and column holds {lots}."
    drawing = penpa.Drawing(
        penpa.Frame(n + 2, n + 2, RING),
        title=title,
        rules=rules,
        tags=(TAG,),
        tabs=("Surface", "Number Normal"),
    )
    for side in SIDES:
        for i, clue in enumerate(puzzle.clues(side)):
            if clue:
                drawing.number(side.clue_cell(i, n), str(clue))
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            if value:
                drawing.number((r, c), "-" if value == EMPTY else str(value))
    if puzzle.diagonals:
        drawing.diagonals()
    return drawing.link()


FORMAT = Format("penpa", penpa.sniffer(_why_not), read, write)
