"""Kakurasu behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

The whole story is in this folder: :mod:`.model` (the vocabulary), :mod:`.sums` (the
sets of weights that make a clue), :mod:`.formats` (the corpus's text, JSON),
:mod:`.checks` (structure and boards), :mod:`.native` and :mod:`.cpsat` (the engines),
:mod:`.logic` and :mod:`.techniques` (hints, explanations, grades), :mod:`.messages`
(the ``KakurasuPuzzle`` message of the service).
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

# First: two lines of numbers after its header is the strictest shape (a square
# one with marks would otherwise pass for a cage puzzle).
KAKURASU: Kind[Puzzle] = Kind(
    __name__, 10, formats, messages.WIRE, checks, native, logic, generator.MAKER, picture
)
