"""Sudoku as a puzz.link URL, ``https://puzz.link/p?sudoku/9/9/BODY``: the givens in
reading order, Number16 (pzprjs' ``src/variety/sudoku.js``; docs/links-formats.md,
section 1.4). pzprjs draws square boxes, and boxes of 2 rows x 3 columns for 6x6, so
its grids are the 4x4, 6x6, 9x9 and 16x16 numgrid serves; it has no X variant."""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.kinds.links import pzpr
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import refuse
from numgrid.server.kinds.textformats import square_size_errors
from numgrid.server.kinds.units.formats import fail
from numgrid.server.kinds.units.model import Puzzle
from numgrid.server.kinds.units.shape import box_shape

TYPES = ("sudoku",)
SIZES = (4, 6, 9, 16)  # the grids whose boxes pzprjs draws (sudoku.js initBoardSize)
MAX_SIZE = max(SIZES)


def read(text: str, max_cells: int = MAX_SIZE * MAX_SIZE) -> Board:
    link = pzpr.parse(text, TYPES)
    n = link.cols
    if link.rows != n or n not in SIZES:
        raise pzpr.bad_size(
            f"the {pzpr.NAME} sudoku is {link.cols}x{link.rows}: numgrid reads the "
            "4x4, 6x6, 9x9 and 16x16 grids, whose boxes pzprjs draws"
        )
    refuse(square_size_errors(n, max_cells, MAX_SIZE))
    findings: list[Finding] = []
    at = pzpr.cell_at(n)
    values, end = pzpr.read_numbers(link.body, 0, n * n, at, findings, "cells")
    findings += pzpr.trailing(link.body, end, f"the {n * n} cells")
    findings += pzpr.zeros(values, "digit", at, zero="a given 0")
    puzzle = Puzzle(n, box_shape(n), None, False, pzpr.rows_of(values, n))
    if findings:
        raise fail(findings, puzzle)
    return Board(puzzle, puzzle.empty_grid())


def write(board: Board) -> str:
    """The puzzle's URL (entries are not part of one)."""
    puzzle: Puzzle = board.puzzle
    n = puzzle.size
    refused = []
    if puzzle.diagonals:
        refused.append(
            pzpr.cannot(
                f"{pzpr.NAME}'s sudoku has no X variant (both main diagonals)",
            )
        )
    if n not in SIZES or puzzle.boxes != box_shape(n):
        refused.append(
            pzpr.cannot(
                f"{pzpr.NAME}'s sudoku has the boxes of a 4x4, 6x6, 9x9 or 16x16 grid only",
            )
        )
    refused += pzpr.givens_beyond(puzzle.givens, n)
    refuse(refused)
    body = pzpr.write_numbers([v or None for row in puzzle.givens for v in row])
    return pzpr.url(TYPES[0], n, n, body) + "\n"


FORMAT = Format("puzzlink", pzpr.Sniff(TYPES), read, write)
