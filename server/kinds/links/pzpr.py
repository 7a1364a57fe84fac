"""puzz.link links, as pzprjs (the player behind puzz.link, pzv.jp and pzprxs) reads
and writes them: ``https://puzz.link/p?TYPE/COLS/ROWS/BODY``. This module holds what
every type shares, learned from pzprjs' ``src/pzpr/parser.js`` and
``src/variety-common/Encode.js`` (docs/links-formats.md, section 1): the URL, the
Number16 cell list, the outside-clue list and the one-character sums. Each kind's
``puzzlink`` module names its types and lays its puzzle over the body.

Readers are strict where pzprjs is lenient: a character pzprjs would skip, a number cut
short or a body too short or too long for the size is a finding, never a guess."""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass

from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import unwrapped
from numgrid.server.kinds.textformats import error

NAME = "puzz.link"
MAX_CHARS = 1 << 20  # a link over a mebibyte is no puzzle (the largest real ones are ~1 KB)
_SIZE_DIGITS = 6  # no grid numgrid serves needs a longer side
_PREFIX = re.compile(
    r"(?:https?://)?(?:www\.)?(?:puzz\.link|pzv\.jp|pzprxs\.vercel\.app)/p(?:\.html)?\?",
    re.IGNORECASE,
)
_OPTIONS = re.compile(r"^(?:\w+=\w+&)*")  # "type=player&" before the type
_MODE = re.compile(r"_(?:edit|play)$")
# A percent escape: a link is ASCII, one byte a character (Number16's own "%" and 3 hex
# digits, for numbers from 8192 on, is none of these kinds')
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_FILE = re.compile(r"^pzprv[0-9.]*$")  # a puzzle file in a link, not an encoded puzzle
_SIZE = re.compile(rf"^[0-9]{{1,{_SIZE_DIGITS}}}$")
_HEX = frozenset("0123456789abcdef")
# Number16's prefixed numbers: the prefix, its hex digits and what it adds
_WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192)}
_WIDE |= {"*": (4, 12240), "$": (5, 77776)}
_OUTSIDE_WIDE = {"-": (2, 0)}  # the outside clues know only "-" and two digits
HIDDEN = "."  # a "?" number: shown as unknown, so no clue to solve with
NUMBER_RUNS = "g"  # Number16's runs of empty cells: g = 1 ... z = 20


@dataclass(frozen=True)
class Link:
    """A puzz.link URL taken apart: its size (columns first) and its body."""

    cols: int
    rows: int
    body: str


def bad(message: str, *cells: Cell) -> Finding:
    """A finding about a link (code ``bad_puzzlink``)."""
    return error("bad_puzzlink", message, *cells)


def cannot(message: str, *cells: Cell) -> Finding:
    """Why a puzzle cannot be written as a link (code ``not_puzzlink``)."""
    return error("not_puzzlink", message, *cells)


def givens_beyond(
    givens: Grid, n: int, given: Callable[[int], str] = "the given {}".format
) -> list[Finding]:
    """A refusal for each given a link has no place for (not 1 to ``n``; 0 is none);
    ``given`` says the value in the sentence."""
    return [
        cannot(f"{cell_name((r, c))}: {given(v)} is not 1 to {n}", (r, c))
        for r, row in enumerate(givens)
        for c, v in enumerate(row)
        if not 0 <= v <= n
    ]


def _unescaped(escape: re.Match[str]) -> str:
    return chr(int(escape.group(1), 16))


def _query(text: str) -> str | None:
    """What follows ``?`` in a puzz.link URL (of any host pzprjs runs on), ``name=value&``
    options dropped; None when the text is no such URL."""
    text = unwrapped(text)
    found = _PREFIX.match(text)
    if found is None:
        return None
    # A fragment (#...) never reaches pzprjs: the browser keeps it to itself.
    query = text[found.end() :].partition("#")[0]
    query = _ESCAPE.sub(_unescaped, query)  # a link pasted from chat: %2F
    head, slash, rest = query.partition("/")
    return _OPTIONS.sub("", head, count=1) + slash + rest if slash else query


def link_type(text: str) -> str | None:
    """The type a puzz.link URL names (``nurikabe`` of ``p?nurikabe_edit/5/5/...``, the type
    inside a ``p?pzprv3/...`` file link), or None when the text is no puzz.link URL."""
    query = _query(text)
    if query is None:
        return None
    parts = query.split("/", 2)
    if _FILE.match(parts[0]) and len(parts) > 1:
        return parts[1]
    return _MODE.sub("", parts[0])


