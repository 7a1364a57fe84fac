"""Registry of puzzle kinds: the only place that lists them."""

from __future__ import annotations

import json
from typing import Any

from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import quoted
from numgrid.server.kinds.base import Kind
from numgrid.server.kinds.jigsaw import JIGSAW
from numgrid.server.kinds.kakurasu import KAKURASU
from numgrid.server.kinds.kakuro import KAKURO
from numgrid.server.kinds.kakuro import formats as kakuro_formats
from numgrid.server.kinds.kenken import KENKEN
from numgrid.server.kinds.killer import KILLER
from numgrid.server.kinds.links import pzpr
from numgrid.server.kinds.links import sudokuwiki
from numgrid.server.kinds.skyscraper import SKYSCRAPER
from numgrid.server.kinds.sudoku import SUDOKU
from numgrid.server.kinds.textformats import HEADER_REFUSED
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import unknown_fields
from numgrid.server.kinds.textformats import without_bom

# Every kind served, once: the only line that lists them (docs/development.md, "Adding a
# kind"). Everything else is derived from it, or from the proto descriptor.
REGISTRY: tuple[Kind[Any], ...] = (
    KAKURO,
    KENKEN,
    KAKURASU,
    SKYSCRAPER,
    SUDOKU,
    JIGSAW,
    KILLER,
)

# By name, in detection order (each kind's ``rank``: a stricter shape sniffs first). A
# text no kind claims is of an unsupported kind.
KINDS: dict[str, Kind[Any]] = {kind.name: kind for kind in sorted(REGISTRY, key=lambda k: k.rank)}

_JSON_TYPES = {list: "a list", str: "a string", int: "a number", float: "a number"}


def _served() -> str:
    return ", ".join(sorted(KINDS))


