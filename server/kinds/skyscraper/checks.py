"""Is a Skyscraper well formed, and what is right or wrong on a player's board?

:func:`check_puzzle` reports every structural problem at once (not just the first), each
naming its clue (whose cell sits just outside the grid) or cell; a variant other than the
plain one is a warning that says which rules apply. :func:`validate_board` is what an app
runs after every move: per row, column, diagonal and clue, and per cell.
"""

from __future__ import annotations

from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupState
from numgrid.server.core import cell_name
from numgrid.server.kinds.judging import board_report
from numgrid.server.kinds.judging import cell_list
from numgrid.server.kinds.judging import finding
from numgrid.server.kinds.latin import duplicates
from numgrid.server.kinds.latin import judge_line

from .model import MAX_SIZE
from .model import SIDES
from .model import Puzzle
from .model import Side
from .model import View
from .model import visible


def _values(puzzle: Puzzle) -> str:
    """What a cell may hold, in words: ``a height 1-4 or empty (-1)``."""
    heights = f"a height 1-{puzzle.height}"
    return f"{heights} or empty (-1)" if puzzle.empties > 0 else heights


def _in_range(puzzle: Puzzle, value) -> bool:
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return 0 <= value <= puzzle.height or (value == EMPTY and puzzle.empties > 0)


def _clue_findings(puzzle: Puzzle) -> list[Finding]:
    n, height = puzzle.size, puzzle.height
    found = []
    for side in SIDES:
        clues = puzzle.clues(side)
        if len(clues) != n:
            found.append(
                finding(
                    "clue_count",
                    f"{len(clues)} clues {side.where}s, expected {n} (0 or '-' for none)",
                )
            )
        for i, clue in enumerate(clues[:n]):
            if 0 <= clue <= height:
                continue
            where = [side.clue_cell(i, n)]
            if clue < 0:
                found.append(
                    finding("bad_clue", f"clue {clue} {side.where} {i} is negative", where)
                )
            else:
                most = f"a line has {height} towers" if height < n else f"the grid is {n}x{n}"
                found.append(
                    finding(
                        "clue_too_large",
                        f"clue {clue} {side.where} {i}: no more than {height} towers can be "
                        f"seen ({most})",
                        where,
                    )
                )
    for side in (Side.TOP, Side.LEFT):
        for view in puzzle.views:
            if view.side is side:
                found.extend(_pair_findings(puzzle, view))
    return found


def _pair_findings(puzzle: Puzzle, view: View) -> list[Finding]:
    """Opposite clues that no line can show: the tallest tower is seen from both sides,
    every other one from one side at most."""
    other = view.side.opposite
    clues = puzzle.clues(other)
    if view.index >= len(clues) or not 0 < clues[view.index] <= puzzle.height:
        return []
    a, b, height = view.clue, clues[view.index], puzzle.height
    if not 0 < a <= height:
        return []
    both = f"clues {a} and {b} {view.side.where.split()[0]} and {other.where}"
    cells = [view.clue_cell, other.clue_cell(view.index, puzzle.size)]
    if a + b > height + 1:
        why = f"add up to more than {height + 1} (the tallest tower is seen from both sides)"
    elif a == b == 1 and height > 1:
        why = "are both 1, but only one tower can be first from both sides"
    else:
        return []
    return [finding("clues_clash", f"{both} {view.index} {why}", cells)]


def _grid_findings(puzzle: Puzzle, grid, what: str) -> tuple[list[Finding], bool]:
    """Shape and range of the givens or the entries; also whether the shape is right."""
    n = puzzle.size
    if len(grid) != n or any(len(row) != n for row in grid):
        shape = f"{len(grid)} rows of {', '.join(sorted({str(len(r)) for r in grid}))}"
        return [finding(f"bad_{what}", f"the {what} are not {n}x{n} ({shape})")], False
    found = []
    one = "given" if what == "givens" else "entered value"
    for r, c in puzzle.cells:
        value = grid[r][c]
        if not _in_range(puzzle, value):
            found.append(
                finding(
                    "bad_given" if what == "givens" else "bad_digit",
                    f"{cell_name((r, c))}: {one} {value!r} is not {_values(puzzle)}",
                    [(r, c)],
                )
            )
    return found, True


