"""Skyscraper as a puzz.link URL, ``https://puzz.link/p?skyscrapers/5/5/BODY`` (also
typed ``building`` or ``skyscraper``): the 4N outside clues (top, bottom, left, right,
as :data:`.model.SIDES` orders them) in pzprjs' outside-clue list, then the givens in
Number16, left out when there are none (pzprjs' ``src/variety/skyscrapers.js``;
docs/links-formats.md, section 1.5). pzprjs' grids may be rectangles and have no empty
lots nor diagonals: numgrid reads the square ones and writes the plain puzzles."""

from __future__ import annotations

from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.kinds.links import pzpr
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import refuse
from numgrid.server.kinds.textformats import square_size_errors

from . import checks
from .model import MAX_SIZE
from .model import SIDES
from .model import Puzzle

TYPES = ("skyscrapers", "building", "skyscraper")  # pzprjs' name, then its aliases


def read(text: str, max_cells: int = MAX_SIZE * MAX_SIZE) -> Board:
    link = pzpr.parse(text, TYPES)
    n = link.cols
    if link.rows != n:
        raise pzpr.bad_size(
            f"the {pzpr.NAME} skyscrapers grid is {link.cols}x{link.rows}: numgrid's grid is square"
        )
    refuse(square_size_errors(n, max_cells, MAX_SIZE))
    findings: list[Finding] = []

    def clue_at(k: int) -> tuple[str, Cell | None]:
        side, index = SIDES[k // n], k % n
        return f"the clue {side.where} {index}", side.clue_cell(index, n)

    cell_at = pzpr.cell_at(n)
    clues, end = pzpr.read_numbers(link.body, 0, 4 * n, clue_at, findings, "clues", outside=True)
    values: list[int | None] = [None] * (n * n)
    if end < len(link.body):  # givens follow (pzprjs leaves them out when there are none)
        values, end = pzpr.read_numbers(link.body, end, n * n, cell_at, findings, "cells")
    findings += pzpr.trailing(link.body, end, f"the {4 * n} clues and {n * n} cells")
    findings += pzpr.zeros(clues, "clue", clue_at) + pzpr.zeros(values, "height", cell_at)
    sides = [tuple(v or 0 for v in clues[k * n : k * n + n]) for k in range(len(SIDES))]
    top, bottom, left, right = sides  # the four SIDES
    puzzle = Puzzle(n, n, False, top, bottom, left, right, pzpr.rows_of(values, n))
    if findings:
        found = findings + [f for f in checks.check_puzzle(puzzle) if f.is_error]
        raise PuzzleError(found)
    return Board(puzzle, puzzle.empty_grid())


def _given_text(value: int) -> str:
    return "a given empty lot" if value == EMPTY else f"the given {value}"


def write(board: Board) -> str:
    """The puzzle's URL (entries are not part of one)."""
    p: Puzzle = board.puzzle
    n = p.size
    refused = []
    if p.height != n:
        refused.append(
            pzpr.cannot(
                f"{pzpr.NAME}'s skyscrapers have no empty lots (the tallest height is "
                f"{p.height}, not {n})",
            )
        )
    if p.diagonals:
        refused.append(pzpr.cannot(f"{pzpr.NAME}'s skyscrapers have no diagonal rule"))
    for side in SIDES:
        if len(p.clues(side)) != n or not all(0 <= c <= n for c in p.clues(side)):
            refused.append(pzpr.cannot(f"the clues {side.where}s are not {n} clues 0 to {n}"))
    refused += pzpr.givens_beyond(p.givens, n, _given_text)
    refuse(refused)
    body = pzpr.write_numbers([c or None for side in SIDES for c in p.clues(side)])
    givens = [v or None for row in p.givens for v in row]
    if any(givens):
        body += pzpr.write_numbers(givens)
    return pzpr.url(TYPES[0], n, n, body) + "\n"


FORMAT = Format("puzzlink", pzpr.Sniff(TYPES), read, write)
