"""Reading and writing units puzzles: the pieces every kind of the family composes.

- *line*: one puzzle a line, N*N characters in reading order (81 for 9x9, 256 for
  16x16), ``.`` or ``0`` for an empty cell, 1-9 then A-G for 10-16: the line every
  tool for these grids reads. A text of several such lines (``#`` comments aside) is a file of
  puzzles, one a line (:func:`puzzle_lines` splits it).
- *grid*: N rows of N cells (digits, ``.``/``0``/``-``/``_`` empty), with any frame
  (``|``, ``+---+`` lines) and spaces; a row of N numbers separated by spaces (16x16)
  is read number by number.
- *janko*: ``N N``, then N lines of givens (``-`` empty, numbers 1-16), then (with
  regions) N lines of region numbers, 1..N, one a cell (the corpus text).
- *json*: ``{"<kind>": {"size": 9, ..., "givens": {"rows": [{"values": [...]}]},
  "entries": {...}}}``, the protobuf JSON of the kind's message.
- *tatham*: a game ID of Simon Tatham's Solo: ``3x3:`` (boxes of 3 rows and 3
  columns), ``2x3:`` (2 rows x 3 columns), ``9j:`` (irregular regions), ``x`` after
  the size for the X variant; then the givens run-length encoded (``a``-``z``: 1-26
  empty cells, a number for a given, ``_`` between two numbers); with regions, a comma
  and the walls between cells, as ``solo.c``'s parser reads them (``z``: 26 cells joined
  and no wall). A random-seed ID (``3x3#12345``) names no puzzle and is refused.

Readers give a faithful puzzle; :mod:`.checks` says what is wrong with it.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links.tatham import game_id
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import Formats
from numgrid.server.kinds.textformats import JsonShape
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import json_body
from numgrid.server.kinds.textformats import json_bool
from numgrid.server.kinds.textformats import json_grid
from numgrid.server.kinds.textformats import json_int
from numgrid.server.kinds.textformats import json_puzzle
from numgrid.server.kinds.textformats import ragged_row
from numgrid.server.kinds.textformats import random_seed
from numgrid.server.kinds.textformats import square_size_errors
from numgrid.server.kinds.textformats import tatham_grid
from numgrid.server.kinds.textformats import tatham_runs

from .model import DIGITS
from .model import Puzzle
from .model import digit_char

EMPTY_CHARS = ".0-_"


@dataclass(frozen=True)
class Family:
    """What a kind of the family reads: its title (in messages), its JSON key, its sizes,
    and whether it has boxes (else regions)."""

    title: str
    key: str
    sizes: tuple[int, ...]
    boxes: Callable[[int], tuple[int, int] | None] | None  # None: regions are read

    @property
    def regions(self) -> bool:
        return self.boxes is None

    def sizes_text(self) -> str:
        shown = [f"{n}x{n}" for n in self.sizes]
        return ", ".join(shown[:-1]) + f" or {shown[-1]}" if len(shown) > 1 else shown[0]

    def size_errors(self, n: int, max_cells: int) -> list[Finding]:
        if n not in self.sizes:
            return [
                error(
                    "bad_size",
                    f"a {n}x{n} {self.title} is not served: a {self.title} is {self.sizes_text()}",
                )
            ]
        return square_size_errors(n, max_cells, n)

    def puzzle(self, n: int, givens: Grid, regions: Grid | None, diagonals: bool) -> Puzzle:
        boxes = self.boxes(n) if self.boxes is not None else None
        return Puzzle(n, boxes, regions if self.regions else None, diagonals, givens)


def fail(findings: list[Finding], puzzle: Puzzle | None = None) -> PuzzleError:
    """What cannot be read, and the structural errors of what could (all at once)."""
    from .checks import check_puzzle

    if puzzle is not None:
        findings = findings + [f for f in check_puzzle(puzzle) if f.is_error]
    return PuzzleError(findings)


def _digit_value(ch: str, n: int) -> int | None:
    """A cell's character: its digit, 0 for empty, None when it is neither."""
    if ch in EMPTY_CHARS:
        return 0
    up = ch.upper()
    k = DIGITS.find(up)
    if k < 0 or k >= n or not ch.isascii():
        return None
    return k + 1