@dataclass(frozen=True)
class Sniff:
    """A kind's sniff of puzz.link URLs: None for a URL of one of its ``types`` (the
    first is the one it writes), else why not. Its types name the kind's varieties when
    a URL of another type is pasted."""

    types: tuple[str, ...]

    def __call__(self, text: str) -> str | None:
        found = link_type(text)
        if found is None:
            return f"not a {NAME} URL (https://{NAME}/p?TYPE/COLS/ROWS/...)"
        if found not in self.types:
            return f"a {NAME} URL of type {quoted(found)}, not {_listed(self.types)}"
        return None


def _listed(types: Sequence[str]) -> str:
    return " or ".join(quoted(t) for t in types)


def parse(text: str, types: tuple[str, ...]) -> Link:
    """The link's type (one of ``types``), size and body; PuzzleError naming what is
    wrong: too long, no puzz.link URL, another type, a variant (pzprjs' other types
    have some), a size that is no number (where other types have a flag)."""
    if len(text) > MAX_CHARS:
        raise PuzzleError(
            [
                error(
                    "too_long",
                    f"the text has {len(text)} characters, over the {MAX_CHARS} of the "
                    f"longest {NAME} URL read",
                )
            ]
        )
    query = _query(text)
    if query is None:
        raise PuzzleError([cannot(Sniff(types)(text) or "")])
    parts = query.split("/")
    if _FILE.match(parts[0]):
        raise PuzzleError(
            [
                bad(
                    f"a {NAME} file link (p?{parts[0]}/...) holds a saved game, not the "
                    f"puzzle's URL: open it in {NAME} and paste the URL it shows"
                )
            ]
        )
    if any(ch.isspace() for ch in query):
        raise PuzzleError([bad(f"a {NAME} URL is one line without spaces")])
    found = _MODE.sub("", parts[0])
    if found not in types:
        raise PuzzleError(
            [error("wrong_type", f"the {NAME} type {quoted(found)} is not {_listed(types)}")]
        )
    rest = parts[1:]
    if rest and rest[0].startswith("v:"):
        if rest[0] != "v:":
            raise PuzzleError(
                [bad(f"the {NAME} variant {quoted(rest[0][2:])} of {found} is not read")]
            )
        rest = rest[1:]
    if len(rest) < 2:
        raise PuzzleError([bad(f"the {NAME} URL has no size ({found}/COLS/ROWS/BODY)")])
    cols, rows = _size(rest[0], "columns"), _size(rest[1], "rows")
    if rest[-1] == "" and len(rest) > 2:  # a trailing "/", as pzprjs drops it
        rest = rest[:-1]
    return Link(cols, rows, "/".join(rest[2:]))


def _size(token: str, what: str) -> int:
    if not _SIZE.match(token) or int(token) == 0:
        raise PuzzleError(
            [
                error(
                    "bad_size",
                    f"the {NAME} URL's number of {what} {quoted(token)} is not a number "
                    f"from 1 to {'9' * _SIZE_DIGITS}",
                )
            ]
        )
    return int(token)


def url(type_: str, cols: int, rows: int, body: str) -> str:
    """The link numgrid writes, on puzz.link itself."""
    return f"https://{NAME}/p?{type_}/{cols}/{rows}/{body}"


# ---------------------------------------------------------------- the body's pieces

# Where the item ``k`` of a list sits, for messages: its words (``r2c3``, ``the clue
# above column 1``) and its cell, if it has one.
Where = Callable[[int], tuple[str, Cell | None]]


def cell_at(n: int) -> Where:
    """Where the k-th cell of an n x n grid, in reading order, is: its name and cell."""

    def at(k: int) -> tuple[str, Cell | None]:
        cell = divmod(k, n)
        return cell_name(cell), cell

    return at


def zeros(values: Sequence[int | None], what: str, at: Where, zero: str = "0") -> list[Finding]:
    """A 0 is no clue nor digit in pzprjs (its numbers start at 1): each named (``zero``
    is no ``what``), not dropped."""
    message = f"{zero} is no {what}"
    return [_finding(at, k, message) for k, value in enumerate(values) if value == 0]


def rows_of(values: Sequence[int | None], n: int) -> Grid:
    """Numbers read cell by cell (None: none) as n rows of n, 0 where there is none."""
    flat = [value or 0 for value in values]
    return tuple(tuple(flat[r * n : r * n + n]) for r in range(n))


def bad_size(message: str) -> PuzzleError:
    """A link whose size the kind does not read (read no further)."""
    return PuzzleError([error("bad_size", message)])


