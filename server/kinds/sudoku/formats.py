"""Reading and writing Sudoku boards, with auto-detection (the pieces are the units
family's, :mod:`numgrid.server.kinds.units.formats`):

- ``json``: ``{"sudoku": {"size": 9, "diagonals": true, "givens": {...}, "entries": {...}}}``
  (``boxRows``/``boxColumns`` may be given; they must be the usual ones);
- ``tatham``: a Solo game ID, ``3x3:...``, ``2x3:...`` (6x6), ``3x3x:...`` (X variant);
- ``line``: 81 characters (16, 36 or 256 for 4x4, 6x6, 16x16), ``.`` or ``0`` empty;
- ``grid``: N rows of N digits, ``.`` empty, any frame;
- ``janko``: the corpus text, ``N N`` then N lines of givens (``-`` empty);
- ``puzzlink``: a puzz.link URL, ``https://puzz.link/p?sudoku/9/9/...`` (:mod:`.puzzlink`).
- ``sudokuwiki``: a SudokuWiki solver link, ``https://www.sudokuwiki.org/sudoku.htm?bd=``
  and 81 digits (9x9 only, :mod:`.sudokuwiki`).

Sizes: 4x4 and 6x6 (boxes 2 rows x 3 columns), 9x9, 16x16 (1-9 then A-G in text).
"""

from __future__ import annotations

from numgrid.server.kinds.units import formats as units
from numgrid.server.kinds.units import fpuzzles
from numgrid.server.kinds.units.shape import box_shape

from . import penpa
from . import puzzlink
from . import sudokuwiki

SIZES = (4, 6, 9, 16)
FAMILY: units.Family = units.Family("Sudoku", "sudoku", SIZES, box_shape)
FORMATS = units.formats(FAMILY, 16 * 16, "json", "tatham", "line", "grid", "janko").plus(
    penpa.FORMAT,
    fpuzzles.link_format(FAMILY),
    puzzlink.FORMAT,
    sudokuwiki.FORMAT,
)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
write_solution, read_solution = units.write_solution, units.read_solution
