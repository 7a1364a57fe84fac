"""Killer Sudoku drawn as text: walls (``+--+``, ``|``) around the cages, no line between
cells of one cage, each cage's sum in its first cell's top line, the digit (or ``.``)
below it; marked cells bracketed: ``[4]``. A first line names the boxes, and the X
variant when the diagonals count too.

    +-----+-----------+
    |3    |17         |
    |  1  |  8     9  |
    +-----+-----+     +
"""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from . import units
from .cells import Layout
from .cells import digit_text
from .cells import digits

TITLE = "Killer Sudoku"  # as printed: captions, help texts
DEFAULT_SIZE = "9"  # numgrid generate without --size
SIZE_NOTE = "a Killer Sudoku is 4, 6 or 9"
FILES = "Solo killer game IDs (Killer Sudoku)"

BOXES = {4: "2x2", 6: "2 rows x 3 columns", 9: "3x3"}
X_NOTE = "X: both main diagonals hold each digit once too"

entries = units.entries
with_entries = units.with_entries
solution_text = units.solution_text
shape = units.shape


def note(puzzle: puzzle_pb2.KillerPuzzle) -> str:
    boxes = (
        f"boxes of {BOXES.get(puzzle.size, '?')}; each cage's digits differ and add up to its sum"
    )
    return f"{boxes}\n{X_NOTE}" if puzzle.diagonals else boxes


def cages(puzzle: puzzle_pb2.KillerPuzzle) -> tuple[dict[Cell, int], dict[Cell, str]]:
    """Each cell's cage (its index) and each cage's sum, in its first cell."""
    n = puzzle.size
    regions: dict[Cell, int] = {}
    labels: dict[Cell, str] = {}
    for i, cage in enumerate(puzzle.cages):
        cells = sorted((ref.row, ref.column) for ref in cage.cells)
        for r, c in cells:
            if 0 <= r < n and 0 <= c < n:
                regions[(r, c)] = i
        if cells:
            labels[cells[0]] = str(cage.sum)
    return regions, labels


def layout(puzzle: puzzle_pb2.KillerPuzzle, shade: str = "▓") -> Layout:
    """The board to play: digits 1-N, the givens, the cages' walls and sums."""
    n = puzzle.size
    regions, labels = cages(puzzle)
    values, keys, symbols = digits(n)
    givens = units.grid_of(puzzle.givens, n)
    given = {(r, c): givens[r][c] for r in range(n) for c in range(n) if givens[r][c]}
    every = frozenset((r, c) for r in range(n) for c in range(n))
    return Layout(
        n,
        n,
        every - set(given),
        values,
        keys,
        symbols,
        givens=given,
        labels=labels,
        regions=regions,
        note=note(puzzle),
    )


def draw(
    puzzle: puzzle_pb2.KillerPuzzle, values: Grid, marks: set[Cell], width: int, shade: str
) -> str:
    n = puzzle.size
    regions, labels = cages(puzzle)
    cage = [[regions.get((r, c), -1 - r * n - c) for c in range(n)] for r in range(n)]
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

    lines = [note(puzzle)]
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
