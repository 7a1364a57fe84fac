"""Links to Simon Tatham's puzzles on the web: the page of a game, with a game ID after
``#``, as its address bar shows it once a puzzle is chosen:
``https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/GAME.html#ID``. The page's own
script reads the ID from that fragment (docs/links-formats.md, section 5)."""

from __future__ import annotations

import re
import urllib.parse

from numgrid.server.core import PuzzleError
from numgrid.server.kinds.textformats import error

from . import unwrapped

_PAGE = re.compile(
    r"(?:https?://)?(?:www\.)?chiark\.greenend\.org\.uk/~sgtatham/puzzles/js/"
    r"(?P<game>[a-z]+)\.html#(?P<id>\S*)",
    re.IGNORECASE,
)


def game_id(text: str, game: str) -> str | None:
    """The game ID a text gives Tatham's ``game`` (its page's name, as a kind's reader
    knows it): after the ``#`` of a link to the game's page (percent-decoded), else the
    text itself (unwrapped). None for a link to another game's page."""
    body = unwrapped(text)
    page = _PAGE.fullmatch(body)
    if page is None:
        return body
    if page["game"].lower() != game:
        return None
    return urllib.parse.unquote(page["id"])


def read_game_id(text: str, game: str, title: str, code: str) -> str:
    """:func:`game_id` for a reader: PuzzleError (``code``) for a link to another game's
    page than ``game`` (``title``: how a sentence names it)."""
    body = game_id(text, game)
    if body is None:
        raise PuzzleError([error(code, f"the link is to a page of another game, not {title}")])
    return body
