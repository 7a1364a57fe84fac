"""Is a KenKen well formed, and what is right or wrong on a player's board?

:func:`check_puzzle` reports every structural problem at once (not just the first);
:func:`validate_board` is what a KenKen app runs after every move, per row, column and
cage, and per cell.
"""

from __future__ import annotations

import math
from collections import defaultdict

from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupState
from numgrid.server.core import cell_name
from numgrid.server.kinds.judging import board_report
from numgrid.server.kinds.judging import cell_list
from numgrid.server.kinds.judging import connected_parts
from numgrid.server.kinds.judging import finding
from numgrid.server.kinds.judging import listed_twice
from numgrid.server.kinds.latin import duplicates
from numgrid.server.kinds.latin import judge_line

from . import arith
from .model import ADD
from .model import DIVIDE
from .model import MAX_SIZE
from .model import MULTIPLY
from .model import NONE
from .model import OPERATIONS
from .model import SUBTRACT
from .model import Cage
from .model import Puzzle

_SYMBOL = {ADD: "+", SUBTRACT: "-", MULTIPLY: "x", DIVIDE: "/"}


def hidden(cage: Cage) -> bool:
    """A cage of several cells without an operation: its operation is *hidden*, any that
    gives the target (janko.at publishes such puzzles; the corpus also lost the division
    signs of others)."""
    return cage.operation == NONE and len(cage.cells) > 1


def _value(cage: Cage, digits) -> int | None:
    """What a complete cage's digits give (for a hidden operation: the target if some
    operation makes it, else None)."""
    if hidden(cage):
        return cage.target if arith.gives(NONE, digits, cage.target) else None
    return arith.value(cage.operation, digits)


def _hidden_symbols(cells: int) -> str:
    return ", ".join(_SYMBOL[op] for op in arith.operations_of(NONE, cells))


def _listing(values) -> str:
    """``5``, ``5 and 4``, ``5, 4 and 1``."""
    values = [str(v) for v in values]
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}"


def _making(operation: str, cells: int, n: int) -> str:
    """How a target is made, for messages: ``adding 3 digits 1-6``."""
    if operation == ADD:
        return f"adding {cells} digits 1-{n}"
    if operation == MULTIPLY:
        return f"multiplying {cells} digits 1-{n}"
    if operation == SUBTRACT:
        return f"subtracting two digits 1-{n}"
    return f"dividing two digits 1-{n}"


def _why_impossible(cage: Cage, n: int) -> str:
    """Why no layout of ``cage`` (of a sound shape and operation) exists."""
    k = len(cage.cells)
    if hidden(cage):
        ops = _hidden_symbols(k)
        return f"{cage.name}: {cage.target} cannot be made from {k} digits 1-{n} with any of {ops}"
    if cage.operation == NONE or k == 1:
        return f"{cage.name}: {cage.target} is not a digit 1-{n}"
    making = _making(cage.operation, k, n)
    low, high = arith.range_of(cage.operation, k, n)
    if not low <= cage.target <= high:
        return f"{cage.name}: {cage.target} cannot be made by {making} (possible {low}-{high})"
    # The same cage on a diagonal has no two cells in one line: may the digits repeat?
    apart = Cage(cage.target, cage.operation, tuple((i, i) for i in range(k)))
    if _possible(apart, n):
        return (
            f"{cage.name}: {cage.target} can only be made by {making} "
            "with a digit repeated in a row or column"
        )
    return f"{cage.name}: {cage.target} cannot be made by {making}"


def _possible(cage: Cage, n: int) -> bool:
    """Has the cage a layout? Listed up to :data:`.arith.MAX_LAYOUTS`; a cage with more
    is possible as far as its target is within reach (the engines decide the rest)."""
    try:
        return bool(arith.count(cage, n))
    except arith.TooManyLayouts:
        return arith.may_complete(cage, n, [0] * len(cage.cells))


