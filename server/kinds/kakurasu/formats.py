"""Reading and writing Kakurasu boards in two formats, with auto-detection.

- ``janko``: the text of the corpus (puzzlekit-dataset's encoding of janko.at puzzles):
  ``ROWS COLS``, then the column clues left to right on one line, then the row clues top
  to bottom on the next; ``-`` for a clue not given. numgrid adds an optional block of
  ROWS lines: the player's marks, ``x`` shaded, ``-`` white, ``.`` undecided (as the
  solution text writes them). The solution text is ``ROWS COLS`` and then the rows, ``x``
  for shaded cells and ``-`` for white ones.
- ``json``: the protobuf JSON of ``numgrid.v1.Puzzle`` with its ``kakurasu`` field:
  ``{"kakurasu": {"rows": 5, "columns": 5, "rowClues": [4, 5, 7, 12, 10],
  "columnClues": [8, 8, 9, 13, 6], "entries": {"rows": [{"values": [0, 1, -1, 0, 0]}]}}}``
  (``row_clues`` and ``column_clues`` are read too); a clue of -1 is one not given.

Readers give a faithful :class:`Board`; what is wrong with its structure (too few clues,
a clue above its line's total, marks other than 1, -1 and 0, ragged marks) is for
:mod:`.checks`. They reject only what cannot be read, with every problem in one
:class:`PuzzleError`.

Detection: a janko text is claimed only when it has exactly two lines after its header
(or two and a line per row of marks) and those two are numbers and ``-`` with at least
one number (the reader then names any mark it cannot read). A run-sum text has a
line per row with ``D,A`` clues (one of two rows without a clue is none), a cage text
2N lines of ``12*``-style clues and cage labels: only a cage grid of 1x1, or of 2x2
with bare numbers for clues, could be taken for a Kakurasu (``--kind`` reads it as the
kind named).
"""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.textformats import Formats
from numgrid.server.kinds.textformats import JsonShape
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.textformats import header_of
from numgrid.server.kinds.textformats import json_body
from numgrid.server.kinds.textformats import json_int
from numgrid.server.kinds.textformats import json_list
from numgrid.server.kinds.textformats import json_object
from numgrid.server.kinds.textformats import json_puzzle
from numgrid.server.kinds.textformats import json_writer
from numgrid.server.kinds.textformats import refuse

from . import penpa
from .model import MAX_SIZE
from .model import OPEN
from .model import SHADED
from .model import WHITE
from .model import Puzzle

DEFAULT_MAX_CELLS = MAX_SIZE * MAX_SIZE
NO_CLUE = "-"  # a clue not given, in the text
JSON_NO_CLUE = -1  # a clue not given, in JSON and the proto (a clue is never negative)
CLUE_DIGITS = 6  # no clue of a grid within MAX_SIZE needs more
MARKS = {"x": SHADED, "X": SHADED, "-": WHITE, ".": OPEN}
MARK_OF = {SHADED: "x", WHITE: "-", OPEN: "."}


def size_errors(rows: int, cols: int, max_cells: int) -> list[Finding]:
    """Checked before anything of the grid's size is allocated."""
    if not (1 <= rows <= MAX_SIZE and 1 <= cols <= MAX_SIZE):
        return [error("bad_size", f"a {rows}x{cols} grid is not 1 to {MAX_SIZE} each way")]
    if rows * cols > max_cells:
        return [
            error(
                "grid_too_large",
                f"grid of {rows}x{cols} = {rows * cols} cells is over the limit of "
                f"{max_cells} cells",
            )
        ]
    return []


# ---------------------------------------------------------------- janko text


def _lines(text: str) -> list[list[str]]:
    return [line.split() for line in text.strip().splitlines() if line.strip()]


def _header(lines: list[list[str]]) -> tuple[int, int] | str:
    first = lines[0] if lines else []
    if len(first) != 2 or not all(decimal(t) and len(t) <= 3 for t in first):
        return "first line must be 'ROWS COLS'"
    return int(first[0]), int(first[1])


