"""KenKen (Calcudoku) behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

The whole story is in this folder: :mod:`.model` (the vocabulary), :mod:`.arith` (cage
layouts), :mod:`.formats` (janko text, Tatham's Keen IDs, JSON), :mod:`.checks`
(structure and boards), :mod:`.native` and :mod:`.cpsat` (the engines), :mod:`.logic`
and :mod:`.techniques` (hints, explanations, grades).
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

# It claims any square text of more lines than rows (which a looser reader would
# also take), after the stricter shapes.
KENKEN: Kind[Puzzle] = Kind(
    __name__, 30, formats, messages.WIRE, checks, native, logic, generator.MAKER, picture
)
