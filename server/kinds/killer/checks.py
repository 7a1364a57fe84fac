"""Is a Killer Sudoku well formed, and how does a player's board stand?

:func:`check_puzzle` reports every structural problem at once, each naming its cage and
cells: the units family's (a given outside 1..N, a digit given twice in a unit), then
the cages': a sum no digits make over the cage's cells (the range that is possible), a
cage of more cells than digits, a cell in two cages, a cage not connected, a given that
clashes in its cage, sums that do not add up to N x (1 + ... + N) when every cell is
caged, and (a warning) cells in no cage: the JSON format allows them, the corpus text and
Solo's game IDs cage every cell. :func:`validate_board` judges every unit and cage.
"""

from __future__ import annotations

from dataclasses import dataclass

from numgrid.server.chain import names
from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupState
from numgrid.server.core import GroupType
from numgrid.server.core import Severity
from numgrid.server.core import cell_name
from numgrid.server.kinds import cagesums
from numgrid.server.kinds.judging import board_report
from numgrid.server.kinds.judging import listed_twice
from numgrid.server.kinds.units import checks as units

from .model import Puzzle
from .model import total

WORDS = {1: "one cell", 2: "two cells", 3: "three cells", 4: "four cells"}


@dataclass(frozen=True)
class CageGroup:
    """A cage as reports and steps name it (the ``Group`` protocol)."""

    index: int
    cells: tuple[Cell, ...]
    name: str
    clue: int
    clue_cell: Cell
    type: GroupType = GroupType.CAGE
    operation: str = ""


def groups(puzzle: Puzzle) -> tuple[CageGroup, ...]:
    return tuple(
        CageGroup(k, cage.cells, puzzle.cage_name(k), cage.sum, cage.first)
        for k, cage in enumerate(puzzle.cages)
        if cage.cells
    )


def _error(code: str, message: str, cells: tuple[Cell, ...] = (), group: str = "") -> Finding:
    return Finding(code, message, cells, Severity.ERROR, group)


def cells_text(k: int) -> str:
    return WORDS.get(k, f"{k} cells")


def cage_findings(puzzle: Puzzle) -> list[Finding]:
    """What is wrong with the cages, each finding naming its cage and cells."""
    n = puzzle.size
    found: list[Finding] = []
    owner: dict[Cell, int] = {}
    for k, cage in enumerate(puzzle.cages):
        name = puzzle.cage_name(k)
        size = len(cage.cells)
        if size > n:
            found.append(
                _error(
                    "cage_too_large",
                    f"{name} has {size} cells: its digits differ, so a cage holds at most {n}",
                    cage.cells,
                    name,
                )
            )
        elif not cagesums.combos(cage.sum, size, n):
            low, high = cagesums.sum_range(size, n)
            made = (
                f"a cell holds 1 to {n}, not {cage.sum}"
                if size == 1
                else f"no {cells_text(size)} of different digits 1-{n} add up to {cage.sum}; "
                f"they make {low} to {high}"
            )
            found.append(
                _error(
                    "impossible_sum",
                    f"{name}: {made}",
                    cage.cells,
                    name,
                )
            )
        found += units.split("cage_split", name, cage.cells)
        for cell in cage.cells:
            if cell in owner:
                other = owner[cell]
                found.append(
                    _error(
                        "cages_overlap",
                        f"{puzzle.cage_name(other)} and {name} overlap: {cell_name(cell)} is in "
                        "both, and a cell is in one cage",
                        (cell,),
                        name,
                    )
                )
            else:
                owner[cell] = k
        given = [puzzle.givens[r][c] for r, c in cage.cells if 0 < puzzle.givens[r][c] <= n]
        twice = listed_twice(given)
        if twice:
            at = tuple(cell for cell in cage.cells if puzzle.givens[cell[0]][cell[1]] in twice)
            found.append(
                _error(
                    "duplicate_given",
                    f"{name} holds the given {twice[0]} twice: {names(at, 9)}",
                    at,
                    name,
                )
            )
    left = tuple((r, c) for r in range(n) for c in range(n) if (r, c) not in owner)
    if not left and not any(f.code == "cages_overlap" for f in found):
        added = sum(cage.sum for cage in puzzle.cages)
        if added != total(n):
            found.append(
                _error(
                    "sums_total",
                    f"the cages cover every cell, so their sums add up to {n} x "
                    f"{n * (n + 1) // 2} = {total(n)} (each row's digits make "
                    f"{n * (n + 1) // 2}), but they add up to {added}",
                )
            )
    elif left:
        found.append(
            Finding(
                "uncaged_cells",
                f"{names(left, 9)} {'is' if len(left) == 1 else 'are'} in no cage: JSON allows it, "
                "but published Killers (the corpus text, Solo's game IDs) cage every cell",
                left,
                Severity.WARNING,
            )
        )
    return found


def check_puzzle(
    puzzle: Puzzle, entries: Grid | None = None, max_cells: int | None = None
) -> list[Finding]:
    """Every structural problem of a puzzle (and of entries, when given), at once."""
    found = units.check_puzzle(puzzle, entries, max_cells)
    if any(f.code == "bad_shape" for f in found):
        return found
    return found + cage_findings(puzzle)


def judge_cage(group: CageGroup, values: Grid) -> tuple[GroupReport, list[Finding]]:
    """A cage of a board: a digit twice, its sum passed, or complete and right or wrong."""
    digits = [values[r][c] for r, c in group.cells]
    filled = [d for d in digits if d]
    added = sum(filled)
    twice = set(listed_twice(filled))
    at_fault = tuple(cell for cell, d in zip(group.cells, digits, strict=True) if d in twice)
    findings = []
    if twice:
        state = GroupState.DUPLICATE
        findings.append(
            _error(
                "duplicate",
                f"{group.name}: {min(twice)} appears twice ({names(at_fault, 9)})",
                at_fault,
                group.name,
            )
        )
    elif len(filled) == len(digits):
        state = GroupState.CORRECT if added == group.clue else GroupState.WRONG
        if state is GroupState.WRONG:
            findings.append(
                _error(
                    "wrong_cage",
                    f"{group.name}: its digits add up to {added}, not {group.clue}",
                    group.cells,
                    group.name,
                )
            )
    elif added >= group.clue:
        state = GroupState.OVER
        findings.append(
            _error(
                "cage_over",
                f"{group.name}: the digits entered already add up to {added}, with "
                f"{cells_text(len(digits) - len(filled))} still open",
                tuple(cell for cell, d in zip(group.cells, digits, strict=True) if d),
                group.name,
            )
        )
    else:
        state = GroupState.INCOMPLETE
    return GroupReport(group, state, added if not twice else 0, at_fault), findings


def validate_board(board: Board, solution: Grid | None = None) -> BoardReport:
    """Judge every unit, cage and cell of a board; with ``solution``, the wrong entries."""
    puzzle: Puzzle = board.puzzle
    values = puzzle.filled(board.entries)
    judged = units.judged_units(puzzle, values)
    judged += [judge_cage(group, values) for group in groups(puzzle)]
    return board_report(board, puzzle.cells, values, judged, solution)
