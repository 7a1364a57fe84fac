"""A Jigsaw Sudoku drawn as printed: thick lines around the regions, each region shaded
in turn (no two touching alike), the X variant's diagonals marked."""

from __future__ import annotations

from numgrid.server.kinds.units import picture as units
from numgrid.server.kinds.units.model import Puzzle
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Picture


def draw(puzzle: Puzzle, contents: Contents) -> Picture:
    title = "Jigsaw Sudoku X" if puzzle.diagonals else "Jigsaw Sudoku"
    return units.picture(puzzle, contents, title, shaded=True)
