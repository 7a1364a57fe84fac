"""Puzzles as pictures (SVG): what every kind's drawing shares.

Each kind draws itself (``picture.py`` in its folder, behind ``Kind.picture.draw``); this
module holds what they share: the sizes (one cell is :data:`CELL` pixels), the fonts
and inks, the highlight styles, the grid and the digits, and :class:`Svg`, a small
builder over :mod:`xml.etree.ElementTree`. SVG is XML: the standard library escapes
and serialises it, so the server needs no drawing package, and the same puzzle always
gives the same bytes (attributes in the order they are set, no generated ids).

A picture shows the puzzle as printed, and over it :class:`Contents`: the player's
entries, the solution (in a lighter ink where entries are shown too) and highlighted
cells (:class:`Highlight`: a hint, a mistake).
"""

from __future__ import annotations

import enum
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from numgrid.server.core import Cell
from numgrid.server.core import Grid

SVG_NS = "http://www.w3.org/2000/svg"
MEDIA_TYPE = "image/svg+xml"

CELL = 40  # pixels a side; everything else is in proportion
MARGIN = CELL // 2  # white space around the drawing
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
DIGIT_SIZE = CELL * 0.6  # a cell's digit
CLUE_SIZE = CELL * 0.3  # a cage's label, a sum clue
EDGE_SIZE = CELL * 0.45  # a clue outside the grid
WEIGHT_SIZE = CELL * 0.32  # weights beside the grid

PAPER = "#ffffff"
INK = "#000000"
SOLUTION_INK = "#1f5fbf"  # solution digits beside the player's entries
FAINT = "#b0b0b0"  # lines inside a cage, diagonals
GREY = "#707070"  # weights beside the grid
DARK = "#3c3c3c"  # clue cells
SHADE = "#202020"  # a shaded cell
THIN, THICK = 1, 3  # line widths


class Highlight(enum.Enum):
    """Why a cell is highlighted, named as numgrid.v1.Highlight without its prefix."""

    HINT = "hint"
    MISTAKE = "mistake"


HIGHLIGHT_FILL = {Highlight.HINT: "#ffe066", Highlight.MISTAKE: "#ff8c8c"}


@dataclass(frozen=True)
class Value:
    """What a cell shows: its value (0: nothing), the ink, and whether the player put
    it there (a shading kind marks a cell the player left white, not a solution's)."""

    value: int
    ink: str
    entered: bool


@dataclass(frozen=True)
class Contents:
    """What a picture shows over the bare puzzle."""

    entries: Grid | None = None  # the player's values; None: not shown
    solution: Grid | None = None  # drawn where there is no entry; None: not shown
    highlights: Mapping[Cell, Highlight] = field(default_factory=dict)

    def value(self, cell: Cell) -> Value:
        r, c = cell
        entry = self.entries[r][c] if self.entries is not None else 0
        if entry:
            return Value(entry, INK, True)
        solved = self.solution[r][c] if self.solution is not None else 0
        if solved:
            return Value(solved, INK if self.entries is None else SOLUTION_INK, False)
        return Value(0, INK, False)


@dataclass(frozen=True)
class Picture:
    """An SVG document and its size in pixels."""

    svg: str
    width: int
    height: int


def _n(x: float) -> str:
    """A coordinate as short as it is exact: ``20``, ``12.5``."""
    return f"{round(x, 2):g}"


class Svg:
    """An SVG document of ``width`` x ``height`` pixels on white paper; shapes are added
    in drawing order (later ones on top)."""

    def __init__(self, width: float, height: float, title: str):
        self.width, self.height = round(width), round(height)
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "width": str(self.width),
                "height": str(self.height),
                "viewBox": f"0 0 {self.width} {self.height}",
                "font-family": FONT,
            },
        )
        ET.SubElement(self.root, "title").text = title
        self.rect(0, 0, self.width, self.height, fill=PAPER)

    def _add(self, tag: str, attrs: dict[str, Any]) -> ET.Element:
        return ET.SubElement(
            self.root,
            tag,
            {k.replace("_", "-"): v if isinstance(v, str) else _n(v) for k, v in attrs.items()},
        )

    def rect(self, x: float, y: float, w: float, h: float, **attrs: Any) -> None:
        self._add("rect", {"x": x, "y": y, "width": w, "height": h, **attrs})

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: Any) -> None:
        attrs.setdefault("stroke", INK)
        attrs.setdefault("stroke_linecap", "square")
        self._add("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **attrs})

    def circle(self, cx: float, cy: float, r: float, **attrs: Any) -> None:
        self._add("circle", {"cx": cx, "cy": cy, "r": r, **attrs})

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        *,
        anchor: str = "middle",
        **attrs: Any,
    ) -> None:
        """``text`` with its baseline at ``y``; ``anchor`` start, middle or end at ``x``."""
        attrs.setdefault("fill", INK)
        element = self._add(
            "text", {"x": x, "y": y, "font-size": size, "text-anchor": anchor, **attrs}
        )
        element.text = text

    def centred(self, x: float, y: float, text: str, size: float, **attrs: Any) -> None:
        """``text`` centred on the point (x, y)."""
        self.text(x, y + size * 0.36, text, size, **attrs)  # 0.36: half a digit's height

    def picture(self) -> Picture:
        return Picture(ET.tostring(self.root, encoding="unicode"), self.width, self.height)


