"""penpa-edit links of a units puzzle (:mod:`numgrid.server.kinds.links.penpa`): the
pieces each kind of the family composes. The grid is N x N with no margins; givens are
big numbers in the cells (1-9, then 10-16 written as numbers or A-G); boxes or regions
are thick cell edges; the X rule is both long diagonals drawn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import penpa
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error

from .formats import Family
from .formats import fail
from .model import DIGITS
from .model import Puzzle
from .shape import box_shape

__all__ = ["boxes", "drawing", "fail", "givens", "has_boxes", "why_not"]


def why_not(sheet: penpa.Sheet, sizes: tuple[int, ...]) -> str | None:
    """Why a sheet is no N x N units grid of one of ``sizes`` (None if it is one)."""
    f = sheet.frame
    if any(f.space):
        return "the penpa link has clues outside the grid"
    if f.rows != f.cols or f.rows not in sizes:
        return f"the penpa link's grid is {f.rows}x{f.cols}, not one of the sizes served"
    return None


def boxes(n: int) -> Grid | None:
    """The usual boxes of an N x N grid, numbered in reading order; None for a prime N."""
    shape = box_shape(n)
    if shape is None:
        return None
    h, w = shape
    return tuple(tuple((r // h) * (n // w) + c // w for c in range(n)) for r in range(n))


def has_boxes(sheet: penpa.Sheet) -> bool:
    return sheet.regions == boxes(sheet.frame.rows)


def _given_value(text: str) -> int:
    """A cell's number: its digits (at most three: a longer number is out of range and
    never read), or one letter A-G for 10-16; 0 for anything else."""
    if decimal(text):
        return int(text) if len(text) <= 3 else 0
    return DIGITS.find(text) + 1 if len(text) == 1 else 0


def givens(sheet: penpa.Sheet, findings: list[Finding]) -> Grid:
    """The big numbers of the cells: 1..N (A-G also read as 10-16)."""
    n = sheet.frame.rows
    out = []
    for r in range(n):
        row = []
        for c in range(n):
            text = sheet.number_at((r, c))
            value = _given_value(text)
            if text and not 1 <= value <= n:
                where = (r, c)
                findings.append(
                    error("bad_given", f"{cell_name(where)}: the given {quoted(text)} is not 1-{n}")
                )
                value = 0
            row.append(value if text else 0)
        out.append(tuple(row))
    return tuple(out)


def drawing(puzzle: Puzzle, **options) -> penpa.Drawing:
    """A drawing of the grid: givens as big black numbers, boxes or regions as thick
    lines, the X rule's diagonals dashed (``options``: the kind's penpa words)."""
    n = puzzle.size
    out = penpa.Drawing(penpa.Frame(n, n, (0, 0, 0, 0)), **options)
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            if value:
                out.number((r, c), str(value))
    regions = puzzle.canonical_regions if puzzle.regions is not None else boxes(n)
    if regions is not None:
        out.borders(regions)
    if puzzle.diagonals:
        out.diagonals()
    return out


def link_format(
    family: Callable[[], Family],
    why_not: Callable[[penpa.Sheet], str | None],
    words: dict[str, Any],
    *,
    regions: bool,
) -> Format:
    """The penpa format of a kind of the family: links ``why_not`` does not refuse,
    read as the ``family()``'s puzzle (the regions the thick lines cut when
    ``regions``, else its boxes), written drawn with ``words``. The family is asked for
    when reading: the kind's formats module, which lists this format, defines it."""

    def read(text: str, max_cells: int = 16 * 16) -> Board:
        sheet = penpa.sheet_of(text, why_not)
        n = sheet.frame.rows
        findings: list[Finding] = family().size_errors(n, max_cells)
        cut = sheet.regions if regions else None
        puzzle = family().puzzle(n, givens(sheet, findings), cut, sheet.has_diagonals())
        if findings:
            raise fail(findings, puzzle)
        return Board.empty(puzzle)

    def write(board: Board) -> str:
        return drawing(board.puzzle, **words).link()

    return Format("penpa", penpa.sniffer(why_not), read, write)
