"""The links people paste (puzz.link, penpa-edit, f-puzzles, SudokuWiki): the codecs
each site defines, shared by the kinds that site holds. Each kind maps a decoded link to
its own puzzle in its own folder (``<kind>/<format>.py``, one :class:`Format` each);
the spec of every link, read from the programs that define them, is
docs/links-formats.md."""

from __future__ import annotations

from numgrid.server.kinds.textformats import without_bom

_WRAPPERS = (("<", ">"), ('"', '"'), ("'", "'"))


def unwrapped(text: str) -> str:
    """A pasted link without a byte-order mark, surrounding space and one pair of
    ``<...>`` or quotes (as mail and chat wrap a link)."""
    body = without_bom(text).strip()
    if len(body) >= 2 and (body[0], body[-1]) in _WRAPPERS:
        return body[1:-1].strip()
    return body
