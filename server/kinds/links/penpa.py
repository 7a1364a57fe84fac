"""penpa-edit links (docs/links-formats.md, section 2), kind-agnostic: the envelope
(``…/penpa-edit/#m=solve&p=…``, ``#`` or ``?``, ``m=edit`` or ``m=solve``), the
payload (base64 of raw DEFLATE of text lines whose JSON keys penpa abbreviates), a
:class:`Sheet` that says what the link draws on its square grid, the point arithmetic of
that grid (:class:`Frame`) and a :class:`Drawing` that writes a link penpa opens on its
solving side. Each kind reads its own puzzle from a sheet (``<kind>/penpa.py``), and
names the words penpa has for it (its grid type, layers and tags): this module names none.

Caps: the link at :data:`MAX_LINK` characters, the inflated text at :data:`MAX_TEXT`
(a few bytes of DEFLATE may inflate to gigabytes)."""

from __future__ import annotations

import base64
import binascii
import functools
import itertools
import json
import re
import urllib.parse
import zlib
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from typing import Any

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import unwrapped
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error

MAX_LINK = 1 << 20  # characters of a pasted link; the largest real one seen is ~20 KB
MAX_TEXT = 4 << 20  # characters of the inflated text; the largest real one is ~15 KB
MAX_SIDE = 100  # penpa's own limit on a square grid's rows and columns
ADDRESS = "https://swaroopg92.github.io/penpa-edit/"  # penpa's canonical address

# penpa's abbreviations of its JSON (class_p.js COMPRESS_SUB): code letter -> text.
# ``Z`` (a literal ``z``) aside, each is a quoted key or ``null``. A kind adds the
# layers it reads that this table leaves out (:func:`name_layer`).
_CODES: dict[str, str] = {
    "9": '"qa"',
    "Q": '"pu_q"',
    "A": '"pu_a"',
    "G": '"grid"',
    "M": '"edit_mode"',
    "S": '"surface"',
    "L": '"line"',
    "E": '"lineE"',
    "W": '"wall"',
    "C": '"cage"',
    "N": '"number"',
    "Y": '"symbol"',
    "P": '"special"',
    "B": '"board"',
    "R": '"command_redo"',
    "U": '"command_undo"',
    "8": '"command_replay"',
    "1": '"numberS"',
    "F": '"freeline"',
    "2": '"freelineE"',
    "T": '"thermo"',
    "3": '"arrows"',
    "D": '"direction"',
    "0": '"squareframe"',
    "5": '"polygon"',
    "4": '"deletelineE"',
    "7": '"nobulbthermo"',
    "_": '"__a"',
    "O": "null",
}
# penpa's layers of a puzzle (pu_q) that no kind of this server draws with: a link that
# draws on them holds rules numgrid would drop, so it is refused
RULE_LAYERS = ("thermo", "nobulbthermo", "arrows")
# penpa's grid types that are not square (its square ones are "square" and two more
# that only set up an editing mode, each the business of its kind)
NOT_SQUARE = (
    "hex",
    "tri",
    "pyramid",
    "cube",
    "iso",
    "tetrakis_square",
    "truncated_square",
    "snub_square",
    "cairo_pentagonal",
    "rhombitrihexagonal",
    "deltoidal_trihexagonal",
    "penrose_P3",
)
THICK = frozenset({2, 21, 4})  # solid black lineE styles of width >= 2: region borders
_STACK: dict[str, list[Any]] = {"__a": []}
_EMPTY_LAYERS: dict[str, Any] = {
    "command_redo": _STACK,
    "command_undo": _STACK,
    "command_replay": _STACK,
    "surface": {},
    "number": {},
    "numberS": {},
    "symbol": {},
    "freeline": {},
    "freelineE": {},
    "thermo": [],
    "arrows": [],
    "direction": [],
    "squareframe": [],
    "polygon": [],
    "line": {},
    "lineE": {},
    "wall": {},
    "cage": {},
    "deletelineE": {},
    "nobulbthermo": [],
}


