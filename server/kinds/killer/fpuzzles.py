"""Killer Sudoku as an f-puzzles link (:mod:`numgrid.server.kinds.links.fpuzzles`): the
units family's grid (:mod:`..units.fpuzzles`, boxes only) and the ``killercage`` list,
each cage its cells (``R1C1``, from 1) and its sum as a string. A link holding cages is
a Killer Sudoku's (claimed when the format is built, so the kinds without cages leave
it). Like the JSON format, it may leave cells out of every cage; a cage without a sum
is a finding.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from numgrid.server.chain import names
from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import quoted
from numgrid.server.kinds.judging import listed_twice
from numgrid.server.kinds.links import fpuzzles
from numgrid.server.kinds.textformats import Format
from numgrid.server.kinds.units import fpuzzles as units_link
from numgrid.server.kinds.units.formats import Family
from numgrid.server.kinds.units.shape import box_shape

from .checks import check_puzzle
from .model import Cage
from .model import Puzzle
from .model import ordered

CAGES = "killercage"
_SUM = re.compile(r"^[0-9]{1,3}$")


def sniff(text: str) -> str | None:
    found = fpuzzles.looks(text)
    if not isinstance(found, fpuzzles.Link):
        return found
    return None if found.has(CAGES) else "an f-puzzles link without cages"


def _cage(k: int, raw: Any, family: Family, n: int, findings: list[Finding]) -> Cage | None:
    """Cage ``k`` (from 1 in messages) of the link, or None with a finding."""
    if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list) or not raw["cells"]:
        findings.append(fpuzzles.bad(f"cage {k} of the link lists no cells"))
        return None
    refs = raw["cells"]
    cells = [fpuzzles.cell_of(ref, n) for ref in refs]
    wrong = [ref for ref, cell in zip(refs, cells, strict=True) if cell is None]
    if wrong:
        shown = ", ".join(repr(ref)[:12] for ref in wrong[:3])
        findings.append(
            fpuzzles.bad(f"cage {k} of the link lists {shown}: not a cell of the {n}x{n} grid")
        )
        return None
    found = [cell for cell in cells if cell is not None]
    twice = listed_twice(found)
    if twice:
        findings.append(fpuzzles.bad(f"cage {k} of the link lists {names(twice, 9)} twice", *twice))
    value = raw.get("value")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not _SUM.match(value):
        what = "has no sum" if value in (None, "") else f"has the sum {quoted(str(value), 12)}"
        findings.append(
            fpuzzles.bad(
                f"cage {k} of the link ({names(sorted(set(found)), 9)}) {what}: a "
                f"{family.title} cage holds a sum",
                *sorted(set(found)),
            )
        )
        return None
    return Cage(int(value), tuple(sorted(set(found))))


def read(family: Family, text: str, max_cells: int) -> Board:
    parts = units_link.read_parts(family, text, max_cells, (CAGES,))
    n = parts.link.size
    raw = parts.link.data.get(CAGES) or []
    findings = parts.findings
    if not isinstance(raw, list):
        findings.append(fpuzzles.bad(f"the link's {CAGES!r} is not a list of cages"))
        raw = []
    if len(raw) > n * n:
        findings.append(fpuzzles.bad(f"the link lists {len(raw)} cages for {n * n} cells"))
        raw = raw[: n * n]
    cages = [_cage(k, cage, family, n, findings) for k, cage in enumerate(raw, 1)]
    kept = ordered([cage for cage in cages if cage is not None])
    puzzle = Puzzle(n, box_shape(n), None, parts.diagonals, parts.givens, kept)
    if findings:
        raise PuzzleError(findings + [f for f in check_puzzle(puzzle) if f.is_error])
    return Board(puzzle, puzzle.entered(parts.entries))


def write(family: Family, board: Board) -> str:
    puzzle: Puzzle = board.puzzle
    if not puzzle.cages:
        raise PuzzleError(
            [fpuzzles.bad(f"a {family.title} without cages: its link would read back as none")]
        )
    data = units_link.link_json(puzzle, board.entries, family.title)
    data[CAGES] = [
        {"cells": [fpuzzles.ref(cell) for cell in cage.cells], "value": str(cage.sum)}
        for cage in puzzle.cages
    ]
    return fpuzzles.write(data)


def link_format(family: Family) -> Format:
    """The f-puzzles link of a Killer Sudoku (``family``: its title and sizes); links
    with cages are claimed for it."""
    fpuzzles.claim(CAGES, family.title)

    def read_board(text: str, max_cells: int = family.sizes[-1] ** 2) -> Board:
        return read(family, text, max_cells)

    return Format(units_link.NAME, sniff, read_board, functools.partial(write, family))
