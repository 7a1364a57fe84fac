"""Kakuro as a puzz.link URL, ``https://puzz.link/p?kakuro/COLS/ROWS/BODY`` (pzprjs'
``src/variety/kakuro.js``; docs/links-formats.md, section 1.3).

pzprjs' size counts the cells inside the frame of clue cells above and left of the grid:
numgrid's row 0 and column 0 are that frame, so an R x C board is a link of C-1 columns
and R-1 rows. The body walks the inner cells in reading order: ``k``-``z`` for 1-16
white cells, ``.`` for a black cell without sums, else the black cell's down sum then
its across sum, one character each (:data:`~numgrid.server.kinds.links.pzpr.SUM_CHARS`,
``-`` or ``0`` for none). Then the frame: the down sum above each column whose first
inner cell is white (left to right), the across sum left of each row whose first inner
cell is white (top to bottom)."""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import pzpr
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import refuse

from .model import BLACK
from .model import WHITE
from .model import Clue
from .model import Puzzle
from .model import Square

TYPES = ("kakuro",)
DEFAULT_MAX_CELLS = 20_000  # as the kind's other formats (formats.DEFAULT_MAX_CELLS)
WHITE_RUNS = "k"  # runs of white cells: k = 1 ... z = 16
LONGEST_RUN = ord("z") - ord(WHITE_RUNS) + 1


class _Body:
    """The body read left to right, what cannot be read going to ``findings``."""

    def __init__(self, text: str, findings: list[Finding]):
        self.text, self.at, self.findings = text, 0, findings

    def sum(self, cell: Cell, what: str) -> int | None:
        """The next character as a sum (``what``: down or across, in messages); a
        character that is no sum is named (the caller stops there)."""
        ch = self.text[self.at]
        self.at += 1
        if ch == pzpr.NO_SUM:
            return None
        value = pzpr.SUM_CHARS.find(ch)
        if value < 0:
            self.findings.append(
                pzpr.bad(
                    f"{cell_name(cell)}: {quoted(ch)} at character {self.at} of the "
                    f"{pzpr.NAME} body is no {what} sum (0-9, a-j, A-Z or '-')",
                    cell,
                )
            )
        return value if value > 0 else None

    def ended(self, cell: Cell, what: str) -> bool:
        """Whether the body ended before ``what`` of ``cell``: named once, if so."""
        if self.at < len(self.text):
            return False
        self.findings.append(
            pzpr.bad(f"{cell_name(cell)}: the {pzpr.NAME} body ends before {what}", cell)
        )
        return True


def _inner(body: _Body, cols: int, rows: int) -> list[Square] | None:
    """The inner cells in reading order, or None when the body ended before them or
    held something else (named in the findings: the first such thing only, as the rest
    of a body cannot be placed once one character is misread)."""
    squares: list[Square] = []
    count = cols * rows
    while len(squares) < count:
        cell = divmod(len(squares), cols)
        cell = (cell[0] + 1, cell[1] + 1)  # numgrid's, past the frame
        if body.ended(cell, f"cell {len(squares) + 1} of the {count} inside the frame"):
            return None
        ch = body.text[body.at]
        if WHITE_RUNS <= ch <= "z":
            run = ord(ch) - ord(WHITE_RUNS) + 1
            if len(squares) + run > count:
                body.findings.append(
                    pzpr.bad(
                        f"{cell_name(cell)}: {quoted(ch)} at character {body.at + 1} of the "
                        f"{pzpr.NAME} body says {run} white cells, past the last of the "
                        f"{count} inside the frame",
                        cell,
                    )
                )
                return None
            squares += [WHITE] * run
            body.at += 1
        elif ch == ".":
            squares.append(BLACK)
            body.at += 1
        else:
            down = body.sum(cell, "down")
            if body.findings or body.ended(cell, "its across sum"):
                return None
            squares.append(Clue(down, body.sum(cell, "across")))
            if body.findings:
                return None
    return squares


def _frame(body: _Body, inner: list[Square], cols: int, rows: int) -> list[list[Square]]:
    """The board: the frame's sums (read after the inner cells) around the inner cells;
    the body's end or a character that is no sum, if one comes first, named alone."""
    grid: list[list[Square]] = [[BLACK] * (cols + 1)]
    grid += [[BLACK, *inner[r * cols : r * cols + cols]] for r in range(rows)]
    slots = [((0, c), "down", "above") for c in range(1, cols + 1) if grid[1][c] is WHITE]
    slots += [((r, 0), "across", "left of") for r in range(1, rows + 1) if grid[r][1] is WHITE]
    for (r, c), what, where in slots:
        line = "column" if what == "down" else "row"
        if body.ended((r, c), f"the {what} sum {where} the {line}"):
            break
        value = body.sum((r, c), what)
        if body.findings:
            break
        grid[r][c] = Clue(down=value) if what == "down" else Clue(across=value)
    return grid


