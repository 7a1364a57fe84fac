"""Killer Sudoku drawn as text: walls (``+--+``, ``|``) around the cages, no line between
cells of one cage, each cage's sum in its first cell's top line, the digit (or ``.``)
below it; marked cells bracketed: ``[4]``. A first line names the boxes, and the X
variant when the diagonals count too.

    +-----+-----------+
    |3    |17         |
    |  1  |  8     9  |
    +-----+-----+     +
"""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from . import units
from .cells import Layout
from .cells import caged_cells
from .cells import caged_text
from .units import entries as entries
from .units import shape as shape
from .units import solution_text as solution_text
from .units import variant as variant
from .units import with_entries as with_entries

TITLE = "Killer Sudoku"  # as printed: captions, help texts
DEFAULT_SIZE = "9"  # numgrid generate without --size
SIZE_NOTE = "a Killer Sudoku is 4, 6 or 9"
FILES = "Solo killer game IDs (Killer Sudoku)"

GENERATE_OPTIONS = ("diagonals",)  # GenerateRequest fields it reads


def note(puzzle: puzzle_pb2.KillerPuzzle) -> str:
    rows, cols = units.USUAL_BOXES.get(puzzle.size, (0, 0))
    box = "?" if not rows else f"{rows}x{cols}" if rows == cols else f"{rows} rows x {cols} columns"
    boxes = f"boxes of {box}; each cage's digits differ and add up to its sum"
    return f"{boxes}\n{units.X_NOTE}" if puzzle.diagonals else boxes


def cages(puzzle: puzzle_pb2.KillerPuzzle) -> tuple[dict[Cell, int], dict[Cell, str]]:
    """Each cell's cage (its index) and each cage's sum, in its first cell."""
    return caged_cells(puzzle.size, puzzle.cages, lambda cage: str(cage.sum))


def layout(puzzle: puzzle_pb2.KillerPuzzle, shade: str = "▓") -> Layout:
    """The board to play: digits 1-N, the givens, the cages' walls and sums."""
    regions, labels = cages(puzzle)
    return units.layout(puzzle, regions, note(puzzle), labels, units.boxes(puzzle.size))


def draw(
    puzzle: puzzle_pb2.KillerPuzzle, values: Grid, marks: set[Cell], width: int, shade: str
) -> str:
    n = puzzle.size
    regions, labels = cages(puzzle)
    cage = [[regions.get((r, c), -1 - r * n - c) for c in range(n)] for r in range(n)]
    return caged_text(cage, labels, values, marks, [note(puzzle)])
