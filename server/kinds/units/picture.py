"""A units puzzle drawn as printed: thin lines between cells, thick ones between boxes
or regions and around the grid; irregular regions may also be shaded (in turns of a few
light greys, no two touching regions alike); the X variant's diagonals marked by a light
tint of their cells and a dashed line; the givens bold, the player's digits plain."""

from __future__ import annotations

from collections.abc import Callable

from numgrid.server import pictures
from numgrid.server.core import Cell
from numgrid.server.pictures import CELL
from numgrid.server.pictures import FAINT
from numgrid.server.pictures import INK
from numgrid.server.pictures import THICK
from numgrid.server.pictures import THIN
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Grid2D
from numgrid.server.pictures import Picture
from numgrid.server.pictures import Svg

from .model import Puzzle

SHADES = ("#ffffff", "#e4e4e4", "#f2f2f2", "#d6d6d6")  # regions, no two touching alike
DIAGONAL_TINT = "#eef3fb"


def _block_of(puzzle: Puzzle) -> dict[Cell, int]:
    """Each cell's box or region."""
    n = puzzle.size
    if puzzle.regions is not None:
        return {(r, c): puzzle.regions[r][c] for r in range(n) for c in range(n)}
    if puzzle.boxes is None:
        return {(r, c): 0 for r in range(n) for c in range(n)}
    bh, bw = puzzle.boxes
    return {(r, c): (r // bh) * (n // bw) + c // bw for r in range(n) for c in range(n)}


def _colours(block: dict[Cell, int]) -> dict[int, int]:
    """A shade per region, greedily, no two touching regions alike."""
    touching: dict[int, set[int]] = {}
    for (r, c), k in block.items():
        for near in ((r + 1, c), (r, c + 1)):
            other = block.get(near)
            if other is not None and other != k:
                touching.setdefault(k, set()).add(other)
                touching.setdefault(other, set()).add(k)
    colour: dict[int, int] = {}
    for k in sorted(set(block.values())):
        used = {colour[o] for o in touching.get(k, ()) if o in colour}
        colour[k] = next(i for i in range(len(SHADES) + 8) if i not in used) % len(SHADES)
    return colour


def picture(
    puzzle: Puzzle,
    contents: Contents,
    title: str,
    shaded: bool = False,
    overlay: Callable[[Svg, Grid2D], None] | None = None,
) -> Picture:
    """The grid drawn; ``overlay`` draws what a kind adds (cages with sums) over its
    lines, under the digits."""
    n = puzzle.size
    svg, grid = pictures.canvas(n, n, f"{title} {n}x{n}")
    block = _block_of(puzzle)
    if shaded:
        colour = _colours(block)
        for (r, c), k in block.items():
            if colour[k]:
                svg.rect(grid.left(c), grid.top(r), CELL, CELL, fill=SHADES[colour[k]])
    if puzzle.diagonals:
        for k in range(n):
            for c in (k, n - 1 - k):
                svg.rect(grid.left(c), grid.top(k), CELL, CELL, fill=DIAGONAL_TINT)
    pictures.highlights(svg, grid, contents)
    if puzzle.diagonals:
        pictures.diagonals(svg, grid)
    for bold in (False, True):
        stroke = {"stroke": INK if bold else FAINT, "stroke_width": THICK if bold else THIN}
        for r in range(n):
            for c in range(1, n):
                if (block[r, c - 1] != block[r, c]) == bold:
                    x = grid.left(c)
                    svg.line(x, grid.top(r), x, grid.top(r + 1), **stroke)
        for r in range(1, n):
            for c in range(n):
                if (block[r - 1, c] != block[r, c]) == bold:
                    y = grid.top(r)
                    svg.line(grid.left(c), y, grid.left(c + 1), y, **stroke)
    pictures.frame(svg, grid)
    if overlay is not None:
        overlay(svg, grid)
    for cell in puzzle.cells:
        given = puzzle.given(cell)
        value = pictures.Value(given, INK, False) if given else contents.value(cell)
        if value.value > 0:
            pictures.digit(svg, grid, cell, value, bold=bool(given))
    return svg.picture()
