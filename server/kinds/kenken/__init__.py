"""KenKen (Calcudoku) behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

The whole story is in this folder: :mod:`.model` (the vocabulary), :mod:`.arith` (cage
layouts), :mod:`.formats` (janko text, Tatham's Keen IDs, JSON), :mod:`.checks`
(structure and boards), :mod:`.native` and :mod:`.cpsat` (the engines), :mod:`.logic`
and :mod:`.techniques` (hints, explanations, grades).
"""

from numgrid.server.core import value_text
from numgrid.server.kinds.base import CpsatModel, Kind

from . import checks, formats, generator, logic, messages, native, picture
from .model import Puzzle

KENKEN: Kind[Puzzle] = Kind(
    name="kenken",
    title="KenKen",
    # It claims any square text of more lines than rows (which a looser reader would
    # also take), after the stricter shapes.
    rank=30,
    formats=tuple(formats.FORMATS),
    wire=messages.WIRE,
    techniques=logic.Technique,
    thresholds=logic.THRESHOLDS,
    maker=generator.MAKER,
    sniff=formats.sniff,
    read=formats.read,
    write=formats.write,
    check=checks.check_puzzle,
    validate=checks.validate_board,
    cpsat_model=CpsatModel(__name__),
    native_search=native.search,
    solution_text=formats.write_solution,
    read_solution=formats.read_solution,
    value_text=value_text,
    picture=picture.picture,
    next_step=logic.next_step,
    explain=logic.explain,
    last_resort=logic.last_resort,
)
