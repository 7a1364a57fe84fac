"""f-puzzles links: ``https://www.f-puzzles.com/?load=DATA``, DATA the lz-string
``compressToBase64`` of the puzzle's JSON (docs/links-formats.md, section 3). This
module holds what every kind shares: the link, the JSON checked into a :class:`Link`,
each cell's given, entry and region, the diagonals, the constraints a kind does not
read, and the writing back. Each kind's ``fpuzzles`` module lays its puzzle over it.

A link is decoded once however many kinds sniff it (the last few are cached). The JSON
keys that tell one kind's link from another's are claimed by that kind (:func:`claim`):
another kind's sniff leaves such a link to it.
"""

from __future__ import annotations

import functools
import json
import re
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import unwrapped
from numgrid.server.kinds.textformats import error
from numgrid.server.kinds.units.shape import box_shape

from .lzstring import LzStringError
from .lzstring import compress_to_base64
from .lzstring import decompress_from_base64

NAME = "f-puzzles"
LINK = "https://www.f-puzzles.com/?load="
MAX_CHARS = 1 << 20  # a link over a mebibyte is no puzzle (real ones are a few KB)
MAX_SIZE = 16  # f-puzzles draws 3x3 to 16x16 grids
_PREFIX = re.compile(r"(?:https?://)?(?:www\.)?f-puzzles\.com/?(?:index\.html)?\?", re.IGNORECASE)
# Keys that set no rule: the puzzle's name and rules text, the solution, what the
# solver's page remembers, and the cosmetic tools (drawings that constrain nothing).
IGNORED = frozenset(
    {
        "size",
        "grid",
        "title",
        "author",
        "ruleset",
        "solution",
        "successMessage",
        "activeConstraints",
        "disabledlogic",
        "truecandidatesoptions",
        "line",
        "text",
        "rectangle",
        "circle",
        "cage",
    }
)
DIAGONALS = ("diagonal+", "diagonal-")
NOT_A_LINK = "not an f-puzzles link"  # short: a failed detection lists every format's reason
_CELL_REF = re.compile(r"^R([0-9]{1,2})C([0-9]{1,2})$")

# A key that makes a link one kind's -> that kind's title (see :func:`claim`).
_CLAIMED: dict[str, str] = {}


def claim(key: str, title: str) -> None:
    """Say that a link holding ``key`` is a ``title``'s: the kind that reads it says so
    once, when its format is built, and the other kinds' sniffs leave such links to it."""
    _CLAIMED[key] = title


def bad(message: str, *cells: Cell) -> Finding:
    """A finding about a link (code ``bad_fpuzzles``)."""
    return error("bad_fpuzzles", message, *cells)


@dataclass(frozen=True)
class Link:
    """An f-puzzles link's JSON, checked: its size, its grid's cell objects (``size``
    rows of ``size``) and the whole object (its constraints)."""

    size: int
    cells: tuple[tuple[dict[str, Any], ...], ...]
    data: dict[str, Any]

    def constraints(self) -> list[str]:
        """The keys that set a rule (an empty or false value sets none)."""
        return [key for key, value in self.data.items() if key not in IGNORED and value]

    def has(self, key: str) -> bool:
        return bool(self.data.get(key))


# ---------------------------------------------------------------- the link


def _query(text: str) -> str | None:
    """What follows ``?`` in an f-puzzles URL; None when the text is no such URL."""
    text = unwrapped(text)
    found = _PREFIX.match(text)
    if found is None or "\n" in text or "\r" in text:  # several lines: several links
        return None
    return text[found.end() :]


def _data(query: str) -> str:
    """The lz-string base64 after ``load=``, percent-decoded (a ``+`` that a form turned
    into a space turned back)."""
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if name == "load":
            return urllib.parse.unquote(value).replace(" ", "+")
        if name == "id":
            raise PuzzleError(
                [
                    bad(
                        "an f-puzzles short link (?id=) names a puzzle kept on the f-puzzles "
                        "server, which numgrid does not ask: open it and paste the long "
                        "?load= link its export gives"
                    )
                ]
            )
    raise PuzzleError([bad("an f-puzzles link carries its puzzle after ?load=; this one has none")])


def _json(data: str) -> Any:
    try:
        text = decompress_from_base64(data)
    except LzStringError as e:
        raise PuzzleError([bad(f"the f-puzzles data cannot be read: {e}")]) from None
    if not text:
        raise PuzzleError([bad("the f-puzzles data holds no puzzle (it decodes to nothing)")])
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        shown = quoted(text, 40)
        raise PuzzleError([bad(f"the f-puzzles data is not JSON: it decodes to {shown}")]) from None


