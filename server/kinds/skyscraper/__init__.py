"""Skyscraper (Towers) behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

The whole story is in this folder: :mod:`.model` (the vocabulary, the variants: empty
lots, diagonals), :mod:`.formats` (the corpus's text, Tatham's Towers IDs, JSON),
:mod:`.checks` (structure and boards), :mod:`.native` and :mod:`.cpsat` (the engines),
:mod:`.logic` and :mod:`.techniques` (hints, explanations, grades), :mod:`.messages` (the
proto message). The latin square's lines, checks and techniques are shared with the other
latin squares (:mod:`..latin`).
"""

from numgrid.server.core import value_text
from numgrid.server.kinds.base import CpsatModel, Kind

from . import checks, formats, generator, logic, messages, native, picture
from .model import Puzzle

SKYSCRAPER: Kind[Puzzle] = Kind(
    name="skyscraper",
    title="Skyscraper",
    # Its header alone has three numbers ('N N H') and its game IDs alone a '/'.
    rank=20,
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
