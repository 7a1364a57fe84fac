"""Is a units puzzle well formed, and how does a player's board stand?

:func:`check_puzzle` reports every structural problem at once, each naming its cells
and unit: a given outside 1..N, regions that do not cut the grid into N connected
regions of N cells, the same digit given twice in a unit (both cells named).
:func:`validate_board` judges every unit and cell of a board after a move.
"""

from __future__ import annotations

from collections import defaultdict

from numgrid.server.chain import names
from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupType
from numgrid.server.core import Severity
from numgrid.server.core import cell_name
from numgrid.server.kinds.judging import board_report
from numgrid.server.kinds.judging import connected_parts
from numgrid.server.kinds.judging import distinct_report

from .model import Puzzle
from .model import digit_char
from .shape import UnitGroup


def split(code: str, name: str, cells: tuple[Cell, ...]) -> list[Finding]:
    """``name`` (a region, a cage) not in one connected piece, its pieces named, largest
    first; else nothing."""
    pieces = sorted(connected_parts(cells), key=len, reverse=True)
    if len(pieces) < 2:
        return []
    parts = "; ".join(names(p) for p in pieces)
    message = f"{name} is not connected: it falls into {len(pieces)} pieces ({parts})"
    return [_error(code, message, cells, name)]


def _error(code: str, message: str, cells: tuple[Cell, ...] = (), group: str = "") -> Finding:
    return Finding(code, message, cells, Severity.ERROR, group)


def region_findings(puzzle: Puzzle) -> list[Finding]:
    """Regions that do not cut the grid into N connected regions of N cells each."""
    if puzzle.regions is None:
        return []
    n = puzzle.size
    found = []
    for r, row in enumerate(puzzle.regions):
        for c, k in enumerate(row):
            if not 0 <= k < n:
                found.append(
                    _error(
                        "bad_region",
                        f"{cell_name((r, c))}: region number {k + 1} is not one of 1-{n}",
                        ((r, c),),
                    )
                )
    assert puzzle.region_cells is not None
    for k, cells in enumerate(puzzle.region_cells):
        group = f"region {k + 1}"
        if len(cells) != n:
            shown = names(cells) if len(cells) <= n + 3 else f"{names(cells[:n])} and more"
            has = f"{len(cells)} cells ({shown})" if cells else "no cells"
            found.append(
                _error(
                    "region_size",
                    f"{group} has {has}, not {n}: the regions must cut the {n}x{n} grid "
                    f"into {n} regions of {n} cells",
                    cells,
                    group,
                )
            )
        found += split("region_split", group, cells)
    return found


def duplicates(group: UnitGroup, values: Grid) -> dict[int, list[Cell]]:
    """Digit -> the cells of a unit holding it, for digits there twice or more."""
    by_value: dict[int, list[Cell]] = defaultdict(list)
    for r, c in group.cells:
        if values[r][c] > 0:
            by_value[values[r][c]].append((r, c))
    return {v: cells for v, cells in by_value.items() if len(cells) > 1}


def _units_to_judge(puzzle: Puzzle, regions_ok: bool) -> tuple[UnitGroup, ...]:
    """Every unit, but regions only when they tile the grid (else they mean nothing)."""
    return tuple(g for g in puzzle.groups if regions_ok or g.type is not GroupType.REGION)


_ONE = {"givens": "given", "entries": "entry"}


def _grid_findings(puzzle: Puzzle, grid: Grid, what: str) -> list[Finding]:
    """Values outside 0..N (0: empty), and the shape of the grid."""
    n = puzzle.size
    found = []
    if len(grid) != n or any(len(row) != n for row in grid):
        return [_error("bad_shape", f"the {what} are not {n} rows of {n} values")]
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if not 0 <= v <= n:
                digits = f"1-{n}" if n <= 9 else f"1-{n} (1-9, A-{digit_char(n)} in text)"
                found.append(
                    _error(
                        "bad_digit",
                        f"{cell_name((r, c))}: the {_ONE[what]} {v} is outside {digits}",
                        ((r, c),),
                    )
                )
    return found


def check_puzzle(
    puzzle: Puzzle, entries: Grid | None = None, max_cells: int | None = None
) -> list[Finding]:
    """Every structural problem of a puzzle (and of entries, when given), at once."""
    found = _grid_findings(puzzle, puzzle.givens, "givens")
    regions = region_findings(puzzle)
    found += regions
    if found and any(f.code == "bad_shape" for f in found):
        return found
    values = puzzle.givens
    if entries is not None:
        entry_findings = _grid_findings(puzzle, entries, "entries")
        found += entry_findings
    safe = tuple(tuple(v if 0 < v <= puzzle.size else 0 for v in row) for row in values)
    for group in _units_to_judge(puzzle, not regions):
        for value, cells in sorted(duplicates(group, safe).items()):
            found.append(
                _error(
                    "duplicate_given",
                    f"{group.name} holds the given {digit_char(value)} "
                    f"{'twice' if len(cells) == 2 else f'{len(cells)} times'}: {names(cells)}",
                    tuple(cells),
                    group.name,
                )
            )
    return found


def judge(group: UnitGroup, values: Grid) -> tuple[GroupReport, list[Finding]]:
    """One unit of a board (givens and entries): a digit twice, complete or not."""
    findings = []
    at_fault: list[Cell] = []
    for value, cells in sorted(duplicates(group, values).items()):
        findings.append(
            _error(
                "duplicate",
                f"{group.name}: {digit_char(value)} appears {len(cells)} times ({names(cells)})",
                tuple(cells),
                group.name,
            )
        )
        at_fault += cells
    return distinct_report(group, values, findings, at_fault)


def validate_board(board: Board, solution: Grid | None = None) -> BoardReport:
    """Judge every unit and cell of a board; with ``solution``, the entries that differ."""
    puzzle: Puzzle = board.puzzle
    values = puzzle.filled(board.entries)
    return board_report(board, puzzle.cells, values, judged_units(puzzle, values), solution)


def judged_units(puzzle: Puzzle, values: Grid) -> list[tuple[GroupReport, list[Finding]]]:
    """Each unit of a board holding ``values`` (givens and entries), judged: what a kind
    with more groups (cages) judges before its own."""
    units = _units_to_judge(puzzle, not region_findings(puzzle))
    return [judge(u, values) for u in units]