def _finding(where: Where, k: int, message: str) -> Finding:
    words, cell = where(k)
    return bad(f"{words}: {message}", *((cell,) if cell is not None else ()))


def read_numbers(
    body: str,
    start: int,
    count: int,
    where: Where,
    findings: list[Finding],
    noun: str,
    *,
    outside: bool = False,
) -> tuple[list[int | None], int]:
    """``count`` numbers (``noun``: cells, clues) of a body from ``start`` on, in
    Number16 (``outside``: pzprjs' outside-clue variant, ``-`` its only prefix): a hex
    digit, a prefix and its hex digits, or a letter ``g``-``z`` for a run of 1-20 empty
    items (None). The numbers and where the body goes on; what cannot be read goes to
    ``findings``, and the body ends at the first such thing."""
    prefixes = _OUTSIDE_WIDE if outside else _WIDE
    values: list[int | None] = []
    i = start
    while len(values) < count:
        k = len(values)
        if i >= len(body):
            findings.append(
                _finding(where, k, f"the {NAME} body ends after {k} of its {count} {noun}")
            )
            return values + [None] * (count - k), i
        ch = body[i]
        if ch in _HEX:
            values.append(int(ch, 16))
            i += 1
        elif ch in prefixes:
            digits, base = prefixes[ch]
            hex_digits = body[i + 1 : i + 1 + digits]
            if len(hex_digits) != digits or not set(hex_digits) <= _HEX:
                findings.append(
                    _finding(
                        where,
                        k,
                        f"{quoted(ch + hex_digits)} at character {i + 1} of the {NAME} body "
                        f"is not {ch!r} and {digits} hex digits",
                    )
                )
                return values + [None] * (count - k), len(body)
            values.append(int(hex_digits, 16) + base)
            i += 1 + digits
        elif "g" <= ch <= "z":
            run = ord(ch) - ord(NUMBER_RUNS) + 1
            if k + run > count:
                findings.append(
                    _finding(
                        where,
                        k,
                        f"{quoted(ch)} at character {i + 1} of the {NAME} body says {run} "
                        f"empty, past the last of the {count} {noun}",
                    )
                )
                return values + [None] * (count - k), len(body)
            values += [None] * run
            i += 1
        else:
            why = (
                "is a '?' (a number left hidden), which gives nothing to solve with"
                if ch == HIDDEN
                else f"is not a number nor a run of empty {noun} (g-z)"
            )
            findings.append(
                _finding(where, k, f"{quoted(ch)} at character {i + 1} of the {NAME} body {why}")
            )
            return values + [None] * (count - k), len(body)
    return values, i


def _number_text(value: int) -> str:
    """A number as Number16 writes it (only the numbers these kinds use: below 4096)."""
    if value < 16:
        return format(value, "x")
    if value < 256:
        return f"-{value:02x}"
    if value < 4096:
        return f"+{value:03x}"
    raise ValueError(f"{value} is over what numgrid writes in Number16")


def runs_text(items: Sequence[str | None], first: str, longest: int) -> str:
    """Items already written, with runs of None as letters: ``first`` for a run of 1,
    the next letters for longer runs up to ``longest`` (a longer run takes several)."""
    out: list[str] = []
    run = 0
    for item in items:
        if item is None:
            run += 1
            if run < longest:
                continue
        if run:
            out.append(chr(ord(first) + run - 1))
            run = 0
        if item is not None:
            out.append(item)
    if run:
        out.append(chr(ord(first) + run - 1))
    return "".join(out)


def write_numbers(values: Sequence[int | None]) -> str:
    """Numbers (None: empty) in Number16, as pzprjs writes cells and outside clues."""
    items = [None if value is None else _number_text(value) for value in values]
    return runs_text(items, NUMBER_RUNS, 20)


def trailing(body: str, end: int, what: str) -> list[Finding]:
    """A finding when the body goes on after its last part (``what``, e.g. ``the 81
    cells``): the size and the body disagree."""
    if end >= len(body):
        return []
    extra = body[end:]
    return [
        bad(
            f"the {NAME} body goes on after {what}: {len(extra)} more "
            f"{'character' if len(extra) == 1 else 'characters'} ({quoted(extra)}); the size "
            "and the body disagree"
        )
    ]


# ---------------------------------------------------------------- sums of one character

# A sum of 0 to 45 as one character, the sum its index (0-9, a-j = 10-19, A-Z = 20-45);
# NO_SUM for none (0 reads as none too: older links hold it)
SUM_CHARS = "0123456789abcdefghij" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
NO_SUM = "-"
SUM_MAX = len(SUM_CHARS) - 1
