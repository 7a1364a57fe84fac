"""Reading and writing Jigsaw Sudoku boards, with auto-detection (the pieces are the
units family's, :mod:`numgrid.server.kinds.units.formats`):

- ``json``: ``{"jigsaw": {"size": 9, "regions": {"rows": [...]}, "givens": {...}}}``,
  region numbers 1..N;
- ``tatham``: a Solo game ID, ``9j:<givens>,<walls>`` (``9jx:`` the X variant);
- ``janko``: the corpus text, ``N N``, N lines of givens (``-`` empty), then N lines of
  region numbers 1..N.

Sizes 4x4 to 9x9; the regions must cut the grid into N connected regions of N cells.
"""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.kinds.textformats import Format, Formats
from numgrid.server.kinds.units import formats as units
from numgrid.server.kinds.units.model import Puzzle

SIZES = (4, 5, 6, 7, 8, 9)
FAMILY = units.Family("Jigsaw Sudoku", "jigsaw", SIZES, None)
DEFAULT_MAX_CELLS = 9 * 9


def _board(puzzle: Puzzle) -> Board:
    return Board(puzzle, puzzle.empty_grid())


def read_json(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    puzzle, entries = units.read_json(FAMILY, text, max_cells)
    return Board(puzzle, entries)


def write_json(board: Board) -> str:
    return units.write_json(FAMILY, board.puzzle, board.entries)


FORMATS = Formats(
    "Jigsaw Sudoku",
    DEFAULT_MAX_CELLS,
    Format("json", lambda text: units.sniff_json(FAMILY, text), read_json, write_json),
    Format(
        "tatham",
        lambda text: units.sniff_tatham(FAMILY, text),
        lambda text, max_cells=DEFAULT_MAX_CELLS: _board(
            units.read_tatham(FAMILY, text, max_cells)
        ),
        lambda board: units.write_tatham(board.puzzle),
    ),
    Format(
        "janko",
        lambda text: units.sniff_janko(FAMILY, text),
        lambda text, max_cells=DEFAULT_MAX_CELLS: _board(units.read_janko(FAMILY, text, max_cells)),
        lambda board: units.write_janko(board.puzzle),
    ),
)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
write_solution, read_solution = units.write_solution, units.read_solution