def _cage_findings(index: int, cage: Cage, n: int) -> list[Finding]:
    if not cage.cells:
        return [finding("empty_cage", f"cage {index} ({cage.label}) has no cells", [])]
    found = []
    inside = [(r, c) for r, c in cage.cells if 0 <= r < n and 0 <= c < n]
    outside = [cell for cell in cage.cells if cell not in inside]
    if outside:
        found.append(
            finding(
                "cell_outside_grid",
                f"{cage.name}: {cell_list(outside)} outside the {n}x{n} grid",
                outside,
                cage,
            )
        )
    repeated = listed_twice(cage.cells)
    if repeated:
        found.append(
            finding(
                "duplicate_cell",
                f"{cage.name}: lists {cell_list(repeated)} more than once",
                repeated,
                cage,
            )
        )
    parts = connected_parts(inside)
    if len(parts) > 1:
        shown = "; ".join(cell_list(part) for part in parts)
        found.append(
            finding(
                "cage_not_connected",
                f"{cage.name}: its cells are not connected ({len(parts)} separate parts: {shown})",
                inside,
                cage,
            )
        )
    k = len(cage.cells)
    sound = not (outside or repeated)
    if cage.operation not in OPERATIONS:
        found.append(
            finding(
                "unknown_operation",
                f"{cage.name}: unknown operation {cage.operation!r} (expected +, -, x, / or none)",
                cage.cells,
                cage,
            )
        )
        sound = False
    elif cage.operation in (SUBTRACT, DIVIDE) and k != 2:
        found.append(
            finding(
                "operation_needs_two_cells",
                f"{cage.name}: {cage.operation} needs exactly two cells, not {k}",
                cage.cells,
                cage,
            )
        )
        sound = False
    elif hidden(cage):
        ops = _hidden_symbols(k)
        found.append(
            finding(
                "operation_missing",
                f"{cage.name}: {k} cells but no operation; read as hidden (any of {ops} "
                f"that gives {cage.target})",
                cage.cells,
                cage,
                warning=True,
            )
        )
    elif k == 1 and cage.operation != NONE:
        found.append(
            finding(
                "one_cell_operation",
                f"{cage.name}: a one-cell cage with an operation; its digit is the target",
                cage.cells,
                cage,
                warning=True,
            )
        )
    if cage.target < 1:
        found.append(
            finding(
                "bad_target",
                f"{cage.name}: target {cage.target} is not a positive number",
                cage.cells[:1],
                cage,
            )
        )
    elif sound and not _possible(cage, n):
        found.append(finding("impossible_target", _why_impossible(cage, n), cage.cells, cage))
    return found


def _coverage_findings(puzzle: Puzzle) -> list[Finding]:
    cages_of: dict[Cell, list[Cage]] = defaultdict(list)
    for cage in puzzle.cages:
        for cell in dict.fromkeys(cage.cells):
            cages_of[cell].append(cage)
    found = []
    for cell in puzzle.cells:
        mine = cages_of.get(cell, [])
        if not mine:
            found.append(finding("cell_without_cage", f"{cell_name(cell)} is in no cage", [cell]))
        elif len(mine) > 1:
            found.append(
                finding(
                    "cell_in_two_cages",
                    f"{cell_name(cell)} is in {len(mine)} cages "
                    f"({_listing([cage.name for cage in mine[:3]])}"
                    f"{f' and {len(mine) - 3} more' if len(mine) > 3 else ''})",
                    [cell],
                )
            )
    return found


def _entry_findings(puzzle: Puzzle, entries) -> list[Finding]:
    n = puzzle.size
    if len(entries) != n or any(len(row) != n for row in entries):
        shape = f"{len(entries)} rows of {', '.join(sorted({str(len(r)) for r in entries}))}"
        return [finding("bad_entries", f"the entries are not {n}x{n} ({shape})", [])]
    found = []
    for cell in puzzle.cells:
        digit = entries[cell[0]][cell[1]]
        if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= n:
            found.append(
                finding(
                    "bad_digit",
                    f"{cell_name(cell)}: entered value {digit!r} is not a digit 1-{n}",
                    [cell],
                )
            )
    return found


def check_puzzle(
    puzzle: Puzzle, entries: Grid | None = None, max_cells: int | None = None
) -> list[Finding]:
    """Every structural problem (errors) and oddity (warnings) of a puzzle and its entries."""
    n = puzzle.size
    if not 1 <= n <= MAX_SIZE:
        return [finding("bad_size", f"size {n} is not 1 to {MAX_SIZE}", [])]
    if max_cells is not None and n * n > max_cells:
        return [
            finding(
                "grid_too_large",
                f"grid of {n}x{n} = {n * n} cells is over the limit of {max_cells} cells",
                [],
            )
        ]
    found: list[Finding] = []
    for index, cage in enumerate(puzzle.cages):
        found.extend(_cage_findings(index, cage, n))
    found.extend(_coverage_findings(puzzle))
    if entries is not None:
        found.extend(_entry_findings(puzzle, entries))
    return found


