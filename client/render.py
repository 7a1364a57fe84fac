"""Puzzles as text, as they look printed, and solutions in their published text form.

:func:`render` dispatches on the kind of the structured puzzle (the ``Puzzle`` oneof):
a new kind adds a :class:`Renderer` to :data:`RENDERERS`, the CLI does not change.

Each kind draws itself (:mod:`numgrid.client.kinds`): Kakuro with ``D\\A`` clue cells,
KenKen with cage borders and ``12x`` labels, Kakurasu with its weights and clues around
the shaded cells. Marked cells (a hint, a mistake, a differing cell) are bracketed:
``[7]``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from typing import Any, Protocol

from numgrid.v1 import puzzle_pb2

from .kinds import kakurasu, kakuro, kenken, skyscraper
from .kinds.cells import Layout
from .types import Cell, Grid

SHADE = "▓"
ASCII_SHADE = "#"


class Renderer(Protocol):
    """How one kind of puzzle is drawn and how its solutions are written (a module of
    :mod:`numgrid.client.kinds`)."""

    def draw(self, puzzle: Any, values: Grid, marks: set[Cell], width: int, shade: str) -> str:
        """The board as text, at most ``width`` wide where the kind can manage it."""
        ...

    def entries(self, puzzle: Any) -> Grid:
        """The player's digits as a grid."""
        ...

    def solution_text(self, puzzle: Any, grid: Grid) -> str:
        """A solution as the kind publishes it."""
        ...

    def with_entries(self, puzzle: Any, grid: Grid) -> Any:
        """A copy whose player's digits are ``grid``'s."""
        ...

    def layout(self, puzzle: Any, shade: str) -> Layout:
        """The board as a player sees it: the cells played and with what, and the rest."""
        ...


def terminal_width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


RENDERERS: dict[str, Renderer] = {
    "kakuro": kakuro,
    "kenken": kenken,
    "kakurasu": kakurasu,
    "skyscraper": skyscraper,
}


# ---------------------------------------------------------------- dispatch


def _kind(puzzle: puzzle_pb2.Puzzle) -> tuple[Renderer, object]:
    kind = puzzle.WhichOneof("kind")
    if kind not in RENDERERS:
        raise ValueError(f"no renderer for puzzle kind {kind!r}")
    return RENDERERS[kind], getattr(puzzle, kind)


def entries(puzzle: puzzle_pb2.Puzzle) -> Grid:
    """The digits the player entered, as a grid (0 where empty or black)."""
    renderer, inner = _kind(puzzle)
    return renderer.entries(inner)


def with_entries(puzzle: puzzle_pb2.Puzzle, grid: Grid) -> puzzle_pb2.Puzzle:
    """A copy of ``puzzle`` whose player's digits are those of ``grid`` (0: empty);
    ValueError if the grid's shape is not the puzzle's."""
    renderer, inner = _kind(puzzle)
    out = puzzle_pb2.Puzzle()
    getattr(out, puzzle.WhichOneof("kind")).CopyFrom(renderer.with_entries(inner, grid))
    return out


def layout(puzzle: puzzle_pb2.Puzzle, *, ascii_only: bool = False) -> Layout:
    """The board as a player sees it, whatever its kind (:class:`Layout`)."""
    renderer, inner = _kind(puzzle)
    return renderer.layout(inner, ASCII_SHADE if ascii_only else SHADE)


def solution_text(puzzle: puzzle_pb2.Puzzle, grid: Grid) -> str:
    """A solution in the kind's published text form (Kakuro: janko, ``-`` for black)."""
    renderer, inner = _kind(puzzle)
    return renderer.solution_text(inner, grid)


def render(
    puzzle: puzzle_pb2.Puzzle,
    values: Grid | None = None,
    *,
    marks: Iterable[Cell] = (),
    width: int | None = None,
    ascii_only: bool = False,
) -> str:
    """The board as text: ``values`` (a solution) or else the puzzle's own entries.

    ``width`` defaults to the terminal's (80 when not a terminal); ``marks`` are
    the cells to bracket; ``ascii_only`` shades black cells with ``#``.
    """
    renderer, inner = _kind(puzzle)
    return renderer.draw(
        inner,
        renderer.entries(inner) if values is None else values,
        set(marks),
        terminal_width() if width is None else width,
        ASCII_SHADE if ascii_only else SHADE,
    )
