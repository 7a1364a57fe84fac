"""Kakuro drawn as text: clues as ``D\\A`` (the down sum left of the diagonal, the across
sum right of it, a missing one shaded: ``16\\▓▓``), plain black cells shaded, white cells
with their digit or ``.``; marked cells (a hint, a mistake, a differing cell) are
bracketed: ``[7]``. Of three layouts the widest one that fits the width is used:

- ``wide``: one line per row, 5 characters per cell: ``16\\23  7    .  ▓▓▓▓▓ ▓▓\\8``;
- ``compact``: two lines per row, 3 characters per cell and a space between cells,
  the across clue top right and the down clue bottom left, like the printed diagonal;
- ``tiny``: the same without the space between cells (used even if it does not fit).
"""

from __future__ import annotations

from numgrid.v1 import puzzle_pb2

from ..types import Cell
from ..types import Grid
from .cells import Layout
from .cells import digit_text
from .cells import digits

TITLE = "Kakuro"  # as printed: captions, help texts
DEFAULT_SIZE = "12x12"  # numgrid generate without --size
SIZE_NOTE = "Kakuro counts its clue row and column"  # how --size counts
FILES = "Kakuro's 1VVHH CSV"  # its own text format, for the CLI's help
GENERATE_OPTIONS = ("density", "single_cell_runs")  # GenerateRequest fields it reads


def _is_black(cell: puzzle_pb2.KakuroCell) -> bool:
    return cell.black or cell.HasField("down") or cell.HasField("across")


def _clue(cell: puzzle_pb2.KakuroCell, which: str) -> str:
    return str(getattr(cell, which)) if cell.HasField(which) else ""


def entries(puzzle: puzzle_pb2.KakuroPuzzle) -> Grid:
    return tuple(
        tuple(0 if _is_black(cell) else cell.digit for cell in row.cells) for row in puzzle.rows
    )


def with_entries(puzzle: puzzle_pb2.KakuroPuzzle, grid: Grid) -> puzzle_pb2.KakuroPuzzle:
    out = puzzle_pb2.KakuroPuzzle()
    out.CopyFrom(puzzle)
    for row, values in zip(out.rows, grid, strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            if not _is_black(cell):
                cell.digit = value
    return out


def solution_text(puzzle: puzzle_pb2.KakuroPuzzle, grid: Grid) -> str:
    """The janko solution text: ``ROWS COLS``, then ``-`` for black cells and the digits."""
    rows = puzzle.rows
    lines = [f"{len(rows)} {len(rows[0].cells) if rows else 0}"]
    for row, values in zip(rows, grid, strict=True):
        cells = zip(row.cells, values, strict=True)
        lines.append(" ".join("-" if _is_black(cell) else str(v) for cell, v in cells))
    return "\n".join(lines) + "\n"


def _wide(rows, values: Grid, marks: set[Cell], shade: str) -> list[str]:
    lines = []
    for r, row in enumerate(rows):
        out = []
        for c, cell in enumerate(row.cells):
            if not _is_black(cell):
                out.append(digit_text(values[r][c], (r, c) in marks, 5))
            elif not (cell.HasField("down") or cell.HasField("across")):
                out.append(shade * 5)
            else:
                out.append(clue_text(cell, shade))
        lines.append(" ".join(out))
    return lines


def clue_text(cell: puzzle_pb2.KakuroCell, shade: str) -> str:
    """A clue cell in five characters: ``16\\23``, a missing clue shaded: ``▓▓\\23``."""
    down = _clue(cell, "down").rjust(2) if cell.HasField("down") else shade * 2
    across = _clue(cell, "across").ljust(2) if cell.HasField("across") else shade * 2
    return f"{down}\\{across}"


def _two_line(rows, values: Grid, marks: set[Cell], shade: str, sep: str) -> list[str]:
    lines = []
    for r, row in enumerate(rows):
        top, bottom = [], []
        for c, cell in enumerate(row.cells):
            if not _is_black(cell):
                top.append(digit_text(values[r][c], (r, c) in marks, 3))
                bottom.append("   ")
            elif not (cell.HasField("down") or cell.HasField("across")):
                top.append(shade * 3)
                bottom.append(shade * 3)
            else:
                across = _clue(cell, "across").rjust(2) if cell.HasField("across") else shade * 2
                down = _clue(cell, "down").ljust(2) if cell.HasField("down") else shade * 2
                top.append(f"\\{across}")
                bottom.append(f"{down}\\")
        lines.append(sep.join(top))
        lines.append(sep.join(bottom))
    return lines


def draw(
    puzzle: puzzle_pb2.KakuroPuzzle,
    values: Grid,
    marks: set[Cell],
    width: int,
    shade: str,
) -> str:
    rows = puzzle.rows
    cols = len(rows[0].cells) if rows else 0
    layouts = (
        (6 * cols - 1, lambda: _wide(rows, values, marks, shade)),
        (4 * cols - 1, lambda: _two_line(rows, values, marks, shade, " ")),
        (3 * cols, lambda: _two_line(rows, values, marks, shade, "")),
    )
    # The widest layout that fits, else the narrowest.
    draw = next((draw for needed, draw in layouts if needed <= width), layouts[-1][1])
    return "\n".join(line.rstrip() for line in draw()) + "\n"


def layout(puzzle: puzzle_pb2.KakuroPuzzle, shade: str = "▓") -> Layout:
    """The board to play: digits 1-9 in the white cells; clue cells show ``16\\23``."""
    playable, blocks = set(), {}
    for r, row in enumerate(puzzle.rows):
        for c, cell in enumerate(row.cells):
            if not _is_black(cell):
                playable.add((r, c))
            elif cell.HasField("down") or cell.HasField("across"):
                blocks[(r, c)] = clue_text(cell, shade)
            else:
                blocks[(r, c)] = ""
    values, keys, symbols = digits(9)
    cols = len(puzzle.rows[0].cells) if puzzle.rows else 0
    return Layout(len(puzzle.rows), cols, frozenset(playable), values, keys, symbols, blocks=blocks)


def shape(puzzle: puzzle_pb2.KakuroPuzzle) -> tuple[int, int]:
    """Rows and columns, the clue row and column counted."""
    return len(puzzle.rows), max((len(row.cells) for row in puzzle.rows), default=0)