def _is_clue(token: str) -> bool:
    return token == NO_CLUE or decimal(token)


def sniff_janko(text: str) -> str | None:
    """None when ``text`` looks like a Kakurasu janko text (see the module's docstring)."""
    lines = _lines(text)
    header = _header(lines)
    if isinstance(header, str):
        return header
    rows = header[0]
    if len(lines) - 1 not in (2, 2 + rows):
        return f"expected 2 lines after the header (column clues, row clues), not {len(lines) - 1}"
    clues = lines[1] + lines[2]
    if not all(map(_is_clue, clues)) or all(t == NO_CLUE for t in clues):
        return "the two lines after the header are not numbers and '-'"
    return None


def _clues(tokens: list[str], what: str, findings: list[Finding]) -> tuple[int | None, ...]:
    out: list[int | None] = []
    for i, token in enumerate(tokens):
        if token == NO_CLUE:
            out.append(None)
        elif decimal(token) and len(token) <= CLUE_DIGITS:
            out.append(int(token))
        else:
            message = f"{what} {i}: {quoted(token)} is not a clue (a number or '-')"
            findings.append(error("unknown_token", message))
            out.append(None)
    return tuple(out)


def _marks(lines: list[list[str]], findings: list[Finding]) -> Grid:
    grid = []
    for r, tokens in enumerate(lines):
        row = []
        for c, token in enumerate(tokens):
            if token not in MARKS:
                findings.append(
                    error(
                        "unknown_token",
                        f"{cell_name((r, c))}: mark {quoted(token)} is not 'x' (shaded), "
                        "'-' (white) or '.' (undecided)",
                        (r, c),
                    )
                )
            row.append(MARKS.get(token, OPEN))
        grid.append(tuple(row))
    return tuple(grid)


