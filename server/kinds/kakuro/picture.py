"""A Kakuro drawn as printed: black cells dark, a clue cell split by a light diagonal
from its top-left corner to its bottom-right one, the down sum below the diagonal (bottom
left), the across sum above it (top right); the white cells with their digits."""

from __future__ import annotations

from numgrid.server import pictures
from numgrid.server.pictures import CELL
from numgrid.server.pictures import CLUE_SIZE
from numgrid.server.pictures import DARK
from numgrid.server.pictures import PAPER
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Picture

from .model import WHITE
from .model import Puzzle


def draw(puzzle: Puzzle, contents: Contents) -> Picture:
    svg, grid = pictures.canvas(puzzle.rows, puzzle.cols, f"Kakuro {puzzle.rows}x{puzzle.cols}")
    clues = []
    for r, row in enumerate(puzzle.squares):
        for c, square in enumerate(row):
            cell = (r, c)
            style = contents.highlights.get(cell)
            if square is WHITE:
                if style is not None:
                    pictures.highlight(svg, grid, cell, style)
                continue
            svg.rect(grid.left(c), grid.top(r), CELL, CELL, fill=DARK)
            if style is not None:
                pictures.highlight_frame(svg, grid, cell, style)
            if square.down is not None or square.across is not None:
                clues.append((cell, square))
    pictures.lines(svg, grid)
    for (r, c), square in clues:
        x, y = grid.left(c), grid.top(r)
        svg.line(x, y, x + CELL, y + CELL, stroke=PAPER, stroke_width=1.5, stroke_linecap="butt")
        if square.down is not None:
            svg.centred(x + CELL * 0.3, y + CELL * 0.74, str(square.down), CLUE_SIZE, fill=PAPER)
        if square.across is not None:
            svg.centred(x + CELL * 0.7, y + CELL * 0.28, str(square.across), CLUE_SIZE, fill=PAPER)
    for cell in puzzle.white_cells:
        value = contents.value(cell)
        if value.value > 0:
            pictures.digit(svg, grid, cell, value)
    return svg.picture()
