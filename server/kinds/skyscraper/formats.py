"""Reading and writing Skyscraper boards in four formats, with auto-detection.

- ``janko``: the text of the corpus (puzzlekit's encoding of janko.at's puzzles). A header
  ``N N H``, or ``N N H D`` for the diagonal variant (H, the tallest height, below N in the
  variant with empty lots); four lines of N clues: above the columns (left to right),
  below them (left to right), left of the rows (top to bottom), right of them (top to
  bottom), each ``-`` or ``0`` for none; then N lines of givens: ``-`` (or ``.``) for
  none, a height, ``0`` for a given empty lot. numgrid adds an optional last block of N
  lines: the player's entries, in the same tokens. The solution text is the header, then
  the N rows of heights with ``0`` for the empty lots.
- ``tatham``: a game ID of Simon Tatham's Towers, ``5:2/2/3/4/1/2/2/1/2/5/3/2/1/3/2/1/2/3/2/3``
  (a params prefix such as ``6dh:`` is accepted): the 4N clues in the same order as above,
  ``/``-separated and empty for none; then, after a comma, the givens in reading order,
  run-length encoded as ``towers.c`` writes them: ``a``-``z`` for 1-26 empty cells, a
  number for a given height, ``_`` between two numbers (``,h2k4o``). Towers has no empty
  lots and no diagonals, its grids are 3x3 to 9x9, an ID holds no entries, and a
  random-seed ID (``6dh#12345``) names no puzzle.
- ``json``: the protobuf JSON of ``numgrid.v1.Puzzle`` with its ``skyscraper`` field:
  ``{"skyscraper": {"size": 5, "maxHeight": 4, "diagonals": true, "top": [2, 0, ...],
  "bottom": [...], "left": [...], "right": [...], "givens": {"rows": [{"values": [...]}]},
  "entries": {...}}}``; zero values may be left out (``maxHeight`` 0 is N, a side without
  clues an empty list).
- ``puzzlink``: a puzz.link URL, ``https://puzz.link/p?skyscrapers/4/4/k13h4j3g``
  (:mod:`.puzzlink`).

Readers give a faithful :class:`Board`; what is wrong with its structure (a clue too
large, a given out of range) is for :mod:`.checks`. They reject only what cannot be read,
and then report the structural problems too, all in one :class:`PuzzleError`.
"""

from __future__ import annotations

import re

from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links.tatham import game_id
from numgrid.server.kinds.links.tatham import read_game_id
from numgrid.server.kinds.textformats import Formats
from numgrid.server.kinds.textformats import JsonShape
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import header_of
from numgrid.server.kinds.textformats import is_random_seed
from numgrid.server.kinds.textformats import json_body
from numgrid.server.kinds.textformats import json_bool
from numgrid.server.kinds.textformats import json_grid
from numgrid.server.kinds.textformats import json_int
from numgrid.server.kinds.textformats import json_list
from numgrid.server.kinds.textformats import json_puzzle
from numgrid.server.kinds.textformats import json_writer
from numgrid.server.kinds.textformats import ragged_row
from numgrid.server.kinds.textformats import random_seed
from numgrid.server.kinds.textformats import refuse
from numgrid.server.kinds.textformats import square_size_errors
from numgrid.server.kinds.textformats import tatham_grid
from numgrid.server.kinds.textformats import tatham_runs
from numgrid.server.kinds.textformats import tatham_size

from . import checks
from . import penpa
from . import puzzlink
from .model import MAX_SIZE
from .model import SIDES
from .model import Puzzle
from .model import Side

DEFAULT_MAX_CELLS = MAX_SIZE * MAX_SIZE
_NONE = ("-", ".")


def _fail(findings: list[Finding], puzzle: Puzzle | None = None) -> PuzzleError:
    """What cannot be read, and the structural errors of what could (every one at once)."""
    if puzzle is not None:
        findings = findings + [f for f in checks.check_puzzle(puzzle) if f.is_error]
    return PuzzleError(findings)


# ---------------------------------------------------------------- janko text


def _lines(text: str) -> list[str]:
    return [line for line in text.strip().splitlines() if line.strip()]


