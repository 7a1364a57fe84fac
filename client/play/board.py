"""The board of a game drawn for the terminal, every kind from its
:class:`~numgrid.client.kinds.cells.Layout`: cells 5 wide and 3 tall between walls
(a cage's cells without walls between them), a label in a cell's top line (a cage's
``12x``), the value in the middle or the pencil marks on the two lower lines, clue
cells shaded with their clue (``16\\23``), clues and weights around the grid.

A cell's colour is its status from the server (Validate): duplicate, incomplete (one of
its runs, cages, rows or columns is not full yet), wrong (a full group breaks its
clue), right; a check marks the entries that differ from the solution, a hint its cells.
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Mapping
from dataclasses import dataclass

from rich.text import Text

from ..kinds.cells import Layout
from ..types import Cell
from .game import Game

W, H = 5, 3  # a cell's inside, in characters and lines

STYLES = {
    "wall": "grey62",
    "outer": "bold bright_white",  # the walls of the blocks under the regions (boxes)
    "shaded": "on grey19",  # a cell of a counted diagonal
    "block": "grey70 on grey23",
    "label": "yellow",
    "pencil": "grey62",
    "open": "",
    "given": "bold bright_cyan",
    "incomplete": "bold",
    "duplicate": "bold red",
    "wrong": "bold magenta",
    "right": "bold green",
    "cursor": "reverse",
    "mistake": "bold white on dark_red",  # the check: differs from the solution
    "hint": "on blue",
    "edge": "bold",
}
LEGEND = (
    ("right", "right"),
    ("incomplete", "incomplete"),
    ("duplicate", "duplicate"),
    ("wrong", "wrong sum/cage/clue"),
    ("mistake", "differs from the solution (check)"),
    ("hint", "hint"),
)

# Box-drawing junctions by the arms they join: (up, down, left, right).
_JUNCTIONS = {
    (0, 0, 0, 0): " ",
    (1, 1, 0, 0): "│",
    (0, 0, 1, 1): "─",
    (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴",
    (1, 1, 1, 1): "┼",
    (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷",
    (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


@dataclass(frozen=True)
class View:
    """What the screen shows besides the game: the server's statuses and marks."""

    statuses: Mapping[Cell, str]
    mistakes: Collection[Cell] = ()  # entries the check found differing from the solution
    hinted: Collection[Cell] = ()  # the cells of the hint shown
    cursor: bool = True


