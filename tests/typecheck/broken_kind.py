"""Kinds the type checker must refuse (tests/test_typecheck.py runs mypy on this file;
nothing imports or runs it).

A kind is built from its own modules, which mypy holds to the protocols of
``numgrid.server.kinds.base``. ``KAKURO_AGAIN`` is Kakuro built again from its modules
and is accepted. The other two swap in a logic module that breaks it once each, and the
checker says so on the line marked ``# expect:``: a logic module without ``explain``,
and one whose ``explain`` is a function of the wrong shape.
"""

from __future__ import annotations

import logic_misfit
import logic_without_explain
from numgrid.server.kinds import kakuro
from numgrid.server.kinds.base import Kind
from numgrid.server.kinds.kakuro import checks
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro import generator
from numgrid.server.kinds.kakuro import logic
from numgrid.server.kinds.kakuro import messages
from numgrid.server.kinds.kakuro import native
from numgrid.server.kinds.kakuro import picture
from numgrid.server.kinds.kakuro.model import Puzzle

KAKURO_AGAIN: Kind[Puzzle] = Kind(
    kakuro.__name__, 40, formats, messages.WIRE, checks, native, logic, generator.MAKER, picture
)
WITHOUT_EXPLAIN: Kind[Puzzle] = Kind(
    kakuro.__name__,
    40,
    formats,
    messages.WIRE,
    checks,
    native,
    logic_without_explain,  # expect: "LogicModule" protocol member: explain
    generator.MAKER,
    picture,
)
MISFIT: Kind[Puzzle] = Kind(
    kakuro.__name__,
    40,
    formats,
    messages.WIRE,
    checks,
    native,
    logic_misfit,  # expect: Got: def explain(puzzle: str) -> str
    generator.MAKER,
    picture,
)
