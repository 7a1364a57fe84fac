"""Puzzles as text, as they look printed, and solutions in their published text form.

:func:`render` dispatches on the kind of the structured puzzle (the ``Puzzle`` oneof) to
that kind's :class:`~.kinds.cells.Drawing` in :data:`RENDERERS`, which is derived from
the proto (:mod:`numgrid.client.kinds`): a new kind adds its drawing module, the CLI
does not change. Marked cells (a hint, a mistake, a differing cell) are bracketed:
``[7]``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable

from numgrid.v1 import puzzle_pb2

from .kinds import DRAWINGS
from .kinds.cells import Drawing
from .kinds.cells import Layout
from .types import Cell
from .types import Grid

SHADE = "▓"
ASCII_SHADE = "#"
RENDERERS: dict[str, Drawing] = DRAWINGS


def terminal_width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


# ---------------------------------------------------------------- dispatch


def _kind(puzzle: puzzle_pb2.Puzzle) -> tuple[Drawing, object]:
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


def kind_of(puzzle: puzzle_pb2.Puzzle) -> Drawing:
    """The drawing of ``puzzle``'s kind (its title, its functions)."""
    return _kind(puzzle)[0]


def shape(puzzle: puzzle_pb2.Puzzle) -> tuple[int, int]:
    """Rows and columns of the board."""
    renderer, inner = _kind(puzzle)
    return renderer.shape(inner)


def layout(puzzle: puzzle_pb2.Puzzle, *, ascii_only: bool = False) -> Layout:
    """The board as a player sees it, whatever its kind (:class:`Layout`)."""
    renderer, inner = _kind(puzzle)
    return renderer.layout(inner, ASCII_SHADE if ascii_only else SHADE)


def solution_text(puzzle: puzzle_pb2.Puzzle, grid: Grid) -> str:
    """A solution in the kind's published text form (e.g. janko, ``-`` for a black cell)."""
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
