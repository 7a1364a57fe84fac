"""Reading and writing Killer Sudoku boards, with auto-detection:

- ``json``: ``{"killer": {"size": 9, "cages": [{"sum": 17, "cells": [{"row": 0}, {"column":
  1}]}], "diagonals": true, "givens": {...}, "entries": {...}}}``, the protobuf JSON of
  ``KillerPuzzle`` (zero values left out: ``{}`` is r0c0). The one format that may leave
  cells out of every cage;
- ``tatham``: a Solo game ID, ``2x2k:``, ``2x3k:``, ``3x3k:`` (``3x3xk:`` Killer-X): the
  givens, the cage walls and the sums, each cage's sum at its first cell (as ``solo.c``
  writes them: every cell in a cage of 2..N cells);
- ``janko``: the corpus text, ``N N``, N lines of cage sums at one cell of each cage
  (``-`` elsewhere), then N lines of cage numbers. Its plain header fits a cage puzzle
  without operations as well, so numgrid writes ``N N K`` (``N N X`` for Killer-X, the
  units family's mark; ``N N KX`` is read too): the header then tells the kind. It has
  no place for givens;
- ``line``: the cage map on one line, as solvers and puzzle sites exchange it: the cage
  letter of every cell in reading order (``a-z``, ``A-Z``, ``0-9``; one letter a cage),
  then the cages' sums in the order their letters first appear, e.g.
  ``aabbccdde...CADDBEEFF 15,13,...`` (spaces or commas between sums, a space or ``:``
  before them). Every cell in a cage, no givens, no X rule. A file of such lines is a
  file of puzzles, one a line, like the benchmark files of digits;
- ``sudokuwiki``: a SudokuWiki solver link, ``https://www.sudokuwiki.org/killersudoku.htm?bd=``,
  the cages' colours and totals (9x9, no givens, :mod:`.sudokuwiki`).

Sizes: 4x4, 6x6 (boxes of 2 rows x 3 columns) and 9x9. Readers give a faithful puzzle;
:mod:`.checks` says what is wrong with it.
"""

from __future__ import annotations

import json
import math
import re
import string
from typing import Any

from numgrid.server.chain import names
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.judging import listed_twice
from numgrid.server.kinds.textformats import HEADER_REFUSED
from numgrid.server.kinds.textformats import Formats
from numgrid.server.kinds.textformats import JsonShape
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import json_cells
from numgrid.server.kinds.textformats import json_grid
from numgrid.server.kinds.textformats import json_int
from numgrid.server.kinds.textformats import json_list
from numgrid.server.kinds.textformats import json_object
from numgrid.server.kinds.textformats import json_puzzle
from numgrid.server.kinds.textformats import random_seed
from numgrid.server.kinds.textformats import tatham_grid
from numgrid.server.kinds.textformats import tatham_runs
from numgrid.server.kinds.units import formats as units
from numgrid.server.kinds.units.shape import box_shape

from . import fpuzzles
from . import penpa
from . import sudokuwiki
from .model import Cage
from .model import Puzzle
from .model import cages_of
from .model import ordered

SIZES = (4, 6, 9)
FAMILY = units.Family("Killer Sudoku", "killer", SIZES, box_shape)
DEFAULT_MAX_CELLS = 9 * 9
KILLER_MARKS = {"K": False, "KX": True, "XK": True, "X": True}  # header mark -> diagonals


def _puzzle(n: int, givens: Grid, diagonals: bool, cages: tuple[Cage, ...] | list[Cage]) -> Puzzle:
    return Puzzle(n, box_shape(n), None, diagonals, givens, ordered(cages))


def fail(findings: list[Finding], puzzle: Puzzle | None = None) -> PuzzleError:
    """What cannot be read, and the structural errors of what could (all at once)."""
    from .checks import check_puzzle

    if puzzle is not None:
        findings = findings + [f for f in check_puzzle(puzzle) if f.is_error]
    return PuzzleError(findings)


def _empty(n: int) -> Grid:
    return tuple((0,) * n for _ in range(n))


# ---------------------------------------------------------------- janko (the corpus)


def _header(text: str) -> tuple[int, bool, bool] | str:
    """(N, diagonals, marked as a Killer) from ``N N``, ``N N K``, ``N N KX``, ``N N X``."""
    lines = units.janko_lines(text)
    first = lines[0].split() if lines else []
    mark = first[2].upper() if len(first) == 3 else ""
    if (
        len(first) not in (2, 3)
        or (len(first) == 3 and mark not in KILLER_MARKS)
        or not all(decimal(t) for t in first[:2])
    ):
        said = f", not {quoted(lines[0].strip())}" if lines else ""
        return f"{HEADER_REFUSED} 'N N' ('N N K', or 'N N X' or 'N N KX' for Killer-X){said}"
    if first[0] != first[1] or len(first[0]) > 2:
        return f"the grid is square, 4x4, 6x6 or 9x9, not {first[0][:3]}x{first[1][:3]}"
    return int(first[0]), KILLER_MARKS.get(mark, False), mark in ("K", "KX", "XK")


