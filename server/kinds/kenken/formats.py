"""Reading and writing KenKen boards in three formats, with auto-detection.

- ``janko``: the janko.at text of the corpus: ``N N``, then N lines of clue tokens (a
  cage's target and operation at one cell of the cage: ``12*``, ``12x`` or ``12X`` (or
  U+00D7), ``3-``, ``2/`` or ``2:`` (or U+00F7), ``7+``, a bare number for a one-cell
  cage; ``.`` or ``-`` elsewhere), then N lines of cage labels (equal tokens, one cage).
  numgrid adds an optional third block of N lines: the player's entries (``0``, ``.`` or
  ``-`` for empty). A bare number on a cage of several cells is a *hidden* operation
  (see :mod:`.checks`): janko.at has puzzles with the operations hidden, and the corpus
  lost the division signs of others.
- ``tatham``: a game ID of Simon Tatham's Keen, ``6:ab__a_...,m20m36s1a11...`` (a params
  prefix such as ``6dh:`` is accepted). Before the comma, the cage walls: the
  ``N(N-1)`` inner vertical edges in reading order, then the ``N(N-1)`` inner horizontal
  edges column by column, then one closing edge, written as the number of non-walls
  before each wall: ``_`` none, ``a``-``x`` 1-24, ``y`` 25 non-walls *with no wall after
  them*, ``z`` 26 non-walls then a wall, as keen.c's parser reads them (its encoder
  writes ``y`` and ``z`` the other way round, which its own parser misreads; ours are
  written for the parser). A letter followed by a number is that letter repeated. After
  the comma, one clue per cage, in the order of their first cell: ``a`` add, ``s``
  subtract, ``m`` multiply, ``d`` divide, then the target; a one-cell cage is ``a`` (or
  ``m``) and its digit (Keen never makes one). An ID holds no entries; a random-seed ID
  (``6dh#12345``) names no puzzle and cannot be read. Keen's grids are 3x3 to 9x9: an ID
  of another size is read, but none is written.
- ``json``: the protobuf JSON of ``numgrid.v1.Puzzle`` with its ``kenken`` field:
  ``{"kenken": {"size": 4, "cages": [{"target": 7, "operation": "CAGE_OPERATION_ADD",
  "cells": [{"column": 1}, {"row": 1, "column": 1}]}], "entries": {"rows": [...]}}}``;
  zero values may be left out (``{}`` is r0c0; no operation is a one-cell cage).

Readers give a faithful :class:`Board`, rejecting only what cannot be read (every problem
in one :class:`PuzzleError`); what is wrong with its structure is for :mod:`.checks`.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import cast

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.judging import listed_twice
from numgrid.server.kinds.links.tatham import game_id
from numgrid.server.kinds.links.tatham import read_game_id
from numgrid.server.kinds.textformats import Formats
from numgrid.server.kinds.textformats import JsonShape
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import header_of
from numgrid.server.kinds.textformats import is_random_seed
from numgrid.server.kinds.textformats import json_body
from numgrid.server.kinds.textformats import json_cells
from numgrid.server.kinds.textformats import json_grid
from numgrid.server.kinds.textformats import json_int
from numgrid.server.kinds.textformats import json_list
from numgrid.server.kinds.textformats import json_object
from numgrid.server.kinds.textformats import json_puzzle
from numgrid.server.kinds.textformats import json_writer
from numgrid.server.kinds.textformats import ragged_row
from numgrid.server.kinds.textformats import random_seed
from numgrid.server.kinds.textformats import refuse
from numgrid.server.kinds.textformats import square_size_errors
from numgrid.server.kinds.textformats import tatham_size

from . import penpa
from .model import ADD
from .model import DIVIDE
from .model import MAX_SIZE
from .model import MULTIPLY
from .model import NONE
from .model import SUBTRACT
from .model import WRITTEN
from .model import Cage
from .model import Puzzle

DEFAULT_MAX_CELLS = MAX_SIZE * MAX_SIZE


def _names(cells, limit: int = 4) -> str:
    cells = list(cells)
    shown = ", ".join(cell_name(c) for c in cells[:limit])
    return shown + (", ..." if len(cells) > limit else "")


def _entry_finding(cell: Cell, value, n: int) -> Finding:
    return error(
        "bad_digit", f"{cell_name(cell)}: entered value {value} is not a digit 1-{n}", cell
    )


# ---------------------------------------------------------------- janko text

_CLUE = re.compile(f"^([0-9]{{1,6}})([{re.escape(''.join(WRITTEN))}]?)$")
_JANKO_OPERATION = {ADD: "+", SUBTRACT: "-", MULTIPLY: "*", DIVIDE: "/", NONE: ""}
_EMPTY = (".", "-")


def _janko_lines(text: str) -> list[str]:
    return [line for line in text.strip().splitlines() if line.strip()]


def _header(lines: list[str]) -> tuple[int, int] | str:
    first = lines[0].split() if lines else []
    if len(first) != 2 or not all(decimal(t) and len(t) <= 3 for t in first):
        return "first line must be 'N N'"
    return int(first[0]), int(first[1])


def _janko_shape(lines: list[str]) -> tuple[int, int] | str:
    """N from a square header, or why the text is not KenKen janko text."""
    header = _header(lines)
    if isinstance(header, str):
        return header
    rows, cols = header
    if rows != cols:
        return f"a KenKen grid is square, not {rows}x{cols}"
    return rows, len(lines) - 1


def sniff_janko(text: str) -> str | None:
    """None when ``text`` looks like KenKen janko text: a square header, more lines after
    it than the grid has rows (2N, or 3N with entries; the reader says when the count is
    wrong) and no commas. A run-sum janko text has one line per row and commas in
    its clues."""
    shape = _janko_shape(_janko_lines(text))
    if isinstance(shape, str):
        return shape
    n, count = shape
    if count <= n:
        return f"expected {2 * n} lines after the header (clues, then cages), not {count}"
    if "," in text:
        return "a comma (KenKen janko text has none)"
    return None


def _janko_entry(token: str, cell: Cell, n: int, findings: list[Finding]) -> int:
    if token in _EMPTY:
        return 0
    if not decimal(token) or len(token) > 2:
        findings.append(
            error("unknown_token", f"{cell_name(cell)}: entry {quoted(token)} is not a digit", cell)
        )
        return 0
    value = int(token)
    if value > n:
        findings.append(_entry_finding(cell, value, n))
        return 0
    return value


def read_janko(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    lines = _janko_lines(text)
    n, count = header_of(_janko_shape(lines))
    refuse(square_size_errors(n, max_cells, MAX_SIZE))
    if count not in (2 * n, 3 * n):
        raise PuzzleError(
            [
                error(
                    "row_count",
                    f"expected {2 * n} lines after the header ({n} of clues, then {n} of "
                    f"cages; {3 * n} with entries), not {count}",
                )
            ]
        )
    rows = [line.split() for line in lines[1:]]
    findings: list[Finding] = []
    for i, tokens in enumerate(rows):
        if len(tokens) != n:
            block, r = ("clue", "cage", "entry")[i // n], i % n
            findings.append(ragged_row(r, len(tokens), n, "tokens", block))
    refuse(findings)
    clues: dict[Cell, tuple[int, str] | None] = {}  # None: unreadable, already reported
    members: dict[str, list[Cell]] = defaultdict(list)
    entries = [[0] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            token = rows[r][c]
            if token not in _EMPTY:
                m = _CLUE.match(token)
                if m is None:
                    findings.append(
                        error(
                            "unknown_token",
                            f"{cell_name((r, c))}: unknown clue {quoted(token)} (expected a "
                            "target and + - * x /, a bare number, '.' or '-')",
                            (r, c),
                        )
                    )
                    clues[(r, c)] = None
                else:
                    clues[(r, c)] = (int(m.group(1)), WRITTEN[m.group(2)])
            members[rows[n + r][c]].append((r, c))
            if len(rows) == 3 * n:
                entries[r][c] = _janko_entry(rows[2 * n + r][c], (r, c), n, findings)
    cages = []
    for label, cells in members.items():
        given = [cell for cell in cells if cell in clues]
        if not given:
            findings.append(
                error(
                    "cage_without_clue",
                    f"cage {quoted(label)} ({_names(cells)}) has no clue",
                    *cells,
                )
            )
            continue
        if len(given) > 1:
            findings.append(
                error(
                    "cage_with_two_clues",
                    f"cage {quoted(label)} has {len(given)} clues ({_names(given, len(given))})",
                    *given,
                )
            )
            continue
        clue = clues[given[0]]
        if clue is None:
            continue
        target, operation = clue
        cages.append(Cage(target, operation, tuple(sorted(cells))))
    refuse(findings)
    cages.sort(key=lambda cage: cage.cells)
    return Board(Puzzle(n, tuple(cages)), tuple(map(tuple, entries)))


def _cage_labels(puzzle: Puzzle) -> list[list[str]]:
    """A label per cell from its cage's number. What a text format cannot hold (a cell in
    no cage or in two, an unknown operation, a negative target) raises PuzzleError."""
    n = puzzle.size
    label = [[""] * n for _ in range(n)]
    findings = _unwritable_cages(puzzle)
    for i, cage in enumerate(puzzle.cages, start=1):
        for r, c in cage.cells:
            if not (0 <= r < n and 0 <= c < n):
                findings.append(
                    error(
                        "cell_outside_grid",
                        f"{cage.name}: {cell_name((r, c))} is outside the grid",
                        (r, c),
                    )
                )
            elif label[r][c]:
                findings.append(
                    error(
                        "cell_in_two_cages",
                        f"{cell_name((r, c))} is in two cages: it cannot be written",
                        (r, c),
                    )
                )
            else:
                label[r][c] = str(i)
    findings.extend(
        error("cell_without_cage", f"{cell_name((r, c))} is in no cage: it cannot be written")
        for r in range(n)
        for c in range(n)
        if not label[r][c]
    )
    refuse(findings)
    return label


def _unwritable_cages(puzzle: Puzzle) -> list[Finding]:
    findings = []
    for i, cage in enumerate(puzzle.cages):
        if not cage.cells:
            findings.append(error("empty_cage", f"cage {i} has no cells"))
        elif cage.operation not in _JANKO_OPERATION:
            findings.append(
                error(
                    "unknown_operation",
                    f"{cage.name}: unknown operation {cage.operation!r}",
                    cage.cells[0],
                )
            )
        elif cage.target < 0:
            findings.append(
                error(
                    "bad_target",
                    f"{cage.name}: a negative target cannot be written",
                    cage.cells[0],
                )
            )
    return findings


def write_janko(board: Board) -> str:
    p = board.puzzle
    n = p.size
    label = _cage_labels(p)
    clue = [["."] * n for _ in range(n)]
    for cage in p.cages:
        r, c = min(cage.cells)
        clue[r][c] = f"{cage.target}{_JANKO_OPERATION[cage.operation]}"
    lines = [f"{n} {n}", *(" ".join(row) for row in clue), *(" ".join(row) for row in label)]
    if board.has_entries:
        lines.extend(" ".join(str(d) if d else "." for d in row) for row in board.entries)
    return "\n".join(lines) + "\n"


def write_solution(puzzle: Puzzle, solution: Grid) -> str:
    """The corpus's solution text: ``N N`` then the digits, row by row."""
    lines = [f"{puzzle.size} {puzzle.size}", *(" ".join(map(str, row)) for row in solution)]
    return "\n".join(lines) + "\n"


