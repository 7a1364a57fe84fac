"""Sudoku drawn as text, as printed: thick walls around the boxes, a digit (1-9, then
A-G on a 16x16) or ``.`` in each cell; marked cells bracketed, ``[4]``. A first line
says the X variant when the diagonals count too."""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from . import units
from .cells import Layout
from .units import entries as entries
from .units import shape as shape
from .units import solution_text as solution_text
from .units import variant as variant
from .units import with_entries as with_entries

TITLE = "Sudoku"  # as printed: captions, help texts
DEFAULT_SIZE = "9"  # numgrid generate without --size
SIZE_NOTE = "a Sudoku is 4, 6, 9 or 16"
FILES = "81-character lines, drawn grids and Solo game IDs (Sudoku)"

GENERATE_OPTIONS = ("diagonals",)  # GenerateRequest fields it reads


def boxes(puzzle: puzzle_pb2.SudokuPuzzle) -> list[list[int]]:
    """Each cell's box."""
    written = (puzzle.box_rows, puzzle.box_columns)
    return units.boxes(puzzle.size, written if all(written) else None)


def draw(
    puzzle: puzzle_pb2.SudokuPuzzle, values: Grid, marks: set[Cell], width: int, shade: str
) -> str:
    text = units.draw_blocks(boxes(puzzle), values, marks)
    return f"{units.X_NOTE}\n{text}" if puzzle.diagonals else text


def layout(puzzle: puzzle_pb2.SudokuPuzzle, shade: str = "▓") -> Layout:
    return units.layout(puzzle, boxes(puzzle), units.X_NOTE if puzzle.diagonals else "")