def sniff_janko(text: str) -> str | None:
    """The header, 2N lines after it: N of sums (numbers, ``-``), N of cage numbers."""
    found = _header(text)
    if isinstance(found, str):
        return found
    n = found[0]
    if n not in SIZES:
        return f"a Killer Sudoku is {FAMILY.sizes_text()}"
    lines = units.janko_lines(text)
    if len(lines) - 1 != 2 * n:
        return f"expected {2 * n} lines after the header 'N N' (sums, then cage numbers)"
    if not all(t in ("-", ".") or decimal(t) for line in lines[1:] for t in line.split()):
        return "the sums and cage numbers are numbers ('-' where no sum is written)"
    return None


def _sums_written(sums: Grid, numbers: Grid, findings: list[Finding]) -> None:
    """Each cage's sum written once: a cage with none or with two is named."""
    written_in = [
        k
        for sum_row, row in zip(sums, numbers, strict=True)
        for v, k in zip(sum_row, row, strict=True)
        if v
    ]
    once = set(written_in)
    if len(once) == len(written_in) and once == set().union(*numbers):
        return  # the usual case, at once
    by_cage: dict[int, list[Cell]] = {}
    written: dict[int, list[Cell]] = {}
    for r, row in enumerate(numbers):
        for c, k in enumerate(row):
            by_cage.setdefault(k, []).append((r, c))
            if sums[r][c]:
                written.setdefault(k, []).append((r, c))
    for k, cells in by_cage.items():
        at = written.get(k, [])
        if not at:
            findings.append(
                error(
                    "no_sum",
                    f"cage {k} ({names(cells, 9)}) has no sum: write it at one of its cells",
                    *cells,
                )
            )
        elif len(at) > 1:
            shown = ", ".join(f"{sums[r][c]} at {cell_name((r, c))}" for r, c in at)
            findings.append(
                error("two_sums", f"cage {k} ({names(cells, 9)}) has {len(at)} sums: {shown}", *at)
            )


