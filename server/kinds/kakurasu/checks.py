"""Is a Kakurasu well formed, and what is right or wrong on a player's board?

:func:`check_puzzle` reports every structural problem at once: the grid's size, the
number of clues, each clue a line cannot make (one above the total of its weights: the
weights 1..n make every smaller sum, see :mod:`.sums`), clues that cannot all hold
together (:func:`disagreement`), and marks that are not 1, -1 or 0 or not one per cell.

:func:`validate_board` is what a Kakurasu app runs after every move, per row and column
and per cell: a line whose shaded weights pass its clue, or whose open cells can no
longer make up the rest, is OVER; a line with every cell decided that misses its clue is
WRONG; a line whose shaded weights make its clue is CORRECT (its open cells can only be
white). A line without a clue is CORRECT once each of its cells is marked or lies in a
crossing line that is CORRECT.
"""

from __future__ import annotations

from typing import cast

from numgrid.server.chain import listed
from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupState
from numgrid.server.core import GroupType
from numgrid.server.core import cell_name
from numgrid.server.kinds.judging import board_report
from numgrid.server.kinds.judging import finding

from .model import MAX_SIZE
from .model import OPEN
from .model import SHADED
from .model import VALUES
from .model import Line
from .model import Puzzle
from .model import total
from .sums import sizes

Ints = tuple[int, ...]


def _count_findings(puzzle: Puzzle) -> list[Finding]:
    found = []
    for what, clues, lines in (
        ("row", puzzle.row_clues, puzzle.rows),
        ("column", puzzle.column_clues, puzzle.cols),
    ):
        if len(clues) != lines:
            found.append(
                finding(
                    "clue_count",
                    f"{len(clues)} {what} clue{'s' if len(clues) != 1 else ''} for {lines} "
                    f"{what}s (a '-' stands for a clue not given)",
                )
            )
    return found


def _clue_findings(line: Line) -> list[Finding]:
    clue, count = line.clue, len(line.cells)
    if clue is None:
        return []
    if clue < 0:
        return [finding("bad_clue", f"{line.name}: a clue is not negative", group=line)]
    if clue > total(count):
        return [
            finding(
                "impossible_clue",
                f"{line.name}: no set of the weights 1-{count} adds up to {clue}: they add "
                f"up to {total(count)} at most",
                group=line,
            )
        ]
    return []


def _reach(lines: list[Line], cells: int) -> tuple[int, int]:
    """Which (shaded cells, weighted sum) pairs the clues of ``lines`` allow, where the
    weighted sum adds (line index + 1) x (shaded cells of the line) over the lines, each
    line of ``cells`` cells: the pairs as bits ``count * span + sum`` of a number, and
    the span (one more than any sum)."""
    span = cells * total(len(lines)) + 1
    reach = 1
    for line in lines:
        allowed = range(cells + 1) if line.clue is None else sizes(cells, line.clue)
        weight = line.index + 1
        step = 0
        for k in allowed:
            step |= reach << (k * span + k * weight)
        reach = step
    return reach, span


def _counts_making(reach: int, span: int, want: int | None) -> set[int]:
    """The numbers of shaded cells with which the weighted sum can be ``want`` (any, if
    None)."""
    counts, n = set(), 0
    while reach >> (n * span):
        block = reach >> (n * span) & ((1 << span) - 1)
        if block if want is None else block >> want & 1:
            counts.add(n)
        n += 1
    return counts


def disagreement(puzzle: Puzzle) -> str:
    """Why the clues cannot all hold together, or "" when this test cannot tell.

    Each shaded cell adds its column number to its row's clue, so the row clues add up
    to the sum over columns of (column number) x (shaded cells in that column); likewise
    the column clues add up to the sum over rows of (row number) x (shaded cells in that
    row); and both count the same shaded cells. A line's clue allows only some numbers of
    shaded cells (:func:`.sums.sizes`), so each total must be reachable by counts the
    clues allow, with one number of shaded cells in all. A line without a clue allows any
    count; a side with one has no total to test."""
    rows = [line for line in puzzle.lines if line.type is GroupType.ROW]
    cols = [line for line in puzzle.lines if line.type is GroupType.COLUMN]
    # (the casts: a side without None)
    row_total = None if None in puzzle.row_clues else sum(cast(Ints, puzzle.row_clues))
    col_total = None if None in puzzle.column_clues else sum(cast(Ints, puzzle.column_clues))
    row_ok = _counts_making(*_reach(cols, puzzle.rows), row_total)
    col_ok = _counts_making(*_reach(rows, puzzle.cols), col_total)
    if not row_ok:
        return (
            f"the row clues add up to {row_total}, but no number of shaded cells per column "
            f"that the column clues allow makes the column numbers of the shaded cells add "
            f"up to {row_total}"
        )
    if not col_ok:
        return (
            f"the column clues add up to {col_total}, but no number of shaded cells per row "
            f"that the row clues allow makes the row numbers of the shaded cells add up "
            f"to {col_total}"
        )
    if not row_ok & col_ok:
        return (
            f"the row clues add up to {row_total}, which takes {_counts(row_ok)} shaded "
            f"cells with what the column clues allow, but the column clues add up to "
            f"{col_total}, which takes {_counts(col_ok)} with what the row clues allow"
        )
    return ""


