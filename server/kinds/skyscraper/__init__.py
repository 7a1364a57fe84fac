"""Skyscraper (Towers) behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

The whole story is in this folder: :mod:`.model` (the vocabulary, the variants: empty
lots, diagonals), :mod:`.formats` (the corpus's text, Tatham's Towers IDs, JSON),
:mod:`.checks` (structure and boards), :mod:`.native` and :mod:`.cpsat` (the engines),
:mod:`.logic` and :mod:`.techniques` (hints, explanations, grades), :mod:`.messages` (the
proto message). The latin square's lines, checks and techniques are shared with the other
latin squares (:mod:`..latin`).
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

# Its header alone has three numbers ('N N H') and its game IDs alone a '/'.
SKYSCRAPER: Kind[Puzzle] = Kind(
    __name__, 20, formats, messages.WIRE, checks, native, logic, generator.MAKER, picture
)
