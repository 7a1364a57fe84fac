"""Skyscraper (Towers) in a few words.

- *size* N: the grid is N x N; each cell is a lot that holds a tower or stays empty.
- *height* H: the tallest tower, 1 <= H <= N. Every *line* (row or column, and in the
  *diagonal* variant both main diagonals) holds each height 1..H once; the other N - H
  cells of the line are *empty lots* (``EMPTY``, -1 in a grid). In the plain puzzle
  H = N and there are none.
- *view*: the cells of a line as seen from one edge, nearest first. Its *clue*, written
  outside the grid, counts the towers seen from there: a tower hides every lower one
  behind it, and an empty lot hides nothing. A clue of 0 is no clue.
- *sides*: TOP (the clues above the columns, left to right), BOTTOM (below them), LEFT
  (left of the rows, top to bottom), RIGHT (right of them); a clue's cell sits just
  outside the grid: row -1, row N, column -1, column N.
- *givens*: heights (or empty lots) printed in the grid, 0 elsewhere.
- *board*: a puzzle plus the player's *entries*: a grid of heights, ``EMPTY`` for a lot
  marked empty, 0 where nothing is entered (given cells: 0; a reader reads an entry that
  repeats its given as 0).

A :class:`Puzzle` may be broken (a clue too large, a given out of range): it is only a
faithful reading of a description; :mod:`.checks` says what is wrong.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property

from numgrid.server.core import EMPTY
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import GroupType
from numgrid.server.kinds import latin
from numgrid.server.kinds.latin import Line

MAX_SIZE = 9  # Tatham's Towers goes to 9; clue lines of larger grids would need separators


class Side(enum.Enum):
    """An edge of the grid, named as the proto's clue fields."""

    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"

    @property
    def where(self) -> str:
        """``above column``, ``left of row``: where a clue of this side sits."""
        return _WHERE[self]

    def cells(self, index: int, n: int) -> tuple[Cell, ...]:
        """The cells of line ``index`` seen from this side, nearest first."""
        near = range(n)
        far = range(n - 1, -1, -1)
        if self is Side.TOP:
            return tuple((r, index) for r in near)
        if self is Side.BOTTOM:
            return tuple((r, index) for r in far)
        if self is Side.LEFT:
            return tuple((index, c) for c in near)
        return tuple((index, c) for c in far)

    def clue_cell(self, index: int, n: int) -> Cell:
        """Where the clue is written, just outside the grid."""
        if self is Side.TOP:
            return (-1, index)
        if self is Side.BOTTOM:
            return (n, index)
        return (index, -1) if self is Side.LEFT else (index, n)

    @property
    def opposite(self) -> Side:
        return _OPPOSITE[self]

    @property
    def line_type(self) -> GroupType:
        return GroupType.COLUMN if self in (Side.TOP, Side.BOTTOM) else GroupType.ROW


_WHERE = {
    Side.TOP: "above column",
    Side.BOTTOM: "below column",
    Side.LEFT: "left of row",
    Side.RIGHT: "right of row",
}
_OPPOSITE = {Side.TOP: Side.BOTTOM, Side.BOTTOM: Side.TOP, Side.LEFT: Side.RIGHT}
_OPPOSITE[Side.RIGHT] = Side.LEFT
SIDES = tuple(Side)  # the order of the clues everywhere: top, bottom, left, right


@dataclass(frozen=True)
class View:
    """The towers of one line seen from one side: ``clue`` of them."""

    side: Side
    index: int  # the row's or column's index
    clue: int
    cells: tuple[Cell, ...]  # nearest first
    clue_cell: Cell

    type = GroupType.VIEW
    operation = ""

    @property
    def name(self) -> str:
        """``clue 3 above column 2``."""
        return f"clue {self.clue} {self.side.where} {self.index}"


def visible(heights) -> int:
    """How many towers are seen along ``heights`` (nearest first; EMPTY hides nothing)."""
    seen = tallest = 0
    for h in heights:
        if h > tallest:
            seen, tallest = seen + 1, h
    return seen


@dataclass(frozen=True)
class Puzzle(latin.GivenSquare):
    size: int
    height: int  # the tallest tower, H; N - H empty lots per line
    diagonals: bool
    top: tuple[int, ...]  # 0: no clue
    bottom: tuple[int, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    givens: Grid  # heights, EMPTY for a given empty lot, 0 elsewhere

    @property
    def empties(self) -> int:
        """Empty lots per line."""
        return self.size - self.height

    def clues(self, side: Side) -> tuple[int, ...]:
        return getattr(self, side.value)

    def repeats_cleared(self, entries: Grid) -> Grid:
        """``entries`` (of the grid's shape) without those that repeat their cell's given:
        the readers' one reading of a board, whether its entries list the givens or not
        (as written back: an entry differing from its given stays, for the checks)."""
        return tuple(
            tuple(0 if e == g else e for g, e in zip(grow, erow, strict=True))
            for grow, erow in zip(self.givens, entries, strict=True)
        )

    @property
    def lines(self) -> tuple[Line, ...]:
        """The rows, then the columns, then (diagonal variant) the two diagonals."""
        return latin.lines(self.size, self.diagonals)

    @cached_property
    def views(self) -> tuple[View, ...]:
        """Every clue that is given (within the grid's lines), side by side."""
        n = self.size
        return tuple(
            View(side, i, clue, side.cells(i, n), side.clue_cell(i, n))
            for side in SIDES
            for i, clue in enumerate(self.clues(side)[:n])
            if clue
        )

    @property
    def variant(self) -> str:
        """Which rules apply, in words: ``plain``, ``empty lots (heights 1-4, one empty lot
        per line)``, ``diagonal``."""
        parts = []
        if self.empties > 0:
            lots = "one empty lot" if self.empties == 1 else f"{self.empties} empty lots"
            parts.append(f"empty lots (heights 1-{self.height}, {lots} per line)")
        if self.diagonals:
            parts.append("diagonal (both main diagonals hold each height once)")
        return " and ".join(parts) or "plain"


def arrangements(n: int, height: int, near: int, far: int, allowed=None):
    """Every line of N cells (nearest the ``near`` clue first) that holds 1..``height``
    once and N - ``height`` empty lots and shows the clues (0: none), each cell's value
    among ``allowed[k]`` (None: any), in order."""
    empties = n - height
    line: list[int] = []

    def extend(used: int, lots: int, tallest: int, seen: int):
        k = len(line)
        if k == n:
            if not far or visible(reversed(line)) == far:
                yield tuple(line)
            return
        if near and (seen > near or seen + min(height - tallest, n - k) < near):
            return
        if near and seen == near and tallest < height:
            return
        here = allowed[k] if allowed is not None else None
        if lots < empties and (here is None or EMPTY in here):
            line.append(EMPTY)
            yield from extend(used, lots + 1, tallest, seen)
            line.pop()
        for h in range(1, height + 1):
            if not used & (1 << h) and (here is None or h in here):
                line.append(h)
                yield from extend(used | 1 << h, lots, max(h, tallest), seen + (h > tallest))
                line.pop()

    yield from extend(0, 0, 0, 0)
