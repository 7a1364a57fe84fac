"""What every kind's checks share: a finding, named after the group it is about, and a
board's report put together from the judgements of its groups (rows, cages, runs,
views: each judged by the kind)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from typing import TypeVar

from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import Group
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupState
from numgrid.server.core import PuzzleError
from numgrid.server.core import Severity
from numgrid.server.core import cell_name
from numgrid.server.core import cell_statuses
from numgrid.server.core import wrong_entries
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digits_of


def finding(
    code: str,
    message: str,
    cells: Iterable[Cell] = (),
    group: Group | None = None,
    warning: bool = False,
) -> Finding:
    """An error (or a ``warning``) about ``cells``, in ``group`` (named) if given."""
    return Finding(
        code=code,
        message=message,
        cells=tuple(cells),
        severity=Severity.WARNING if warning else Severity.ERROR,
        group=group.name if group is not None else "",
    )


def cell_list(cells: Iterable[Cell]) -> str:
    """``r0c1, r2c2``."""
    return ", ".join(cell_name(c) for c in cells)


def distinct_report(
    group: Group, values: Grid, findings: list[Finding], at_fault: Iterable[Cell]
) -> tuple[GroupReport, list[Finding]]:
    """The judgement of a group whose digits must differ: DUPLICATE with findings, else
    CORRECT when all its cells hold a value, else INCOMPLETE."""
    if findings:
        state = GroupState.DUPLICATE
    else:
        complete = all(values[r][c] for r, c in group.cells)
        state = GroupState.CORRECT if complete else GroupState.INCOMPLETE
    return GroupReport(group, state, 0, tuple(sorted(at_fault))), findings


Listed = TypeVar("Listed", int, Cell)


def listed_twice(items: Iterable[Listed]) -> list[Listed]:
    """The cells (or digits) a list holds more than once, in order: counted in one pass
    (a pasted cage may list a cell thousands of times)."""
    return sorted(item for item, times in Counter(items).items() if times > 1)


def connected_parts(cells: Iterable[Cell]) -> list[list[Cell]]:
    """The orthogonally connected parts of ``cells``, each in reading order."""
    left = set(cells)
    parts: list[list[Cell]] = []
    for start in sorted(left):
        if start not in left:
            continue
        left.discard(start)
        part, stack = [start], [start]
        while stack:
            r, c = stack.pop()
            for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if near in left:
                    left.discard(near)
                    part.append(near)
                    stack.append(near)
        parts.append(sorted(part))
    return parts


def board_report(
    board: Board,
    cells: Iterable[Cell],
    values: Grid,
    judged: Iterable[tuple[GroupReport, list[Finding]]],
    solution: Grid | None,
    solved: bool | None = None,
) -> BoardReport:
    """The report of a board from its groups' judgements ``(report, findings)``:
    every cell's status (``values``: what the cells hold, givens included), the
    findings, solved (by default: every group CORRECT), and with ``solution`` the
    entries that differ from it."""
    reports: list[GroupReport] = []
    findings: list[Finding] = []
    for report, found in judged:
        reports.append(report)
        findings.extend(found)
    cells = tuple(cells)
    if solved is None:
        solved = all(report.state is GroupState.CORRECT for report in reports)
    return BoardReport(
        tuple(reports),
        cell_statuses(cells, values, tuple(reports)),
        tuple(findings),
        solved,
        wrong_entries(cells, board.entries, solution),
    )


# ---------------------------------------------------------------- a logical solver's input


def judge_entries(
    board: Board,
    validate: Callable[[Board], BoardReport],
    check: Callable[[Any, Grid], list[Finding]] | None = None,
    shape: tuple[int, int] | None = None,
) -> None:
    """Raise :class:`~numgrid.server.core.PuzzleError` unless the board's entries are
    ``shape`` (rows, columns) if given, pass ``check(puzzle, entries)`` (its errors),
    and break no rule of the board (every finding of ``validate``)."""
    entries = board.entries
    if shape is not None:
        rows, cols = shape
        if len(entries) != rows or any(len(row) != cols for row in entries):
            raise PuzzleError([finding("bad_shape", f"entries must be {rows}x{cols}")])
    if check is not None:
        errors = [f for f in check(board.puzzle, entries) if f.is_error]
        if errors:
            raise PuzzleError(errors)
    broken = validate(board).findings
    if broken:
        raise PuzzleError(broken)


def candidate_masks(
    candidates: Mapping[Cell, Any],
    index: Mapping[Cell, int],
    masks: list[int],
    largest: int,
    outside: Callable[[Any], Finding],
    allowed: str,
) -> list[int]:
    """``masks`` (per cell of ``index``) with the cells of ``candidates`` given as
    digits 1..``largest`` (an iterable, or a mask); raises
    :class:`~numgrid.server.core.PuzzleError` with ``outside(cell)`` for a key that is
    not a cell, and with every cell given no candidate or another value than
    ``allowed`` says."""
    findings = []
    full = (1 << largest) - 1
    for cell, given in candidates.items():
        if not (isinstance(cell, tuple) and len(cell) == 2 and cell in index):
            findings.append(outside(cell))
            continue
        digits = set(digits_of(given) if isinstance(given, int) else given)
        if (isinstance(given, int) and not 0 < given <= full) or not digits:
            findings.append(finding("no_candidates", f"{cell_name(cell)}: no candidate", [cell]))
        elif not digits <= set(range(1, largest + 1)):
            message = f"{cell_name(cell)}: candidates must be {allowed}"
            findings.append(finding("bad_digit", message, [cell]))
        else:
            masks[index[cell]] = sum(bit(d) for d in digits)
    if findings:
        raise PuzzleError(findings)
    return masks