# ---------------------------------------------------------------- board validation


def _apart(a: Cell, b: Cell) -> bool:
    return a[0] != b[0] and a[1] != b[1]


def _complete_message(cage: Cage, digits: list[int], value: int | None) -> str:
    if hidden(cage):
        ops = _hidden_symbols(len(digits))
        return (
            f"{cage.name}: complete but {_listing(digits)} give {cage.target} under none of {ops}"
        )
    if value is not None:
        return f"{cage.name}: complete but gives {value}, not {cage.target}"
    if cage.operation == DIVIDE and len(digits) == 2:
        return (
            f"{cage.name}: complete but {max(digits)} / {min(digits)} is not a whole "
            f"number (the target is {cage.target})"
        )
    return f"{cage.name}: complete but its digits {_listing(digits)} cannot give {cage.target}"


def _over_message(cage: Cage, filled: list[int], empty: int, n: int) -> str:
    one = len(filled) == 1
    entries = f"the entr{'y' if one else 'ies'} {_listing(filled)}"
    left = f"{empty} cell{'s' if empty > 1 else ''} left"
    if cage.operation == ADD:
        total = sum(filled)
        if total > cage.target:
            return f"{cage.name}: {entries} already pass{'es' if one else ''} {cage.target}"
        if total + empty > cage.target:
            return (
                f"{cage.name}: after {entries}, {cage.target - total} is too little for the {left}"
            )
        if total + empty * n < cage.target:
            return (
                f"{cage.name}: {entries} cannot reach {cage.target} with {left} (at most {n} each)"
            )
    if cage.operation == MULTIPLY:
        product = math.prod(filled)
        if cage.target % product:
            made = entries if one else f"{entries} multiply to {product}, which"
            return f"{cage.name}: {made} does not go into {cage.target}"
        if product * n**empty < cage.target:
            return (
                f"{cage.name}: {entries} cannot reach {cage.target} with {left} (at most {n} each)"
            )
    if hidden(cage):
        return (
            f"{cage.name}: with {entries}, no digits 1-{n} in the {left} give "
            f"{cage.target} under any operation"
        )
    if cage.operation in (SUBTRACT, DIVIDE) and one:
        return (
            f"{cage.name}: no digit 1-{n} goes with {entries} to give {cage.target} "
            f"under {_SYMBOL[cage.operation]}"
        )
    return (
        f"{cage.name}: no digits 1-{n} in the {left} make {entries} give {cage.target} "
        "without repeating a digit in a row or column"
    )


def _judge_cage(cage: Cage, entries: Grid, n: int) -> tuple[GroupReport, list[Finding]]:
    digits = [entries[r][c] for r, c in cage.cells]
    filled = [d for d in digits if d]
    dups = duplicates(cage.cells, entries, _apart)
    cells = tuple(sorted(cell for held in dups.values() for cell in held))
    complete = len(filled) == len(digits)
    findings = []
    total = 0
    if complete:
        value = _value(cage, digits)
        total = value or 0
        state = GroupState.CORRECT if value == cage.target else GroupState.WRONG
        if state is GroupState.WRONG:
            message = _complete_message(cage, digits, value)
            findings.append(finding("wrong_cage", message, cage.cells, cage))
    elif filled and not arith.may_complete(cage, n, digits):
        state = GroupState.OVER
        message = _over_message(cage, filled, len(digits) - len(filled), n)
        filled_cells = [cell for cell, d in zip(cage.cells, digits, strict=True) if d]
        findings.append(finding("cage_impossible", message, filled_cells, cage))
    else:
        state = GroupState.INCOMPLETE
    if dups:
        state = GroupState.DUPLICATE
    return GroupReport(cage, state, total, cells), findings


def validate_board(board: Board, solution: Grid | None = None) -> BoardReport:
    """Judge every row, column and cage and every cell of a board; with ``solution``,
    also list the entries that differ from it."""
    puzzle, entries = board.puzzle, board.entries
    judged = [judge_line(line, entries) for line in puzzle.lines]
    judged += [_judge_cage(cage, entries, puzzle.size) for cage in puzzle.cages]
    solved = None if judged else False
    return board_report(board, puzzle.cells, entries, judged, solution, solved)


__all__ = ["check_puzzle", "hidden", "validate_board"]
