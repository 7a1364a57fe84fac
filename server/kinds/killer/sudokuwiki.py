"""A Killer Sudoku as a SudokuWiki solver link (docs/links-formats.md, section 4.2):
``https://www.sudokuwiki.org/killersudoku.htm?bd=COLOURS,TOTALS``.

- ``COLOURS``: 81 digits in reading order, each cell's cage colour. A cage is a patch of
  one colour (cells joined across their sides): touching cages differ in colour, so the
  patches are the cages. numgrid writes colours 1-4 (a map of cages always takes four).
- ``TOTALS``: 81 numbers of two digits in reading order, the cage's sum at one of its
  cells (numgrid writes it at the first, as SudokuWiki does), ``00`` elsewhere.

The page holds a plain 9x9 Killer whose cages cover the grid, and no givens, no X rule,
no entries."""

from __future__ import annotations

from collections import Counter

from numgrid.server.chain import names
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.kinds.links import sudokuwiki
from numgrid.server.kinds.textformats import error

from .model import Cage
from .model import Puzzle
from .model import ordered

PAGE = "killersudoku.htm"
N = 9
COLOURS = 4  # what numgrid writes; the reader takes 1-9
_STEPS = 100_000  # a colouring search gives up on four colours after this many tries


def _neighbours(i: int) -> list[int]:
    r, c = divmod(i, N)
    near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [y * N + x for y, x in near if 0 <= y < N and 0 <= x < N]


def _patches(labels: list[int]) -> list[list[int]]:
    """The patches of equal labels (cells joined across their sides), each in reading
    order, in the order of their first cells."""
    seen = [False] * len(labels)
    out = []
    for start in range(len(labels)):
        if seen[start]:
            continue
        seen[start] = True
        patch, todo = [], [start]
        while todo:
            i = todo.pop()
            patch.append(i)
            for j in _neighbours(i):
                if not seen[j] and labels[j] == labels[i]:
                    seen[j] = True
                    todo.append(j)
        out.append(sorted(patch))
    return out


def _cell(i: int) -> Cell:
    return divmod(i, N)


def read_board(text: str) -> Board:
    colours_text, comma, totals_text = text.partition(",")
    if not comma or "," in totals_text:
        raise PuzzleError(
            [
                error(
                    "bad_board",
                    "a SudokuWiki killer board is 81 cage colours, a comma, then 81 totals of "
                    "two digits ('bd=COLOURS,TOTALS')",
                )
            ]
        )
    findings: list[Finding] = []
    colours = sudokuwiki.digits(colours_text, N * N, 1, "cage colours", findings)
    totals = sudokuwiki.digits(totals_text, N * N, 2, "cage totals", findings)
    if findings:
        raise PuzzleError(findings)
    blank = [i for i, colour in enumerate(colours) if not colour]
    if blank:
        raise PuzzleError(
            [
                error(
                    "bad_colour",
                    f"{names([_cell(i) for i in blank], 9)}: colour 0; a cage's colour is 1-9 "
                    "(SudokuWiki's cages cover the grid)",
                    *map(_cell, blank),
                )
            ]
        )
    cages = []
    for patch in _patches(colours):
        cells = [_cell(i) for i in patch]
        written = [i for i in patch if totals[i]]
        if len(written) != 1:
            said = (
                "no total"
                if not written
                else "totals "
                + ", ".join(f"{totals[i]} at {cell_name(_cell(i))}" for i in written)
                + " (touching cages of one colour?)"
            )
            findings.append(
                error(
                    "cage_totals",
                    f"the cage of colour {colours[patch[0]]} at {names(cells, 9)} has {said}: "
                    "each patch of one colour is a cage with one total",
                    *cells,
                )
            )
            continue
        cages.append(Cage(totals[written[0]], tuple(cells)))
    if findings:
        raise PuzzleError(findings)
    empty = tuple((0,) * N for _ in range(N))
    return Board.empty(Puzzle(N, (3, 3), None, False, empty, ordered(cages)))


def _refused(code: str, message: str, *cells: Cell) -> PuzzleError:
    return PuzzleError([error(f"sudokuwiki_{code}", f"SudokuWiki's {PAGE} {message}", *cells)])


def _coloured(touching: list[list[int]], most: int) -> list[int] | None:
    """A colour (1 to ``most``) per cage, touching cages apart, by backtracking (the cage
    with the most colours around it first); None when none is found in ``_STEPS`` tries."""
    colour = [0] * len(touching)
    steps = 0

    def place(done: int) -> bool:
        nonlocal steps
        steps += 1
        if done == len(touching) or steps > _STEPS:
            return done == len(touching)
        k = max(
            (k for k in range(len(touching)) if not colour[k]),
            key=lambda k: (len({colour[j] for j in touching[k]} - {0}), -k),
        )
        used = {colour[j] for j in touching[k]}
        for choice in range(1, most + 1):
            if choice not in used:
                colour[k] = choice
                if place(done + 1):
                    return True
        colour[k] = 0
        return False

    return colour if place(0) else None


def _colouring(cages: list[list[int]]) -> list[int]:
    """A colour per cage: four (a map of cages always takes four); more, up to nine,
    should the search for four ever run out of tries."""
    at = {i: k for k, patch in enumerate(cages) for i in patch}
    touching = [
        sorted({at[j] for i in patch for j in _neighbours(i) if at[j] != k})
        for k, patch in enumerate(cages)
    ]
    for most in range(COLOURS, 10):
        colour = _coloured(touching, most)
        if colour is not None:
            return colour
    raise _refused("colours", "needs more than nine colours for these cages")


def write_board(board: Board) -> str:
    from .formats import _covering
    from .formats import _no_givens

    puzzle: Puzzle = board.puzzle
    if puzzle.size != N:
        raise _refused("size", f"holds a 9x9 Killer Sudoku, not a {puzzle.size}x{puzzle.size}")
    if puzzle.diagonals:
        raise _refused("x", "has no X rule (both diagonals)")
    _no_givens(puzzle, f"SudokuWiki's {PAGE}")
    _covering(puzzle, f"SudokuWiki's {PAGE}")
    labels = [0] * (N * N)
    for k, cage in enumerate(puzzle.cages):
        if not 1 <= cage.sum <= 99:
            raise _refused(
                "total",
                f"writes a cage's total in two digits, 01-99: not {puzzle.cage_name(k)}",
                *cage.cells,
            )
        for r, c in cage.cells:
            labels[r * N + c] = k
    patches = _patches(labels)
    split = [k for k, count in Counter(labels[patch[0]] for patch in patches).items() if count > 1]
    if split:
        k = split[0]
        raise _refused(
            "cage",
            f"draws a cage as a patch of one colour: {puzzle.cage_name(k)} is not connected",
            *puzzle.cages[k].cells,
        )
    colour = _colouring(patches)
    colours = [0] * (N * N)
    totals = [0] * (N * N)
    for k, patch in enumerate(patches):
        for i in patch:
            colours[i] = colour[k]
        totals[patch[0]] = puzzle.cages[labels[patch[0]]].sum
    return "".join(map(str, colours)) + "," + "".join(f"{t:02d}" for t in totals)


FORMAT = sudokuwiki.link_format(PAGE, read_board, write_board)
