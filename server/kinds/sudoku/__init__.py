"""Sudoku behind the common :class:`~numgrid.server.kinds.base.Kind` interface.

An N x N grid (4x4, 6x6 with boxes of 2 rows x 3 columns, 9x9, 16x16) cut into boxes;
every row, column and box holds each digit once, and in the X variant both main
diagonals too. The units family (:mod:`..units`) holds the model, the checks, both
engines, the logical solver (:mod:`..units.ladder`) and the maker; this folder names
the kind, its formats (:mod:`.formats`), its proto message (:mod:`.messages`) and its
picture.
"""

from numgrid.server.core import value_text
from numgrid.server.kinds.base import CpsatModel, Kind
from numgrid.server.kinds.units import checks, ladder
from numgrid.server.kinds.units.model import Puzzle

from . import formats, generator, messages, native, picture

SUDOKU: Kind[Puzzle] = Kind(
    name="sudoku",
    title="Sudoku",
    # Its line and grid texts are its own; its janko text ('N N' and N lines) is claimed
    # before the kinds that read any text with a header.
    rank=15,
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
