"""A KenKen drawn as printed: thin lines between the cells of a cage, bold ones between
cages and around the grid, each cage's label in the top-left corner of its first cell
(``12x`` printed with the multiplication sign, likewise ``3-``, ``2/``; ``7+``; a bare
target), the digits in the middle, a little lower."""

from __future__ import annotations

from numgrid.server import pictures
from numgrid.server.pictures import CELL
from numgrid.server.pictures import CLUE_SIZE
from numgrid.server.pictures import FAINT
from numgrid.server.pictures import INK
from numgrid.server.pictures import THICK
from numgrid.server.pictures import THIN
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Picture

from .model import Puzzle

# As printed: the operation's own sign, not the ASCII the text formats use.
SIGNS = {"+": "+", "-": "\u2212", "x": "\u00d7", "/": "\u00f7", "": ""}


def label(target: int, operation: str) -> str:
    return f"{target}{SIGNS[operation]}"


def draw(puzzle: Puzzle, contents: Contents) -> Picture:
    n = puzzle.size
    svg, grid = pictures.canvas(n, n, f"KenKen {n}x{n}")
    pictures.highlights(svg, grid, contents)
    cage_of = puzzle.cage_of

    def border(a, b) -> bool:
        return cage_of.get(a) != cage_of.get(b)

    # Thin lines first, the cages' borders over them.
    for bold in (False, True):
        stroke = {"stroke": INK if bold else FAINT, "stroke_width": THICK if bold else THIN}
        for r in range(n):
            for c in range(1, n):  # the line left of (r, c)
                if border((r, c - 1), (r, c)) == bold:
                    x = grid.left(c)
                    svg.line(x, grid.top(r), x, grid.top(r + 1), **stroke)
        for r in range(1, n):  # the line above (r, c)
            for c in range(n):
                if border((r - 1, c), (r, c)) == bold:
                    y = grid.top(r)
                    svg.line(grid.left(c), y, grid.left(c + 1), y, **stroke)
    pictures.frame(svg, grid)

    for cage in puzzle.cages:
        r, c = cage.clue_cell
        svg.text(
            grid.left(c) + CELL * 0.08,
            grid.top(r) + CELL * 0.08 + CLUE_SIZE * 0.8,
            label(cage.target, cage.operation),
            CLUE_SIZE,
            anchor="start",
        )
    for cell in puzzle.cells:
        value = contents.value(cell)
        if value.value > 0:
            pictures.digit(svg, grid, cell, value, scale=0.8)
    return svg.picture()
