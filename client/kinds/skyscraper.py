"""Skyscraper drawn as text, as printed: the clues around the grid (above and below the
columns, left and right of the rows), a height or ``.`` in each cell, ``x`` for an empty
lot; marked cells bracketed: ``[4]``. A first line says the variant when it is not the
plain one (empty lots, diagonals).

        1  3  2  2  3
      +---------------+
    1 | .  .  .  .  . | 3
    3 | .  .  .  .  . | 2
      ...
      +---------------+
        3  2  2  1  2
"""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from .cells import Layout
from .cells import digits
from .cells import grid_of
from .cells import with_grid

TITLE = "Skyscraper"  # as printed: captions, help texts
DEFAULT_SIZE = "5"  # numgrid generate without --size

EMPTY = -1  # an empty lot (no tower), in a grid
WIDTH = 3  # of a cell, brackets included


def entries(puzzle: puzzle_pb2.SkyscraperPuzzle) -> Grid:
    """What stands on the board: the givens, and the player's entries elsewhere."""
    n = puzzle.size
    givens, own = grid_of(puzzle.givens, n, n), grid_of(puzzle.entries, n, n)
    return tuple(
        tuple(g or e for g, e in zip(grow, erow, strict=True))
        for grow, erow in zip(givens, own, strict=True)
    )


def with_entries(puzzle: puzzle_pb2.SkyscraperPuzzle, grid: Grid) -> puzzle_pb2.SkyscraperPuzzle:
    """A copy whose player's entries are ``grid``'s outside the given cells (the givens
    stay as printed)."""
    n = puzzle.size
    if len(grid) != n or any(len(row) != n for row in grid):
        raise ValueError(f"the grid is not {n}x{n}")
    givens = grid_of(puzzle.givens, n, n)
    own = [
        [0 if g else v for g, v in zip(grow, row, strict=True)]
        for grow, row in zip(givens, grid, strict=True)
    ]
    return with_grid(puzzle, own, n, n)


def _height(puzzle: puzzle_pb2.SkyscraperPuzzle) -> int:
    return puzzle.max_height or puzzle.size


def solution_text(puzzle: puzzle_pb2.SkyscraperPuzzle, grid: Grid) -> str:
    """The corpus's solution text: the header, then the heights, 0 for the empty lots."""
    n = puzzle.size
    header = f"{n} {n} {_height(puzzle)}{' D' if puzzle.diagonals else ''}"
    rows = (" ".join("0" if v == EMPTY else str(v) for v in row) for row in grid)
    return "\n".join([header, *rows]) + "\n"


def variant(puzzle: puzzle_pb2.SkyscraperPuzzle) -> str:
    """The rules beyond the plain puzzle, in words ("" for the plain one)."""
    n, height = puzzle.size, _height(puzzle)
    parts = []
    if height < n:
        lots = "one empty lot" if n - height == 1 else f"{n - height} empty lots"
        parts.append(f"heights 1-{height} and {lots} (x) per line")
    if puzzle.diagonals:
        parts.append("each height once on both diagonals")
    return "; ".join(parts)


def _clue(clues, i: int) -> str:
    return str(clues[i]) if i < len(clues) and clues[i] else ""


def symbol(value: int) -> str:
    """A height, ``x`` for an empty lot, ``.`` for an open cell."""
    return "x" if value == EMPTY else str(value) if value else "."


def _cell(value: int, marked: bool) -> str:
    text = symbol(value)
    return (f"[{text}]" if marked else text).center(WIDTH)


def layout(puzzle: puzzle_pb2.SkyscraperPuzzle, shade: str = "▓") -> Layout:
    """The board to play: heights 1-H (and ``x``, key x, for an empty lot when H is
    below N) in every cell but the givens, the clues around the grid."""
    n, height = puzzle.size, _height(puzzle)
    values, keys, symbols = digits(height)
    if height < n:
        values, keys, symbols = (*values, EMPTY), {**keys, "x": EMPTY}, {**symbols, EMPTY: "x"}
    givens = {
        (r, c): v
        for r, row in enumerate(grid_of(puzzle.givens, n, n))
        for c, v in enumerate(row)
        if v
    }
    every = frozenset((r, c) for r in range(n) for c in range(n))

    def edge(clues) -> tuple[str, ...]:
        return tuple(_clue(clues, i) for i in range(n))

    return Layout(
        n,
        n,
        every - set(givens),
        values,
        keys,
        symbols,
        names={EMPTY: "empty lot"},
        givens=givens,
        top=edge(puzzle.top),
        bottom=edge(puzzle.bottom),
        left=edge(puzzle.left),
        right=edge(puzzle.right),
        note=variant(puzzle),
    )


def draw(
    puzzle: puzzle_pb2.SkyscraperPuzzle, values: Grid, marks: set[Cell], width: int, shade: str
) -> str:
    n = puzzle.size
    edge = max((len(str(c)) for c in (*puzzle.left, *puzzle.right) if c), default=1)

    def clue_row(clues) -> str:
        return " " * (edge + 2) + "".join(_clue(clues, c).center(WIDTH) for c in range(n))

    rule = " " * (edge + 1) + "+" + "-" * (WIDTH * n) + "+"
    lines = [variant(puzzle)] if variant(puzzle) else []
    lines += [clue_row(puzzle.top), rule]
    for r in range(n):
        cells = "".join(_cell(values[r][c], (r, c) in marks) for c in range(n))
        lines.append(f"{_clue(puzzle.left, r):>{edge}} |{cells}| {_clue(puzzle.right, r)}")
    lines += [rule, clue_row(puzzle.bottom)]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def shape(puzzle: puzzle_pb2.SkyscraperPuzzle) -> tuple[int, int]:
    return puzzle.size, puzzle.size
