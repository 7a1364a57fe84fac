"""A kind's text formats: each one can say whether a text looks like it (cheaply), read
it into a board and write a board back; the registry detects which one a text is in,
and reads past a UTF-8 byte-order mark.
Every kind's ``formats`` module builds one :class:`Formats` (one concept, one place)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from typing import TypeVar

from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted


@dataclass(frozen=True)
class Format:
    name: str  # named as numgrid.v1.PuzzleFormat without its prefix
    sniff: Callable[[str], str | None]  # None if the text looks like this format, else why not
    read: Callable[..., Any]  # (text, max_cells=) -> board; PuzzleError with every finding
    write: Callable[[Any], str]


_T = TypeVar("_T")
BOM = "\ufeff"  # what Excel and Notepad put before UTF-8 text
# How a janko sniff's reason starts when the first line is no header of its kind (any
# other reason: the header is one, the rest is not such a puzzle).
HEADER_REFUSED = "first line must be"


def error(code: str, message: str, *cells: Cell) -> Finding:
    """A reading error, naming its cells."""
    return Finding(code=code, message=message, cells=tuple(cells))


def refuse(findings: list[Finding]) -> None:
    """Raise :class:`PuzzleError` with the findings, if there are any."""
    if findings:
        raise PuzzleError(findings)


def header_of(header: _T | str) -> _T:
    """What a reader made of a header, or (given why it could not) ``bad_header``."""
    if isinstance(header, str):
        raise PuzzleError([error("bad_header", header)])
    return header


def ragged_row(r: int, found: int, n: int, things: str = "tokens", block: str = "") -> Finding:
    """Row ``r`` of a grid (of a ``block`` of rows) holds ``found`` of its ``things``, not
    ``n``: named at its first missing or extra cell."""
    where = (r, min(found, n - 1))
    row = f"{block} row" if block else "row"
    return error(
        "ragged_row", f"{cell_name(where)}: {row} {r} has {found} {things}, expected {n}", where
    )


def square_size_errors(n: int, max_cells: int, max_size: int) -> list[Finding]:
    """An N x N grid's size, checked before anything of that size is allocated."""
    if not 1 <= n <= max_size:
        return [error("bad_size", f"size {n} is not 1 to {max_size}")]
    if n * n > max_cells:
        return [
            error(
                "grid_too_large",
                f"grid of {n}x{n} = {n * n} cells is over the limit of {max_cells} cells",
            )
        ]
    return []