def _given_line_findings(puzzle: Puzzle) -> list[Finding]:
    found = []
    for line in puzzle.lines:
        for value, cells in sorted(duplicates(line.cells, puzzle.givens).items()):
            found.append(
                finding(
                    "duplicate_given",
                    f"{line.name}: {value} is given {len(cells)} times ({cell_list(cells)})",
                    cells,
                    line,
                )
            )
        empty = [(r, c) for r, c in line.cells if puzzle.givens[r][c] == EMPTY]
        if len(empty) > puzzle.empties:
            found.append(
                finding(
                    "too_many_empty",
                    f"{line.name}: {len(empty)} empty lots are given ({cell_list(empty)}), but a "
                    f"{line.type.value} has {puzzle.empties}",
                    empty,
                    line,
                )
            )
    return found


def _entry_findings(puzzle: Puzzle, entries) -> list[Finding]:
    found, shaped = _grid_findings(puzzle, entries, "entries")
    return found + puzzle.overwritten(entries) if shaped else found


def check_puzzle(
    puzzle: Puzzle, entries: Grid | None = None, max_cells: int | None = None
) -> list[Finding]:
    """Every structural problem (errors) of a puzzle and its entries, and which variant it
    is (a warning, unless plain)."""
    n = puzzle.size
    if not 1 <= n <= MAX_SIZE:
        return [finding("bad_size", f"size {n} is not 1 to {MAX_SIZE}")]
    if max_cells is not None and n * n > max_cells:
        return [
            finding(
                "grid_too_large",
                f"grid of {n}x{n} = {n * n} cells is over the limit of {max_cells} cells",
            )
        ]
    if not 1 <= puzzle.height <= n:
        return [
            finding(
                "bad_height",
                f"the tallest height {puzzle.height} is not 1 to {n} (the grid is {n}x{n})",
            )
        ]
    found = _clue_findings(puzzle)
    givens, shaped = _grid_findings(puzzle, puzzle.givens, "givens")
    found.extend(givens)
    if shaped:
        found.extend(_given_line_findings(puzzle))
        if entries is not None:
            found.extend(_entry_findings(puzzle, entries))
    if puzzle.variant != "plain":
        found.append(finding("variant", f"a Skyscraper with {puzzle.variant}", warning=True))
    return found


# ---------------------------------------------------------------- board validation


def _judge_view(view: View, values: Grid, height: int) -> tuple[GroupReport, list[Finding]]:
    """A clue on a board: met by its complete line, or already broken by the towers seen
    from its edge up to the first open cell."""
    line = [values[r][c] for r, c in view.cells]
    findings = []
    if all(line):
        seen = visible(line)
        state = GroupState.CORRECT if seen == view.clue else GroupState.WRONG
        if state is GroupState.WRONG:
            findings.append(
                finding(
                    "wrong_view",
                    f"{view.name}: the complete line shows {seen} tower"
                    f"{'s' if seen != 1 else ''}, not {view.clue}",
                    view.cells,
                    view,
                )
            )
        return GroupReport(view, state, seen, ()), findings
    first_open = line.index(0)
    prefix = line[:first_open]
    seen = visible(prefix)
    shown = [cell for cell, h in zip(view.cells, prefix, strict=False) if h != EMPTY]
    if seen > view.clue:
        why = f"already {seen} towers are seen, more than {view.clue}"
    elif height in prefix and seen != view.clue:
        at = cell_name(view.cells[prefix.index(height)])
        why = f"the tallest tower ({height}) at {at} hides the rest, and {seen} are seen"
    else:
        return GroupReport(view, GroupState.INCOMPLETE, seen, ()), findings
    findings.append(finding("view_impossible", f"{view.name}: {why}", shown, view))
    return GroupReport(view, GroupState.OVER, seen, ()), findings


def validate_board(board: Board, solution: Grid | None = None) -> BoardReport:
    """Judge every line and clue and every cell of a board (givens and entries); with
    ``solution``, also list the entries that differ from it."""
    puzzle = board.puzzle
    values = puzzle.filled(board.entries)
    judged = [judge_line(line, values, puzzle.empties) for line in puzzle.lines]
    judged += [_judge_view(view, values, puzzle.height) for view in puzzle.views]
    return board_report(board, puzzle.cells, values, judged, solution)


__all__ = ["check_puzzle", "validate_board"]