def name_layer(code: str, name: str) -> None:
    """Teach the codec penpa's abbreviation ``z<code>`` of the layer ``name`` (a kind's
    own layer): links then decode it by name, and are written with it."""
    _CODES[code] = json.dumps(name)


class LinkError(ValueError):
    """Why a text is no penpa link numgrid can read: one plain sentence."""


# ---------------------------------------------------------------- envelope and payload

_PARAMS = re.compile(r"(?:^|[#?&])m=(edit|solve)(?:&|$)")


def looks_like_link(text: str) -> bool:
    """A cheap look: one line naming penpa-edit's parameters ``m=edit|solve`` and ``p=``."""
    body = unwrapped(text)
    return "\n" not in body and "p=" in body and _PARAMS.search(body) is not None


def _parameters(body: str) -> dict[str, str]:
    """The ``name=value`` pairs after the link's ``#`` (else its ``?``), or of a bare
    ``m=…&p=…``."""
    query = body
    for mark in "#?":
        if mark in body:
            query = body.split(mark, 1)[1]
            break
    out: dict[str, str] = {}
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        out.setdefault(name, value)
    return out


def _payload(p: str) -> bytes:
    """The DEFLATE bytes of ``p``: base64 as pasted (percent escapes, ``+`` read as a
    space by a form, padding dropped)."""
    p = urllib.parse.unquote(p).replace(" ", "+").strip()
    p = re.sub(r"\s+", "", p)
    if not p:
        raise LinkError("the penpa link's p= parameter is empty")
    try:
        return base64.b64decode(p + "=" * (-len(p) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise LinkError(
            "the penpa link's p= parameter is not base64: the link is corrupted"
        ) from None


def inflate(data: bytes, cap: int = MAX_TEXT) -> str:
    """Raw DEFLATE ``data`` as UTF-8 text of at most ``cap`` bytes."""
    inflater = zlib.decompressobj(-15)
    try:
        out = inflater.decompress(data, cap + 1)  # stops one byte past the cap
    except zlib.error:
        raise LinkError(
            "the penpa link's data does not inflate (corrupt DEFLATE): the link is corrupted"
        ) from None
    if len(out) > cap:
        raise LinkError(f"the penpa link inflates to more than {cap} bytes: refused")
    if not inflater.eof:
        raise LinkError("the penpa link's data ends early: the link was cut short")
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise LinkError("the penpa link's text is not UTF-8: the link is corrupted") from None


def deflate(text: str) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(text.encode("utf-8")) + packer.flush()


_CODE = re.compile(r"z(.?)", re.DOTALL)


def expand(text: str) -> str:
    """penpa's abbreviations undone in one pass (each ``z`` starts a code); a code no
    table names stays a key of its own, ``"z<code>"``, so the JSON still parses."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code == "Z":
            return "z"
        return _CODES.get(code, f'"z{code}"')

    return _CODE.sub(one, text)


def abbreviate(text: str) -> str:
    """penpa's abbreviations, applied as penpa applies them: ``z`` escaped first."""
    text = text.replace("z", "zZ")
    for code, word in _CODES.items():
        text = text.replace(word, "z" + code)
    return text


# ---------------------------------------------------------------- the sheet


@dataclass(frozen=True)
class Frame:
    """penpa's square grid: ``nx`` x ``ny`` drawable cells, ``space`` (top, bottom, left,
    right) of them outside the puzzle (where edge clues sit), inside a margin of two
    cells a side that penpa keeps (class_square.js ``create_point``). Points: cell
    centres, then vertices (each the bottom-right corner of its cell), then the midpoints
    of bottom edges, of right edges, then four quarter points a cell."""

    nx: int
    ny: int
    space: tuple[int, int, int, int]

    @functools.cached_property
    def nx0(self) -> int:
        return self.nx + 4

    @functools.cached_property
    def points(self) -> int:
        """Points of one type (``N``)."""
        return self.nx0 * (self.ny + 4)

    @property
    def rows(self) -> int:
        return self.ny - self.space[0] - self.space[1]

    @property
    def cols(self) -> int:
        return self.nx - self.space[2] - self.space[3]

    def cell(self, r: int, c: int) -> int:
        """The centre of puzzle cell (r, c); -1 and rows/cols reach the ring of space."""
        return (r + 2 + self.space[0]) * self.nx0 + c + 2 + self.space[2]

    def where(self, point: int) -> Cell | None:
        """The puzzle cell (or ring cell) a cell centre is, else None."""
        if not 0 <= point < self.points:
            return None
        j, i = divmod(point, self.nx0)
        r, c = j - 2 - self.space[0], i - 2 - self.space[2]
        if -self.space[0] <= r < self.rows + self.space[1] and (
            -self.space[2] <= c < self.cols + self.space[3]
        ):
            return (r, c)
        return None

    def quarter(self, r: int, c: int, q: int) -> int:
        """Quarter ``q`` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) of a cell."""
        return 4 * (self.points + self.cell(r, c)) + q

    def quarter_where(self, point: int) -> tuple[Cell, int] | None:
        k, q = divmod(point - 4 * self.points, 4)
        cell = self.where(k) if point >= 4 * self.points else None
        return (cell, q) if cell is not None else None

    def vertex(self, r: int, c: int) -> int:
        """The bottom-right corner of puzzle cell (r, c) (r, c may be -1)."""
        return self.points + self.cell(r, c)

    def right_edge(self, r: int, c: int) -> tuple[int, int]:
        return (self.vertex(r - 1, c), self.vertex(r, c))

    def bottom_edge(self, r: int, c: int) -> tuple[int, int]:
        return (self.vertex(r, c - 1), self.vertex(r, c))

    def diagonals(self) -> list[tuple[int, int]]:
        """The segments of both long diagonals of a square puzzle, as sorted pairs."""
        n = self.rows
        main = [(self.vertex(t - 1, t - 1), self.vertex(t, t)) for t in range(n)]
        anti = [(self.vertex(t - 1, n - t - 1), self.vertex(t, n - t - 2)) for t in range(n)]
        return [(min(a, b), max(a, b)) for a, b in main + anti]

    def centre(self) -> int:
        """The point penpa centres its view on (class_p.js ``search_center``): nearest
        the middle of the drawable cells, a cell centre, vertex or edge midpoint."""
        half_x, half_y = self.nx % 2 == 1, self.ny % 2 == 1  # a middle column/row of cells
        i = (self.nx + 3) // 2 if half_x else (self.nx + 2) // 2
        j = (self.ny + 3) // 2 if half_y else (self.ny + 2) // 2
        kind = {(True, True): 0, (False, False): 1, (True, False): 2, (False, True): 3}
        return kind[(half_x, half_y)] * self.points + j * self.nx0 + i

    def centerlist(self) -> list[int]:
        """The puzzle's cell centres in reading order, delta-encoded as penpa saves them."""
        cells = [self.cell(r, c) for r in range(self.rows) for c in range(self.cols)]
        return cells[:1] + [b - a for a, b in itertools.pairwise(cells)]


@dataclass(frozen=True)
class Sheet:
    """What a penpa link draws in its puzzle layer (pu_q), point by point."""

    gridtype: str
    frame: Frame
    title: str
    rules: str
    tags: tuple[str, ...]
    numbers: dict[int, str]  # "number": big text at a point
    corners: dict[int, str]  # "numberS": small text at a point (a quarter), stripped
    symbols: dict[int, str]  # "symbol": the symbol's name at a point
    edges: dict[tuple[int, int], int]  # "lineE": style of each segment, points sorted
    layers: dict[str, Any] = field(repr=False)  # the whole pu_q, for a kind's own layers

    @cached_property
    def regions(self) -> Grid:
        """The puzzle cells split along the thick cell edges, each region numbered in the
        order its first cell is read."""
        f = self.frame
        walls = {key for key, style in self.edges.items() if style in THICK}
        out = [[-1] * f.cols for _ in range(f.rows)]
        count = 0
        for r0 in range(f.rows):
            for c0 in range(f.cols):
                if out[r0][c0] >= 0:
                    continue
                out[r0][c0] = count
                todo = [(r0, c0)]
                while todo:
                    r, c = todo.pop()
                    for (nr, nc), edge in (
                        ((r, c + 1), f.right_edge(r, c)),
                        ((r + 1, c), f.bottom_edge(r, c)),
                        ((r, c - 1), f.right_edge(r, c - 1)),
                        ((r - 1, c), f.bottom_edge(r - 1, c)),
                    ):
                        inside = 0 <= nr < f.rows and 0 <= nc < f.cols
                        if inside and out[nr][nc] < 0 and edge not in walls:
                            out[nr][nc] = count
                            todo.append((nr, nc))
                count += 1
        return tuple(map(tuple, out))

    def has_diagonals(self) -> bool:
        """Every segment of both long diagonals drawn (any style): the X rule."""
        return self.frame.rows == self.frame.cols and all(
            key in self.edges for key in self.frame.diagonals()
        )

    def number_at(self, cell: Cell) -> str:
        """The big text in a cell, "" if none."""
        return self.numbers.get(self.frame.cell(*cell), "")

    def corner_at(self, cell: Cell, q: int) -> str:
        return self.corners.get(self.frame.quarter(*cell, q), "")

    def symbol_at(self, cell: Cell) -> str:
        return self.symbols.get(self.frame.cell(*cell), "")


def _json(line: str, what: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        raise LinkError(f"the penpa link's {what} is not JSON: the link is corrupted") from None


def _points(raw: Any, what: str) -> dict[int, Any]:
    """A layer keyed by point index (``{"123": value}``)."""
    if not isinstance(raw, dict):
        raise LinkError(f"the penpa link's {what} layer is not an object")
    out = {}
    for key, value in raw.items():
        if not (isinstance(key, str) and decimal(key) and len(key) < 9):
            raise LinkError(f"the penpa link's {what} layer has the point {quoted(str(key))}")
        out[int(key)] = value
    return out


# penpa's number styles other than Normal ("1"), by the code a number's third field holds
# (class_p.js, key_number): pencil marks and drawings, never a given or a clue.
_NUMBER_STYLES = {
    "2": "an arrow",
    "4": "a tapa clue",
    "5": "a small",
    "6": "a medium",
    "7": "a candidates",
    "8": "a long",
    "10": "a big",
}


def _texts(raw: Any, what: str, frame: Frame, quarters: bool = False) -> dict[int, str]:
    """A layer of ``[text, style, ...]`` by point: the texts, stripped. Refused: a text at
    a point no reader looks at (off the grid, or in a style such as penpa's Side
    numbers): a number away from a cell's centre, corners and edges, a small number
    (``quarters``) away from a cell's quarters; and a number in another style than
    Normal (penpa's entry mode for digit grids writes a cell's centre marks as a Small
    or Medium number of its digits, which would read as a given)."""
    points = range(4 * frame.points, 8 * frame.points) if quarters else range(4 * frame.points)
    out = {}
    for point, value in _points(raw, what).items():
        if not (isinstance(value, list) and value and isinstance(value[0], (str, int))):
            raise LinkError(f"the penpa link's {what} at point {point} is not [text, style]")
        if point not in points:
            where = "a quarter of a cell" if quarters else "a cell's centre, corner or edge"
            raise LinkError(
                f"the penpa link's {what} at point {point} is not where numgrid reads one ({where})"
            )
        style = str(value[2]) if not quarters and len(value) > 2 else "1"
        if style in _NUMBER_STYLES:
            at = frame.where(point)
            raise LinkError(
                f"the penpa link writes {_NUMBER_STYLES[style]} number "
                f"{quoted(str(value[0]))} at {cell_name(at) if at else f'point {point}'}: "
                "only numbers in penpa's Normal style are read (pencil marks are not givens)"
            )
        out[point] = str(value[0]).strip()
    return out


def _edges(raw: Any) -> dict[tuple[int, int], int]:
    if not isinstance(raw, dict):
        raise LinkError("the penpa link's edge layer is not an object")
    out = {}
    for key, style in raw.items():
        a, _, b = str(key).partition(",")
        if not (decimal(a) and decimal(b) and len(a) < 9 and len(b) < 9):
            raise LinkError(f"the penpa link's edge layer has the segment {quoted(str(key))}")
        if isinstance(style, int) and not isinstance(style, bool):
            pair = (int(a), int(b))
            out[(min(pair), max(pair))] = style
    return out


def _header(line: str) -> tuple[str, int, int, str, str]:
    """Grid type, columns, rows, title and rules of the header line."""
    fields = line.split(",")
    gridtype = fields[0]
    if gridtype in NOT_SQUARE:
        raise LinkError(
            f"the penpa link draws a {quoted(gridtype)} grid, not a square grid: "
            "numgrid reads penpa's square grids only"
        )
    if len(fields) < 3 or not (decimal(fields[1]) and decimal(fields[2])):
        raise LinkError("the penpa link's header has no grid size: the link is corrupted")
    wide, high = fields[1], fields[2]
    longest = len(str(MAX_SIDE))  # more digits than any side has: never read as a number
    if len(wide) > longest or len(high) > longest:
        raise LinkError(
            f"the penpa link's grid of {quoted(wide, 8)}x{quoted(high, 8)} is not 1 to "
            f"{MAX_SIDE} a side"
        )
    nx, ny = int(wide), int(high)
    if not (1 <= nx <= MAX_SIDE and 1 <= ny <= MAX_SIDE):
        raise LinkError(f"the penpa link's grid of {nx}x{ny} is not 1 to {MAX_SIDE} a side")

    def text(k: int, prefix: str = "") -> str:
        value = fields[k] if len(fields) > k else ""
        return value.removeprefix(prefix).replace("%2C", ",").strip()

    rules = text(18).replace("%2D", "\n").replace("%2E", "&").replace("%2F", "=")
    return gridtype, nx, ny, text(15, "Title:"), rules


def _space(line: str, nx: int, ny: int) -> tuple[int, int, int, int]:
    space = _json(line, "margins")
    if not (
        isinstance(space, list)
        and len(space) == 4
        and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in space)
    ):
        raise LinkError("the penpa link's margins are not four whole numbers")
    top, bottom, left, right = space
    if top + bottom >= ny or left + right >= nx:
        raise LinkError(
            f"the penpa link's margins {quoted(str(space), 40)} leave no cells of its "
            f"{nx}x{ny} grid: the size does not match"
        )
    return top, bottom, left, right


def parse(text: str) -> Sheet:
    """The sheet of a penpa link; :class:`LinkError` says why there is none."""
    body = unwrapped(text)
    if len(body) > MAX_LINK:
        raise LinkError(f"the penpa link is over {MAX_LINK} characters: refused")
    if not looks_like_link(body):
        raise LinkError("not a penpa-edit link (no m=edit or m=solve and p= parameters)")
    p = _parameters(body).get("p", "")
    if p.startswith("http"):
        raise LinkError(
            "the penpa link only points to another site's link to import: read that link itself"
        )
    lines = expand(inflate(_payload(p))).split("\n")
    if decimal(lines[0][:1]):
        raise LinkError("an old (version 1) penpa link: open it in penpa and share it again")
    if len(lines) < 4:
        raise LinkError(f"the penpa link's text has {len(lines)} lines, not 19: it was cut short")
    gridtype, nx, ny, title, rules = _header(lines[0])
    frame = Frame(nx, ny, _space(lines[1], nx, ny))
    layers = _json(lines[3], "puzzle")
    if not isinstance(layers, dict):
        raise LinkError("the penpa link's puzzle is not a JSON object")
    drawn = [name for name in RULE_LAYERS if layers.get(name)]
    if drawn:
        raise LinkError(f"the penpa link draws {', '.join(drawn)}: rules numgrid does not read")
    tags: tuple[str, ...] = ()
    if len(lines) > 17 and lines[17].strip():
        raw_tags = _json(lines[17], "genre tags")
        if isinstance(raw_tags, list):
            tags = tuple(str(tag).lower() for tag in raw_tags)
    symbols = {}
    for point, value in _points(layers.get("symbol", {}), "symbol").items():
        if isinstance(value, list) and len(value) > 1 and isinstance(value[1], str):
            symbols[point] = value[1]
    return Sheet(
        gridtype=gridtype,
        frame=frame,
        title=title,
        rules=rules,
        tags=tags,
        # a cell's centre, corners and edges: 4 points a cell; its quarters: the next 4
        numbers=_texts(layers.get("number", {}), "number", frame),
        corners=_texts(layers.get("numberS", {}), "small number", frame, quarters=True),
        symbols=symbols,
        edges=_edges(layers.get("lineE", {})),
        layers=layers,
    )


@functools.lru_cache(maxsize=16)
def sheet(text: str) -> Sheet | str:
    """The sheet of a text, or why it is none: decoded once for every kind's sniff and
    read of the same text."""
    try:
        return parse(text)
    except LinkError as e:
        return str(e)


def read(text: str) -> Sheet:
    """The sheet of a text; PuzzleError (``bad_penpa_link``) when there is none."""
    found = sheet(text)
    if isinstance(found, str):
        raise PuzzleError([error("bad_penpa_link", found)])
    return found


def sniffed(text: str) -> Sheet | str | None:
    """What a kind's sniff starts from: the sheet; or why the text is no penpa link
    (cheaply, without decoding, for any text that is not one); or None for a penpa link
    that does not decode, which every kind claims so that reading it says why."""
    if not looks_like_link(text):
        return "not a penpa-edit link"
    found = sheet(text)
    return None if isinstance(found, str) else found


def sniffer(why_not: Callable[[Sheet], str | None]) -> Callable[[str], str | None]:
    """A kind's sniff: None for a link whose sheet the kind reads (``why_not`` says
    None) or one that does not decode, else why not."""

    def sniff(text: str) -> str | None:
        found = sniffed(text)
        return why_not(found) if isinstance(found, Sheet) else found

    return sniff


def sheet_of(text: str, why_not: Callable[[Sheet], str | None]) -> Sheet:
    """The sheet of a link a kind reads; PuzzleError saying why when it is none of its."""
    sheet = read(text)
    why = why_not(sheet)
    if why is not None:
        raise refused(why)
    return sheet


def refused(why: str) -> PuzzleError:
    """A penpa link this kind cannot read, and why (one sentence)."""
    return PuzzleError([error("bad_penpa_link", why)])


# ---------------------------------------------------------------- writing


@dataclass
class Drawing:
    """A penpa puzzle being drawn: what :meth:`link` writes as an ``m=solve`` link that
    opens on penpa's solving side, with the solver's ``edit_mode`` (and ``submode``)
    chosen and ``tabs`` shown (penpa's names, the kind's choice)."""

    frame: Frame
    gridtype: str = "square"
    title: str = ""
    rules: str = ""
    tags: tuple[str, ...] = ()
    edit_mode: str = "number"
    submode: tuple[Any, ...] = ("1", 2)
    tabs: tuple[str, ...] = ("Number Normal",)
    layers: dict[str, Any] = field(default_factory=lambda: json.loads(json.dumps(_EMPTY_LAYERS)))

    def number(self, cell: Cell, text: str, style: int = 1) -> None:
        """Big text in a cell (a given, an edge clue)."""
        self.layers["number"][str(self.frame.cell(*cell))] = [text, style, "1"]

    def corner(self, cell: Cell, q: int, text: str, style: int = 1) -> None:
        """Small text at quarter ``q`` of a cell (a cage's clue, a sum)."""
        self.layers["numberS"][str(self.frame.quarter(*cell, q))] = [text, style]

    def symbol(self, cell: Cell, value: int, name: str, layer: int = 2) -> None:
        self.layers["symbol"][str(self.frame.cell(*cell))] = [value, name, layer]

    def segment(self, a: int, b: int, style: int, layer: str = "lineE") -> None:
        self.layers[layer][f"{min(a, b)},{max(a, b)}"] = style

    def borders(self, regions: Grid, style: int = 2) -> None:
        """A thick line on every cell edge between two regions (``regions``: a number a
        cell, any numbering)."""
        f = self.frame
        for r, row in enumerate(regions):
            for c, k in enumerate(row):
                if c + 1 < len(row) and row[c + 1] != k:
                    self.segment(*f.right_edge(r, c), style)
                if r + 1 < len(regions) and regions[r + 1][c] != k:
                    self.segment(*f.bottom_edge(r, c), style)

    def diagonals(self, style: int = 12) -> None:
        """Both long diagonals, dashed as penpa draws them on a new board."""
        for a, b in self.frame.diagonals():
            self.segment(a, b, style)

    def outline(self, cells: Iterable[Cell], style: int = 10) -> None:
        """A dashed outline just inside a cage's cells, drawn between their quarter
        points as penpa's cage mode draws it (it joins across the cage's inner edges)."""
        inside = set(cells)
        f = self.frame

        def q(cell: Cell, k: int) -> int:
            return f.quarter(*cell, k)

        for r, c in sorted(inside):
            me = (r, c)
            left, up, right, down = (r, c - 1), (r - 1, c), (r, c + 1), (r + 1, c)
            ul, ur, dl, dr = (r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)
            has = inside.__contains__
            pairs = []
            if has(left):
                if not (has(ul) and has(up)):
                    pairs.append((q(left, 1), q(me, 0)))
                if not (has(dl) and has(down)):
                    pairs.append((q(left, 3), q(me, 2)))
            else:
                pairs.append((q(me, 0), q(me, 2)))
            if has(up):
                if not (has(ul) and has(left)):
                    pairs.append((q(up, 2), q(me, 0)))
                if not (has(ur) and has(right)):
                    pairs.append((q(up, 3), q(me, 1)))
            else:
                pairs.append((q(me, 0), q(me, 1)))
            if has(right):
                if not (has(up) and has(ur)):
                    pairs.append((q(me, 1), q(right, 0)))
                if not (has(down) and has(dr)):
                    pairs.append((q(me, 3), q(right, 2)))
            else:
                pairs.append((q(me, 1), q(me, 3)))
            if has(down):
                if not (has(left) and has(dl)):
                    pairs.append((q(me, 2), q(down, 0)))
                if not (has(right) and has(dr)):
                    pairs.append((q(me, 3), q(down, 1)))
            else:
                pairs.append((q(me, 2), q(me, 3)))
            for a, b in pairs:
                self.segment(a, b, style, "cage")

    def text(self) -> str:
        """The 19 lines penpa's ``maketext_solve`` writes (docs/links-formats.md 2.6).
        The saved editing modes (line 11) and custom colours (line 14) are left empty:
        penpa keeps its own defaults for them."""
        f = self.frame
        centre = f.centre()
        header = [
            self.gridtype,
            f.nx,
            f.ny,
            38,
            0,
            1,
            1,
            (f.nx + 1) * 38,
            (f.ny + 1) * 38,
            centre,
            centre,
            0,
            0,
            0,
            0,
            "Title: " + self.title.replace(",", "%2C"),
            "Author: ",
            "",
            self.rules.replace("\n", "%2D")
            .replace(",", "%2C")
            .replace("&", "%2E")
            .replace("=", "%2F"),
            "OFF",
            "false",
        ]
        compact = functools.partial(json.dumps, separators=(",", ":"), ensure_ascii=False)
        lines = [
            ",".join(map(str, header)),
            compact(list(f.space)),
            f'["1","2","1"]~{compact(self.edit_mode)}~{compact(list(self.submode))}',
            compact(self.layers),
            "",
            compact(f.centerlist()),
            compact(list(self.tabs)),
            "{}",
            '"x"',
            '"x"',
            "[3,2,3]",
            "",
            '"x"',
            "0",
            "",
            "x",
            "{}",
            compact(list(self.tags)),
            "false",
        ]
        return "\n".join(lines)

    def link(self) -> str:
        payload = base64.b64encode(deflate(abbreviate(self.text()))).decode("ascii")
        return f"{ADDRESS}#m=solve&p={payload}\n"