def _checked(data: Any) -> Link:
    """The JSON as a :class:`Link`: an object whose ``size`` is a grid size and whose
    ``grid`` is that many rows of that many cell objects."""
    if not isinstance(data, dict):
        raise PuzzleError([bad(f"the f-puzzles data is {_json_type(data)}, not a JSON object")])
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        shown = quoted(json.dumps(size), 12) if "size" in data else "missing"
        raise PuzzleError([bad(f"the f-puzzles size is {shown}, not a number 1 to {MAX_SIZE}")])
    grid = data.get("grid")
    if not isinstance(grid, list):
        raise PuzzleError([bad(f"the f-puzzles grid is {_json_type(grid)}, not a list of rows")])
    findings = []
    if len(grid) != size:
        findings.append(bad(f"the f-puzzles grid has {len(grid)} rows, but its size is {size}"))
    rows = []
    for r, row in enumerate(grid[:size]):
        if not isinstance(row, list) or len(row) != size:
            cells = len(row) if isinstance(row, list) else 0
            findings.append(
                bad(f"row {r} of the f-puzzles grid has {cells} cells, but its size is {size}")
            )
            continue
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                where = (r, c)
                findings.append(
                    bad(f"{cell_name(where)}: the cell is {_json_type(cell)}, not an object", where)
                )
        rows.append(tuple(cell if isinstance(cell, dict) else {} for cell in row))
    if findings:
        raise PuzzleError(findings)
    return Link(size, tuple(rows), data)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


@functools.lru_cache(maxsize=8)
def _decoded(text: str) -> Link | tuple[Finding, ...] | None:
    query = _query(text)
    if query is None:
        return None
    try:
        return _checked(_json(_data(query)))
    except PuzzleError as e:
        return e.findings


def looks(text: str) -> Link | str | None:
    """What a sniff needs: the link's :class:`Link`; why the text is no f-puzzles link
    (a sentence); or None for an f-puzzles link that cannot be read (its reader says
    why)."""
    if len(text) > MAX_CHARS or "f-puzzles" not in text[:200].lower():
        return NOT_A_LINK
    found = _decoded(text)
    if found is None:
        return NOT_A_LINK
    return found if isinstance(found, Link) else None


def read(text: str) -> Link:
    """The link's :class:`Link`; PuzzleError naming what is wrong with it."""
    if len(text) > MAX_CHARS:
        raise PuzzleError(
            [bad(f"the text has {len(text)} characters, over the limit of {MAX_CHARS} for a link")]
        )
    found = _decoded(text)
    if found is None:
        raise PuzzleError([bad(f"{NOT_A_LINK} ({LINK}...)")])
    if not isinstance(found, Link):
        raise PuzzleError(found)
    return found


def claimed_elsewhere(link: Link, title: str) -> str | None:
    """Why the link is another kind's than ``title`` (a key that kind claims), or None."""
    for key in link.constraints():
        owner = _CLAIMED.get(key)
        if owner is not None and owner != title:
            return f"its {key!r} makes it {_a(owner)}"
    return None


# ---------------------------------------------------------------- reading the grid


def default_boxes(n: int) -> tuple[int, int]:
    """The rows and columns of the regions f-puzzles draws when a cell names none: as
    near square as N allows, the wider side across; rows of N cells for a prime N."""
    return box_shape(n) or (1, n)


def default_region(n: int, cell: Cell) -> int:
    """The number f-puzzles gives a cell's default region, in reading order of the boxes."""
    rows, cols = default_boxes(n)
    return cell[0] // rows * (n // cols) + cell[1] // cols


def regions(link: Link, findings: list[Finding]) -> Grid:
    """Each cell's region number 0..N-1: its own ``region`` or its default box's. A cell
    in no region (``null``) or with a number outside 0..N-1 is a finding."""
    n = link.size
    out = []
    for r, row in enumerate(link.cells):
        numbers = []
        for c, cell in enumerate(row):
            number = cell.get("region", default_region(n, (r, c)))
            if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < n:
                shown = "in no region" if number is None else f"in region {json.dumps(number)[:12]}"
                findings.append(
                    bad(
                        f"{cell_name((r, c))}: the cell is {shown}; f-puzzles numbers its "
                        f"regions 0 to {n - 1}",
                        (r, c),
                    )
                )
                number = default_region(n, (r, c))
            numbers.append(number)
        out.append(tuple(numbers))
    return tuple(out)


def are_boxes(regions_grid: Grid) -> bool:
    """Are these regions the grid's boxes, numbered as f-puzzles numbers them (N not
    prime: a prime N has no boxes)?"""
    n = len(regions_grid)
    return box_shape(n) is not None and all(
        k == default_region(n, (r, c))
        for r, row in enumerate(regions_grid)
        for c, k in enumerate(row)
    )


def has_boxes(link: Link) -> bool:
    """Are the link's regions the grid's boxes (every cell in its default region)?"""
    return are_boxes(regions(link, []))


