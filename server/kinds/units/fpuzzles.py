"""The units family as an f-puzzles link (:mod:`numgrid.server.kinds.links.fpuzzles`):
the grid's boxes or its regions, the givens, the entries (a value not marked given)
and the X rule, bound to a :class:`~.formats.Family` as :mod:`.formats` binds the text
formats. A link whose regions are the grid's boxes is a kind's with boxes; one with
other regions (or a prime size, whose default regions are rows) a kind's with regions.
A kind with cages builds on :func:`read_parts` and :func:`link_json`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from numgrid.server.chain import names
from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.kinds.links import fpuzzles
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.textformats import refuse

from .formats import Family
from .formats import fail
from .model import Puzzle

NAME = "fpuzzles"


def sniff(family: Family, text: str) -> str | None:
    """An f-puzzles link whose regions fit the family (boxes, or other regions) and that
    sets no key another kind claims; an f-puzzles link that cannot be read is claimed too,
    so that its reader says why."""
    found = fpuzzles.looks(text)
    if not isinstance(found, fpuzzles.Link):
        return found
    other = fpuzzles.claimed_elsewhere(found, family.title)
    if other is not None:
        return other
    if fpuzzles.has_boxes(found) == family.regions:
        return "its regions are the grid's boxes" if family.regions else "it has irregular regions"
    return None


@dataclass(frozen=True)
class Parts:
    """What a link holds for a units puzzle, read with its findings."""

    link: fpuzzles.Link
    givens: Grid
    entries: Grid
    regions: Grid | None  # None for a kind with boxes
    diagonals: bool
    findings: list[Finding]


def read_parts(family: Family, text: str, max_cells: int, reads: Iterable[str] = ()) -> Parts:
    """The link's grid for ``family``; PuzzleError at once for a link that cannot be read
    or a size the family does not serve, findings for the rest: a constraint the kind
    does not read (``reads``: the keys it does), a bad value, a region off its box in a
    kind with boxes."""
    link = fpuzzles.read(text)
    n = link.size
    refuse(family.size_errors(n, max_cells))
    findings = fpuzzles.unread(link, reads)
    diagonals = fpuzzles.diagonals(link, findings)
    givens, entries = fpuzzles.values(link, findings)
    regions = fpuzzles.regions(link, findings)
    if not family.regions:
        off = [
            (r, c)
            for r, row in enumerate(regions)
            for c, k in enumerate(row)
            if k != fpuzzles.default_region(n, (r, c))
        ]
        if off:
            findings.append(
                fpuzzles.bad(
                    f"{names(off, 9)} {'is' if len(off) == 1 else 'are'} off their boxes: the "
                    f"regions of a {family.title} are the {n}x{n} grid's boxes",
                    *off,
                )
            )
    return Parts(link, givens, entries, regions if family.regions else None, diagonals, findings)


def read(family: Family, text: str, max_cells: int) -> Board:
    parts = read_parts(family, text, max_cells)
    puzzle = family.puzzle(parts.link.size, parts.givens, parts.regions, parts.diagonals)
    if parts.findings:
        raise fail(parts.findings, puzzle)
    return Board(puzzle, puzzle.entered(parts.entries))


def link_json(puzzle: Puzzle, entries: Grid, title: str) -> dict[str, Any]:
    """The link's JSON of a units puzzle and the player's entries; PuzzleError when the
    link could not tell it from a puzzle of boxes (regions that are the boxes)."""
    regions = None
    if puzzle.canonical_regions is not None:
        regions = fpuzzles.relabelled(puzzle.canonical_regions)
        if fpuzzles.are_boxes(regions):
            raise PuzzleError(
                [
                    fpuzzles.bad(
                        f"this {title}'s regions are the grid's boxes, which an f-puzzles link "
                        "does not mark: it would read back as a puzzle of boxes"
                    )
                ]
            )
    return fpuzzles.puzzle_json(
        puzzle.size, puzzle.givens, puzzle.entered(entries), regions, puzzle.diagonals
    )


def write(family: Family, board: Board) -> str:
    return fpuzzles.write(link_json(board.puzzle, board.entries, family.title))


def link_format(family: Family) -> Format:
    """The family's f-puzzles link, bound to ``family``."""

    def read_board(text: str, max_cells: int = family.sizes[-1] ** 2) -> Board:
        return read(family, text, max_cells)

    return Format(
        NAME,
        functools.partial(sniff, family),
        read_board,
        functools.partial(write, family),
    )