@dataclass(frozen=True)
class Grid2D:
    """Where a grid of cells sits in a picture: its top-left corner and its size."""

    x: float
    y: float
    rows: int
    cols: int

    def left(self, c: int) -> float:
        return self.x + c * CELL

    def top(self, r: int) -> float:
        return self.y + r * CELL

    def centre(self, cell: Cell) -> tuple[float, float]:
        return self.left(cell[1]) + CELL / 2, self.top(cell[0]) + CELL / 2

    @property
    def width(self) -> float:
        return self.cols * CELL

    @property
    def height(self) -> float:
        return self.rows * CELL


def highlight(svg: Svg, grid: Grid2D, cell: Cell, style: Highlight) -> None:
    """Fill a cell with its highlight colour (drawn before the cell's contents)."""
    svg.rect(grid.left(cell[1]), grid.top(cell[0]), CELL, CELL, fill=HIGHLIGHT_FILL[style])


def highlight_frame(svg: Svg, grid: Grid2D, cell: Cell, style: Highlight) -> None:
    """A frame inside a dark cell in its highlight colour (a fill would hide the cell)."""
    inset = THICK + 1
    svg.rect(
        grid.left(cell[1]) + inset,
        grid.top(cell[0]) + inset,
        CELL - 2 * inset,
        CELL - 2 * inset,
        fill="none",
        stroke=HIGHLIGHT_FILL[style],
        stroke_width=THICK,
    )


def highlights(svg: Svg, grid: Grid2D, contents: Contents) -> None:
    """Fill every highlighted cell."""
    for cell, style in sorted(contents.highlights.items()):
        highlight(svg, grid, cell, style)


def diagonals(svg: Svg, grid: Grid2D) -> None:
    """Both main diagonals, dashed (the X variants)."""
    dashed = {"stroke": FAINT, "stroke_width": THIN, "stroke_dasharray": "4 4"}
    right, bottom = grid.x + grid.width, grid.y + grid.height
    svg.line(grid.x, grid.y, right, bottom, **dashed)
    svg.line(right, grid.y, grid.x, bottom, **dashed)


def lines(svg: Svg, grid: Grid2D, colour: str = INK, width: float = THIN) -> None:
    """Every line between the cells, and the outer frame (thick)."""
    for r in range(1, grid.rows):
        svg.line(
            grid.x, grid.top(r), grid.x + grid.width, grid.top(r), stroke=colour, stroke_width=width
        )
    for c in range(1, grid.cols):
        svg.line(
            grid.left(c),
            grid.y,
            grid.left(c),
            grid.y + grid.height,
            stroke=colour,
            stroke_width=width,
        )
    frame(svg, grid)


def frame(svg: Svg, grid: Grid2D) -> None:
    svg.rect(grid.x, grid.y, grid.width, grid.height, fill="none", stroke=INK, stroke_width=THICK)


def digit(
    svg: Svg, grid: Grid2D, cell: Cell, value: Value, *, bold: bool = False, scale: float = 1
) -> None:
    """A cell's digit (a number from 10 up smaller, to fit), ``scale`` times the size,
    lowered as much as it is made smaller (to leave room for a label above)."""
    text = str(value.value)
    size = DIGIT_SIZE * scale * (1 if len(text) == 1 else 0.75)
    extra = {"font-weight": "bold"} if bold else {}
    x, y = grid.centre(cell)
    svg.centred(x, y + (1 - scale) * CELL / 2, text, size, fill=value.ink, **extra)


def canvas(
    grid_rows: int,
    grid_cols: int,
    title: str,
    *,
    band: tuple[float, float, float, float] = (0, 0, 0, 0),
    foot: float = 0,
) -> tuple[Svg, Grid2D]:
    """A picture of a grid of ``grid_rows`` x ``grid_cols`` cells with bands of cells
    around it for clues (``band``: cells above, below, left, right) and ``foot`` pixels
    below for a note, within the margin: the Svg and where the grid sits."""
    above, below, left, right = band
    width = 2 * MARGIN + (left + grid_cols + right) * CELL
    height = 2 * MARGIN + (above + grid_rows + below) * CELL + foot
    svg = Svg(width, height, title)
    return svg, Grid2D(MARGIN + left * CELL, MARGIN + above * CELL, grid_rows, grid_cols)