def _number(token: str) -> bool:
    return decimal(token) and len(token) <= 3


def _header(lines: list[str]) -> tuple[int, int, bool, str] | str:
    """(N, H, diagonals, a bad fourth field or "") from ``N N H [D]``, or why the text is
    not Skyscraper text."""
    first = lines[0].split() if lines else []
    if len(first) not in (3, 4) or not all(_number(t) for t in first[:3]):
        return "first line must be 'N N H' or 'N N H D'"
    rows, cols, height = map(int, first[:3])
    if rows != cols:
        return f"a Skyscraper grid is square, not {rows}x{cols}"
    flag = first[3] if len(first) == 4 else ""
    return rows, height, flag.upper() == "D", "" if flag.upper() in ("", "D") else flag


def sniff_janko(text: str) -> str | None:
    """None when the header has three numbers (``N N H``) and perhaps ``D``: the other
    kinds' janko texts start ``ROWS COLS``."""
    lines = _lines(text)
    first = lines[0].split() if lines else []
    if len(first) not in (3, 4) or not all(_number(t) for t in first[:3]):
        return "first line must be 'N N H' or 'N N H D'"
    if len(first) == 4 and len(first[3]) > 1:
        return "the fourth field of the header is 'D' or nothing"
    return None


def _clue_token(token: str, what: str, where: Cell, findings: list[Finding]) -> int:
    if token in _NONE:
        return 0
    if not _number(token):
        findings.append(
            error(
                "unknown_token", f"{what}: {quoted(token)} is not a clue (a number or '-')", where
            )
        )
        return 0
    return int(token)


def _cell_token(token: str, what: str, cell: Cell, findings: list[Finding]) -> int:
    """A given or an entry: nothing, a height, ``0`` for an empty lot."""
    if token in _NONE:
        return 0
    if not _number(token):
        findings.append(
            error(
                "unknown_token",
                f"{cell_name(cell)}: {what} {quoted(token)} is not a height, 0 (an empty lot) "
                "or '-'",
                cell,
            )
        )
        return 0
    return int(token) or EMPTY


def _clue_line(tokens: list[str], side: Side, n: int, findings: list[Finding]) -> tuple[int, ...]:
    """A line of clues, as many as it has (:mod:`.checks` says when that is not N)."""
    return tuple(
        _clue_token(t, f"the clue {side.where} {i}", side.clue_cell(min(i, n - 1), n), findings)
        for i, t in enumerate(tokens)
    )


def _grid(rows: list[list[str]], what: str, n: int, findings: list[Finding]) -> Grid:
    """A block of N lines of cells (``what``: givens, entries or solution)."""
    one = {"givens": "given", "entries": "entry"}.get(what, what)
    grid = []
    for r, tokens in enumerate(rows):
        if len(tokens) != n:
            findings.append(ragged_row(r, len(tokens), n, "tokens", what))
        row = [_cell_token(t, one, (r, c), findings) for c, t in enumerate(tokens[:n])]
        grid.append(tuple(row + [0] * (n - len(row))))
    return tuple(grid)