def values(link: Link, findings: list[Finding]) -> tuple[Grid, Grid]:
    """The givens (a ``value`` marked ``given``) and the entries (a ``value`` without)."""
    n = link.size
    givens = [[0] * n for _ in range(n)]
    entries = [[0] * n for _ in range(n)]
    for r, row in enumerate(link.cells):
        for c, cell in enumerate(row):
            if cell.get("value") is None:
                continue
            value = cell["value"]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
                findings.append(
                    bad(
                        f"{cell_name((r, c))}: the value {quoted(json.dumps(value), 12)} is not "
                        f"a digit 1 to {n}",
                        (r, c),
                    )
                )
                continue
            (givens if cell.get("given") is True else entries)[r][c] = value
    return tuple(map(tuple, givens)), tuple(map(tuple, entries))


def diagonals(link: Link, findings: list[Finding]) -> bool:
    """Both main diagonals (the X rule); one alone is a rule numgrid does not have."""
    marked = [key for key in DIAGONALS if link.has(key)]
    if len(marked) == 1:
        other = next(key for key in DIAGONALS if key not in marked)
        findings.append(
            bad(
                f"the link sets {marked[0]!r} without {other!r}: numgrid solves both main "
                "diagonals together (the X rule), not one alone"
            )
        )
    return len(marked) == 2


def unread(link: Link, reads: Iterable[str]) -> list[Finding]:
    """A finding for each constraint the link sets that the kind does not read: another
    kind's (read the link as that kind), or one numgrid does not solve."""
    known = {*reads, *DIAGONALS}
    found = []
    for key in link.constraints():
        if key in known:
            continue
        owner = _CLAIMED.get(key)
        if owner is not None:
            found.append(bad(f"the link sets {key!r}: it is {_a(owner)}, read it as one"))
        else:
            found.append(
                bad(f"the link sets f-puzzles' {key!r} constraint, which numgrid does not solve")
            )
    return found


def _a(title: str) -> str:
    return f"{'an' if title[0] in 'AEIOU' else 'a'} {title}"


def cell_of(ref: Any, n: int) -> Cell | None:
    """A cell named as f-puzzles names it (``R1C1``, from 1) inside the N x N grid."""
    found = _CELL_REF.match(ref) if isinstance(ref, str) else None
    if found is None:
        return None
    r, c = int(found.group(1)) - 1, int(found.group(2)) - 1
    return (r, c) if 0 <= r < n and 0 <= c < n else None


# ---------------------------------------------------------------- writing


def ref(cell: Cell) -> str:
    """A cell as f-puzzles names it: ``R1C1`` from 1."""
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def relabelled(regions_grid: Grid) -> Grid:
    """The regions renumbered so that as many cells as may keep their default region's
    number (each region takes the default number most of its cells have, if free): the
    link then names the region of only the cells off their boxes, as f-puzzles writes."""
    n = len(regions_grid)
    votes: dict[int, dict[int, int]] = {}
    for r, row in enumerate(regions_grid):
        for c, k in enumerate(row):
            mine = votes.setdefault(k, {})
            default = default_region(n, (r, c))
            mine[default] = mine.get(default, 0) + 1
    taken: dict[int, int] = {}
    for k, counts in sorted(votes.items(), key=lambda item: -max(item[1].values())):
        free = [d for d in counts if d not in taken.values()]
        if free:
            taken[k] = max(free, key=lambda d: (counts[d], -d))
    spare = iter(sorted(set(range(n)) - set(taken.values())))
    number = {k: taken[k] if k in taken else next(spare) for k in votes}
    return tuple(tuple(number[k] for k in row) for row in regions_grid)


def grid_cells(
    givens: Grid, entries: Grid, regions_grid: Grid | None
) -> list[list[dict[str, Any]]]:
    """The ``grid`` of the JSON: per cell its region where off its default box, its
    given (``given: true``) or its entry (a value alone)."""
    n = len(givens)
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            cell: dict[str, Any] = {}
            if regions_grid is not None and regions_grid[r][c] != default_region(n, (r, c)):
                cell["region"] = regions_grid[r][c]
            if givens[r][c]:
                cell["value"], cell["given"] = givens[r][c], True
            elif entries[r][c]:
                cell["value"] = entries[r][c]
            row.append(cell)
        rows.append(row)
    return rows


def write(data: dict[str, Any]) -> str:
    """The link of a puzzle's JSON, on one line."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return LINK + compress_to_base64(text) + "\n"


def puzzle_json(
    n: int, givens: Grid, entries: Grid, regions_grid: Grid | None, x: bool
) -> dict[str, Any]:
    """The JSON every kind starts from: size, grid and (the X rule) both diagonals."""
    data: dict[str, Any] = {"size": n, "grid": grid_cells(givens, entries, regions_grid)}
    if x:
        data["diagonal+"] = data["diagonal-"] = True
    return data