def _counts(counts: set[int]) -> str:
    """``3, 5 or 7``; ``12-20`` for a run of more than three."""
    ordered = sorted(counts)
    if len(ordered) > 3 and ordered[-1] - ordered[0] == len(ordered) - 1:
        return f"{ordered[0]}-{ordered[-1]}"
    return listed(ordered)


def _entry_findings(puzzle: Puzzle, entries: Grid) -> list[Finding]:
    found = []
    if len(entries) != puzzle.rows:
        found.append(finding("bad_entries", f"{len(entries)} rows of marks for {puzzle.rows} rows"))
    for r, row in enumerate(entries[: puzzle.rows]):
        if len(row) != puzzle.cols:
            where = (r, min(len(row), puzzle.cols - 1))
            found.append(
                finding(
                    "ragged_row",
                    f"{cell_name(where)}: row {r} has {len(row)} marks, expected {puzzle.cols}",
                    [where],
                )
            )
            continue
        for c, value in enumerate(row):
            if isinstance(value, bool) or value not in VALUES:
                found.append(
                    finding(
                        "bad_mark",
                        f"{cell_name((r, c))}: mark {value!r} is not 1 (shaded), -1 (white) "
                        "or 0 (undecided)",
                        [(r, c)],
                    )
                )
    return found


def check_puzzle(
    puzzle: Puzzle, entries: Grid | None = None, max_cells: int | None = None
) -> list[Finding]:
    """Every structural problem of a puzzle and its marks (all errors: nothing about a
    Kakurasu is legal but odd)."""
    rows, cols = puzzle.rows, puzzle.cols
    if not (1 <= rows <= MAX_SIZE and 1 <= cols <= MAX_SIZE):
        return [finding("bad_size", f"a {rows}x{cols} grid is not 1 to {MAX_SIZE} each way")]
    if max_cells is not None and rows * cols > max_cells:
        return [
            finding(
                "grid_too_large",
                f"grid of {rows}x{cols} = {rows * cols} cells is over the limit of "
                f"{max_cells} cells",
            )
        ]
    found = _count_findings(puzzle)
    for line in puzzle.lines:
        found.extend(_clue_findings(line))
    if not found:
        why = disagreement(puzzle)
        if why:
            found.append(finding("clues_disagree", f"the clues cannot all hold: {why}"))
    if entries is not None:
        found.extend(_entry_findings(puzzle, entries))
    return found


# ---------------------------------------------------------------- board validation


def _shaded(line: Line, entries: Grid) -> list:
    return [cell for cell in line.cells if entries[cell[0]][cell[1]] == SHADED]


def _judge(line: Line, entries: Grid) -> tuple[GroupReport, list[Finding]]:
    """A line with a clue: its state, and what is wrong with it."""
    shaded = _shaded(line, entries)
    weight = sum(line.weight(cell) for cell in shaded)
    open_cells = [cell for cell in line.cells if entries[cell[0]][cell[1]] == OPEN]
    room = sum(line.weight(cell) for cell in open_cells)
    clue, findings = cast(int, line.clue), []
    weights = " + ".join(str(line.weight(cell)) for cell in shaded) or "0"
    if weight == clue:
        state = GroupState.CORRECT
    elif weight > clue:
        state = GroupState.OVER
        message = f"{line.name}: the shaded cells weigh {weights} = {weight}, more than {clue}"
        findings.append(finding("line_over", message, shaded, line))
    elif not open_cells:
        state = GroupState.WRONG
        message = f"{line.name}: every cell is decided but the shaded ones weigh {weight}"
        findings.append(finding("wrong_line", message, line.cells, line))
    elif weight + room < clue:
        state = GroupState.OVER
        message = (
            f"{line.name}: the shaded cells weigh {weight} and the undecided ones "
            f"{room} at most, short of {clue}"
        )
        findings.append(finding("line_short", message, line.cells, line))
    else:
        state = GroupState.INCOMPLETE
    return GroupReport(line, state, weight, ()), findings


def validate_board(board: Board, solution: Grid | None = None) -> BoardReport:
    """Judge every row and column and every cell of a board; with ``solution``, also
    list the marks that differ from it."""
    puzzle, entries = board.puzzle, board.entries
    judged: dict[Line, tuple[GroupReport, list[Finding]]] = {
        line: _judge(line, entries) for line in puzzle.lines if line.clue is not None
    }
    met = {
        cell
        for line, (report, _) in judged.items()
        if report.state is GroupState.CORRECT
        for cell in line.cells
    }

    def judge(line: Line) -> tuple[GroupReport, list[Finding]]:
        if line in judged:
            return judged[line]
        decided = all(cell in met or entries[cell[0]][cell[1]] for cell in line.cells)
        state = GroupState.CORRECT if decided else GroupState.INCOMPLETE
        weight = sum(line.weight(cell) for cell in _shaded(line, entries))
        return GroupReport(line, state, weight, ()), []

    lines = [judge(line) for line in puzzle.lines]
    return board_report(board, puzzle.cells, entries, lines, solution)


__all__ = ["check_puzzle", "disagreement", "validate_board"]
