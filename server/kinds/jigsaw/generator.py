"""Making Jigsaw Sudoku: the units family's maker, regions drawn at random."""

from numgrid.server.kinds.units.maker import UnitsMaker

from .formats import SIZES

MAKER = UnitsMaker("Jigsaw Sudoku", SIZES, None)
