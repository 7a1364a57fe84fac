"""Skyscraper (Towers) behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

The whole story is in this folder: :mod:`.model` (the vocabulary, the variants: empty
lots, diagonals), :mod:`.formats` (the corpus's text, Tatham's Towers IDs, JSON),
:mod:`.checks` (structure and boards), :mod:`.native` and :mod:`.cpsat` (the engines),
:mod:`.logic` and :mod:`.techniques` (hints, explanations, grades), :mod:`.messages` (the
proto message). The latin square's lines, checks and techniques are shared with KenKen
(:mod:`..latin`).
"""

from numgrid.server.core import value_text
from numgrid.server.kinds.base import Kind

from . import checks, formats, generator, logic, native, picture


def _cpsat_model(puzzle, fixed=None):
    """Imported on first use: OR-Tools costs half a second to import."""
    from . import cpsat

    return cpsat.build(puzzle, fixed)


class Skyscraper:
    name = "skyscraper"
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


SKYSCRAPER: Kind = Skyscraper()