def read_janko(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    found = _header(text)
    if isinstance(found, str):
        raise PuzzleError([error("bad_header", found)])
    n, diagonals, _ = found
    errors = FAMILY.size_errors(n, max_cells)
    if errors:
        raise PuzzleError(errors)
    lines = units.janko_lines(text)
    if len(lines) - 1 != 2 * n:
        raise PuzzleError(
            [
                error(
                    "row_count",
                    f"expected {2 * n} lines after the header ({n} of cage sums, then {n} of "
                    f"cage numbers), not {len(lines) - 1}",
                )
            ]
        )
    findings: list[Finding] = []
    sums = units.janko_block(lines[1 : n + 1], n, "sum", findings, True)
    numbers = units.janko_block(lines[n + 1 :], n, "cage number", findings, False)
    if not findings:
        _sums_written(sums, numbers, findings)
    puzzle = _puzzle(n, _empty(n), diagonals, cages_of(sums, numbers))
    if findings:
        raise fail(findings, puzzle)
    return Board(puzzle, _empty(n))


def _no_givens(puzzle: Puzzle, where: str) -> None:
    if any(any(row) for row in puzzle.givens):
        given = [(r, c) for r, row in enumerate(puzzle.givens) for c, v in enumerate(row) if v]
        raise PuzzleError(
            [
                error(
                    "no_givens_here",
                    f"{where} has no place for givens ({names(given, 9)}): write the puzzle as "
                    "JSON or a Solo game ID",
                    *given,
                )
            ]
        )


def _covering(puzzle: Puzzle, where: str) -> None:
    """The cages cover every cell once (what the corpus text and Solo need)."""
    n = puzzle.size
    count: dict[Cell, int] = {}
    for cage in puzzle.cages:
        for cell in cage.cells:
            count[cell] = count.get(cell, 0) + 1
    left = [(r, c) for r in range(n) for c in range(n) if (r, c) not in count]
    twice = sorted(cell for cell, k in count.items() if k > 1)
    if left or twice:
        what = f"{names(left, 9)} in no cage" if left else f"{names(twice, 9)} in two cages"
        raise PuzzleError(
            [error("not_covered", f"{where} puts every cell in one cage: {what}", *(left or twice))]
        )


def write_janko(board: Board) -> str:
    puzzle: Puzzle = board.puzzle
    _no_givens(puzzle, "a janko text")
    _covering(puzzle, "a janko text")
    n = puzzle.size
    sums = [[0] * n for _ in range(n)]
    numbers = [[0] * n for _ in range(n)]
    for k, cage in enumerate(puzzle.cages):
        r, c = cage.first
        sums[r][c] = cage.sum
        for r, c in cage.cells:
            numbers[r][c] = k + 1
    lines = [f"{n} {n} {'X' if puzzle.diagonals else 'K'}"]
    lines += [" ".join(str(v) if v else "-" for v in row) for row in sums]
    lines += [" ".join(map(str, row)) for row in numbers]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- line (the cage map)

LABELS = string.ascii_lowercase + string.ascii_uppercase + string.digits
# The map, then spaces with at most one colon among them, then the sums. Possessive
# (++, *+): the separator's spaces have one reading, else a long run of them before
# something that is not a sum is tried in every split (quadratic: 20 s for 50,000).
_CAGE_LINE = re.compile(r"^(?P<map>[^\s:]++)(?=[\s:])\s*+:?\s*+(?P<sums>[0-9][0-9,;\s]*+)$")
_LINE_SHAPE = (
    "a cage-map line is every cell's cage letter in reading order, then the cages' sums "
    "in the order their letters first appear ('aabbc...  15 13 8 ...')"
)


def sniff_line(text: str) -> str | None:
    matches = [_CAGE_LINE.match(body) for _, body in units.puzzle_lines(text)]
    if not matches or not all(matches):
        return _LINE_SHAPE
    if any(len(match["map"]) < 16 for match in matches if match):
        return "a cage map has a letter for each of 16, 36 or 81 cells"
    return None


def _map_size(cells: str, max_cells: int) -> int:
    n = math.isqrt(len(cells))
    if n * n != len(cells) or n not in SIZES:
        raise PuzzleError(
            [
                error(
                    "bad_length",
                    f"the cage map has {len(cells)} letters: a Killer Sudoku's has one a cell, "
                    "16, 36 or 81 (4x4, 6x6 or 9x9)",
                )
            ]
        )
    errors = FAMILY.size_errors(n, max_cells)
    if errors:
        raise PuzzleError(errors)
    return n


def read_line(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    found = _CAGE_LINE.match(units.single_line(text))
    if found is None:
        raise PuzzleError([error("bad_line", _LINE_SHAPE)])
    n = _map_size(found["map"], max_cells)
    findings: list[Finding] = []
    letters: dict[str, list[Cell]] = {}
    for i, letter in enumerate(found["map"]):
        cell = divmod(i, n)
        if letter in LABELS:
            letters.setdefault(letter, []).append(cell)
        else:
            message = f"{cell_name(cell)}: {quoted(letter)} is no cage letter (a-z, A-Z, 0-9)"
            findings.append(error("bad_label", message + ": every cell is in a cage", cell))
    tokens = [t for t in re.split(r"[\s,;]+", found["sums"]) if t]
    long = next((t for t in tokens if len(t) > 3), None)
    if long is not None:
        shown = long if len(long) <= 12 else long[:12] + "..."
        raise PuzzleError([error("bad_sum", f"a cage sum is 1 to 3 digits, not {shown}")])
    sums = [int(t) for t in tokens]
    groups = list(letters.items())
    if len(sums) < len(groups):
        missing = [f"{letter} ({names(cells, 9)})" for letter, cells in groups[len(sums) :]]
        findings.append(
            error(
                "no_sum",
                f"{len(groups)} cages and {len(sums)} sums: no sum for cage "
                + ", ".join(missing[:3])
                + (f" and {len(missing) - 3} more" if len(missing) > 3 else ""),
                *groups[len(sums)][1],
            )
        )
    elif len(sums) > len(groups):
        extra = " ".join(map(str, sums[len(groups) :][:5]))
        findings.append(
            error(
                "extra_sums",
                f"{len(groups)} cages and {len(sums)} sums: no cage for the sums after the "
                f"{len(groups)}th ({extra}{' ...' if len(sums) - len(groups) > 5 else ''})",
            )
        )
    if len(sums) != len(groups):
        raise PuzzleError(findings)  # the sums are not the cages': nothing more to check
    cages = [Cage(total, tuple(cells)) for total, (_, cells) in zip(sums, groups, strict=True)]
    puzzle = _puzzle(n, _empty(n), False, cages)
    if findings:
        raise fail(findings, puzzle)
    return Board(puzzle, _empty(n))


def write_line(board: Board) -> str:
    puzzle: Puzzle = board.puzzle
    if puzzle.diagonals:
        raise PuzzleError([error("cannot_hold", "a cage-map line holds no X rule")])
    _no_givens(puzzle, "a cage-map line")
    _covering(puzzle, "a cage-map line")
    if len(puzzle.cages) > len(LABELS):
        raise PuzzleError(
            [
                error(
                    "too_many_cages",
                    f"a cage-map line has {len(LABELS)} letters, for {len(puzzle.cages)} cages",
                )
            ]
        )
    n = puzzle.size
    cells = [""] * (n * n)
    for k, cage in enumerate(puzzle.cages):
        for r, c in cage.cells:
            cells[r * n + c] = LABELS[k]
    return "".join(cells) + " " + ",".join(str(cage.sum) for cage in puzzle.cages) + "\n"


# ---------------------------------------------------------------- Tatham's Solo

_SOLO_DESC = re.compile(r"^([a-z_0-9]*),([a-z_]*),([a-z_0-9]*)$")


def _solo_killer(text: str) -> tuple[units.SoloId, re.Match[str] | None] | str:
    """A Solo game ID with cages and the parts of its description (None: a random-seed
    ID), or why the text is none."""
    found = units.solo_id(text)
    if found is None or "k" not in found.flags:
        return "not a Solo game ID of a Killer Sudoku ('3x3k:GIVENS,CAGES,SUMS')"
    desc = _SOLO_DESC.match(found.desc)
    if desc is None and not found.seed:
        return "not a Solo game ID of a Killer Sudoku ('3x3k:GIVENS,CAGES,SUMS')"
    return found, desc


def _regions_and_cages(text: str) -> bool:
    """A Solo game ID of a Killer with irregular regions (``9jk``): claimed, so that
    reading it refuses it by name."""
    found = units.solo_id(text)
    return found is not None and "k" in found.flags and found.regions


def sniff_tatham(text: str) -> str | None:
    if _regions_and_cages(text):
        return None
    found = _solo_killer(text)
    return found if isinstance(found, str) else None


def read_tatham(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    if _regions_and_cages(text):
        raise PuzzleError(
            [
                error(
                    "bad_tatham_id",
                    "a Solo game ID of a Killer with irregular regions ('j'): numgrid's "
                    "Killer Sudoku has boxes",
                )
            ]
        )
    found = _solo_killer(text)
    if isinstance(found, str):
        raise PuzzleError([error("bad_tatham_id", found)])
    solo, desc = found
    if desc is None:
        raise PuzzleError([random_seed(text, "Solo")])
    a, b = solo.c, solo.r or solo.c
    n = a * b
    errors = FAMILY.size_errors(n, max_cells)
    if errors:
        raise PuzzleError(errors)
    findings: list[Finding] = []
    if (a, b) != box_shape(n):
        expected = box_shape(n) or (0, 0)
        findings.append(
            error(
                "bad_boxes",
                f"boxes of {a} rows x {b} columns: a {n}x{n} Killer Sudoku's boxes are "
                f"{expected[0]} rows x {expected[1]} columns",
            )
        )
    givens = tatham_grid(desc.group(1), n, findings)
    numbers = units._solo_regions(desc.group(2), n, findings)
    sums = tatham_grid(desc.group(3), n, findings)
    if not findings:
        _sums_written(sums, tuple(tuple(k + 1 for k in row) for row in numbers), findings)
    puzzle = _puzzle(n, givens, "x" in solo.flags, cages_of(sums, numbers))
    if findings:
        raise fail(findings, puzzle)
    return Board(puzzle, _empty(n))


def write_tatham(board: Board) -> str:
    puzzle: Puzzle = board.puzzle
    _covering(puzzle, "a Solo game ID")
    n = puzzle.size
    small = [k + 1 for k, cage in enumerate(puzzle.cages) if not 2 <= len(cage.cells) <= n]
    if small:
        listed = ", ".join(puzzle.cage_name(k - 1) for k in small[:3])
        raise PuzzleError(
            [
                error(
                    "solo_cage",
                    f"a Solo game ID holds cages of 2 to {n} cells, not {listed}",
                    *puzzle.cages[small[0] - 1].cells,
                )
            ]
        )
    numbers = [[0] * n for _ in range(n)]
    sums = [0] * (n * n)
    for k, cage in enumerate(puzzle.cages):
        r, c = cage.first
        sums[r * n + c] = cage.sum
        for r, c in cage.cells:
            numbers[r][c] = k
    boxes = puzzle.boxes or (0, 0)
    walls = units._walls_text(tuple(map(tuple, numbers)), n)
    flags = ("x" if puzzle.diagonals else "") + "k"
    givens = tatham_runs([v for row in puzzle.givens for v in row])
    return f"{boxes[0]}x{boxes[1]}{flags}:{givens},{walls},{tatham_runs(sums)}\n"


# ---------------------------------------------------------------- JSON (proto mirror)


def sniff_json(text: str) -> str | None:
    return json_puzzle(text, "killer")[1] or None


def _json_cage(i: int, raw: Any, n: int, findings: list[Finding]) -> Cage | None:
    what = f"cages[{i}]"
    try:
        cage = json_object(raw, what, {"sum", "cells"})
        total = json_int(cage.get("sum", 0), f"{what}.sum")
        cells = json_cells(cage.get("cells", []), f"{what}.cells")
    except JsonShape as e:
        findings.append(error("bad_value", str(e)))
        return None
    if not cells:
        findings.append(error("empty_cage", f"{what} (sum {total}) has no cells"))
        return None
    repeated = listed_twice(cells)
    if repeated:
        findings.append(
            error("duplicate_cell", f"{what}: lists {names(repeated, 9)} more than once", *repeated)
        )
    outside = [(r, c) for r, c in cells if not (0 <= r < n and 0 <= c < n)]
    if outside:
        findings.append(
            error(
                "cell_outside_grid",
                f"{what}: {names(outside, 9)} outside the {n}x{n} grid",
                *[(r, c) for r, c in outside if 0 <= r < n and 0 <= c < n],
            )
        )
        return None
    return Cage(total, tuple(sorted(set(cells))))


def read_json(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    data, reason = json_puzzle(text, "killer")
    if data is None:
        raise PuzzleError([error("not_json", reason)])
    fields = {"size", "cages", "diagonals", "givens", "entries"}
    try:
        json_object(data, "the JSON", {"killer"})
        raw = json_object(data["killer"], "'killer'", fields)
        n = json_int(raw.get("size", 0), "size")
        errors = FAMILY.size_errors(n, max_cells)
        if errors:
            raise PuzzleError(errors)
        diagonals = raw.get("diagonals", False)
        if not isinstance(diagonals, bool):
            raise JsonShape(f"diagonals must be true or false, not {json.dumps(diagonals)[:40]}")
        raw_cages = json_list(raw.get("cages", []), "cages")
    except JsonShape as e:
        raise PuzzleError([error("bad_shape", str(e))]) from None
    findings: list[Finding] = []
    cages = [_json_cage(i, cage, n, findings) for i, cage in enumerate(raw_cages[: n * n + 1])]
    if len(raw_cages) > n * n:
        findings.append(error("too_many_cages", f"{len(raw_cages)} cages for {n * n} cells"))
    givens = json_grid(raw.get("givens", {}), "givens", n, findings)
    entries = json_grid(raw.get("entries", {}), "entries", n, findings)
    puzzle = _puzzle(n, givens, diagonals, [cage for cage in cages if cage is not None])
    findings += puzzle.overwritten(entries)
    if findings:
        raise fail(findings, puzzle)
    return Board(puzzle, puzzle.entered(entries))


def _ref(cell: Cell) -> dict[str, int]:
    out = {}
    if cell[0]:
        out["row"] = cell[0]
    if cell[1]:
        out["column"] = cell[1]
    return out


def to_dict(puzzle: Puzzle, entries: Grid) -> dict[str, Any]:
    """As ``json_format.MessageToDict`` writes the message: zero values left out."""
    out: dict[str, Any] = {"size": puzzle.size}
    cages = []
    for cage in puzzle.cages:
        one: dict[str, Any] = {"sum": cage.sum} if cage.sum else {}
        one["cells"] = [_ref(cell) for cell in cage.cells]
        cages.append(one)
    if cages:
        out["cages"] = cages
    if puzzle.diagonals:
        out["diagonals"] = True
    if any(any(row) for row in puzzle.givens):
        out["givens"] = {"rows": [{"values": list(row)} for row in puzzle.givens]}
    own = puzzle.entered(entries)
    if any(any(row) for row in own):
        out["entries"] = {"rows": [{"values": list(row)} for row in own]}
    return {"killer": out}


def write_json(board: Board) -> str:
    return json.dumps(to_dict(board.puzzle, board.entries), separators=(",", ":")) + "\n"


FORMATS = Formats.of(
    "Killer Sudoku", DEFAULT_MAX_CELLS, globals(), "json", "tatham", "janko", "line"
).plus(
    penpa.FORMAT,
    fpuzzles.link_format(FAMILY),
    sudokuwiki.FORMAT,
)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
write_solution, read_solution = units.write_solution, units.read_solution
