"""Kakurasu drawn as text, as printed: the weights along the top and down the left, each
row's clue on its right and each column's below it (blank when not given); a shaded cell
is filled (``▓▓``, ``##`` with ASCII), a cell marked white ``-``, an undecided one ``.``;
marked cells bracketed: ``[▓▓]``.

         1   2   3   4   5
       +-------------------+
     1 | .   .   .  ▓▓   . |  4
     2 | .   .   .   .  ▓▓ |  5
       +-------------------+
         8   8   9  13   6
"""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from .cells import Layout
from .cells import grid_of
from .cells import with_grid

TITLE = "Kakurasu"  # as printed: captions, help texts
DEFAULT_SIZE = "6"  # numgrid generate without --size

NO_CLUE = -1  # a clue not given, in the message
SHADED, WHITE = 1, -1


def entries(puzzle: puzzle_pb2.KakurasuPuzzle) -> Grid:
    return grid_of(puzzle.entries, puzzle.rows, puzzle.columns)


def with_entries(puzzle: puzzle_pb2.KakurasuPuzzle, grid: Grid) -> puzzle_pb2.KakurasuPuzzle:
    return with_grid(puzzle, grid, puzzle.rows, puzzle.columns)


def solution_text(puzzle: puzzle_pb2.KakurasuPuzzle, grid: Grid) -> str:
    """The corpus's solution text: ``ROWS COLS``, then ``x`` shaded and ``-`` white."""
    lines = [f"{puzzle.rows} {puzzle.columns}"]
    lines.extend(" ".join("x" if v == SHADED else "-" for v in row) for row in grid)
    return "\n".join(lines) + "\n"


def _clue(clues, i: int) -> str:
    return str(clues[i]) if i < len(clues) and clues[i] != NO_CLUE else ""


def symbol(value: int, shade: str) -> str:
    """A shaded cell ``▓▓``, one marked white ``-``, an undecided one ``.``."""
    return shade * 2 if value == SHADED else "-" if value == WHITE else "."


def _cell(value: int, marked: bool, shade: str) -> str:
    text = symbol(value, shade)
    return f"[{text}]" if marked else text


def layout(puzzle: puzzle_pb2.KakurasuPuzzle, shade: str = "▓") -> Layout:
    """The board to play: each cell shaded (key x) or marked white (key -), no digits;
    the weights above and left of the grid, the clues right and below it."""
    rows, cols = puzzle.rows, puzzle.columns
    every = frozenset((r, c) for r in range(rows) for c in range(cols))
    return Layout(
        rows,
        cols,
        every,
        (SHADED, WHITE),
        {"x": SHADED, "-": WHITE},
        {SHADED: symbol(SHADED, shade), WHITE: symbol(WHITE, shade)},
        names={SHADED: "shaded", WHITE: "white"},
        top=tuple(str(c + 1) for c in range(cols)),
        left=tuple(str(r + 1) for r in range(rows)),
        right=tuple(_clue(puzzle.row_clues, r) for r in range(rows)),
        bottom=tuple(_clue(puzzle.column_clues, c) for c in range(cols)),
    )


def draw(
    puzzle: puzzle_pb2.KakurasuPuzzle, values: Grid, marks: set[Cell], width: int, shade: str
) -> str:
    rows, cols = puzzle.rows, puzzle.columns
    widest = max(
        len(str(max(rows, cols))),
        *(len(_clue(puzzle.column_clues, c)) for c in range(cols)),
    )
    w = max(4, widest + 2)  # room for a bracketed shaded cell: [▓▓]
    left = len(str(rows)) + 1

    def grid_row(texts: list[str]) -> str:
        return "".join(text.center(w) for text in texts)

    rule = " " * left + " +" + "-" * (w * cols) + "+"
    lines = [" " * (left + 2) + grid_row([str(c + 1) for c in range(cols)]), rule]
    for r in range(rows):
        cells = [_cell(values[r][c], (r, c) in marks, shade) for c in range(cols)]
        lines.append(
            f"{r + 1:>{left}} |{grid_row(cells)}| {_clue(puzzle.row_clues, r):>3}".rstrip()
        )
    lines.append(rule)
    lines.append(" " * (left + 2) + grid_row([_clue(puzzle.column_clues, c) for c in range(cols)]))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def shape(puzzle: puzzle_pb2.KakurasuPuzzle) -> tuple[int, int]:
    return puzzle.rows, puzzle.columns
