"""A Skyscraper drawn as printed: the grid framed, each clue outside it next to its row
or column (above, below, left, right), the givens bold, an empty lot crossed out; the
diagonal variant's diagonals dashed, and a note under the grid for a variant."""

from __future__ import annotations

from numgrid.server import pictures
from numgrid.server.core import EMPTY
from numgrid.server.pictures import CELL
from numgrid.server.pictures import EDGE_SIZE
from numgrid.server.pictures import INK
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Picture

from .model import SIDES
from .model import Side

NOTE_SIZE = CELL * 0.3


def _lot(svg: pictures.Svg, x: float, y: float, ink: str) -> None:
    """An empty lot: a small cross centred on (x, y)."""
    d = CELL * 0.18
    for dy in (-d, d):
        svg.line(x - d, y - dy, x + d, y + dy, stroke=ink, stroke_width=2)


def notes(puzzle) -> list[str]:
    """The variant's rules in short lines, for under the grid."""
    out = []
    if puzzle.empties:
        lots = "one empty lot" if puzzle.empties == 1 else f"{puzzle.empties} empty lots"
        out.append(f"Heights 1-{puzzle.height}, {lots} per line")
    if puzzle.diagonals:
        out.append("Diagonals: each height once")
    return out


def draw(puzzle, contents: Contents) -> Picture:
    n = puzzle.size
    lines = notes(puzzle)
    svg, grid = pictures.canvas(
        n, n, f"Skyscraper {n}x{n}", band=(1, 1, 1, 1), foot=NOTE_SIZE * 1.5 * len(lines)
    )
    pictures.highlights(svg, grid, contents)
    if puzzle.diagonals:
        pictures.diagonals(svg, grid)
    pictures.lines(svg, grid)

    for side in SIDES:
        for i, clue in enumerate(puzzle.clues(side)[:n]):
            if clue:
                r, c = side.clue_cell(i, n)
                x, y = grid.left(c) + CELL / 2, grid.top(r) + CELL / 2
                if side in (Side.TOP, Side.BOTTOM):  # a little nearer the grid
                    y += CELL * (0.1 if side is Side.TOP else -0.1)
                svg.centred(x, y, str(clue), EDGE_SIZE, font_weight="bold")

    for cell in puzzle.cells:
        given = puzzle.given(cell)
        value = pictures.Value(given, INK, False) if given else contents.value(cell)
        if value.value == EMPTY:
            _lot(svg, *grid.centre(cell), value.ink)
        elif value.value > 0:
            pictures.digit(svg, grid, cell, value, bold=bool(given))
    for i, line in enumerate(lines):
        y = grid.y + grid.height + CELL + NOTE_SIZE * (1.5 * i + 1)
        svg.text(grid.x - CELL, y, line, NOTE_SIZE, anchor="start")
    return svg.picture()
