"""Jigsaw Sudoku behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

An N x N grid (4x4 to 9x9) cut into N irregular regions of N connected cells, read from
the puzzle; every row, column and region holds each digit once, and in the X variant
both main diagonals too. The units family (:mod:`..units`) holds the model, the checks, both
engines, the logical solver and the maker; this folder names the kind, its formats
(:mod:`.formats`), its proto message (:mod:`.messages`) and its picture.
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

# Its janko text has the shape of a cage puzzle's without operations: it sniffs
# before those, and the registry asks which of them read it (never a silent pick).
JIGSAW: Kind[Puzzle] = Kind(
    __name__, 25, formats, messages.WIRE, checks, native, ladder, generator.MAKER, picture
)