def _digits_named(n: int) -> str:
    return f"1-{n}" if n <= 9 else f"1-9 and A-{digit_char(n)}"


def empty_grid(n: int) -> Grid:
    return tuple((0,) * n for _ in range(n))


# ---------------------------------------------------------------- line


_LINE = re.compile(r"^[0-9A-Za-z._-]{16,}$")
LINE_SIZES = {n * n: n for n in (4, 6, 9, 16)}
# A line of digits 1-9 and empty cells, as bytes: each character to its value at once.
_LINE_VALUES = bytes.maketrans(
    (DIGITS[:9] + EMPTY_CHARS).encode(), bytes(range(1, 10)) + bytes(len(EMPTY_CHARS))
)


def puzzle_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a text that hold something (comments starting ``#`` aside), with
    their line numbers (1-based)."""
    out = []
    for k, line in enumerate(text.splitlines(), 1):
        body = line.strip()
        if body and not body.startswith("#"):
            out.append((k, body))
    return out


def sniff_line(_family: Family, text: str) -> str | None:
    lines = puzzle_lines(text)
    if not lines or not all(_LINE.match(body) for _, body in lines):
        return "not puzzles one a line (N*N characters: digits, '.' or '0' for empty)"
    return None


def read_line_body(family: Family, body: str, where: str, max_cells: int) -> Puzzle:
    """One line of N*N characters; ``where`` names it in messages (``line 3: ``)."""
    n = LINE_SIZES.get(len(body))
    root = math.isqrt(len(body))
    if n is None and root * root == len(body):
        raise PuzzleError(family.size_errors(root, max_cells))
    if n is None:
        near = min(LINE_SIZES, key=lambda k: abs(k - len(body)))
        raise PuzzleError(
            [
                error(
                    "bad_length",
                    f"{where}the line has {len(body)} characters: a {LINE_SIZES[near]}x"
                    f"{LINE_SIZES[near]} {family.title} line has {near} (one a cell in reading "
                    f"order, '.' or '0' for an empty cell)",
                )
            ]
        )
    errors = family.size_errors(n, max_cells)
    if errors:
        raise PuzzleError(errors)
    if n <= 9 and not body.strip(EMPTY_CHARS + DIGITS[:n]):  # the usual line: digits only
        cells = iter(body.encode().translate(_LINE_VALUES))
        givens = tuple(zip(*[cells] * n, strict=True))  # rows: one iterator read n at a time
        return family.puzzle(n, givens, None, False)
    findings = []
    values = []
    for i, ch in enumerate(body):
        v = _digit_value(ch, n)
        if v is None:
            cell = divmod(i, n)
            findings.append(
                error(
                    "bad_digit",
                    f"{where}{cell_name(cell)}: {quoted(ch)} is not a digit of a {n}x{n} "
                    f"{family.title} ({_digits_named(n)}, '.' or '0' for an empty cell)",
                    cell,
                )
            )
            v = 0
        values.append(v)
    givens = tuple(tuple(values[r * n : r * n + n]) for r in range(n))
    puzzle = family.puzzle(n, givens, None, False)
    if findings:
        raise fail(findings, puzzle)
    return puzzle


def single_line(text: str) -> str:
    """The one puzzle line of a text (a text of several is a file of puzzles, read by the
    client line by line)."""
    lines = puzzle_lines(text)
    if len(lines) != 1:
        raise PuzzleError(
            [
                error(
                    "many_puzzles",
                    f"the text holds {len(lines)} puzzles, one a line: a file of them is read "
                    "puzzle by puzzle (numgrid unique FILE), a single puzzle is one line",
                )
            ]
        )
    return lines[0][1]


def read_line(family: Family, text: str, max_cells: int) -> Puzzle:
    return read_line_body(family, single_line(text), "", max_cells)


def _no_diagonals(puzzle: Puzzle, what: str) -> None:
    """A text of givens alone cannot say the X rule: refused, never dropped."""
    if puzzle.diagonals:
        message = f"{what} holds no X rule (both diagonals)"
        raise PuzzleError([error("cannot_hold", message)])


def write_line(puzzle: Puzzle) -> str:
    _no_diagonals(puzzle, "a line of digits")
    return "".join(digit_char(v) for row in puzzle.givens for v in row) + "\n"


# ---------------------------------------------------------------- grid


_RULE = re.compile(r"^[-+|=:\s]*$")


def _grid_rows(text: str) -> list[list[str]]:
    """The rows of a drawn grid, each as its cells' tokens (frame lines left out)."""
    rows = []
    for line in text.strip().splitlines():
        if not line.strip() or _RULE.match(line):
            continue
        body = line.replace("|", " ").replace(",", " ")
        tokens = body.split()
        if (
            len(tokens) > 1
            and all(len(t) <= 2 for t in tokens)
            and any(len(t) == 2 for t in tokens)
        ):
            rows.append(tokens)  # numbers one a cell (10-16 take two characters)
        else:
            rows.append(list("".join(tokens)))
    return rows


def sniff_grid(_family: Family, text: str) -> str | None:
    rows = _grid_rows(text)
    n = len(rows)
    if n < 4 or any(len(row) != n for row in rows):
        return "not a grid (N rows of N cells: digits, '.' for empty)"
    if not all(re.fullmatch(r"[0-9A-Za-z._-]{1,2}", t) for row in rows for t in row):
        return "not a grid (N rows of N cells: digits, '.' for empty)"
    return None


def _token_value(token: str, n: int) -> int | None:
    if decimal(token):
        v = int(token)
        return v if v <= n else None
    return _digit_value(token, n) if len(token) == 1 else None


def read_grid(family: Family, text: str, max_cells: int) -> Puzzle:
    rows = _grid_rows(text)
    n = len(rows)
    errors = family.size_errors(n, max_cells)
    if errors:
        raise PuzzleError(errors)
    findings = []
    grid = []
    for r, row in enumerate(rows):
        if len(row) != n:
            findings.append(ragged_row(r, len(row), n, "cells"))
        values = []
        for c, token in enumerate(row[:n]):
            v = _token_value(token, n)
            if v is None:
                findings.append(
                    error(
                        "bad_digit",
                        f"{cell_name((r, c))}: {quoted(token)} is not a digit of a {n}x{n} "
                        f"{family.title} ({_digits_named(n)}, '.' for an empty cell)",
                        (r, c),
                    )
                )
                v = 0
            values.append(v)
        grid.append(tuple((values + [0] * n)[:n]))
    puzzle = family.puzzle(n, tuple(grid), None, False)
    if findings:
        raise fail(findings, puzzle)
    return puzzle


def write_grid(puzzle: Puzzle) -> str:
    _no_diagonals(puzzle, "a grid of digits")
    n = puzzle.size
    wide = n > 9
    lines = []
    for row in puzzle.givens:
        if wide:
            lines.append(" ".join(f"{v:>2}" if v else " ." for v in row))
        else:
            lines.append(" ".join(digit_char(v) for v in row))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- janko (the corpus)


def _number(token: str) -> bool:
    return decimal(token) and len(token) <= 3


X_MARKS = ("X", "D")  # a header's third field for the X (diagonal) variant


def janko_diagonals(text: str) -> bool:
    lines = janko_lines(text)
    first = lines[0].split() if lines else []
    return len(first) == 3 and first[2].upper() in X_MARKS


def janko_lines(text: str) -> list[str]:
    return [line for line in text.strip().splitlines() if line.strip()]


def janko_header(text: str) -> int | str:
    """N from a header ``N N`` (or ``N N X``, the X variant), or why the text has none."""
    lines = janko_lines(text)
    first = lines[0].split() if lines else []
    if len(first) == 3 and first[2].upper() in X_MARKS:
        first = first[:2]
    if len(first) != 2 or not all(_number(t) for t in first):
        return "first line must be 'N N' (or 'N N X' for the X variant)"
    if first[0] != first[1]:
        return f"the grid is square, not {first[0]}x{first[1]}"
    return int(first[0])


def sniff_janko(family: Family, text: str) -> str | None:
    """The header and the number of lines: N of givens (and N of regions, with them)."""
    n = janko_header(text)
    if isinstance(n, str):
        return n
    if not 4 <= n <= 16:
        return f"a {family.title} is {family.sizes_text()}"
    blocks = 2 if family.regions else 1
    lines = janko_lines(text)
    if len(lines) - 1 != blocks * n:
        return f"expected {blocks * n} lines after the header 'N N'"
    for r, line in enumerate(lines[1 : n + 1]):
        for c, t in enumerate(line.split()):
            if not (t in ("-", ".") or (_number(t) and 0 < int(t) <= n)):
                at = cell_name((r, c))
                return f"the givens are digits 1-{n}, '-' or '.', not {quoted(t)} at {at}"
    for line in lines[n + 1 :]:
        if not all(_number(t) for t in line.split()):
            return "the regions are numbers"
    return None


# A line of numbers of up to three ASCII digits (and, where empty cells may be, '-' or
# '.'), each token ending at white space: what :func:`janko_block` reads at once.
_NUMBERS = re.compile(r"(?:\s*[0-9]{1,3}(?!\S))*\s*")
_NUMBERS_OR_EMPTY = re.compile(r"(?:\s*(?:[0-9]{1,3}|[-.])(?!\S))*\s*")
_EMPTY_AS_0 = str.maketrans("-.", "00")


def janko_block(
    rows: list[str], n: int, what: str, findings: list[Finding], empty_ok: bool
) -> Grid:
    """N lines of N numbers (``what`` in messages; ``-`` or ``.`` for 0 if ``empty_ok``),
    each bad token or ragged row a finding."""
    grid = []
    well_formed = _NUMBERS_OR_EMPTY if empty_ok else _NUMBERS
    for r, line in enumerate(rows):
        if well_formed.fullmatch(line):
            read = tuple(map(int, line.translate(_EMPTY_AS_0).split()))
            if len(read) == n:
                grid.append(read)
                continue
        tokens = line.split()
        if len(tokens) != n:
            findings.append(ragged_row(r, len(tokens), n, "tokens", what))
        values = []
        for c, token in enumerate(tokens[:n]):
            if empty_ok and token in ("-", "."):
                values.append(0)
            elif _number(token):
                values.append(int(token))
            else:
                findings.append(
                    error(
                        "unknown_token",
                        f"{cell_name((r, c))}: {what} {quoted(token)} is not a number"
                        + (" or '-'" if empty_ok else ""),
                        (r, c),
                    )
                )
                values.append(0)
        grid.append(tuple((values + [0] * n)[:n]))
    return tuple(grid)


def from_written_regions(regions: Grid, n: int) -> Grid:
    """Region numbers as written to 0..N-1: 1..N (or 0..N-1); N distinct numbers with a
    gap (1, 2, 3, 5, 6) are labels and are numbered in order. Anything else is shifted
    from 1 (from 0 when no number is over N - 1) and left for the checks to name."""
    flat = [v for row in regions for v in row]
    labels = sorted(set(flat))
    if len(labels) == n:
        index = {label: k for k, label in enumerate(labels)}
        return tuple(tuple(index[v] for v in row) for row in regions)
    shift = 0 if flat and min(flat) == 0 and max(flat) < n else 1
    return tuple(tuple(v - shift for v in row) for row in regions)


def read_janko(family: Family, text: str, max_cells: int) -> Puzzle:
    n = janko_header(text)
    if isinstance(n, str):
        raise PuzzleError([error("bad_header", n)])
    errors = family.size_errors(n, max_cells)
    if errors:
        raise PuzzleError(errors)
    lines = janko_lines(text)
    blocks = 2 if family.regions else 1
    if len(lines) - 1 != blocks * n:
        what = f"{n} of givens" + (f", then {n} of region numbers" if family.regions else "")
        raise PuzzleError(
            [
                error(
                    "row_count",
                    f"expected {blocks * n} lines after the header ({what}), not {len(lines) - 1}",
                )
            ]
        )
    findings: list[Finding] = []
    givens = janko_block(lines[1 : n + 1], n, "given", findings, True)
    regions = None
    if family.regions:
        regions = from_written_regions(janko_block(lines[n + 1 :], n, "region", findings, False), n)
    puzzle = family.puzzle(n, givens, regions, janko_diagonals(text))
    if findings:
        raise fail(findings, puzzle)
    return puzzle


def write_janko(puzzle: Puzzle) -> str:
    n = puzzle.size
    lines = [f"{n} {n}" + (" X" if puzzle.diagonals else "")]
    lines += [" ".join(str(v) if v else "-" for v in row) for row in puzzle.givens]
    if puzzle.regions is not None:
        lines += [" ".join(str(k + 1) for k in row) for row in puzzle.regions]
    return "\n".join(lines) + "\n"


def write_solution(puzzle: Puzzle, solution: Grid) -> str:
    """The corpus's solution text: ``N N``, then the digits."""
    n = puzzle.size
    return "\n".join([f"{n} {n}", *(" ".join(map(str, row)) for row in solution)]) + "\n"


def read_solution(text: str) -> Grid:
    n = janko_header(text)
    if isinstance(n, str) or not 1 <= n <= 16:
        raise PuzzleError([error("bad_header", "a solution starts with 'N N', N 1-16")])
    findings: list[Finding] = []
    grid = janko_block(janko_lines(text)[1 : n + 1], n, "digit", findings, False)
    if findings or len(grid) != n:
        raise PuzzleError(findings or [error("row_count", f"a solution has {n} rows")])
    return grid


# ---------------------------------------------------------------- Tatham's Solo


_SOLO_PARAMS = re.compile(r"^([0-9]{1,2})(?:x([0-9]{1,2}))?([a-z0-9]*)$")
_SOLO_DESC = re.compile(r"^([a-z_0-9]*)(?:,([a-z_]*))?$")


@dataclass(frozen=True)
class SoloId:
    """A Solo game ID cut as ``solo.c`` reads it: ``C`` or ``CxR`` (a box of C rows and R
    columns), the flags after them, then ``:`` and the description, or ``#`` and a
    random seed."""

    c: int
    r: int | None  # None: no ``xR`` written
    flags: str  # the letters that change the rules (:func:`_flags`)
    seed: bool
    desc: str

    @property
    def regions(self) -> bool:
        return "j" in self.flags

    @property
    def size(self) -> int:
        """N: the boxes' C x R cells, or (``Nj``) N itself; ``3x3j`` means ``9j``."""
        return self.c * (self.r or 1)


def solo_id(text: str) -> SoloId | None:
    """The parts of a Solo game ID (or of a link to Solo's web page), or None when the
    text is none."""
    body = game_id(text, "solo")
    if body is None:
        return None
    cut = min((i for i in (body.find(":"), body.find("#")) if i >= 0), default=-1)
    params = _SOLO_PARAMS.match(body[:cut]) if cut > 0 else None
    if params is None:
        return None
    r = int(params.group(2)) if params.group(2) else None
    return SoloId(
        int(params.group(1)), r, _flags(params.group(3)), body[cut] == "#", body[cut + 1 :]
    )


def sniff_tatham(family: Family, text: str) -> str | None:
    found = solo_id(text)
    why = f"not a Solo game ID of a {family.title}"
    if found is None or not (found.seed or _SOLO_DESC.match(found.desc)):
        return why
    if "k" in found.flags:
        return "a Solo game ID with cages ('k')"
    if found.regions != family.regions or (found.r is None and not found.regions):
        return why
    return None


def _flags(text: str) -> str:
    """The letters of Solo's parameters that change the rules (``j``, ``x``, ``k``),
    without its difficulty (``dt`` ... ``du``) and symmetry (``a``, ``m2`` ... ``md4``,
    ``r2``, ``r4``)."""
    return re.sub(r"d[tbiaeu]?|md?[0-9]*|r[0-9]*|a", "", text)


def _solo_walls(n: int) -> list[tuple[int, int]]:
    """The internal grid lines in solo.c's order: vertical ones in reading order, then
    horizontal ones in transposed order; each as the pair of cell indices it parts."""
    walls = []
    for i in range(n * (n - 1)):
        y, x = divmod(i, n - 1)
        walls.append((y * n + x, y * n + x + 1))
    for i in range(n * (n - 1)):
        x, y = divmod(i, n - 1)
        walls.append((y * n + x, (y + 1) * n + x))
    return walls


def _solo_regions(text: str, n: int, findings: list[Finding]) -> Grid:
    """Region numbers (0..N-1, in reading order of their first cells) from the walls."""
    walls = _solo_walls(n)
    is_wall = [False] * len(walls)
    k = 0
    for ch in text:
        if ch == "_":
            run, wall = 0, True
        elif ch == "z":  # 26 non-walls and no wall, as solo.c's parser reads it
            run, wall = 26, False
        else:
            run, wall = ord(ch) - ord("a") + 1, True
        k += run
        if wall:
            if k < len(walls):
                is_wall[k] = True
            k += 1
    if k != len(walls) + 1:
        findings.append(
            error("bad_tatham_id", f"the region walls describe {k} lines, not {len(walls) + 1}")
        )
    parent = list(range(n * n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (a, b), wall in zip(walls, is_wall, strict=True):
        if not wall:
            parent[root(a)] = root(b)
    numbers: dict[int, int] = {}
    flat = [numbers.setdefault(root(i), len(numbers)) for i in range(n * n)]
    return tuple(tuple(flat[r * n : r * n + n]) for r in range(n))


def read_tatham(family: Family, text: str, max_cells: int) -> Puzzle:
    found = solo_id(text)
    if found is not None and found.seed:
        raise PuzzleError([random_seed(text, "Solo")])
    desc = _SOLO_DESC.match(found.desc) if found is not None else None
    if found is None or desc is None:
        raise PuzzleError([error("bad_tatham_id", "not a Solo game ID ('3x3:...', '9j:...,...')")])
    n = found.size
    errors = family.size_errors(n, max_cells)
    if errors:
        raise PuzzleError(errors)
    findings: list[Finding] = []
    givens = tatham_grid(desc.group(1), n, findings)
    regions = None
    if family.regions:
        if desc.group(2) is None:
            findings.append(
                error("bad_tatham_id", "a game ID with regions lists them after a comma")
            )
            regions = empty_grid(n)
        else:
            regions = _solo_regions(desc.group(2), n, findings)
    elif desc.group(2) is not None:
        findings.append(error("bad_tatham_id", "a game ID with boxes has nothing after a comma"))
    diagonals = "x" in found.flags
    if family.regions:
        puzzle = family.puzzle(n, givens, regions, diagonals)
    else:
        a, b = found.c, found.r or 1
        puzzle = Puzzle(n, (a, b), None, diagonals, givens)
        expected = family.boxes(n) if family.boxes is not None else None
        if expected is not None and (a, b) != expected:
            findings.append(
                error(
                    "bad_boxes",
                    f"boxes of {a} rows x {b} columns: a {n}x{n} {family.title}'s boxes are "
                    f"{expected[0]} rows x {expected[1]} columns",
                )
            )
    if findings:
        raise fail(findings, puzzle)
    return puzzle


def _walls_text(regions: Grid, n: int) -> str:
    flat = [v for row in regions for v in row]
    out: list[str] = []
    run = 0
    walls = _solo_walls(n)
    for k in range(len(walls) + 1):
        edge = k == len(walls) or flat[walls[k][0]] != flat[walls[k][1]]
        if edge:
            while run >= 26:  # z: 26 non-walls and no wall (solo.c's parser)
                out.append("z")
                run -= 26
            out.append(chr(ord("a") - 1 + run) if run else "_")
            run = 0
        else:
            run += 1
    return "".join(out)


def write_tatham(puzzle: Puzzle) -> str:
    n = puzzle.size
    flag = "x" if puzzle.diagonals else ""
    values = [v for row in puzzle.givens for v in row]
    if puzzle.regions is not None:
        return f"{n}j{flag}:{tatham_runs(values)},{_walls_text(puzzle.regions, n)}\n"
    if puzzle.boxes is None:
        raise PuzzleError([error("not_solo", "a Solo game ID needs boxes or regions")])
    a, b = puzzle.boxes
    return f"{a}x{b}{flag}:{tatham_runs(values)}\n"


# ---------------------------------------------------------------- JSON (proto mirror)


def sniff_json(family: Family, text: str) -> str | None:
    return json_puzzle(text, family.key)[1] or None


def read_json(family: Family, text: str, max_cells: int) -> tuple[Puzzle, Grid]:
    """The puzzle and the entries of a JSON puzzle."""
    fields = {"size", "diagonals", "givens", "entries"}
    fields |= (
        {"regions"} if family.regions else {"boxRows", "box_rows", "boxColumns", "box_columns"}
    )
    try:
        raw = json_body(text, family.key, fields)
        n = json_int(raw.get("size", 0), "size")
        errors = family.size_errors(n, max_cells)
        if errors:
            raise PuzzleError(errors)
        diagonals = json_bool(raw.get("diagonals", False), "diagonals")
        box_rows = json_int(raw.get("boxRows", raw.get("box_rows", 0)), "boxRows")
        box_cols = json_int(raw.get("boxColumns", raw.get("box_columns", 0)), "boxColumns")
    except JsonShape as e:
        raise PuzzleError([error("bad_shape", str(e))]) from None
    findings: list[Finding] = []
    givens = json_grid(raw.get("givens", {}), "givens", n, findings)
    entries = json_grid(raw.get("entries", {}), "entries", n, findings)
    regions = None
    if family.regions:
        written = json_grid(raw.get("regions", {}), "regions", n, findings)
        if not any(any(row) for row in written):  # none listed (or none readable)
            missing = f"a {family.title} lists its regions ({n} rows of region numbers 1-{n})"
            raise PuzzleError([*findings, error("no_regions", missing)])
        regions = tuple(tuple(v - 1 for v in row) for row in written)
    puzzle = family.puzzle(n, givens, regions, diagonals)
    if not family.regions and (box_rows or box_cols):
        expected = puzzle.boxes
        if (box_rows, box_cols) != expected:
            assert expected is not None
            findings.append(
                error(
                    "bad_boxes",
                    f"boxes of {box_rows} rows x {box_cols} columns: a {n}x{n} {family.title}'s "
                    f"boxes are {expected[0]} rows x {expected[1]} columns",
                )
            )
    findings += puzzle.overwritten(entries)
    if findings:
        raise fail(findings, puzzle)
    # a given cell holds its given: an entry there is not the player's (as written back)
    return puzzle, puzzle.entered(entries)


def _grid_dict(grid: Grid) -> dict[str, Any]:
    return {"rows": [{"values": list(row)} for row in grid]}


def to_dict(family: Family, puzzle: Puzzle, entries: Grid) -> dict[str, Any]:
    """As ``json_format.MessageToDict`` writes the message: zero values left out; the
    regions numbered from 1 in reading order (one puzzle, one message)."""
    out: dict[str, Any] = {"size": puzzle.size}
    if puzzle.boxes is not None:
        out["boxRows"], out["boxColumns"] = puzzle.boxes
    if puzzle.canonical_regions is not None:
        regions = puzzle.canonical_regions
        out["regions"] = _grid_dict(tuple(tuple(k + 1 for k in row) for row in regions))
    if puzzle.diagonals:
        out["diagonals"] = True
    if any(any(row) for row in puzzle.givens):
        out["givens"] = _grid_dict(puzzle.givens)
    own = puzzle.entered(entries)
    if any(any(row) for row in own):
        out["entries"] = _grid_dict(own)
    return {family.key: out}


def write_json(family: Family, puzzle: Puzzle, entries: Grid) -> str:
    return json.dumps(to_dict(family, puzzle, entries), separators=(",", ":")) + "\n"


def formats(family: Family, default_max_cells: int, *names: str) -> Formats:
    """A kind's formats, in detection order: ``names`` of the ones above, each from its
    ``sniff_``, ``read_`` and ``write_`` functions here, bound to ``family``."""
    here = globals()

    def board_reader(name: str) -> Callable[..., Board]:
        def read(text: str, max_cells: int = default_max_cells) -> Board:
            if name == "json":
                return Board(*read_json(family, text, max_cells))
            puzzle = here[f"read_{name}"](family, text, max_cells)
            return Board(puzzle, puzzle.empty_grid())

        return read

    def board_writer(name: str) -> Callable[[Board], str]:
        if name == "json":
            return lambda board: write_json(family, board.puzzle, board.entries)
        return lambda board: here[f"write_{name}"](board.puzzle)

    return Formats(
        family.title,
        default_max_cells,
        *(
            Format(
                name,
                functools.partial(here[f"sniff_{name}"], family),
                board_reader(name),
                board_writer(name),
            )
            for name in names
        ),
    )
