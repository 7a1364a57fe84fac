"""A Kakurasu drawn as printed: the weights (1, 2, 3, ...) along the top and down the
left in grey, each row's clue on its right and each column's below it in bold (blank
when not given), a shaded cell filled dark, a cell the player marked white dotted."""

from __future__ import annotations

from numgrid.server import pictures
from numgrid.server.pictures import CELL
from numgrid.server.pictures import EDGE_SIZE
from numgrid.server.pictures import GREY
from numgrid.server.pictures import SHADE
from numgrid.server.pictures import WEIGHT_SIZE
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Picture

from .model import SHADED
from .model import WHITE
from .model import Puzzle

HIGHLIGHT_INSET = 5  # a shaded cell that is highlighted keeps a frame of its colour


def draw(puzzle: Puzzle, contents: Contents) -> Picture:
    rows, cols = puzzle.rows, puzzle.cols
    svg, grid = pictures.canvas(rows, cols, f"Kakurasu {rows}x{cols}", band=(1, 1, 1, 1))
    pictures.highlights(svg, grid, contents)
    for cell in puzzle.cells:
        value = contents.value(cell)
        x, y = grid.left(cell[1]), grid.top(cell[0])
        if value.value == SHADED:
            inset = HIGHLIGHT_INSET if cell in contents.highlights else 0
            svg.rect(x + inset, y + inset, CELL - 2 * inset, CELL - 2 * inset, fill=SHADE)
        elif value.value == WHITE and value.entered:
            svg.circle(*grid.centre(cell), CELL * 0.07, fill=value.ink)
    pictures.lines(svg, grid)

    weight = {"fill": GREY}
    for c in range(cols):
        x = grid.left(c) + CELL / 2
        svg.centred(x, grid.y - CELL / 2, str(c + 1), WEIGHT_SIZE, **weight)
        if c < len(puzzle.column_clues) and puzzle.column_clues[c] is not None:
            y = grid.y + grid.height + CELL / 2
            svg.centred(x, y, str(puzzle.column_clues[c]), EDGE_SIZE, font_weight="bold")
    for r in range(rows):
        y = grid.top(r) + CELL / 2
        svg.centred(grid.x - CELL / 2, y, str(r + 1), WEIGHT_SIZE, **weight)
        if r < len(puzzle.row_clues) and puzzle.row_clues[r] is not None:
            x = grid.x + grid.width + CELL / 2
            svg.centred(x, y, str(puzzle.row_clues[r]), EDGE_SIZE, font_weight="bold")
    return svg.picture()
