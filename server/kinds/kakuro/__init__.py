"""Kakuro behind the common :class:`~numgrid.server.kinds.base.Kind` interface."""

from numgrid.server.kinds.base import Kind

from . import checks
from . import formats
from . import generator
from . import logic
from . import messages
from . import native
from . import picture
from .model import Puzzle

# Last: it claims any other text with a 'ROWS COLS' header or of comma-separated
# numbers (its reader then says what is wrong).
KAKURO: Kind[Puzzle] = Kind(
    __name__, 40, formats, messages.WIRE, checks, native, logic, generator.MAKER, picture
)
