"""Is a Kakuro well formed, and what is right or wrong on a player's board?

:func:`check_puzzle` reports every structural problem at once (not just the first);
:func:`validate_board` is what a Kakuro app runs after every move, per run and per cell.
"""

from __future__ import annotations

from collections import defaultdict
from typing import cast

from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupState
from numgrid.server.core import cell_name
from numgrid.server.kinds.judging import board_report
from numgrid.server.kinds.judging import finding

from .model import WHITE
from .model import Puzzle
from .model import Run
from .sums import combos
from .sums import sum_range

MAX_RUN = 9


def _run_findings(run: Run) -> list[Finding]:
    n = len(run.cells)
    first = cell_name(run.cells[0])
    if run.clue is None:
        if n == 1:
            return [
                finding(
                    "cell_without_run",
                    f"white cell {first} has no {run.direction} run (no clue before it)",
                    run.cells,
                )
            ]
        where = f"at the edge before {first}" if run.clue_cell is None else "before it"
        return [
            finding(
                "run_without_clue",
                f"{run.direction} run of {n} cells from {first} has no clue ({where})",
                run.cells,
                run,
            )
        ]
    clued = (cast(Cell, run.clue_cell), *run.cells)  # a run with a clue has its clue cell
    found = []
    if n > MAX_RUN:
        found.append(
            finding(
                "run_too_long",
                f"{run.name}: run of {n} cells is longer than {MAX_RUN}",
                clued,
                run,
            )
        )
    elif not combos(run.clue, n):
        low, high = sum_range(n)
        found.append(
            finding(
                "impossible_clue",
                f"{run.name}: {run.clue} cannot be made from {n} different digits "
                f"(possible: {low}-{high})",
                clued,
                run,
            )
        )
    if n == 1:
        found.append(
            finding("one_cell_run", f"{run.name}: run of a single cell", run.cells, run, True)
        )
    return found


def _dangling_clues(puzzle: Puzzle) -> list[Finding]:
    found = []
    for r, row in enumerate(puzzle.squares):
        for c, sq in enumerate(row):
            if sq is WHITE:
                continue
            for clue, direction, (nr, nc) in (
                (sq.across, "across", (r, c + 1)),
                (sq.down, "down", (r + 1, c)),
            ):
                if clue is None:
                    continue
                if nr >= puzzle.rows or nc >= puzzle.cols:
                    why = "the edge of the grid"
                elif puzzle.squares[nr][nc] is not WHITE:
                    why = f"black cell {cell_name((nr, nc))}"
                else:
                    continue
                found.append(
                    finding(
                        "clue_without_run",
                        f"{direction} clue {clue} at {cell_name((r, c))} points at {why}",
                        [(r, c)],
                    )
                )
    return found


def check_puzzle(puzzle: Puzzle, entries: Grid | None = None, max_cells: int | None = None):
    """Every structural problem (errors) and oddity (warnings) of a puzzle and its entries."""
    found: list[Finding] = []
    if max_cells is not None and puzzle.rows * puzzle.cols > max_cells:
        found.append(
            finding(
                "grid_too_large",
                f"grid of {puzzle.rows}x{puzzle.cols} = {puzzle.rows * puzzle.cols} cells "
                f"is over the limit of {max_cells} cells",
                [],
            )
        )
        return found
    if not puzzle.white_cells:
        found.append(finding("no_white_cells", "the puzzle has no white cells", []))
    for run in puzzle.runs:
        found.extend(_run_findings(run))
    found.extend(_dangling_clues(puzzle))
    if entries is not None:
        for cell in puzzle.white_cells:
            digit = entries[cell[0]][cell[1]]
            if not 0 <= digit <= 9:
                found.append(
                    finding(
                        "bad_digit",
                        f"{cell_name(cell)}: entered value {digit} is not a digit 1-9",
                        [cell],
                    )
                )
    return found


# ---------------------------------------------------------------- board validation


def _judge_run(run: Run, entries: Grid) -> tuple[GroupReport, list[Finding]]:
    digits = [(cell, entries[cell[0]][cell[1]]) for cell in run.cells]
    filled = [(cell, d) for cell, d in digits if d]
    total = sum(d for _, d in filled)
    by_digit = defaultdict(list)
    for cell, d in filled:
        by_digit[d].append(cell)
    dups = tuple(sorted(cell for cells in by_digit.values() if len(cells) > 1 for cell in cells))
    findings = []
    for d, cells in sorted(by_digit.items()):
        if len(cells) > 1:
            findings.append(
                finding(
                    "duplicate",
                    f"{run.name}: {d} appears {len(cells)} times "
                    f"({', '.join(cell_name(c) for c in cells)})",
                    cells,
                    run,
                )
            )
    complete = len(filled) == len(run.cells)
    state = GroupState.CORRECT if complete else GroupState.INCOMPLETE
    if run.clue is not None and complete and total != run.clue:
        state = GroupState.WRONG
        findings.append(
            finding(
                "wrong_sum",
                f"{run.name}: complete but adds up to {total}, not {run.clue}",
                run.cells,
                run,
            )
        )
    elif run.clue is not None and not complete and total >= run.clue:
        state = GroupState.OVER
        findings.append(
            finding(
                "over_sum",
                f"{run.name}: entries already add up to {total} with cells still empty",
                [cell for cell, _ in filled],
                run,
            )
        )
    if dups:
        state = GroupState.DUPLICATE
    return GroupReport(run, state, total, dups), findings


def validate_board(board: Board, solution: Grid | None = None) -> BoardReport:
    """Judge every run and cell of a board; with ``solution``, also list wrong entries."""
    judged = [_judge_run(run, board.entries) for run in board.puzzle.runs]
    solved = all(
        report.state is GroupState.CORRECT and report.group.clue is not None for report, _ in judged
    )
    cells = board.puzzle.white_cells
    return board_report(board, cells, board.entries, judged, solution, solved)


__all__ = ["check_puzzle", "validate_board"]
