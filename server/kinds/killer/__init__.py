"""Killer Sudoku (and Killer-X) behind the common :class:`~numgrid.server.kinds.base.Kind`
interface.

An N x N grid (4x4, 6x6 with boxes of 2 rows x 3 columns, 9x9) cut into boxes and into
cages: every row, column and box holds each digit once (in Killer-X both main diagonals
too), and each cage's digits differ and add up to its sum. The units family
(:mod:`..units`) holds the grid's rules, both engines' cores, the ladder and the picture;
this folder adds the cages: the model (:mod:`.model`), formats, checks, the sums in
both engines, the cage techniques (:mod:`.logic`), the maker and the outlines.
"""

from numgrid.server.kinds.base import Kind

from . import checks
from . import formats
from . import generator
from . import logic
from . import messages
from . import native
from . import picture
from .model import Puzzle

# Its numgrid-written janko text ('N N K') is its own; the corpus's ('N N', sums then
# cage numbers) fits a cage puzzle without operations too, and the registry says so.
KILLER: Kind[Puzzle] = Kind(
    __name__, 27, formats, messages.WIRE, checks, native, logic, generator.MAKER, picture
)