def read_solution(text: str) -> Grid:
    """The grid of a solution text (``N N`` then N rows of N digits 1-N)."""
    lines = _janko_lines(text)
    header = _header(lines)
    if isinstance(header, str) or header[0] != header[1] or not 1 <= header[0] <= MAX_SIZE:
        raise PuzzleError([error("bad_header", "a solution starts with 'N N', N 1-16")])
    n = header[0]
    rows = [line.split() for line in lines[1:]]
    findings = []
    if len(rows) != n:
        findings.append(error("row_count", f"header says {n} rows but {len(rows)} follow"))
    grid = []
    for r, tokens in enumerate(rows[:n]):
        if len(tokens) != n:
            findings.append(ragged_row(r, len(tokens), n, "digits"))
            continue
        row = []
        for c, token in enumerate(tokens):
            if not decimal(token) or not 1 <= int(token) <= n:
                findings.append(_entry_finding((r, c), repr(token), n))
                row.append(0)
            else:
                row.append(int(token))
        grid.append(tuple(row))
    refuse(findings)
    return tuple(grid)


# ---------------------------------------------------------------- Tatham's Keen game IDs

_KEEN_PARAMS = re.compile(r"^([0-9]{1,3})(?:d([a-z]?))?(m?)$")
_KEEN_SNIFF = re.compile(r"^[0-9]{1,3}(?:d[a-z]?)?m?(?::[_a-z0-9]*,[a-z0-9]*|#\S*)$")
_KEEN_DIFFICULTIES = "enhxu"
_KEEN_CLUE = {"a": ADD, "s": SUBTRACT, "m": MULTIPLY, "d": DIVIDE}
_KEEN_LETTER = {ADD: "a", SUBTRACT: "s", MULTIPLY: "m", DIVIDE: "d", NONE: "a"}
_KEEN_NUMBER = re.compile(r"[0-9]*")