def without_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def json_puzzle(text: str, kind: str) -> tuple[dict[str, Any] | None, str]:
    """A JSON puzzle of ``kind`` (``{"KIND": {...}}``) parsed once: the whole object,
    or None and why the text is not one (what a sniff says, and a read reports)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # RecursionError: nesting too deep
        return None, f"not JSON ({e})"
    if not isinstance(data, dict) or kind not in data:
        return None, f"JSON without a {kind!r} object"
    return data, ""


def json_writer(
    to_dict: Callable[[Any], dict[str, Any]], ensure_ascii: bool = True
) -> Callable[[Any], str]:
    """A kind's ``write_json``: the board as its proto's JSON (``to_dict``), on one line."""

    def write_json(board: Any) -> str:
        text = json.dumps(to_dict(board), separators=(",", ":"), ensure_ascii=ensure_ascii)
        return text + "\n"

    return write_json


REASON_CHARS = 60  # of each format's reason when a text matches none: the list stays short


def _short(reason: str) -> str:
    """A format's reason for not reading a text, short: "not JSON", not the parser's
    words after it; any reason cut to :data:`REASON_CHARS`."""
    if reason.startswith("not ") and " (" in reason:
        reason = reason[: reason.index(" (")]
    return reason if len(reason) <= REASON_CHARS else reason[: REASON_CHARS - 3] + "..."


# The sites whose links or game IDs are formats: named when a kind has none of theirs.
SITES = {
    "puzzlink": "puzz.link (pzprjs)",
    "penpa": "penpa-edit",
    "fpuzzles": "f-puzzles",
    "sudokuwiki": "SudokuWiki",
    "tatham": "Simon Tatham's collection",
}


class Formats(dict[str, Format]):
    """The formats of one kind by name, tried in this order when detecting."""

    def __init__(self, title: str, default_max_cells: int, *formats: Format):
        super().__init__((f.name, f) for f in formats)
        self.title, self.default_max_cells = title, default_max_cells  # the kind's title

    @classmethod
    def of(
        cls, title: str, default_max_cells: int, namespace: dict[str, Any], *names: str
    ) -> Formats:
        """The formats ``names``, in that order, each from its functions in a kind's
        formats module (``namespace``): ``sniff_<name>``, ``read_<name>``, ``write_<name>``."""
        return cls(
            title,
            default_max_cells,
            *(
                Format(name, *(namespace[f"{verb}_{name}"] for verb in ("sniff", "read", "write")))
                for name in names
            ),
        )

    def _error(self, message: str) -> PuzzleError:
        return PuzzleError([Finding(code="unknown_format", message=message)])

    def detect(self, text: str) -> Format:
        text = without_bom(text)
        reasons: dict[str, str] = {}
        for fmt in self.values():
            reason = fmt.sniff(text)
            if reason is None:
                return fmt
            reasons[fmt.name] = reason
        tried = "; ".join(f"{name}: {_short(why)}" for name, why in reasons.items())
        raise self._error(f"the text matches no known {self.title} format ({tried})")

    def sniff(self, text: str) -> str | None:
        """The format of a text of this kind, or None when it is in none of them."""
        text = without_bom(text)
        return next((fmt.name for fmt in self.values() if fmt.sniff(text) is None), None)

    def get_format(self, fmt: str) -> Format:
        if fmt not in self:
            raise self._error(f"unknown format {fmt!r}; known: {', '.join(self)}")
        return self[fmt]

    def read(self, text: str, fmt: str | None = None, max_cells: int | None = None) -> Any:
        """Parse ``text`` in ``fmt`` (``None`` = auto-detect); PuzzleError on any problem."""
        text = without_bom(text)
        chosen = self.detect(text) if fmt is None else self.get_format(fmt)
        return chosen.read(text, max_cells=max_cells or self.default_max_cells)

    def write(self, board: Any, fmt: str) -> str:
        """The board in ``fmt``. When that format cannot hold it, PuzzleError says why and
        (its first finding, the one a summary shows) which of the kind's formats can:
        each is tried."""
        try:
            return self.get_format(fmt).write(board)
        except PuzzleError as refused:
            holders = [name for name in self if name != fmt and self._holds(board, name)]
            if not holders or not refused.findings:
                raise
            first, *rest = refused.findings
            named = ", ".join(holders[:-1]) + " or " if len(holders) > 1 else ""
            told = f"{first.message}; it can be written as {named}{holders[-1]}"
            raise PuzzleError([dataclasses.replace(first, message=told), *rest]) from None

    def _holds(self, board: Any, fmt: str) -> bool:
        try:
            self[fmt].write(board)
        except PuzzleError:
            return False
        return True

    def missing(self, fmt: str) -> str:
        """The sentence saying this kind cannot be written in ``fmt``, and what it can."""
        can = f"write it as one of {', '.join(self)}"
        if fmt in SITES:
            return f"{SITES[fmt]} has no {self.title}: {can}"
        return f"{self.title} has no {fmt} format: {can}"

    def plus(self, *formats: Format) -> Formats:
        """These formats and ``formats`` after them (a kind's links, each its own module)."""
        return Formats(self.title, self.default_max_cells, *self.values(), *formats)


# ---------------------------------------------------------------- Tatham's game IDs

_RUN = re.compile(r"[a-z]|_|[0-9]+|.")
_SEED = re.compile(r"^[0-9][0-9a-z]*#")


def is_random_seed(text: str) -> bool:
    """Is the text a random-seed game ID of Tatham's (``6dh#12345``, ``3x3#951...``)?"""
    return _SEED.match(text.strip()) is not None


def random_seed(text: str, game: str) -> Finding:
    """Why a random-seed game ID of Tatham's ``game`` is not read: a seed names a puzzle
    only through that version of the game's own generator."""
    return error(
        "random_seed_id",
        "a random-seed ID cannot be read: paste the game ID with ':' (in "
        f"{game}: Game > Specific...; {quoted(text.strip())} only says how to make one)",
    )


TATHAM_SIZES = range(3, 10)  # the grids his Latin-square games take (their validate_params)


def tatham_size(n: int, game: str) -> list[Finding]:
    """Why Tatham's ``game`` cannot play an N x N grid (empty: it can)."""
    if n in TATHAM_SIZES:
        return []
    return [
        error(
            "tatham_size",
            f"Tatham's {game} plays 3x3 to 9x9 grids: a {n}x{n} grid has no {game} game ID",
        )
    ]


def tatham_grid(text: str, n: int, findings: list[Finding]) -> Grid:
    """An N x N grid run-length encoded as Tatham's puzzles write one in a game ID:
    ``a``-``z`` for 1-26 cells of 0, a number for a cell, ``_`` between two numbers.
    What it cannot read goes to ``findings``."""
    values = [0] * (n * n)
    pos = 0
    for token in _RUN.findall(text):
        if token == "_":
            continue
        if decimal(token):
            if len(token) > 3:
                findings.append(error("bad_tatham_id", f"the givens hold {quoted(token)}"))
            elif pos < n * n:
                values[pos] = int(token)
            pos += 1
        elif "a" <= token <= "z":
            pos += ord(token) - ord("a") + 1
        else:
            findings.append(error("bad_tatham_id", f"the givens hold {quoted(token)}"))
    if pos != n * n:
        many = "not enough" if pos < n * n else "too much"
        findings.append(
            error("bad_tatham_id", f"the givens describe {pos} cells, {many} for the {n}x{n} grid")
        )
    return tuple(tuple(values[r * n : r * n + n]) for r in range(n))


def tatham_runs(values: list[int]) -> str:
    """Cells in reading order as :func:`tatham_grid` reads them: runs of 0 as letters,
    numbers (``_`` between two), nothing for a negative value."""
    out: list[str] = []
    run = 0
    for i, value in enumerate([*values, -1]):
        if not value:
            run += 1
            continue
        if run:
            while run > 0:
                step = min(run, 26)
                out.append(chr(ord("a") - 1 + step))
                run -= step
        elif i > 0 and value > 0:
            out.append("_")
        if value > 0:
            out.append(str(value))
        run = 0
    return "".join(out)


def decimal(token: str) -> bool:
    """``token`` is digits 0-9 only. ``str.isdecimal`` also takes other scripts' digits
    (fullwidth, Arabic-Indic), which ``int`` reads too: every reader takes the ASCII
    ones alone, so that such a digit is refused everywhere, never read by one format
    and refused by the next."""
    return token.isascii() and token.isdecimal()


# ---------------------------------------------------------------- protobuf JSON values

_INT32 = 2**31
_INT_TEXT = re.compile(r"^-?[0-9]{1,10}$")


class JsonShape(Exception):
    """A JSON value of the wrong shape, for the reader to turn into a finding."""


def json_int(value: object, what: str) -> int:
    """An int32 as protobuf JSON allows it: a number (not a bool), an integral float or a
    string of digits."""
    if isinstance(value, bool):
        raise JsonShape(f"{what} must be an integer, not {json.dumps(value)}")
    if (isinstance(value, float) and value.is_integer()) or (
        isinstance(value, str) and _INT_TEXT.match(value)
    ):
        value = int(value)
    if not isinstance(value, int):
        raise JsonShape(f"{what} must be an integer, not {json.dumps(value)[:40]}")
    if not -_INT32 <= value < _INT32:
        digits = round(value.bit_length() * 0.30103) + 1
        shown = str(value) if digits < 25 else f"(a number of about {digits} digits)"
        raise JsonShape(f"{what} {shown} is out of range")
    return value


def json_object(value: object, what: str, fields: set[str]) -> dict[str, Any]:
    """A JSON object with no field outside ``fields``."""
    if not isinstance(value, dict):
        raise JsonShape(f"{what} must be an object, not {json.dumps(value)[:40]}")
    unknown = set(value) - fields
    if unknown:
        raise JsonShape(f"{what} has unknown field(s) {unknown_fields(unknown)}")
    return value


def json_body(text: str, key: str, fields: set[str]) -> dict[str, Any]:
    """The object of a JSON puzzle ``{"<key>": {...}}``, with no field outside ``fields``:
    PuzzleError (``not_json``) when the text is no such JSON, JsonShape when an object
    holds another field."""
    data, reason = json_puzzle(text, key)
    if data is None:
        raise PuzzleError([error("not_json", reason)])
    json_object(data, "the JSON", {key})
    return json_object(data[key], repr(key), fields)


def json_bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise JsonShape(f"{what} must be true or false, not {json.dumps(value)[:40]}")
    return value


def json_cells(raw: object, what: str) -> list[Cell]:
    """A list of ``{"row": R, "column": C}`` (a cage's cells) as cells."""
    cells = []
    for j, ref in enumerate(json_list(raw, what)):
        ref = json_object(ref, f"{what}[{j}]", {"row", "column"})
        row = json_int(ref.get("row", 0), f"{what}[{j}].row")
        col = json_int(ref.get("column", 0), f"{what}[{j}].column")
        cells.append((row, col))
    return cells


def unknown_fields(names: Iterable[object], shown: int = 3) -> str:
    """Field names for a message, each cut short and at most ``shown`` of them: the
    names come from the request, and a message repeating megabytes of them could not
    even reach the client (gRPC caps the trailer that carries it)."""
    listed = sorted(map(str, names))
    text = ", ".join(quoted(name) for name in listed[:shown])
    return text + (f" and {len(listed) - shown} more" if len(listed) > shown else "")


def json_list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise JsonShape(f"{what} must be a list, not {json.dumps(value)[:40]}")
    return value


def json_grid(
    raw: object,
    what: str,
    n: int,
    findings: list[Finding],
    noun: str | None = None,
    check: Callable[[Cell, int], Finding | None] | None = None,
) -> Grid:
    """A ``Grid`` message (field ``what``) of an N x N puzzle: no rows (all 0), or N rows
    of N values. A row of another length is named (``ragged_row``) and read as the
    others are, padded with 0 or cut to N; ``check(cell, value)`` judges each value, and
    a value it finds wrong reads as 0. ``noun`` names a value in the sentences (``what``
    by default). A value of the wrong shape: ``bad_value``, and an empty grid."""
    noun = what if noun is None else noun
    empty = tuple((0,) * n for _ in range(n))
    try:
        rows = json_list(json_object(raw, what, {"rows"}).get("rows", []), f"{what}.rows")
        if not rows:
            return empty
        if len(rows) != n:
            raise JsonShape(f"{what} has {len(rows)} rows, expected {n} (or none)")
        grid = []
        for r, row in enumerate(rows):
            values = json_list(
                json_object(row, f"{what}.rows[{r}]", {"values"}).get("values", []),
                f"{what}.rows[{r}].values",
            )
            if len(values) != n:
                findings.append(ragged_row(r, len(values), n, "values", noun))
            out = []
            for c, raw_value in enumerate(values):
                value = json_int(raw_value, f"{cell_name((r, c))}: {noun}")
                if c >= n:
                    continue  # past the row's end: named above, read for its shape
                wrong = check((r, c), value) if check is not None else None
                if wrong is not None:
                    findings.append(wrong)
                    value = 0
                out.append(value)
            grid.append(tuple(out + [0] * (n - len(out))))
    except JsonShape as e:
        findings.append(error("bad_value", str(e)))
        return empty
    return tuple(grid)