def _unsupported_json(text: str) -> Finding:
    """Why JSON text (it starts with ``{`` or ``[``) is no puzzle of a kind served."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # RecursionError: nesting too deep
        reason = str(e) if isinstance(e, ValueError) else "nested too deep"
        return Finding(
            "not_json",
            f"the text starts like JSON but is not JSON ({reason[:80]}); a JSON puzzle is "
            f'{{"KIND": {{...}}}}, KIND one of {_served()}',
        )
    if isinstance(data, dict) and len(data) == 1:
        named = next(iter(data))
        return Finding(
            "unsupported_kind",
            f"unsupported kind {quoted(named)}: this server reads {_served()}",
        )
    if isinstance(data, dict):
        found = f"this object's keys are {unknown_fields(data)}" if data else "this one is {}"
    else:
        found = f"not {_JSON_TYPES.get(type(data), 'a value')}"
    return Finding(
        "unsupported_kind",
        f'unsupported kind: a JSON puzzle is {{"KIND": {{...}}}}, KIND one of {_served()}; '
        + found,
    )


def _unsupported_link(link_type: str) -> Finding:
    """Why a puzz.link URL is no puzzle of a kind served: the types the kinds read."""
    types = [
        t
        for kind in KINDS.values()
        for fmt in kind.formats.FORMATS.values()
        if isinstance(fmt.sniff, pzpr.Sniff)
        for t in fmt.sniff.types
    ]
    return Finding(
        "unsupported_kind",
        f"unsupported kind: the text is a {pzpr.NAME} URL of type {quoted(link_type)}, and "
        f"this server reads {pzpr.NAME}'s types {', '.join(sorted(types))}",
    )


def _headed_by(text: str) -> list[tuple[Kind[Any], str]]:
    """When the text's first line is ``N N MARK`` (a variant's header: ``9 9 K``, ``9 9
    X``), the kinds whose janko sniff takes that header, each with why the rest is no
    such puzzle; empty otherwise. A janko sniff that refuses the header itself says so
    in a sentence starting "first line must be" (:data:`HEADER_REFUSED`)."""
    first = text.splitlines()[0].split() if text else []
    if len(first) != 3 or not first[2].isalpha():
        return []
    headed = []
    for kind in KINDS.values():
        janko = kind.formats.FORMATS.get("janko")
        reason = janko.sniff(text) if janko is not None else HEADER_REFUSED
        if reason is None:
            return []  # a janko text of this kind, refused later by its reader
        if not reason.startswith(HEADER_REFUSED):
            headed.append((kind, reason))
    return headed


def unsupported(text: str) -> Finding:
    """The finding for a text no kind claims: which kinds are read, and why the text
    is none of them."""
    body = without_bom(text).strip()
    if not body:
        return Finding("empty", f"the text is empty: no puzzle (this server reads {_served()})")
    if body[0] in "{[":
        return _unsupported_json(body)
    link_type = pzpr.link_type(body)
    if link_type is not None:
        return _unsupported_link(link_type)
    link = sudokuwiki.unread(body)
    if link is not None:
        return Finding("unsupported_kind", link)
    first = body.splitlines()[0].strip()
    headed = _headed_by(body)
    if headed:
        reasons = "; ".join(
            f"as {listed_titles([kind.title])}, {reason}" if len(headed) > 1 else reason
            for kind, reason in headed
        )
        titles = listed_titles([kind.title for kind, _ in headed], "or")
        return Finding(
            "unsupported_kind",
            f"unsupported kind: the text is no puzzle of a kind this server reads "
            f"({_served()}): its first line {quoted(first)} is the header of {titles}, "
            f"but {reasons}",
        )
    why = (
        f"its first line {quoted(first)} is not a header ('ROWS COLS', or 'N N H' for a "
        "skyscraper), nor is the text a Keen or Towers game ID, JSON"
    )
    why += " or Kakuro's 1VVHH CSV"
    if "," in body or ";" in body:
        why += f": {kakuro_formats.why_no_kakuro_csv(body)}"
    return Finding(
        "unsupported_kind",
        f"unsupported kind: the text is no puzzle of a kind this server reads ({_served()}): {why}",
    )


def _fits(kind: Kind[Any], text: str, fmt: str) -> bool:
    """Does ``text`` read as a well-formed puzzle of ``kind`` (in the format its sniff
    found)?"""
    try:
        board = kind.formats.read(text, fmt)
    except PuzzleError:
        return False
    return not any(f.is_error for f in kind.checks.check_puzzle(board.puzzle, None, None))


def _cage_sums(text: str) -> bool:
    """A cage puzzle's text without operations whose clues add up to a Killer Sudoku's
    total (N x N(N+1)/2 on a grid with boxes): it may be a Killer Sudoku as well as a
    KenKen whose operations are hidden."""
    lines = [line.split() for line in without_bom(text).strip().splitlines() if line.strip()]
    if not lines or len(lines[0]) != 2 or not all(decimal(t) for t in lines[0]):
        return False
    n = int(lines[0][0])
    if n not in (4, 6, 9) or len(lines) != 1 + 2 * n:
        return False
    clues = [t for row in lines[1 : n + 1] for t in row if t not in ("-", ".")]
    if not all(decimal(t) for t in clues):
        return False
    return sum(map(int, clues)) == n * n * (n + 1) // 2


def _ambiguous(titles: list[str]) -> Finding:
    return Finding(
        "ambiguous_kind",
        f"the text fits {listed_titles(titles)}: say which (--kind, or the kind of a "
        "PuzzleText); no kind is picked for it",
    )


def listed_titles(titles: list[str], conjunction: str = "and") -> str:
    articles = [f"{'an' if t[0] in 'AEIOU' else 'a'} {t}" for t in titles]
    if len(articles) == 1:
        return articles[0]
    return ", ".join(articles[:-1]) + f" {conjunction} {articles[-1]}"


def detect_format(text: str, fmt: str | None = None) -> tuple[Kind[Any], str | None]:
    """The kind of a puzzle text and the format its sniff found, so the text is not
    sniffed twice. Never a guess: when several kinds claim the text, those that read it
    as a well-formed puzzle are asked, and if more than one does (or the text may be a
    kind not served), PuzzleError names them. When no kind claims the text: given a
    format only one kind has (``csv``), that kind and None (its reader says what is
    wrong); else PuzzleError, "unsupported kind" naming the kinds served and why the
    text is none of them."""
    claims = [
        (kind, found) for kind in KINDS.values() if (found := kind.formats.sniff(text)) is not None
    ]
    if len(claims) > 1:
        fitting = [(kind, found) for kind, found in claims if _fits(kind, text, found)]
        kinds = [kind for kind, _ in fitting]
        if KENKEN in kinds and KILLER not in kinds and _cage_sums(text):
            # a Killer whose cages break its rules (a sum no digits make): still no pick
            kinds.append(KILLER)
        if KENKEN in kinds and KILLER in kinds:
            titles = [KENKEN.title + " without operations", KILLER.title]
            titles += [kind.title for kind in kinds if kind not in (KENKEN, KILLER)]
            raise PuzzleError([_ambiguous(titles)])
        if len(fitting) > 1:
            raise PuzzleError([_ambiguous([kind.title for kind, _ in fitting])])
        if fitting:
            return fitting[0]
    if claims:
        return claims[0]
    having = [kind for kind in KINDS.values() if fmt is not None and fmt in kind.formats.FORMATS]
    if len(having) == 1:
        return having[0], None
    raise PuzzleError([unsupported(text)])


def detect(text: str) -> Kind[Any]:
    """The kind of a puzzle text."""
    return detect_format(text)[0]


def load_engines() -> None:
    """Import what kinds load on first use (each kind's ``cpsat`` module and OR-Tools):
    a long-running server does it at start, so that neither the first CP-SAT request's
    deadline pays for it nor a broken install shows only then."""
    for kind in KINDS.values():
        kind.cpsat_module()


__all__ = ["KINDS", "REGISTRY", "Kind", "detect", "detect_format", "load_engines", "unsupported"]
