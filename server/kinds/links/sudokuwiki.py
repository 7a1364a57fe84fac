"""SudokuWiki's solver links (docs/links-formats.md, section 4):
``https://www.sudokuwiki.org/<page>?bd=<board>``, the board a string of digits whose
shape each page defines. Shared here: the envelope (host, page, the ``bd`` parameter),
the length cap, and fields of a fixed number of digits; each kind's own module reads and
writes the board of its page (:func:`link_format`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import parse_qs

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import cell_name
from numgrid.server.core import quoted
from numgrid.server.kinds.links import unwrapped
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import decimal
from numgrid.server.kinds.textformats import error

SITE = "https://www.sudokuwiki.org"
# A link's characters: the longest board SudokuWiki writes is 244, and a link may carry
# more parameters; anything far longer is no link of the site (and not parsed).
MAX_LENGTH = 4096
_LINK = re.compile(
    r"^(?:https?://)?(?:www\.)?sudokuwiki\.org(?::\d+)?(/[^?#\s]*)?(?:\?([^#\s]*))?(?:#\S*)?$",
    re.IGNORECASE,
)
PAGES: list[str] = []  # the pages some kind reads, as each kind's format is made


def _page(text: str) -> tuple[str, str] | str:
    """The page and query of a SudokuWiki link, or why the text is none."""
    body = unwrapped(text)
    if len(body) > MAX_LENGTH:
        return f"not a SudokuWiki link (over {MAX_LENGTH} characters)"
    found = _LINK.match(body)
    if found is None:
        return "not a SudokuWiki link"
    return (found.group(1) or "/").lstrip("/"), found.group(2) or ""


def sniff(text: str, page: str) -> str | None:
    """None if the text is a SudokuWiki link to ``page``, else why not."""
    found = _page(text)
    if isinstance(found, str):
        return found
    if found[0].lower() != page:
        return f"a SudokuWiki link to {quoted(found[0], 16)}, not {page!r}"
    return None


def unread(text: str) -> str | None:
    """Why no kind reads a SudokuWiki link (a page none of them reads), or None when the
    text is no SudokuWiki link or a link some kind reads."""
    found = _page(text)
    if isinstance(found, str) or found[0].lower() in PAGES:
        return None
    return (
        f"unsupported kind: a SudokuWiki link to {quoted(found[0] or '/')}; numgrid reads "
        f"SudokuWiki's {' and '.join(PAGES)} links"
    )


def board_text(text: str, page: str) -> str:
    """The ``bd`` parameter (percent-decoded) of a link to ``page``; PuzzleError when the
    text is no such link or has no board numgrid reads."""
    found = _page(text)
    if isinstance(found, str):
        shape = f"'{SITE}/{page}?bd=...'"
        raise PuzzleError([error("not_sudokuwiki", f"{found}: a link is {shape}")])
    if found[0].lower() != page:
        raise PuzzleError(
            [
                error(
                    "wrong_page",
                    f"a SudokuWiki link to {quoted(found[0])}: this puzzle is read from "
                    f"links to {page!r}",
                )
            ]
        )
    boards = parse_qs(found[1], keep_blank_values=True).get("bd", [])
    if len(boards) != 1:
        said = "no 'bd=' parameter" if not boards else f"{len(boards)} 'bd=' parameters"
        raise PuzzleError(
            [error("no_board", f"the SudokuWiki link has {said}: the board is one 'bd=...'")]
        )
    board = boards[0].strip()
    if board[:3].upper() == "S9B":
        raise PuzzleError(
            [
                error(
                    "candidate_board",
                    "SudokuWiki's S9B candidate format is not supported, use the 81-digit "
                    "form (the solver's 'Email this board' link without candidates)",
                )
            ]
        )
    return board


def digits(text: str, count: int, width: int, what: str, findings: list[Finding]) -> list[int]:
    """``count`` numbers of ``width`` digits each (a cell's in reading order of a 9x9
    grid), ``.`` read as 0 in one-digit fields; what is wrong goes to ``findings`` (a
    wrong length alone: the fields would be guesses)."""
    if len(text) != count * width:
        findings.append(
            error(
                "bad_length",
                f"the {what} hold {len(text)} characters, not {count * width} ({count} cells, "
                f"{width} digit{'s' if width > 1 else ''} a cell, in reading order)",
            )
        )
        return [0] * count
    values = []
    for i in range(count):
        field = text[i * width : (i + 1) * width]
        if width == 1 and field == ".":
            field = "0"
        if not decimal(field):
            cell = divmod(i, 9)
            findings.append(
                error(
                    "bad_digit",
                    f"{cell_name(cell)}: {quoted(field)} in the {what} is not "
                    + ("a digit" if width == 1 else f"{width} digits"),
                    cell,
                )
            )
            field = "0"
        values.append(int(field))
    return values


def link(page: str, board: str) -> str:
    """The link numgrid writes: the site's own address of ``page`` with the board."""
    return f"{SITE}/{page}?bd={board}\n"


def link_format(
    page: str, read_board: Callable[[str], Board], write_board: Callable[[Board], str]
) -> Format:
    """The ``sudokuwiki`` format of the kind whose puzzles SudokuWiki's ``page`` holds:
    ``read_board`` makes a board of the ``bd`` text (PuzzleError with every finding),
    ``write_board`` the ``bd`` text of a board (PuzzleError when the page cannot hold it)."""
    PAGES.append(page)

    def read(text: str, max_cells: int = 81) -> Board:
        if max_cells < 81:
            raise PuzzleError(
                [error("grid_too_large", f"a 9x9 grid is over the limit of {max_cells} cells")]
            )
        return read_board(board_text(text, page))

    return Format(
        "sudokuwiki",
        lambda text: sniff(text, page),
        read,
        lambda board: link(page, write_board(board)),
    )
