"""What the conformance suite knows of Killer Sudoku: its sample (a Solo game ID's
puzzle), its corpus (4x4, 6x6, 9x9; ten 9x9 published as Killer-X, which the data does
not mark) and an independent checker of solutions (rows, columns, boxes, cages: their
digits different and their sums, and givens, counted here)."""

from __future__ import annotations

from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS

from support.facts import Facts
from support.facts import latin_violations

KILLER = KINDS["killer"]
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}

# 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1, every cell its own cage but r0c0-r0c1 and
# r2c0-r2c1 (3 each): the 1 and the 2 of both swap
TWO = "4 4 K\n3 - 3 4\n3 4 1 2\n3 - 4 3\n4 3 2 1\n1 1 2 3\n4 5 6 7\n8 8 9 10\n11 12 13 14\n"
# every row a cage of 10, but row 0 cut in two: 8 and 2 in two cells of 1-4 (3 to 7)
BROKEN = "4 4 K\n8 - 2 -\n10 - - -\n10 - - -\n10 - - -\n1 1 2 2\n3 3 3 3\n4 4 4 4\n5 5 5 5\n"
# nine cages of nine cells, the rows: every Sudoku grid fits
OPEN = (
    "9 9 K\n"
    + "45 - - - - - - - -\n" * 9
    + "".join(f"{' '.join([str(r + 1)] * 9)}\n" for r in range(9))
)


def rule_violations(p, grid: Grid) -> list[str]:
    """What is wrong with ``grid`` as a solution of ``p`` (empty = nothing)."""
    box_rows, box_cols = BOXES[p.size]
    boxes = {
        f"box at r{top}c{left}": [
            (top + r, left + c) for r in range(box_rows) for c in range(box_cols)
        ]
        for top in range(0, p.size, box_rows)
        for left in range(0, p.size, box_cols)
    }
    problems = latin_violations(p, grid, boxes)
    if problems:
        return problems
    for cage in p.cages:
        digits = [grid[r][c] for r, c in cage.cells]
        if len(set(digits)) != len(digits) or sum(digits) != cage.sum:
            problems.append(f"the cage of {cage.sum} at {cage.cells[0]} holds {digits}")
    return problems


def trials(results: dict[str, bool]) -> None:
    """Most published puzzles explain without a trial (the figure is in the docs)."""
    needing = [key for key, trial in results.items() if trial]
    assert len(needing) <= len(results) // 5, needing


FACTS = Facts(
    sample="killer-9x9.txt",
    corpus_key="2_4x4",
    two_solutions=TWO,
    differing=frozenset({(0, 0), (0, 1), (2, 0), (2, 1)}),
    broken=BROKEN,
    broken_findings=(
        ("impossible_sum", ((0, 0), (0, 1)), "cage 1 (8: r0c0 and r0c1)"),
        ("impossible_sum", ((0, 2), (0, 3)), "cage 2 (2: r0c2 and r0c3)"),
    ),
    rule_violations=rule_violations,
    size=(4, 4),
    open_puzzle=lambda: KILLER.formats.read(OPEN, None, 100).puzzle,
    corpus_size=607,
    trials=trials,
    formats_without_entries=frozenset({"janko", "line", "tatham", "penpa", "sudokuwiki"}),
    corpus_step=5,
    unmarked_x=frozenset(f"{n}_9x9" for n in (196, 198, 248, 716, 718, 719, 720, 726, 727, 728)),
)
