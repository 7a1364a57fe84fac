"""What the conformance suite knows of Sudoku: its sample, its corpus (16x16) and an
independent checker of solutions (rows, columns, boxes and givens, counted here, not
through the library)."""

from __future__ import annotations

from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS

from support.facts import Facts

SUDOKU = KINDS["sudoku"]
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}


def rule_violations(p, grid: Grid) -> list[str]:
    """What is wrong with ``grid`` as a solution of ``p`` (empty = nothing)."""
    n = p.size
    if len(grid) != n or any(len(row) != n for row in grid):
        return ["wrong shape"]
    digits = set(range(1, n + 1))
    box_rows, box_cols = BOXES[n]
    units = {f"row {r}": [(r, c) for c in range(n)] for r in range(n)}
    units |= {f"column {c}": [(r, c) for r in range(n)] for c in range(n)}
    for top in range(0, n, box_rows):
        for left in range(0, n, box_cols):
            cells = [(top + r, left + c) for r in range(box_rows) for c in range(box_cols)]
            units[f"box at r{top}c{left}"] = cells
    if p.diagonals:
        units["diagonal"] = [(i, i) for i in range(n)]
        units["anti-diagonal"] = [(i, n - 1 - i) for i in range(n)]
    problems = [
        f"{name} holds {[grid[r][c] for r, c in cells]}"
        for name, cells in units.items()
        if {grid[r][c] for r, c in cells} != digits
    ]
    for r, row in enumerate(p.givens):
        for c, given in enumerate(row):
            if given and grid[r][c] != given:
                problems.append(f"the given {given} at r{r}c{c} became {grid[r][c]}")
    return problems


def _no_trials(results: dict[str, bool]) -> None:
    """The published 16x16 puzzles are all explained without a trial."""
    assert not [key for key, trial in results.items() if trial]


FACTS = Facts(
    sample="sudoku-9x9.sdk",
    corpus_key="1051_16x16",
    # the top-right 2x2 of each half swaps: a unique rectangle left open
    two_solutions=".2.4.4.221434321",
    differing=frozenset({(0, 0), (0, 2), (1, 0), (1, 2)}),
    broken="11" + "." * 14,  # two 1s in row 0, and so in box 0
    broken_findings=(
        ("duplicate_given", ((0, 0), (0, 1)), "row 0"),
        ("duplicate_given", ((0, 0), (0, 1)), "box 0"),
    ),
    rule_violations=rule_violations,
    size=(4, 4),
    open_puzzle=lambda: SUDOKU.formats.read("." * 81, None, 100).puzzle,
    corpus_size=92,
    trials=_no_trials,
    formats_without_entries=frozenset({"line", "grid", "janko", "tatham"}),
    corpus_step=4,
)
