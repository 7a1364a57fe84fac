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

from numgrid.server.kinds.units import formats as units
from numgrid.server.kinds.units import fpuzzles

from . import penpa

SIZES = (4, 5, 6, 7, 8, 9)
FAMILY: units.Family = units.Family("Jigsaw Sudoku", "jigsaw", SIZES, None)
FORMATS = units.formats(FAMILY, 9 * 9, "json", "tatham", "janko").plus(
    penpa.FORMAT, fpuzzles.link_format(FAMILY)
)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
write_solution, read_solution = units.write_solution, units.read_solution