def read_janko(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    lines = _lines(text)
    n, height, diagonals, flag = header_of(_header(lines))
    refuse(square_size_errors(n, max_cells, MAX_SIZE))
    findings: list[Finding] = []
    if flag:
        findings.append(
            error(
                "bad_header",
                f"the header's fourth field {quoted(flag)} is not 'D' (the diagonal variant)",
            )
        )
    body = [line.split() for line in lines[1 : 5 + 2 * n]]
    if len(lines) - 1 not in (4 + n, 4 + 2 * n):
        raise PuzzleError(
            [
                *findings,
                error(
                    "row_count",
                    f"expected {4 + n} lines after the header (4 of clues, then {n} of givens; "
                    f"{4 + 2 * n} with entries), not {len(lines) - 1}",
                ),
            ]
        )
    clues = [_clue_line(body[k], side, n, findings) for k, side in enumerate(SIDES)]
    givens = _grid(body[4 : 4 + n], "givens", n, findings)
    entries = _grid(body[4 + n :], "entries", n, findings) if len(body) > 4 + n else None
    top, bottom, left, right = clues  # the four SIDES
    puzzle = Puzzle(n, height, diagonals, top, bottom, left, right, givens)
    if findings:
        raise _fail(findings, puzzle)
    return Board(puzzle, puzzle.repeats_cleared(entries) if entries else puzzle.empty_grid())


def _cell_text(value: int) -> str:
    return "-" if value == 0 else "0" if value == EMPTY else str(value)


def _header_text(puzzle: Puzzle) -> str:
    n = puzzle.size
    return f"{n} {n} {puzzle.height}{' D' if puzzle.diagonals else ''}"


def write_janko(board: Board) -> str:
    p = board.puzzle
    lines = [_header_text(p)]
    lines += [" ".join(str(c) if c else "-" for c in p.clues(side)) for side in SIDES]
    lines += [" ".join(map(_cell_text, row)) for row in p.givens]
    own = p.entered(board.entries)
    if any(any(row) for row in own):
        lines += [" ".join(map(_cell_text, row)) for row in own]
    return "\n".join(lines) + "\n"


def write_solution(puzzle: Puzzle, solution: Grid) -> str:
    """The corpus's solution text: the header, then the heights with 0 for empty lots."""
    rows = (" ".join("0" if v == EMPTY else str(v) for v in row) for row in solution)
    return "\n".join([_header_text(puzzle), *rows]) + "\n"


def read_solution(text: str) -> Grid:
    """The grid of a solution text (EMPTY for its 0s)."""
    lines = _lines(text)
    header = _header(lines)
    if isinstance(header, str) or not 1 <= header[0] <= MAX_SIZE:
        raise PuzzleError([error("bad_header", "a solution starts with 'N N H [D]', N 1-9")])
    n = header[0]
    findings: list[Finding] = []
    if len(lines) - 1 != n:
        findings.append(error("row_count", f"header says {n} rows but {len(lines) - 1} follow"))
    grid = _grid([line.split() for line in lines[1 : n + 1]], "solution", n, findings)
    refuse(findings)
    return grid


# ---------------------------------------------------------------- Tatham's Towers game IDs

_TOWERS = re.compile(r"^([0-9]{1,3})(?:d[a-z])?:([0-9/]*)(?:,([a-z_0-9]*))?$")


def sniff_tatham(text: str) -> str | None:
    body = game_id(text, "towers")
    found = _TOWERS.match(body) if body is not None else None
    if found is None or "/" not in found.group(2):
        return "not a Towers game ID ('5:2/2/3/...' or '6dh:.../1,h2k4o')"
    return None


def _tatham_clues(text: str, n: int, findings: list[Finding]) -> list[tuple[int, ...]]:
    tokens = text.split("/")
    if len(tokens) != 4 * n:
        findings.append(
            error("clue_count", f"the game ID has {len(tokens)} clues, expected 4 x {n} = {4 * n}")
        )
        tokens = (tokens + [""] * (4 * n))[: 4 * n]
    sides = []
    for k, side in enumerate(SIDES):
        clues = []
        for i, token in enumerate(tokens[k * n : (k + 1) * n]):
            if token and not _number(token):
                findings.append(
                    error(
                        "bad_clue",
                        f"clue {quoted(token)} {side.where} {i}: a Towers clue is 1-{n}",
                        side.clue_cell(i, n),
                    )
                )
                token = ""
            clue = int(token) if token else 0
            if token and not clue:
                findings.append(
                    error(
                        "bad_clue",
                        f"clue 0 {side.where} {i}: a Towers clue is 1-{n}, or left out for none",
                        side.clue_cell(i, n),
                    )
                )
            clues.append(clue)
        sides.append(tuple(clues))
    return sides


def read_tatham(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    text = read_game_id(text, "towers", "Towers", "bad_tatham_id")
    if is_random_seed(text):
        raise PuzzleError([random_seed(text, "Towers")])
    found = _TOWERS.match(text)
    if found is None:
        raise PuzzleError([error("bad_tatham_id", sniff_tatham(text) or "not a Towers game ID")])
    n = int(found.group(1))
    refuse(square_size_errors(n, max_cells, MAX_SIZE))
    findings: list[Finding] = []
    clues = _tatham_clues(found.group(2), n, findings)
    if found.group(3) is None:
        givens = tuple((0,) * n for _ in range(n))
    else:
        givens = tatham_grid(found.group(3), n, findings)
    top, bottom, left, right = clues  # the four SIDES
    puzzle = Puzzle(n, n, False, top, bottom, left, right, givens)
    if findings:
        raise _fail(findings, puzzle)
    return Board(puzzle, puzzle.empty_grid())


def write_tatham(board: Board) -> str:
    """The puzzle's Towers game ID (entries are not part of one)."""
    p = board.puzzle
    findings = tatham_size(p.size, "Towers")
    if p.height != p.size:
        findings.append(
            error(
                "not_towers",
                f"a Towers game ID holds no empty lots (the tallest height is {p.height}, "
                f"not {p.size})",
            )
        )
    if p.diagonals:
        findings.append(error("not_towers", "a Towers game ID holds no diagonal rule"))
    refuse(findings)
    clues = "/".join(str(c) if c else "" for side in SIDES for c in p.clues(side))
    values = [v for row in p.givens for v in row]
    givens = f",{tatham_runs(values)}" if any(values) else ""
    return f"{p.size}:{clues}{givens}\n"


# ---------------------------------------------------------------- JSON (proto mirror)

_FIELDS = {
    "size",
    "maxHeight",
    "max_height",
    "diagonals",
    *(side.value for side in SIDES),
    "givens",
    "entries",
}


def sniff_json(text: str) -> str | None:
    return json_puzzle(text, "skyscraper")[1] or None


def _json_clues(raw, side: Side, n: int, findings: list[Finding]) -> tuple[int, ...]:
    try:
        values = json_list(raw, side.value)
        clues = tuple(json_int(v, f"{side.value}[{i}]") for i, v in enumerate(values[: 4 * n]))
    except JsonShape as e:
        findings.append(error("bad_value", str(e)))
        return (0,) * n
    return clues or (0,) * n


def read_json(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    try:
        sky = json_body(text, "skyscraper", _FIELDS)
        n = json_int(sky.get("size", 0), "size")
        refuse(square_size_errors(n, max_cells, MAX_SIZE))
        height = json_int(sky.get("maxHeight", sky.get("max_height", 0)), "maxHeight") or n
        diagonals = json_bool(sky.get("diagonals", False), "diagonals")
    except JsonShape as e:
        raise PuzzleError([error("bad_shape", str(e))]) from None
    findings: list[Finding] = []
    clues = [_json_clues(sky.get(side.value, []), side, n, findings) for side in SIDES]
    givens = json_grid(sky.get("givens", {}), "givens", n, findings)
    entries = json_grid(sky.get("entries", {}), "entries", n, findings)
    top, bottom, left, right = clues  # the four SIDES
    puzzle = Puzzle(n, height, diagonals, top, bottom, left, right, givens)
    if findings:
        raise _fail(findings, puzzle)
    return Board(puzzle, puzzle.repeats_cleared(entries))


def _grid_dict(grid: Grid) -> dict:
    return {"rows": [{"values": list(row)} for row in grid]}


def board_to_dict(board: Board) -> dict:
    """As ``json_format.MessageToDict`` writes the proto: zero values left out."""
    p = board.puzzle
    out: dict = {"size": p.size, "maxHeight": p.height}
    if p.diagonals:
        out["diagonals"] = True
    for side in SIDES:
        if any(p.clues(side)):
            out[side.value] = list(p.clues(side))
    if any(any(row) for row in p.givens):
        out["givens"] = _grid_dict(p.givens)
    own = p.entered(board.entries)
    if any(any(row) for row in own):
        out["entries"] = _grid_dict(own)
    return {"skyscraper": out}


write_json = json_writer(board_to_dict)


# ---------------------------------------------------------------- registry and detection


FORMATS = Formats.of("Skyscraper", DEFAULT_MAX_CELLS, globals(), "json", "tatham", "janko").plus(
    penpa.FORMAT,
    puzzlink.FORMAT,
)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
