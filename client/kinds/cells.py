"""What every kind's drawing shares: a digit's text, a board's :class:`Layout`, and the
:class:`Drawing` each kind module builds as its ``KIND``."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import TypeVar

from google.protobuf.message import Message
from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid

M = TypeVar("M", bound=Message)


def digit_text(value: int, marked: bool, width: int) -> str:
    """A cell's digit (``.`` when empty) centred in ``width``, bracketed when marked."""
    text = str(value) if value else "."
    if marked:
        text = f"[{text}]"
    return text.center(width)


def caged_cells(
    size: int, cages: Sequence[Any], label: Callable[[Any], str]
) -> tuple[dict[Cell, int], dict[Cell, str]]:
    """Each cell's cage (its index in ``cages``, messages with ``cells`` of row and
    column) and each cage's ``label``, in its first cell."""
    regions: dict[Cell, int] = {}
    labels: dict[Cell, str] = {}
    for i, cage in enumerate(cages):
        cells = sorted((ref.row, ref.column) for ref in cage.cells)
        for r, c in cells:
            if 0 <= r < size and 0 <= c < size:
                regions[(r, c)] = i
        if cells:
            labels[cells[0]] = label(cage)
    return regions, labels


def caged_text(
    cage: Sequence[Sequence[int]],
    labels: Mapping[Cell, str],
    values: Grid,
    marks: set[Cell],
    head: Sequence[str] = (),
) -> str:
    """Cells drawn as text with walls (``+--+``, ``|``) around the groups of ``cage``
    (per cell its group's number), none between cells of one group; each label in its
    cell's top line, the value below it; ``head`` lines first."""
    n = len(cage)
    w = max(5, *(len(text) for text in labels.values())) if labels else 5

    def of(r: int, c: int) -> int | None:
        return cage[r][c] if 0 <= r < n and 0 <= c < n else None

    def wall(a: int | None, b: int | None) -> bool:
        return a is None or b is None or a != b

    def across(r: int, c: int) -> bool:  # the border above cell (r, c)
        return wall(of(r - 1, c), of(r, c)) if 0 <= c < n else False

    def down(r: int, c: int) -> bool:  # the border left of cell (r, c)
        return wall(of(r, c - 1), of(r, c)) if 0 <= r < n else False

    def border(r: int) -> str:
        out = []
        for c in range(n + 1):
            corner = across(r, c - 1) or across(r, c) or down(r - 1, c) or down(r, c)
            out.append("+" if corner else " ")
            if c < n:
                out.append(("-" if across(r, c) else " ") * w)
        return "".join(out)

    lines = list(head)
    for r in range(n):
        lines.append(border(r))
        top, bottom = [], []
        for c in range(n + 1):
            bar = "|" if down(r, c) else " "
            top.append(bar)
            bottom.append(bar)
            if c < n:
                top.append(labels.get((r, c), "").ljust(w))
                bottom.append(digit_text(values[r][c], (r, c) in marks, w))
        lines.extend(("".join(top), "".join(bottom)))
    lines.append(border(n))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def grid_of(message: puzzle_pb2.Grid, rows: int, columns: int) -> Grid:
    """A ``Grid`` message's values, all 0 when it has none."""
    if not message.rows:
        return tuple((0,) * columns for _ in range(rows))
    return tuple(tuple(row.values) for row in message.rows)


def with_grid(puzzle: M, grid: Sequence[Sequence[int]], rows: int, columns: int) -> M:
    """A copy of ``puzzle`` whose ``entries`` (a ``Grid``) hold ``grid``, left empty when
    it is all 0; ValueError when the grid is not ``rows`` x ``columns``."""
    if len(grid) != rows or any(len(row) != columns for row in grid):
        raise ValueError(f"the grid is not {rows}x{columns}")
    out = type(puzzle)()
    out.CopyFrom(puzzle)
    out.ClearField("entries")
    if any(any(row) for row in grid):
        entries: puzzle_pb2.Grid = getattr(out, "entries")  # noqa: B009 - any kind's message
        entries.rows.extend(puzzle_pb2.GridRow(values=row) for row in grid)
    return out


