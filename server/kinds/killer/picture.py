"""A Killer Sudoku drawn as printed: the units family's grid (thick lines around the
boxes, the Killer-X diagonals marked), each cage outlined by a dashed line a little
inside its cells, its sum small in the top-left corner of its first cell (the outline
steps round it), the digits in the middle."""

from __future__ import annotations

from numgrid.server.core import Cell
from numgrid.server.kinds.units import picture as units
from numgrid.server.pictures import CELL
from numgrid.server.pictures import CLUE_SIZE
from numgrid.server.pictures import INK
from numgrid.server.pictures import PAPER
from numgrid.server.pictures import THIN
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Grid2D
from numgrid.server.pictures import Picture
from numgrid.server.pictures import Svg

from .model import Puzzle

INSET = CELL * 0.1  # how far inside its cells a cage's outline runs
DASH = {"stroke": INK, "stroke_width": THIN, "stroke_dasharray": "3 2", "stroke_linecap": "butt"}


def _outline(svg: Svg, grid: Grid2D, cells: set[Cell]) -> None:
    """A cage's dashed outline: in each cell, the side pieces that face another cage,
    run to the corner where the outline turns, a little inside the cell."""
    for r, c in cells:
        x0, y0 = grid.left(c), grid.top(r)
        x1, y1 = x0 + CELL, y0 + CELL
        up, down = (r - 1, c) in cells, (r + 1, c) in cells
        left, right = (r, c - 1) in cells, (r, c + 1) in cells

        # each side's ends: inset at a corner of the outline, to the cell's edge where the
        # cage goes on (or stepped round a corner cell the cage holds diagonally)
        def end(towards: bool, lo: float, hi: float, inset_lo: bool) -> float:
            return (
                (lo if inset_lo else hi)
                if towards
                else ((lo + INSET) if inset_lo else (hi - INSET))
            )

        if not up:
            svg.line(
                end(left, x0, x1, True), y0 + INSET, end(right, x0, x1, False), y0 + INSET, **DASH
            )
        if not down:
            svg.line(
                end(left, x0, x1, True), y1 - INSET, end(right, x0, x1, False), y1 - INSET, **DASH
            )
        if not left:
            svg.line(
                x0 + INSET, end(up, y0, y1, True), x0 + INSET, end(down, y0, y1, False), **DASH
            )
        if not right:
            svg.line(
                x1 - INSET, end(up, y0, y1, True), x1 - INSET, end(down, y0, y1, False), **DASH
            )
        # an inner corner: the cage goes on two ways but not diagonally between them
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            if (r + dr, c) in cells and (r, c + dc) in cells and (r + dr, c + dc) not in cells:
                cx = x0 + INSET if dc < 0 else x1 - INSET
                cy = y0 + INSET if dr < 0 else y1 - INSET
                ex = x0 if dc < 0 else x1
                ey = y0 if dr < 0 else y1
                svg.line(cx, cy, ex, cy, **DASH)
                svg.line(cx, cy, cx, ey, **DASH)


def draw(puzzle: Puzzle, contents: Contents) -> Picture:
    title = "Killer Sudoku X" if puzzle.diagonals else "Killer Sudoku"

    def cages(svg: Svg, grid: Grid2D) -> None:
        for cage in puzzle.cages:
            _outline(svg, grid, set(cage.cells))
            r, c = cage.first
            x, y = grid.left(c) + 1.5, grid.top(r) + 1.5
            width = CLUE_SIZE * (0.6 * len(str(cage.sum)) + 0.2)
            svg.rect(x, y, width, CLUE_SIZE * 1.05, fill=PAPER)
            svg.text(x + 1, y + CLUE_SIZE * 0.85, str(cage.sum), CLUE_SIZE, anchor="start")

    return units.picture(puzzle, contents, title, overlay=cages)