class Geometry:
    """Where things go on the drawn board of ``layout``."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.left = max((len(s) for s in layout.left), default=0)
        self.left += 1 if self.left else 0
        self.right = max((len(s) for s in layout.right), default=0)
        self.right += 1 if self.right else 0
        notes = layout.note.splitlines()
        self.head = len(notes) + (1 if any(layout.top) else 0)
        self.width = self.left + 1 + layout.columns * (W + 1) + self.right
        self.width = max(self.width, *(len(line) for line in notes or [""]))
        self.height = self.head + 1 + layout.rows * (H + 1) + (1 if any(layout.bottom) else 0)

    def origin(self, cell: Cell) -> tuple[int, int]:
        """The top-left character (x, y) of a cell's inside."""
        r, c = cell
        return self.left + 1 + c * (W + 1), self.head + 1 + r * (H + 1)

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell drawn at (x, y), or None (a wall, a clue outside the grid)."""
        gx, gy = x - self.left - 1, y - self.head - 1
        if gx < 0 or gy < 0 or gx % (W + 1) == W or gy % (H + 1) == H:
            return None
        r, c = gy // (H + 1), gx // (W + 1)
        if r < self.layout.rows and c < self.layout.columns:
            return r, c
        return None


NO_WALL, WALL, OUTER = 0, 1, 2  # what stands between two cells


def _walls(layout: Layout):
    """``vertical(r, c)``: the wall left of (r, c); ``horizontal(r, c)``: the one above
    it; each NO_WALL, WALL (between regions, or the grid's edge) or, where the layout
    has blocks under its regions, OUTER (between those blocks, and the grid's edge)."""

    def inside(r: int, c: int) -> bool:
        return 0 <= r < layout.rows and 0 <= c < layout.columns

    def wall(a: Cell, b: Cell) -> int:
        ina, inb = inside(*a), inside(*b)
        if not (ina or inb):
            return NO_WALL
        if not (ina and inb):
            return OUTER if layout.outer is not None else WALL
        if layout.outer is not None and layout.outer.get(a) != layout.outer.get(b):
            return OUTER
        if layout.regions is None:
            return WALL
        return WALL if layout.regions.get(a) != layout.regions.get(b) else NO_WALL

    def vertical(r: int, c: int) -> int:
        return wall((r, c - 1), (r, c))

    def horizontal(r: int, c: int) -> int:
        return wall((r - 1, c), (r, c))

    return vertical, horizontal


def _wall_style(*walls: int) -> str:
    return STYLES["outer"] if OUTER in walls else STYLES["wall"]


def draw(game: Game, view: View) -> Text:
    """The board of ``game`` as styled text (:class:`Geometry` says where each cell is)."""
    lay = game.layout
    geo = Geometry(lay)
    vertical, horizontal = _walls(lay)
    out = Text(no_wrap=True, end="")
    pad = " " * geo.left

    def line(parts: list[tuple[str, str]]) -> None:
        for text, style in parts:
            out.append(text, style)
        out.append("\n")

    for note in lay.note.splitlines():
        line([(note, "italic")])
    if any(lay.top):
        line([(pad + " ", "")] + [(t.center(W) + " ", STYLES["edge"]) for t in lay.top])
    for r in range(lay.rows + 1):
        # the wall line above row r
        parts = [(pad, "")]
        for c in range(lay.columns + 1):
            arms = (
                vertical(r - 1, c),
                vertical(r, c),
                horizontal(r, c - 1),
                horizontal(r, c),
            )
            up, down, left, right = (int(bool(a)) for a in arms)
            parts.append((_JUNCTIONS[up, down, left, right], _wall_style(*arms)))
            if c < lay.columns:
                above = horizontal(r, c)
                parts.append(("─" * W if above else " " * W, _wall_style(above)))
        line(parts)
        if r == lay.rows:
            break
        for y in range(H):
            edge = lay.left[r] if y == 1 and r < len(lay.left) else ""
            parts = [(edge.rjust(geo.left - 1) + " " if geo.left else "", STYLES["edge"])]
            for c in range(lay.columns + 1):
                left_wall = vertical(r, c)
                parts.append(("│" if left_wall else " ", _wall_style(left_wall)))
                if c < lay.columns:
                    parts.append(_inside(game, view, (r, c), y))
            if geo.right and y == 1 and r < len(lay.right):
                parts.append((" " + lay.right[r], STYLES["edge"]))
            line(parts)
    if any(lay.bottom):
        line([(pad + " ", "")] + [(t.center(W) + " ", STYLES["edge"]) for t in lay.bottom])
    out.rstrip()
    return out


def _inside(game: Game, view: View, cell: Cell, y: int) -> tuple[str, str]:
    """Line ``y`` of a cell's inside, and its style."""
    lay = game.layout
    if cell in lay.blocks:
        return (lay.blocks[cell] if y == 1 else "").center(W)[:W], STYLES["block"]
    background = STYLES["shaded"] if cell in lay.shaded else ""
    if cell in view.hinted:
        background = STYLES["hint"]
    if cell in view.mistakes:
        background = STYLES["mistake"]
    if view.cursor and cell == game.cursor:
        background = STYLES["cursor"]
    value = game.value(cell)
    if y == 0:
        text, style = lay.labels.get(cell, "").ljust(W)[:W], STYLES["label"]
    elif value and y == 1:
        text = lay.symbols.get(value, "?").center(W)
        status = view.statuses.get(cell, "open")
        style = STYLES[status]
        if cell in lay.givens and status in ("open", "incomplete", "right"):
            style = STYLES["given"]
    elif not value:  # the pencil marks, the first five on line 1, the rest on line 2
        marks = game.marks.get(cell, frozenset())
        row = lay.values[:W] if y == 1 else lay.values[W : 2 * W]
        text = "".join(lay.symbols[v][0] if v in marks else " " for v in row).ljust(W)
        style = STYLES["pencil"]
    else:
        text, style = " " * W, ""
    return text, f"{style} {background}".strip()