def read_janko(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    lines = _lines(text)
    rows, cols = header_of(_header(lines))
    refuse(size_errors(rows, cols, max_cells))
    if len(lines) - 1 not in (2, 2 + rows):
        raise PuzzleError(
            [
                error(
                    "line_count",
                    f"expected 2 lines after the header (the column clues, then the row "
                    f"clues; {2 + rows} with a line of marks per row), not {len(lines) - 1}",
                )
            ]
        )
    findings: list[Finding] = []
    column_clues = _clues(lines[1], "column clue", findings)
    row_clues = _clues(lines[2], "row clue", findings)
    entries = _marks(lines[3:], findings) if len(lines) > 3 else None
    refuse(findings)
    puzzle = Puzzle(rows, cols, row_clues, column_clues)
    return Board(puzzle, entries if entries is not None else puzzle.empty_grid())


def _clue_text(clue: int | None) -> str:
    return NO_CLUE if clue is None else str(clue)


def write_janko(board: Board) -> str:
    p = board.puzzle
    lines = [
        f"{p.rows} {p.cols}",
        " ".join(map(_clue_text, p.column_clues)),
        " ".join(map(_clue_text, p.row_clues)),
    ]
    if board.has_entries:
        lines.extend(" ".join(MARK_OF.get(v, str(v)) for v in row) for row in board.entries)
    return "\n".join(lines) + "\n"


def write_solution(puzzle: Puzzle, solution: Grid) -> str:
    """The corpus's solution text: ``ROWS COLS``, then ``x`` shaded and ``-`` white."""
    lines = [f"{puzzle.rows} {puzzle.cols}"]
    lines.extend(" ".join("x" if v == SHADED else "-" for v in row) for row in solution)
    return "\n".join(lines) + "\n"


def read_solution(text: str) -> Grid:
    """The grid of a solution text: 1 for ``x``, -1 for ``-``."""
    lines = _lines(text)
    header = _header(lines)
    if isinstance(header, str):
        raise PuzzleError([error("bad_header", "a solution starts with 'ROWS COLS'")])
    rows, cols = header
    findings = []
    if len(lines) - 1 != rows:
        findings.append(error("row_count", f"header says {rows} rows but {len(lines) - 1} follow"))
    grid = []
    for r, tokens in enumerate(lines[1 : rows + 1]):
        if len(tokens) != cols or any(t not in ("x", "-") for t in tokens):
            findings.append(
                error(
                    "bad_row",
                    f"solution row {r} is not {cols} of 'x' and '-': {quoted(' '.join(tokens))}",
                    (r, 0),
                )
            )
            continue
        grid.append(tuple(SHADED if t == "x" else WHITE for t in tokens))
    refuse(findings)
    return tuple(grid)


# ---------------------------------------------------------------- JSON (proto mirror)

_FIELDS = {  # the proto's JSON name and its original name, as protobuf's parsers allow
    "rows": ("rows",),
    "columns": ("columns",),
    "rowClues": ("rowClues", "row_clues"),
    "columnClues": ("columnClues", "column_clues"),
    "entries": ("entries",),
}


def sniff_json(text: str) -> str | None:
    return json_puzzle(text, "kakurasu")[1] or None


def _field(data: dict, name: str, default):
    """A field by its JSON name or its original one (both may not be given)."""
    given = [key for key in _FIELDS[name] if key in data]
    if len(given) > 1:
        raise JsonShape(f"{' and '.join(given)} are the same field, given twice")
    return data[given[0]] if given else default


def _json_clues(raw, what: str) -> tuple[int | None, ...]:
    clues = [json_int(v, f"{what}[{i}]") for i, v in enumerate(json_list(raw, what))]
    return tuple(None if v == JSON_NO_CLUE else v for v in clues)


def _json_entries(raw, rows: int, cols: int) -> Grid:
    """The marks as given (any int32, rows of any length: :mod:`.checks` judges them)."""
    found = json_list(json_object(raw, "entries", {"rows"}).get("rows", []), "entries.rows")
    if not found:
        return tuple((OPEN,) * cols for _ in range(rows))
    grid = []
    for r, row in enumerate(found):
        what = f"entries.rows[{r}]"
        values = json_list(json_object(row, what, {"values"}).get("values", []), f"{what}.values")
        grid.append(tuple(json_int(v, f"{cell_name((r, c))}: mark") for c, v in enumerate(values)))
    return tuple(grid)


def read_json(text: str, max_cells: int = DEFAULT_MAX_CELLS) -> Board:
    try:
        names = {name for given in _FIELDS.values() for name in given}
        inner = json_body(text, "kakurasu", names)
        rows = json_int(_field(inner, "rows", 0), "rows")
        cols = json_int(_field(inner, "columns", 0), "columns")
        refuse(size_errors(rows, cols, max_cells))
        row_clues = _json_clues(_field(inner, "rowClues", []), "rowClues")
        column_clues = _json_clues(_field(inner, "columnClues", []), "columnClues")
        entries = _json_entries(_field(inner, "entries", {}), rows, cols)
    except JsonShape as e:
        raise PuzzleError([error("bad_shape", str(e))]) from None
    return Board(Puzzle(rows, cols, row_clues, column_clues), entries)


def _json_clue(clue: int | None) -> int:
    return JSON_NO_CLUE if clue is None else clue


def board_to_dict(board: Board) -> dict:
    """As ``json_format.MessageToDict`` writes the proto: zero values left out."""
    p = board.puzzle
    out: dict = {}
    if p.rows:
        out["rows"] = p.rows
    if p.cols:
        out["columns"] = p.cols
    if p.row_clues:
        out["rowClues"] = [_json_clue(v) for v in p.row_clues]
    if p.column_clues:
        out["columnClues"] = [_json_clue(v) for v in p.column_clues]
    if board.has_entries:
        out["entries"] = {"rows": [{"values": list(row)} for row in board.entries]}
    return {"kakurasu": out}


write_json = json_writer(board_to_dict)


# ---------------------------------------------------------------- registry and detection

FORMATS = Formats.of("Kakurasu", DEFAULT_MAX_CELLS, globals(), "json", "janko").plus(penpa.FORMAT)
detect, sniff, read, write = FORMATS.detect, FORMATS.sniff, FORMATS.read, FORMATS.write
