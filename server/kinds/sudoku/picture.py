"""A Sudoku drawn as printed: thick lines around the boxes, the X variant's diagonals
marked (the units family's picture)."""

from __future__ import annotations

from numgrid.server.kinds.units import picture as units
from numgrid.server.kinds.units.model import Puzzle
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Picture


def draw(puzzle: Puzzle, contents: Contents) -> Picture:
    title = "Sudoku X" if puzzle.diagonals else "Sudoku"
    return units.picture(puzzle, contents, title)