def read(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    link = pzpr.parse(text, TYPES)
    rows, cols = link.rows + 1, link.cols + 1
    if rows * cols > max_cells:
        raise PuzzleError(
            [
                error(
                    "grid_too_large",
                    f"grid of {rows}x{cols} = {rows * cols} cells (the {pzpr.NAME} size "
                    f"{link.cols}x{link.rows} and its frame of clues) is over the limit of "
                    f"{max_cells} cells",
                )
            ]
        )
    findings: list[Finding] = []
    body = _Body(link.body, findings)
    inner = _inner(body, link.cols, link.rows)
    if inner is None:
        raise PuzzleError(findings)
    squares = _frame(body, inner, link.cols, link.rows)
    findings += pzpr.trailing(link.body, body.at, "the cells and the frame's sums")
    refuse(findings)
    puzzle = Puzzle(tuple(map(tuple, squares)))
    return Board(puzzle, puzzle.empty_grid())


def _sums_allowed(puzzle: Puzzle, cell: Cell) -> tuple[bool, bool]:
    """Whether a link holds a down sum and an across sum at ``cell``: anywhere inside
    the frame; in the frame, only the down sum above a column whose first cell is white
    and the across sum left of such a row."""
    r, c = cell
    if r == 0 and c == 0:
        return False, False
    if r == 0:
        return puzzle.is_white((1, c)), False
    if c == 0:
        return False, puzzle.is_white((r, 1))
    return True, True


def _unwritable(puzzle: Puzzle) -> list[Finding]:
    """What a link cannot hold: a white cell in the frame, a sum where the frame has no
    place for it, a sum that is not 1 to 45."""
    found = []
    for r, row in enumerate(puzzle.squares):
        for c, square in enumerate(row):
            cell, name = (r, c), cell_name((r, c))
            if square is WHITE:
                if r == 0 or c == 0:
                    found.append(
                        pzpr.cannot(
                            f"{name} is white: a {pzpr.NAME} Kakuro's top row and left column "
                            "are clue cells",
                            cell,
                        )
                    )
                continue
            sums = (("down", square.down), ("across", square.across))
            for (what, value), allowed in zip(sums, _sums_allowed(puzzle, cell), strict=True):
                if value is None:
                    continue
                if not allowed:
                    found.append(
                        pzpr.cannot(
                            f"{name}: a {pzpr.NAME} Kakuro has no place for the {what} sum "
                            f"{value} here (it heads no run)",
                            cell,
                        )
                    )
                elif not 1 <= value <= pzpr.SUM_MAX:
                    found.append(
                        pzpr.cannot(
                            f"{name}: the {what} sum {value} is not 1 to {pzpr.SUM_MAX}",
                            cell,
                        )
                    )
    return found


def _sum_text(value: int | None) -> str:
    return pzpr.NO_SUM if value is None else pzpr.SUM_CHARS[value]


def _square_text(square: Square) -> str | None:
    """An inner cell as the body writes it: None for a white cell (in a run)."""
    if square is WHITE:
        return None
    if square.down is None and square.across is None:
        return "."
    return _sum_text(square.down) + _sum_text(square.across)


def _frame_sum(square: Square, what: str) -> str:
    return _sum_text(None if square is WHITE else getattr(square, what))


def write(board: Board) -> str:
    """The puzzle's URL (entries are not part of one)."""
    puzzle: Puzzle = board.puzzle
    if puzzle.rows < 2 or puzzle.cols < 2:
        raise PuzzleError([pzpr.cannot(f"a {pzpr.NAME} Kakuro has a frame and at least one cell")])
    refuse(_unwritable(puzzle))
    squares = puzzle.squares
    inner = [_square_text(square) for row in squares[1:] for square in row[1:]]
    tops = [
        _frame_sum(squares[0][c], "down") for c in range(1, puzzle.cols) if squares[1][c] is WHITE
    ]
    lefts = [
        _frame_sum(squares[r][0], "across") for r in range(1, puzzle.rows) if squares[r][1] is WHITE
    ]
    body = pzpr.runs_text(inner, WHITE_RUNS, LONGEST_RUN) + "".join(tops + lefts)
    return pzpr.url(TYPES[0], puzzle.cols - 1, puzzle.rows - 1, body) + "\n"


FORMAT = Format("puzzlink", pzpr.Sniff(TYPES), read, write)
