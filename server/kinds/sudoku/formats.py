"""Reading and writing Sudoku boards, with auto-detection (the pieces are the units
family's, :mod:`numgrid.server.kinds.units.formats`):

- ``json``: ``{"sudoku": {"size": 9, "diagonals": true, "givens": {...}, "entries": {...}}}``
  (``boxRows``/``boxColumns`` may be given; they must be the usual ones);
- ``tatham``: a Solo game ID, ``3x3:...``, ``2x3:...`` (6x6), ``3x3x:...`` (X variant);
- ``line``: 81 characters (16, 36 or 256 for 4x4, 6x6, 16x16), ``.`` or ``0`` empty;
- ``grid``: N rows of N digits, ``.`` empty, any frame;
- ``janko``: the corpus text, ``N N`` then N lines of givens (``-`` empty).

Sizes: 4x4 and 6x6 (boxes 2 rows x 3 columns), 9x9, 16x16 (1-9 then A-G in text).
"""

from __future__ import annotations

from collections.abc import Callable

from numgrid.server.core import Board
from numgrid.server.kinds.textformats import Format, Formats
from numgrid.server.kinds.units import formats as units
from numgrid.server.kinds.units.model import Puzzle
from numgrid.server.kinds.units.shape import box_shape

SIZES = (4, 6, 9, 16)
FAMILY = units.Family("Sudoku", "sudoku", SIZES, box_shape)
DEFAULT_MAX_CELLS = 16 * 16


def _board(puzzle: Puzzle) -> Board:
    return Board(puzzle, puzzle.empty_grid())


def read_json(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    puzzle, entries = units.read_json(FAMILY, text, max_cells)
    return Board(puzzle, entries)


def write_json(board: Board) -> str:
    return units.write_json(FAMILY, board.puzzle, board.entries)


def _format(
    name: str,
    sniff: Callable[[units.Family, str], str | None],
    read: Callable[[units.Family, str, int], Puzzle],
    write: Callable[[Puzzle], str],
) -> Format:
    return Format(
        name,
        lambda text: sniff(FAMILY, text),
        lambda text, max_cells=DEFAULT_MAX_CELLS: _board(read(FAMILY, text, max_cells)),
        lambda board: write(board.puzzle),
    )


FORMATS = Formats(
    "Sudoku",
    DEFAULT_MAX_CELLS,
    Format("json", lambda text: units.sniff_json(FAMILY, text), read_json, write_json),
    _format("tatham", units.sniff_tatham, units.read_tatham, units.write_tatham),
    Format(
        "line",
        units.sniff_line,
        lambda text, max_cells=DEFAULT_MAX_CELLS: _board(units.read_line(FAMILY, text, max_cells)),
        lambda board: units.write_line(board.puzzle),
    ),
    Format(
        "grid",
        units.sniff_grid,
        lambda text, max_cells=DEFAULT_MAX_CELLS: _board(units.read_grid(FAMILY, text, max_cells)),
        lambda board: units.write_grid(board.puzzle),
    ),
    _format("janko", units.sniff_janko, units.read_janko, lambda p: units.write_janko(p)),
)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
write_solution, read_solution = units.write_solution, units.read_solution
