"""What the drawings of the units kinds share (N x N grids of digits in which every row,
column, box or region holds each digit once): the board as text with thick walls
(``|``, ``+---+``) between boxes or regions, the digits (10-16 as A-G), and the board to
play. Not a kind of its own: each kind's module builds on it.

    +-------+-------+-------+
    | 5 3 . | . 7 . | . . . |
    | 6 . . | 1 9 5 | . . . |
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from .cells import Layout

DIGITS = "123456789ABCDEFG"
X_NOTE = "X: both main diagonals hold each digit once too"
USUAL_BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}  # rows x columns of a box


def boxes(n: int, box: tuple[int, int] | None = None) -> list[list[int]]:
    """Each cell's box in an N x N grid of boxes of ``box`` (rows, columns; by default
    N's usual boxes)."""
    bh, bw = box or USUAL_BOXES.get(n, (1, n))
    return [[(r // bh) * (n // bw) + c // bw for c in range(n)] for r in range(n)]


def diagonal_cells(n: int) -> frozenset[Cell]:
    """The cells of both main diagonals."""
    return frozenset({(i, i) for i in range(n)} | {(i, n - 1 - i) for i in range(n)})


def variant(puzzle: Any) -> str:
    """The variant as a caption names it after the kind's title: ``X`` when the
    diagonals count too."""
    return "X" if puzzle.diagonals else ""


def grid_of(message: puzzle_pb2.Grid, n: int) -> Grid:
    """A ``Grid`` message's values, all 0 when it has none."""
    if not message.rows:
        return tuple((0,) * n for _ in range(n))
    return tuple(tuple(row.values) for row in message.rows)


def entries(puzzle: Any) -> Grid:
    """What stands on the board: the givens, and the player's entries elsewhere."""
    n = puzzle.size
    givens, own = grid_of(puzzle.givens, n), grid_of(puzzle.entries, n)
    return tuple(
        tuple(g or e for g, e in zip(grow, erow, strict=True))
        for grow, erow in zip(givens, own, strict=True)
    )


def with_entries(puzzle: Any, grid: Sequence[Sequence[int]]) -> Any:
    """A copy whose player's entries are ``grid``'s outside the given cells."""
    n = puzzle.size
    if len(grid) != n or any(len(row) != n for row in grid):
        raise ValueError(f"the grid is not {n}x{n}")
    givens = grid_of(puzzle.givens, n)
    own = [
        [0 if g else v for g, v in zip(grow, row, strict=True)]
        for grow, row in zip(givens, grid, strict=True)
    ]
    out = type(puzzle)()
    out.CopyFrom(puzzle)
    out.ClearField("entries")
    if any(any(row) for row in own):
        out.entries.rows.extend(puzzle_pb2.GridRow(values=row) for row in own)
    return out


def solution_text(puzzle: Any, grid: Grid) -> str:
    """The corpus's solution text: ``N N``, then the digits row by row."""
    n = puzzle.size
    return "\n".join([f"{n} {n}", *(" ".join(map(str, row)) for row in grid)]) + "\n"


def shape(puzzle: Any) -> tuple[int, int]:
    return puzzle.size, puzzle.size


def symbol(value: int) -> str:
    return DIGITS[value - 1] if 1 <= value <= len(DIGITS) else "."


def draw_blocks(block: Sequence[Sequence[int]], values: Grid, marks: set[Cell]) -> str:
    """The board with a wall wherever two cells side by side are in different blocks."""
    n = len(block)

    def of(r: int, c: int) -> int | None:
        return block[r][c] if 0 <= r < n and 0 <= c < n else None

    def across(r: int, c: int) -> bool:  # a wall above (r, c)
        return 0 <= c < n and of(r - 1, c) != of(r, c)

    def down(r: int, c: int) -> bool:  # a wall left of (r, c)
        return 0 <= r < n and of(r, c - 1) != of(r, c)

    def cell(r: int, c: int) -> str:
        text = symbol(values[r][c])
        return f"[{text}]" if (r, c) in marks else f" {text} "

    lines = []
    for r in range(n + 1):
        out = []
        for c in range(n + 1):
            corner = across(r, c - 1) or across(r, c) or down(r - 1, c) or down(r, c)
            out.append("+" if corner else " ")
            if c < n:
                out.append("---" if across(r, c) else "   ")
        lines.append("".join(out).rstrip())
        if r < n:
            row = []
            for c in range(n + 1):
                row.append("|" if down(r, c) else " ")
                if c < n:
                    row.append(cell(r, c))
            lines.append("".join(row).rstrip())
    return "\n".join(lines) + "\n"


def layout(
    puzzle: Any,
    block: Sequence[Sequence[int]] | Mapping[Cell, int],
    note: str,
    labels: Mapping[Cell, str] | None = None,
    under: Sequence[Sequence[int]] | None = None,
) -> Layout:
    """The board to play: digits 1-N (keys 1-9, then a-g), the givens, the walls of the
    blocks (each cell's, by row or by cell: boxes, regions or cages), ``labels`` (a
    cage's sum), the walls of the boxes ``under`` the cages, drawn brighter, and the
    diagonals shaded when they count."""
    n = puzzle.size
    givens = grid_of(puzzle.givens, n)
    values = tuple(range(1, n + 1))
    keys = {symbol(v).lower(): v for v in values}
    symbols = {v: symbol(v) for v in values}
    every = frozenset((r, c) for r in range(n) for c in range(n))
    given = {(r, c): givens[r][c] for r in range(n) for c in range(n) if givens[r][c]}
    if isinstance(block, Mapping):
        regions = dict(block)
    else:
        regions = {(r, c): block[r][c] for r in range(n) for c in range(n)}
    return Layout(
        n,
        n,
        every - set(given),
        values,
        keys,
        symbols,
        givens=given,
        labels=labels or {},
        regions=regions,
        outer=None if under is None else {(r, c): under[r][c] for r, c in every},
        shaded=diagonal_cells(n) if puzzle.diagonals else frozenset(),
        note=note,
    )