@dataclass(frozen=True)
class Layout:
    """A board as a player sees it, whatever its kind: each kind's ``layout(puzzle)``
    says which cells are played and with what, and what else is printed where; a
    screen that plays (``numgrid play``) draws every kind from this alone.

    Values are those of the kind's grids (:func:`numgrid.client.render.entries`): 0 is
    an open cell, digits are digits, and a kind's own codes (e.g. shaded 1 and white -1,
    or an empty lot -1) are written as ``symbols`` says.
    """

    rows: int
    columns: int
    playable: frozenset[Cell]  # the cells the player fills
    values: tuple[int, ...]  # what a playable cell can hold, in the order a toggle steps
    keys: Mapping[str, int]  # the key that enters each value: "7" -> 7, "x" -> -1
    symbols: Mapping[int, str]  # how each value is written: 7 -> "7", -1 -> "x"
    names: Mapping[int, str] = field(default_factory=dict)  # a value not a digit, in words
    givens: Mapping[Cell, int] = field(default_factory=dict)  # printed, not the player's
    blocks: Mapping[Cell, str] = field(default_factory=dict)  # unplayed cells: a clue or ""
    labels: Mapping[Cell, str] = field(default_factory=dict)  # a cage's "12x" in its corner
    regions: Mapping[Cell, int] | None = None  # cages: no wall between cells of one
    # blocks under the regions (e.g. boxes under cages): their walls drawn brighter
    outer: Mapping[Cell, int] | None = None
    shaded: frozenset[Cell] = frozenset()  # cells on a faint ground (e.g. counted diagonals)
    top: tuple[str, ...] = ()  # clues or weights outside the grid, one per column / row
    bottom: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    note: str = ""  # the rules beyond the plain kind, in words

    @property
    def pencil(self) -> bool:
        """Whether pencil marks help: with more than two values to choose from."""
        return len(self.values) > 2


def digits(high: int) -> tuple[tuple[int, ...], dict[str, int], dict[int, str]]:
    """``values``, ``keys`` and ``symbols`` of a :class:`Layout` played with 1..high."""
    values = tuple(range(1, high + 1))
    return values, {str(v): v for v in values}, {v: str(v) for v in values}


def plain(puzzle: Any) -> str:
    """No variant's name: a kind whose puzzles a caption names by the title alone."""
    return ""


@dataclass(frozen=True)
class Drawing:
    """One kind on the client: how it is drawn, played and named, gathered from its
    module of :mod:`numgrid.client.kinds`; the functions take the kind's own message
    (the ``Puzzle`` oneof field named ``name``)."""

    name: str  # the Puzzle oneof field
    title: str  # its name as printed: captions, help texts
    default_size: str  # ``numgrid generate``'s size when none is given: "6", "12x12"
    draw: Callable[[Any, Grid, set[Cell], int, str], str]  # (puzzle, values, marks, width, shade)
    entries: Callable[[Any], Grid]  # the player's digits as a grid
    with_entries: Callable[[Any, Grid], Any]  # a copy whose player's digits are the grid's
    solution_text: Callable[[Any, Grid], str]  # a solution as the kind publishes it
    layout: Callable[[Any, str], Layout]  # the board as a player sees it (shade)
    shape: Callable[[Any], tuple[int, int]]  # rows and columns of the board
    size_note: str = ""  # how ``--size`` counts, when not plainly
    files: str = ""  # the CLI's words for a text format of its own, if any
    generate_options: tuple[str, ...] = ()  # GenerateRequest fields it reads besides size
    # the variant as a caption names it after the title ("X"), "" for the plain puzzle
    variant: Callable[[Any], str] = plain
