"""Registry of puzzle kinds: the only place that lists them."""

from __future__ import annotations

import json

from numgrid.server.core import Finding, PuzzleError
from numgrid.server.kinds.base import Kind
from numgrid.server.kinds.kakuro import KAKURO
from numgrid.server.kinds.kenken import KENKEN
from numgrid.server.kinds.textformats import without_bom

# In detection order: a KenKen text has a stricter shape than a Kakuro one, and Kakuro,
# the first kind served, answers for text no kind claims (its reader says what is wrong).
KINDS: dict[str, Kind] = {kind.name: kind for kind in (KENKEN, KAKURO)}


def _json_kind(text: str) -> str | None:
    """The top-level key of a JSON puzzle (``{"kenken": {...}}``), if it is one."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(without_bom(text))
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and len(data) == 1:
        return next(iter(data))
    return None


def detect(text: str) -> Kind:
    """The kind of a puzzle text. PuzzleError for a JSON puzzle of a kind not served."""
    for kind in KINDS.values():
        if kind.sniff(text) is not None:
            return kind
    named = _json_kind(text)
    if named is not None and named not in KINDS:
        raise PuzzleError(
            [
                Finding(
                    "unsupported_kind",
                    f"unsupported kind {named!r}: this server reads {', '.join(sorted(KINDS))}",
                )
            ]
        )
    return KAKURO


__all__ = ["KINDS", "Kind", "detect"]
