"""KenKen drawn as text, as printed: bold cage borders (``+--+``, ``|``), no line between
cells of one cage, the cage's ``12x`` label in its first cell's top line, the digit (or
``.``) below it; marked cells bracketed: ``[4]``.

    +-----+-----------+
    |3    |12x        |
    |  3  |  4     1  |
    +-----+-----+     +
"""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from .cells import Layout
from .cells import caged_cells
from .cells import caged_text
from .cells import digits
from .cells import grid_of
from .cells import with_grid

TITLE = "KenKen"  # as printed: captions, help texts
DEFAULT_SIZE = "6"  # numgrid generate without --size
FILES = "Tatham game IDs (KenKen)"  # its own text format, for the CLI's help

_SIGN = {
    puzzle_pb2.CAGE_OPERATION_ADD: "+",
    puzzle_pb2.CAGE_OPERATION_SUBTRACT: "-",
    puzzle_pb2.CAGE_OPERATION_MULTIPLY: "x",
    puzzle_pb2.CAGE_OPERATION_DIVIDE: "/",
}


def label(cage: puzzle_pb2.Cage) -> str:
    """``12x``, ``3-``, ``2/``, ``7+``; a one-cell cage's bare target."""
    return f"{cage.target}{_SIGN.get(cage.operation, '')}"


def entries(puzzle: puzzle_pb2.KenKenPuzzle) -> Grid:
    return grid_of(puzzle.entries, puzzle.size, puzzle.size)


def with_entries(puzzle: puzzle_pb2.KenKenPuzzle, grid: Grid) -> puzzle_pb2.KenKenPuzzle:
    return with_grid(puzzle, grid, puzzle.size, puzzle.size)


def solution_text(puzzle: puzzle_pb2.KenKenPuzzle, grid: Grid) -> str:
    """The janko solution text: ``N N``, then the digits row by row."""
    lines = [f"{puzzle.size} {puzzle.size}", *(" ".join(map(str, row)) for row in grid)]
    return "\n".join(lines) + "\n"


def cages(puzzle: puzzle_pb2.KenKenPuzzle) -> tuple[dict[Cell, int], dict[Cell, str]]:
    """Each cell's cage (its index) and each cage's label, in its first cell."""
    return caged_cells(puzzle.size, puzzle.cages, label)


def layout(puzzle: puzzle_pb2.KenKenPuzzle, shade: str = "▓") -> Layout:
    """The board to play: digits 1-N in every cell, the cages' walls and labels."""
    n = puzzle.size
    regions, labels = cages(puzzle)
    values, keys, symbols = digits(n)
    every = frozenset((r, c) for r in range(n) for c in range(n))
    return Layout(n, n, every, values, keys, symbols, labels=labels, regions=regions)


def draw(
    puzzle: puzzle_pb2.KenKenPuzzle, values: Grid, marks: set[Cell], width: int, shade: str
) -> str:
    n = puzzle.size
    regions, labels = cages(puzzle)
    cage = [[regions.get((r, c), -1) for c in range(n)] for r in range(n)]
    return caged_text(cage, labels, values, marks)


def shape(puzzle: puzzle_pb2.KenKenPuzzle) -> tuple[int, int]:
    return puzzle.size, puzzle.size
