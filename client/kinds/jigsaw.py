"""Jigsaw Sudoku drawn as text, as printed: thick walls around the irregular regions, a
digit or ``.`` in each cell; marked cells bracketed, ``[4]``. A first line says the X
variant when the diagonals count too."""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from . import units
from .cells import Layout
from .units import entries as entries
from .units import shape as shape
from .units import variant as variant
from .units import with_entries as with_entries

TITLE = "Jigsaw Sudoku"  # as printed: captions, help texts
DEFAULT_SIZE = "9"  # numgrid generate without --size
SIZE_NOTE = "a Jigsaw Sudoku is 4 to 9"
FILES = "Solo jigsaw game IDs (Jigsaw Sudoku)"

GENERATE_OPTIONS = ("diagonals",)  # GenerateRequest fields it reads


def regions(puzzle: puzzle_pb2.JigsawPuzzle) -> list[list[int]]:
    """Each cell's region (as numbered, 1..N)."""
    return [list(row) for row in units.grid_of(puzzle.regions, puzzle.size)]


def solution_text(puzzle: puzzle_pb2.JigsawPuzzle, grid: Grid) -> str:
    return units.solution_text(puzzle, grid)


def draw(
    puzzle: puzzle_pb2.JigsawPuzzle, values: Grid, marks: set[Cell], width: int, shade: str
) -> str:
    text = units.draw_blocks(regions(puzzle), values, marks)
    return f"{units.X_NOTE}\n{text}" if puzzle.diagonals else text


def layout(puzzle: puzzle_pb2.JigsawPuzzle, shade: str = "▓") -> Layout:
    return units.layout(puzzle, regions(puzzle), units.X_NOTE if puzzle.diagonals else "")
