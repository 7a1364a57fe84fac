"""Making Sudoku: the units family's maker with the usual boxes."""

from numgrid.server.chain import Grade
from numgrid.server.kinds.units.maker import UnitsMaker
from numgrid.server.kinds.units.shape import box_shape

from .formats import SIZES

# Every 4x4 Sudoku is EASY: its 3,568 minimal puzzles (on the 12 grids whose first row
# is 1 2 3 4; any other is one of them with its digits renamed) need naked singles at
# most, the X variant's 608 hidden singles (``benchmarks/reachable.py
# --every-4x4-sudoku [--diagonals]``), and a puzzle with more givens holds a minimal one.
# Tatham's Solo, too, makes its 2x2 puzzles at its easiest tier only.
REACHABLE = {(4, False): (Grade.EASY,), (4, True): (Grade.EASY,)}

MAKER = UnitsMaker("Sudoku", SIZES, box_shape, REACHABLE)
