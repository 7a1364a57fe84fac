"""Jigsaw Sudoku behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

An N x N grid (4x4 to 9x9) cut into N irregular regions of N connected cells, read from
the puzzle; every row, column and region holds each digit once, and in the X variant
both main diagonals too. The units family (:mod:`..units`) holds the model, the checks, both
engines, the logical solver and the maker; this folder names the kind, its formats
(:mod:`.formats`), its proto message (:mod:`.messages`) and its picture.
"""

from numgrid.server.core import value_text
from numgrid.server.kinds.base import CpsatModel, Kind
from numgrid.server.kinds.units import checks, ladder
from numgrid.server.kinds.units.model import Puzzle

from . import formats, generator, messages, native, picture

JIGSAW: Kind[Puzzle] = Kind(
    name="jigsaw",
    title="Jigsaw Sudoku",
    # Its janko text has the shape of a cage puzzle's without operations: it sniffs
    # before those, and the registry asks which of them read it (never a silent pick).
    rank=25,
    formats=tuple(formats.FORMATS),
    wire=messages.WIRE,
    techniques=ladder.Technique,
    thresholds=ladder.THRESHOLDS,
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
    next_step=ladder.next_step,
    explain=ladder.explain,
    last_resort=ladder.last_resort,
)
