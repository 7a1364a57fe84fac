"""Making Sudoku: the units family's maker with the usual boxes."""

from numgrid.server.kinds.units.maker import UnitsMaker
from numgrid.server.kinds.units.shape import box_shape

from .formats import SIZES

MAKER = UnitsMaker("Sudoku", SIZES, box_shape)