def _keen_number(text: str, at: int) -> str:
    """The digits from ``at`` on (maybe none: the pattern always matches)."""
    return cast(re.Match[str], _KEEN_NUMBER.match(text, at)).group()


def sniff_tatham(text: str) -> str | None:
    body = game_id(text, "keen")
    if body is None or _KEEN_SNIFF.match(body) is None:
        return "not a Keen game ID ('6:ab__...,m20...' or '6dh:...')"
    return None


def _edge_cells(pos: int, w: int) -> tuple[int, int]:
    """The two cells (as indices ``y*w + x``) on either side of edge ``pos``."""
    if pos < w * (w - 1):
        y, x = divmod(pos, w - 1)
        return y * w + x, y * w + x + 1
    x, y = divmod(pos, w - 1)
    x -= w
    return y * w + x, (y + 1) * w + x


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _keen_blocks(desc: str, w: int) -> list[int] | Finding:
    """Each cell's block, as its smallest cell index, parsed as keen.c does."""
    parent = list(range(w * w))
    edges = 2 * w * (w - 1)
    pos = i = 0
    while i < len(desc):
        ch = desc[i]
        if ch != "_" and not ("a" <= ch <= "z"):
            return error(
                "bad_keen_id",
                f"unexpected {ch!r} in the cage walls of the game ID (at character {i + 1})",
            )
        run = 0 if ch == "_" else ord(ch) - ord("a") + 1
        digits = _keen_number(desc, i + 1)
        i += 1 + len(digits)
        repeat = int(digits) if digits and len(digits) <= 4 else (1 if not digits else 10**4)
        for _ in range(repeat):
            for _ in range(run):
                if pos >= edges:
                    return error("bad_keen_id", "the cage walls of the game ID are too long")
                a, b = _edge_cells(pos, w)
                parent[_find(parent, a)] = _find(parent, b)
                pos += 1
            if run != 25:  # 'y' is 25 non-walls with no wall after them
                pos += 1
                if pos > edges + 1:
                    return error("bad_keen_id", "the cage walls of the game ID are too long")
    if pos != edges + 1:
        return error("bad_keen_id", "the cage walls of the game ID are too short")
    roots = [_find(parent, j) for j in range(w * w)]
    first: dict[int, int] = {}
    for j, root in enumerate(roots):
        first.setdefault(root, j)
    return [first[root] for root in roots]


