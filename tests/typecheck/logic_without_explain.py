"""A kind's logic module that forgot ``explain`` (for broken_kind.py)."""

from numgrid.server.kinds.kakuro.logic import THRESHOLDS as THRESHOLDS
from numgrid.server.kinds.kakuro.logic import Technique as Technique
from numgrid.server.kinds.kakuro.logic import last_resort as last_resort
from numgrid.server.kinds.kakuro.logic import next_step as next_step
from numgrid.server.kinds.kakuro.logic import value_text as value_text
