"""Registry of puzzle kinds: the only place that lists them."""

from __future__ import annotations

import importlib
import json

from numgrid.server.core import Finding, PuzzleError, quoted
from numgrid.server.kinds.base import Kind
from numgrid.server.kinds.kakurasu import KAKURASU
from numgrid.server.kinds.kakuro import KAKURO
from numgrid.server.kinds.kenken import KENKEN
from numgrid.server.kinds.skyscraper import SKYSCRAPER
from numgrid.server.kinds.textformats import without_bom

# In detection order: a Kakurasu text (two lines of numbers after its header) has a
# stricter shape than a KenKen one (which claims any square text of more lines than
# rows, a Kakurasu with marks too), and a KenKen than a Kakuro one; Kakuro, the first
# kind served, answers for text no kind claims (its reader says what is wrong). A
# Skyscraper text is the only one whose header has three numbers ("N N H"), and its
# Towers IDs the only ones with "/": it comes before KenKen and Kakuro.
KINDS: dict[str, Kind] = {kind.name: kind for kind in (KAKURASU, SKYSCRAPER, KENKEN, KAKURO)}


def _json_kind(text: str) -> str | None:
    """The top-level key of a JSON puzzle (``{"kenken": {...}}``), if it is one."""
    text = without_bom(text)
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and len(data) == 1:
        return next(iter(data))
    return None


def detect_format(text: str) -> tuple[Kind, str | None]:
    """The kind of a puzzle text and the format its sniff found (None when no kind
    claims the text: Kakuro's reader then says what is wrong), so the text is not
    sniffed twice. PuzzleError for a JSON puzzle of a kind not served."""
    for kind in KINDS.values():
        fmt = kind.sniff(text)
        if fmt is not None:
            return kind, fmt
    named = _json_kind(text)
    if named is not None and named not in KINDS:
        raise PuzzleError(
            [
                Finding(
                    "unsupported_kind",
                    f"unsupported kind {quoted(named)}: this server reads "
                    f"{', '.join(sorted(KINDS))}",
                )
            ]
        )
    return KAKURO, None


def detect(text: str) -> Kind:
    """The kind of a puzzle text."""
    return detect_format(text)[0]


def load_engines() -> None:
    """Import what kinds load on first use (each kind's ``cpsat`` module and OR-Tools):
    a long-running server does it at start, so that neither the first CP-SAT request's
    deadline pays for it nor a broken install shows only then."""
    for kind in KINDS.values():
        importlib.import_module(f"{type(kind).__module__}.cpsat")


__all__ = ["KINDS", "Kind", "detect", "detect_format", "load_engines"]
