"""Making Jigsaw Sudoku: the units family's maker, regions drawn at random."""

from numgrid.server.chain import Grade
from numgrid.server.kinds.units.maker import UnitsMaker

from .formats import SIZES

# No 4x4 Jigsaw Sudoku was made past MEDIUM: HARD by none of 3 seeds at 120 s each (the
# driver), EXPERT and EXTREME by none at 30 s, and of 3,000 draws at every pressure
# (``benchmarks/reachable.py --kind jigsaw --size 4``) 2,999 were EASY and 1 MEDIUM.
# The X variant reaches further (of 1,000 draws with ``--diagonals``, 5 HARD, 2 EXPERT).
REACHABLE = {(4, False): (Grade.EASY, Grade.MEDIUM)}

MAKER = UnitsMaker("Jigsaw Sudoku", SIZES, None, REACHABLE)
