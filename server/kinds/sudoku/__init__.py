"""Sudoku behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

An N x N grid (4x4, 6x6 with boxes of 2 rows x 3 columns, 9x9, 16x16) cut into boxes;
every row, column and box holds each digit once, and in the X variant both main
diagonals too. The units family (:mod:`..units`) holds the model, the checks, both
engines, the logical solver (:mod:`..units.ladder`) and the maker; this folder names
the kind, its formats (:mod:`.formats`), its proto message (:mod:`.messages`) and its
picture.
"""

from numgrid.server.kinds.base import Kind
from numgrid.server.kinds.units import checks
from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.model import Puzzle

from . import formats
from . import generator
from . import messages
from . import native
from . import picture

# Its line and grid texts are its own; its janko text ('N N' and N lines) is claimed
# before the kinds that read any text with a header.
SUDOKU: Kind[Puzzle] = Kind(
    __name__, 15, formats, messages.WIRE, checks, native, ladder, generator.MAKER, picture
)
