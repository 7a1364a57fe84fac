"""Kakuro behind the common :class:`~numgrid.server.kinds.base.Kind` interface."""

from numgrid.server.core import value_text
from numgrid.server.kinds.base import Kind

from . import checks, formats, generator, logic, native, picture


def _cpsat_model(puzzle, fixed=None):
    """Imported on first use: OR-Tools costs half a second to import."""
    from . import cpsat

    return cpsat.build(puzzle, fixed)


class Kakuro:
    name = "kakuro"
    techniques = logic.Technique
    thresholds = logic.THRESHOLDS
    maker = generator.MAKER
    sniff = staticmethod(formats.sniff)
    read = staticmethod(formats.read)
    write = staticmethod(formats.write)
    check = staticmethod(checks.check_puzzle)
    validate = staticmethod(checks.validate_board)
    cpsat_model = staticmethod(_cpsat_model)
    native_search = staticmethod(native.search)
    solution_text = staticmethod(formats.write_solution)
    value_text = staticmethod(value_text)
    picture = staticmethod(picture.picture)
    next_step = staticmethod(logic.next_step)
    explain = staticmethod(logic.explain)
    last_resort = staticmethod(logic.last_resort)
    formats = tuple(formats.FORMATS)  # last: the name shadows the module in this body


KAKURO: Kind = Kakuro()
