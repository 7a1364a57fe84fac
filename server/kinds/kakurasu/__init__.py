"""Kakurasu behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

The whole story is in this folder: :mod:`.model` (the vocabulary), :mod:`.sums` (the
sets of weights that make a clue), :mod:`.formats` (the corpus's text, JSON),
:mod:`.checks` (structure and boards), :mod:`.native` and :mod:`.cpsat` (the engines),
:mod:`.logic` and :mod:`.techniques` (hints, explanations, grades), :mod:`.messages`
(the ``KakurasuPuzzle`` message of the service).
"""

from numgrid.server.kinds.base import CpsatModel, Kind

from . import checks, formats, generator, logic, messages, native, picture, techniques
from .model import Puzzle

KAKURASU: Kind[Puzzle] = Kind(
    name="kakurasu",
    title="Kakurasu",
    # First: two lines of numbers after its header is the strictest shape (a square
    # one with marks would otherwise pass for a cage puzzle).
    rank=10,
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
    value_text=techniques.value_text,
    picture=picture.picture,
    next_step=logic.next_step,
    explain=logic.explain,
    last_resort=logic.last_resort,
)