def read_tatham(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    text = read_game_id(text, "keen", "Keen", "bad_keen_id")
    if is_random_seed(text):
        raise PuzzleError([random_seed(text, "Keen")])
    params, colon, desc = text.partition(":")
    m = _KEEN_PARAMS.match(params)
    if not colon or m is None:
        raise PuzzleError(
            [error("bad_keen_id", "a Keen game ID is 'N:walls,clues', e.g. '4:_a__b3__a_3a__,...'")]
        )
    if m.group(2) is not None and (len(m.group(2)) != 1 or m.group(2) not in _KEEN_DIFFICULTIES):
        raise PuzzleError(
            [
                error(
                    "bad_keen_id",
                    f"unknown difficulty in {quoted(params)} (expected d and one of e n h x u)",
                )
            ]
        )
    w = int(m.group(1))
    refuse(square_size_errors(w, max_cells, MAX_SIZE))
    walls, comma, clue_text = desc.partition(",")
    if not comma:
        raise PuzzleError(
            [error("bad_keen_id", "expected ',' after the cage walls of the game ID")]
        )
    blocks = _keen_blocks(walls, w)
    if isinstance(blocks, Finding):
        raise PuzzleError([blocks])
    members: dict[int, list[Cell]] = defaultdict(list)
    for j, block in enumerate(blocks):
        members[block].append(divmod(j, w))
    findings: list[Finding] = []
    cages: list[Cage] = []
    i = 0
    for block in sorted(members):
        cells = tuple(members[block])
        where = cells[0]
        if i >= len(clue_text):
            findings.append(
                error(
                    "bad_keen_id",
                    f"{cell_name(where)}: the game ID has no clue for the cage here "
                    f"(it gives {len(cages)} clues for {len(members)} cages)",
                    where,
                )
            )
            break
        letter = clue_text[i]
        digits = _keen_number(clue_text, i + 1)
        i += 1 + len(digits)
        if letter not in _KEEN_CLUE:
            findings.append(
                error(
                    "bad_keen_id",
                    f"{cell_name(where)}: clue {quoted(letter + digits)} is not a, s, m or d "
                    "and a number",
                    where,
                )
            )
            continue
        if not digits or len(digits) > 9:
            findings.append(
                error(
                    "bad_keen_id",
                    f"{cell_name(where)}: clue {quoted(letter + digits)} needs a target of "
                    "1-9 digits",
                    where,
                )
            )
            continue
        operation = _KEEN_CLUE[letter]
        if len(cells) == 1 and operation in (ADD, MULTIPLY):
            operation = NONE
        cages.append(Cage(int(digits), operation, cells))
    if not findings and i < len(clue_text):
        findings.append(
            error(
                "bad_keen_id",
                f"the game ID has more clues than its {len(members)} cages "
                f"({quoted(clue_text[i:])} left over)",
            )
        )
    refuse(findings)
    return Board(Puzzle(w, tuple(cages)), tuple((0,) * w for _ in range(w)))


def _keen_walls(puzzle: Puzzle, label: list[list[str]]) -> str:
    w = puzzle.size
    runs: list[str] = []
    run = 0
    for pos in range(2 * w * (w - 1) + 1):
        if pos < 2 * w * (w - 1):
            a, b = _edge_cells(pos, w)
            if label[a // w][a % w] == label[b // w][b % w]:
                run += 1
                continue
        runs.extend("y" * (run // 25))
        run %= 25
        runs.append(chr(ord("a") - 1 + run) if run else "_")
        run = 0
    out = []
    i = 0
    while i < len(runs):
        j = i
        while j < len(runs) and runs[j] == runs[i]:
            j += 1
        out.append(runs[i] * (j - i) if j - i <= 2 else f"{runs[i]}{j - i}")
        i = j
    return "".join(out)


def write_tatham(board: Board) -> str:
    """The puzzle's Keen game ID (entries are not part of one). One-cell cages are written
    ``a`` (or ``m``) and their digit, and read back without an operation."""
    p = board.puzzle
    refuse(tatham_size(p.size, "Keen"))
    label = _cage_labels(p)
    findings = []
    for cage in p.cages:
        if not _connected(cage.cells):
            findings.append(
                error(
                    "cage_not_connected",
                    f"{cage.name}: its cells are not connected, so a game ID cannot hold it",
                    *cage.cells,
                )
            )
        if cage.operation == NONE and len(cage.cells) > 1:
            findings.append(
                error(
                    "operation_missing",
                    f"{cage.name}: {len(cage.cells)} cells but no operation, which a game ID "
                    "cannot hold (every Keen clue is a, s, m or d)",
                    *cage.cells,
                )
            )
    refuse(findings)
    clues = "".join(
        f"{_KEEN_LETTER[cage.operation]}{cage.target}"
        for cage in sorted(p.cages, key=lambda cage: min(cage.cells))
    )
    return f"{p.size}:{_keen_walls(p, label)},{clues}\n"


def _connected(cells) -> bool:
    cells = set(cells)
    if not cells:
        return False
    seen = {next(iter(cells))}
    stack = list(seen)
    while stack:
        r, c = stack.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in cells and near not in seen:
                seen.add(near)
                stack.append(near)
    return len(seen) == len(cells)


# ---------------------------------------------------------------- JSON (proto mirror)

_ENUM = (
    ("CAGE_OPERATION_UNSPECIFIED", NONE),
    ("CAGE_OPERATION_ADD", ADD),
    ("CAGE_OPERATION_SUBTRACT", SUBTRACT),
    ("CAGE_OPERATION_MULTIPLY", MULTIPLY),
    ("CAGE_OPERATION_DIVIDE", DIVIDE),
)
_ENUM_BY_NAME = {name: op for name, op in _ENUM}
_ENUM_NAME = {op: name for name, op in _ENUM}


def sniff_json(text: str) -> str | None:
    return json_puzzle(text, "kenken")[1] or None


def _operation(value, what: str) -> str:
    if isinstance(value, str) and value in _ENUM_BY_NAME:
        return _ENUM_BY_NAME[value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(_ENUM):
        return _ENUM[value][1]
    raise JsonShape(
        f"{what} {json.dumps(value)[:40]} is not a CageOperation "
        "(CAGE_OPERATION_ADD, _SUBTRACT, _MULTIPLY, _DIVIDE or 0-4)"
    )


def _json_cage(i: int, raw, n: int, findings: list[Finding]) -> Cage | None:
    what = f"cages[{i}]"
    try:
        cage = json_object(raw, what, {"target", "operation", "cells"})
        target = json_int(cage.get("target", 0), f"{what}.target")
        operation = _operation(cage.get("operation", 0), f"{what}.operation")
        cells = json_cells(cage.get("cells", []), f"{what}.cells")
    except JsonShape as e:
        findings.append(error("bad_value", str(e)))
        return None
    if not cells:
        findings.append(error("empty_cage", f"{what} ({target}{operation}) has no cells"))
        return None
    result = Cage(target, operation, tuple(sorted(set(cells))))
    repeated = listed_twice(cells)
    if repeated:
        findings.append(
            error(
                "duplicate_cell",
                f"{result.name}: lists {_names(repeated)} more than once",
                *repeated,
            )
        )
    outside = [(r, c) for r, c in result.cells if not (0 <= r < n and 0 <= c < n)]
    if outside:
        findings.append(
            error(
                "cell_outside_grid",
                f"{result.name}: {_names(outside)} outside the {n}x{n} grid",
                *outside,
            )
        )
    return result


def _json_entries(raw, n: int, findings: list[Finding]) -> Grid:
    def check(cell: Cell, value: int) -> Finding | None:
        return None if 0 <= value <= n else _entry_finding(cell, value, n)

    return json_grid(raw, "entries", n, findings, "entry", check)


def read_json(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    try:
        kenken = json_body(text, "kenken", {"size", "cages", "entries"})
        n = json_int(kenken.get("size", 0), "size")
        refuse(square_size_errors(n, max_cells, MAX_SIZE))
        raw_cages = json_list(kenken.get("cages", []), "cages")
    except JsonShape as e:
        raise PuzzleError([error("bad_shape", str(e))]) from None
    findings: list[Finding] = []
    cages = [_json_cage(i, raw, n, findings) for i, raw in enumerate(raw_cages)]
    entries = _json_entries(kenken.get("entries", {}), n, findings)
    refuse(findings)
    kept = sorted((cage for cage in cages if cage is not None), key=lambda cage: cage.cells)
    return Board(Puzzle(n, tuple(kept)), entries)


def board_to_dict(board: Board) -> dict:
    """As ``json_format.MessageToDict`` writes the proto: zero values left out."""
    unknown = [c for c in board.puzzle.cages if c.operation not in _ENUM_NAME or not c.cells]
    if unknown:
        raise PuzzleError(_unwritable_cages(Puzzle(board.puzzle.size, tuple(unknown))))

    def ref(cell: Cell) -> dict:
        out = {}
        if cell[0]:
            out["row"] = cell[0]
        if cell[1]:
            out["column"] = cell[1]
        return out

    cages = []
    for cage in board.puzzle.cages:
        out: dict = {}
        if cage.target:
            out["target"] = cage.target
        if cage.operation != NONE:
            out["operation"] = _ENUM_NAME[cage.operation]
        if cage.cells:
            out["cells"] = [ref(cell) for cell in cage.cells]
        cages.append(out)
    kenken: dict = {}
    if board.puzzle.size:
        kenken["size"] = board.puzzle.size
    if cages:
        kenken["cages"] = cages
    if board.has_entries:
        kenken["entries"] = {"rows": [{"values": list(row)} for row in board.entries]}
    return {"kenken": kenken}


write_json = json_writer(board_to_dict, ensure_ascii=False)


# ---------------------------------------------------------------- registry and detection


FORMATS = Formats.of("KenKen", DEFAULT_MAX_CELLS, globals(), "json", "tatham", "janko").plus(
    penpa.FORMAT
)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
