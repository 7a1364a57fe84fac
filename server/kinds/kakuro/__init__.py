"""Kakuro behind the common :class:`~numgrid.server.kinds.base.Kind` interface."""

from numgrid.server.core import value_text
from numgrid.server.kinds.base import CpsatModel, Kind

from . import checks, formats, generator, logic, messages, native, picture
from .model import Puzzle

KAKURO: Kind[Puzzle] = Kind(
    name="kakuro",
    title="Kakuro",
    # Last: it claims any other text with a 'ROWS COLS' header or of comma-separated
    # numbers (its reader then says what is wrong).
    rank=40,
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
