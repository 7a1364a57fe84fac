"""A Sudoku as a SudokuWiki solver link: ``https://www.sudokuwiki.org/sudoku.htm?bd=``
and 81 digits in reading order, ``0`` (or ``.``) for an empty cell
(docs/links-formats.md, section 4.1). The page holds a plain 9x9 Sudoku: no other size,
no X rule, no entries."""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.kinds.links import sudokuwiki
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.units.model import Puzzle

PAGE = "sudoku.htm"


def read_board(text: str) -> Board:
    findings: list[Finding] = []
    values = sudokuwiki.digits(text, 81, 1, "givens", findings)
    if findings:
        raise PuzzleError(findings)
    givens = tuple(tuple(values[r * 9 : r * 9 + 9]) for r in range(9))
    return Board.empty(Puzzle(9, (3, 3), None, False, givens))


def write_board(board: Board) -> str:
    puzzle: Puzzle = board.puzzle
    if puzzle.size != 9:
        raise PuzzleError(
            [
                error(
                    "sudokuwiki_size",
                    f"SudokuWiki's {PAGE} holds a 9x9 Sudoku, not a {puzzle.size}x{puzzle.size}",
                )
            ]
        )
    if puzzle.diagonals:
        raise PuzzleError(
            [
                error(
                    "sudokuwiki_x",
                    f"SudokuWiki's {PAGE} has no X rule (both diagonals)",
                )
            ]
        )
    return "".join(str(v) for row in puzzle.givens for v in row)


FORMAT = sudokuwiki.link_format(PAGE, read_board, write_board)
