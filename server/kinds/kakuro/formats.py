"""Reading and writing Kakuro boards in four formats, with auto-detection.

- ``janko``: ``ROWS COLS`` then one line of tokens per row: ``0`` empty white cell,
  ``1``-``9`` an entered digit, ``-`` black, ``D,A`` black with down/across clues.
- ``csv``: the 1VVHH spreadsheet format: ``0`` empty white, ``1``-``9`` a digit,
  ``1VVHH`` black (``VV`` down sum, ``HH`` across sum, ``00`` = no clue).
- ``json``: the protobuf JSON of ``numgrid.v1.Puzzle``:
  ``{"kakuro": {"rows": [{"cells": [{"black": true, "down": 16}, {}, {"digit": 5}]}]}}``.
- ``puzzlink``: a puzz.link URL, ``https://puzz.link/p?kakuro/5/5/...`` (:mod:`.puzzlink`).

Parsers collect every problem they meet and raise one :class:`PuzzleError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.textformats import Formats
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import header_of
from numgrid.server.kinds.textformats import json_puzzle
from numgrid.server.kinds.textformats import json_writer
from numgrid.server.kinds.textformats import refuse
from numgrid.server.kinds.textformats import unknown_fields
from numgrid.server.kinds.textformats import without_bom

from . import penpa
from . import puzzlink
from .model import WHITE
from .model import Clue
from .model import Puzzle
from .model import Square

DEFAULT_MAX_CELLS = 20_000  # admits 124x90 (11,160), the largest published Kakuro we know of
_CLUE_TOKEN = re.compile(r"^([0-9]{0,6}),([0-9]{0,6})$")  # no sum needs more digits


def _size_finding(rows: int, cols: int, max_cells: int) -> Finding | None:
    if rows * cols > max_cells:
        return error(
            "grid_too_large",
            f"grid of {rows}x{cols} = {rows * cols} cells is over the limit of {max_cells} cells",
        )
    return None


def _build(rows: list[list], findings: list[Finding]) -> Board:
    """Turn per-cell ``(square, digit)`` pairs into a board, or raise with all findings."""
    refuse(findings)
    if not rows or not rows[0]:
        raise PuzzleError([error("empty", "the puzzle has no cells")])
    puzzle = Puzzle(tuple(tuple(sq for sq, _ in row) for row in rows))
    entries = tuple(tuple(digit for _, digit in row) for row in rows)
    return Board(puzzle, entries)


def _check_ragged(lines: list[list[str]], width: int, findings: list[Finding]) -> None:
    for r, tokens in enumerate(lines):
        if len(tokens) != width:
            findings.append(
                error(
                    "ragged_row",
                    f"row {r} has {len(tokens)} cells, expected {width}",
                    (r, min(len(tokens), width)),
                )
            )


JANKO_TOKENS = "expected 0-9, '-' or 'DOWN,ACROSS'"
CSV_TOKENS = "expected 0 for empty, a digit 1-9, or 1VVHH with VV, HH <= 45"


def _squares(
    lines: list[list[str]],
    square_of: Callable[[str], Any],
    unknown: str,
    expected: str,
    findings: list[Finding],
) -> list[list[Any]]:
    """Each token as ``square_of`` reads it, an unknown one named (``unknown`` with the
    token quoted at ``{}``) and read as an empty white cell."""
    parsed = []
    for r, tokens in enumerate(lines):
        row = []
        for c, token in enumerate(tokens):
            square = square_of(token)
            if square is None:
                message = f"{cell_name((r, c))}: {unknown.format(quoted(token))} ({expected})"
                findings.append(error("unknown_token", message, (r, c)))
                square = (WHITE, 0)
            row.append(square)
        parsed.append(row)
    return parsed


# ---------------------------------------------------------------- janko text


def _janko_header(text: str) -> tuple[int, int] | str:
    first = text.strip().splitlines()[0].split() if text.strip() else []
    if len(first) != 2 or not all(decimal(t) and len(t) <= 6 for t in first):
        return "first line must be 'ROWS COLS' (numbers of at most 6 digits)"
    return int(first[0]), int(first[1])


def sniff_janko(text: str) -> str | None:
    header = _janko_header(text)
    return header if isinstance(header, str) else None


def _janko_square(token: str) -> tuple[object, int] | None:
    if token == "-":
        return Clue(), 0
    if decimal(token) and len(token) == 1:
        return WHITE, int(token)
    m = _CLUE_TOKEN.match(token)
    if m:
        down, across = (int(g) if g else None for g in m.groups())
        return Clue(down, across), 0
    return None


def read_janko(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    rows, cols = header_of(_janko_header(text))
    too_big = _size_finding(rows, cols, max_cells)
    refuse([too_big] if too_big else [])
    body = text.strip().splitlines()[1:]
    findings: list[Finding] = []
    if len(body) != rows:
        findings.append(
            error("row_count", f"header says {rows} rows but {len(body)} follow", (len(body), 0))
        )
    # Read no more than the header promises (the size check above bounds it): the
    # findings of the first rows say enough, and the rest would cost unbounded time.
    lines = [line.split() for line in body[:rows]]
    _check_ragged(lines, cols, findings)
    lines = [tokens[:cols] for tokens in lines]
    return _build(
        _squares(lines, _janko_square, "unknown token {}", JANKO_TOKENS, findings), findings
    )


def write_janko(board: Board) -> str:
    def token(sq, digit: int) -> str:
        if sq is WHITE:
            return str(digit)
        if sq.down is None and sq.across is None:
            return "-"
        return f"{'' if sq.down is None else sq.down},{'' if sq.across is None else sq.across}"

    p = board.puzzle
    lines = [f"{p.rows} {p.cols}"]
    for sq_row, digit_row in zip(p.squares, board.entries, strict=True):
        lines.append(" ".join(token(sq, d) for sq, d in zip(sq_row, digit_row, strict=True)))
    return "\n".join(lines) + "\n"


def write_solution(puzzle: Puzzle, solution) -> str:
    """The janko solution text: ``ROWS COLS`` then ``-`` for black cells and the digits."""
    lines = [f"{puzzle.rows} {puzzle.cols}"]
    for sq_row, digit_row in zip(puzzle.squares, solution, strict=True):
        lines.append(
            " ".join(
                str(d) if sq is WHITE else "-" for sq, d in zip(sq_row, digit_row, strict=True)
            )
        )
    return "\n".join(lines) + "\n"


def read_solution(text: str) -> tuple[tuple[int, ...], ...]:
    """Parse a janko solution text (``-`` for black) into a grid with ``0`` for black."""
    lines = text.strip().splitlines()[1:]
    return tuple(tuple(0 if t == "-" else int(t) for t in line.split()) for line in lines)


# ---------------------------------------------------------------- 1VVHH CSV


def _csv_separator(text: str) -> str:
    """``,``, or ``;`` as spreadsheets write CSV where the comma is the decimal mark."""
    return "," if "," in text or ";" not in text else ";"


def _csv_lines(text: str) -> list[list[str]]:
    sep = _csv_separator(text)
    return [[t.strip() for t in line.split(sep)] for line in text.strip().splitlines()]


def _mostly_numbers(lines: list[list[str]]) -> str | None:
    """Lenient on purpose: a mostly numeric CSV is CSV, and its bad fields get positions."""
    fields = [t for line in lines for t in line]
    if sum(decimal(t) for t in fields) * 2 <= len(fields):
        return "not every field is a number (too few to read it as CSV)"
    return None


def sniff_csv(text: str) -> str | None:
    if "," not in text and ";" not in text:
        return "no comma- or semicolon-separated rows"
    return _mostly_numbers(_csv_lines(text))


def why_no_kakuro_csv(text: str) -> str | None:
    """Why a text is no Kakuro in CSV, among all kinds: as :func:`sniff_csv`, and a grid
    of digits alone has no clue square, so no Kakuro (given the kind
    or the format, it is still read as one, and the reader says what is wrong)."""
    why = sniff_csv(text)
    if why is None and not any(len(t) == 5 for line in _csv_lines(text) for t in line):
        return "no field is a 1VVHH clue square (every run needs one)"
    return why


def _csv_square(token: str) -> tuple[object, int] | None:
    if not decimal(token) or len(token) > 5:
        return None
    value = int(token)
    if len(token) == 1:
        return WHITE, value
    if len(token) != 5 or token[0] != "1":
        return None
    down, across = int(token[1:3]), int(token[3:5])
    if down > 45 or across > 45:
        return None
    return Clue(down or None, across or None), 0


def read_csv(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    lines = _csv_lines(text)
    reason = _mostly_numbers(lines) if lines else "no rows"
    if reason:
        raise PuzzleError([error("not_csv", reason)])
    width = len(lines[0])
    too_big = _size_finding(len(lines), max(len(line) for line in lines), max_cells)
    if too_big:
        raise PuzzleError([too_big])
    findings: list[Finding] = []
    _check_ragged(lines, width, findings)
    return _build(_squares(lines, _csv_square, "{} is not a cell", CSV_TOKENS, findings), findings)


def write_csv(board: Board) -> str:
    """1VVHH has two digits per clue: a clue over 45 (never valid) cannot be written."""
    too_big = [
        error(
            "clue_too_large",
            f"{cell_name((r, c))}: clue over 45 cannot be written as 1VVHH",
            (r, c),
        )
        for r, row in enumerate(board.puzzle.squares)
        for c, sq in enumerate(row)
        if sq is not WHITE and max(sq.down or 0, sq.across or 0) > 45
    ]
    if too_big:
        raise PuzzleError(too_big)

    def token(sq, digit: int) -> str:
        if sq is WHITE:
            return str(digit)
        return f"1{sq.down or 0:02d}{sq.across or 0:02d}"

    return (
        "\n".join(
            ",".join(token(sq, d) for sq, d in zip(sq_row, digit_row, strict=True))
            for sq_row, digit_row in zip(board.puzzle.squares, board.entries, strict=True)
        )
        + "\n"
    )


# ---------------------------------------------------------------- JSON (proto mirror)


def sniff_json(text: str) -> str | None:
    return json_puzzle(text, "kakuro")[1] or None


def _json_int(cell: dict, key: str, where: Cell, findings: list[Finding]) -> int | None:
    value = cell.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        findings.append(error("bad_value", f"{cell_name(where)}: {key} must be an integer", where))
        return None
    return value


def read_json(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    data, reason = json_puzzle(text, "kakuro")
    if data is None:
        raise PuzzleError([error("not_json", reason)])
    kakuro = data["kakuro"]
    if not isinstance(kakuro, dict):
        raise PuzzleError([error("bad_shape", "'kakuro' must be an object with 'rows'")])
    rows = kakuro.get("rows", [])
    if not isinstance(rows, list) or not all(
        isinstance(row, dict) and isinstance(row.get("cells", []), list) for row in rows
    ):
        raise PuzzleError([error("bad_shape", "'rows' must be a list of {\"cells\": [...]}")])
    lines = [row.get("cells", []) for row in rows]
    width = len(lines[0]) if lines else 0
    too_big = _size_finding(len(lines), max((len(x) for x in lines), default=0), max_cells)
    if too_big:
        raise PuzzleError([too_big])
    findings: list[Finding] = []
    _check_ragged(lines, width, findings)
    parsed = []
    for r, cells in enumerate(lines):
        row: list[tuple[Square, int]] = []
        for c, cell in enumerate(cells):
            if not isinstance(cell, dict):
                findings.append(error("bad_value", f"{cell_name((r, c))}: not an object", (r, c)))
                row.append((WHITE, 0))
                continue
            unknown = set(cell) - {"black", "down", "across", "digit"}
            if unknown:
                findings.append(
                    error(
                        "unknown_token",
                        f"{cell_name((r, c))}: unknown field(s) {unknown_fields(unknown)}",
                        (r, c),
                    )
                )
            down = _json_int(cell, "down", (r, c), findings)
            across = _json_int(cell, "across", (r, c), findings)
            digit = _json_int(cell, "digit", (r, c), findings) or 0
            if cell.get("black") or down is not None or across is not None:
                row.append((Clue(down, across), 0))
            else:
                row.append((WHITE, digit))
        parsed.append(row)
    return _build(parsed, findings)


def board_to_dict(board: Board) -> dict:
    def cell(sq, digit: int) -> dict:
        if sq is WHITE:
            return {"digit": digit} if digit else {}
        out: dict = {"black": True}
        if sq.down is not None:
            out["down"] = sq.down
        if sq.across is not None:
            out["across"] = sq.across
        return out

    return {
        "kakuro": {
            "rows": [
                {"cells": [cell(sq, d) for sq, d in zip(sq_row, digit_row, strict=True)]}
                for sq_row, digit_row in zip(board.puzzle.squares, board.entries, strict=True)
            ]
        }
    }


write_json = json_writer(board_to_dict)


# ---------------------------------------------------------------- registry and detection


FORMATS = Formats.of("Kakuro", DEFAULT_MAX_CELLS, globals(), "json", "janko", "csv").plus(
    penpa.FORMAT,
    puzzlink.FORMAT,
)
detect, read, write = FORMATS.detect, FORMATS.read, FORMATS.write


def sniff(text: str) -> str | None:
    """The format of a text that is a Kakuro's, among all kinds (see
    :func:`why_no_kakuro_csv`); None for any other text."""
    found = FORMATS.sniff(text)
    return None if found == "csv" and why_no_kakuro_csv(without_bom(text)) else found
