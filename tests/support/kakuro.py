"""Shared builders for the Kakuro tests: sample files, the corpus, small puzzles, and an
independent checker of solutions (it reads the clues itself, not through the library)."""

from __future__ import annotations

from numgrid.server.core import Board
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro.model import WHITE
from numgrid.server.kinds.kakuro.model import Puzzle

from support import DATA
from support import PUZZLES
from support.corpus import kind_corpus
from support.facts import Facts
from support.facts import no_trials

KAKURO = KINDS["kakuro"]
corpus, corpus_ids, corpus_puzzle = kind_corpus("kakuro")

# A valid 3x3 with one solution: 1 2 / 3 4.
VALID_3X3 = """\
3 3
- 4, 6,
,3 0 0
,7 0 0
"""

# Seed 001's Figure 1 (FIGURE_1 in kakuro/test_kakuro_logic.py) with other clues, so that
# techniques 1-6 stall: only the region sum of the block (5 + 6 + 14 + 33 - (10 + 24 + 9 +
# 7) = 8) places the neck, and then the chain completes. (The figure's own block falls to
# combinations: 4 and 3 in two cells.) The CLI tests and docs/hints.md read its file.
NECK = (DATA / "region-sum-neck.txt").read_text()


def sample(name: str) -> str:
    """The text of a file in the repository's ``puzzles/`` directory."""
    return (PUZZLES / name).read_text()


def board(text: str, fmt: str | None = None, **kwargs) -> Board:
    return formats.read(text, fmt, **kwargs)


def puzzle(text: str) -> Puzzle:
    return formats.read(text).puzzle


def solution_grid(name: str) -> Grid:
    return formats.read_solution(sample(name))


def with_entries(puzzle_: Puzzle, changes: dict[tuple[int, int], int], base: Grid | None = None):
    """A board of ``puzzle_`` whose entries are ``base`` (default: empty) with ``changes``."""
    grid = [list(row) for row in (base or puzzle_.empty_grid())]
    for (r, c), digit in changes.items():
        grid[r][c] = digit
    return Board(puzzle_, tuple(tuple(row) for row in grid))


def open_block(row_sums: list[int], col_sums: list[int]) -> str:
    """Janko text of an all-white ``len(row_sums) x len(col_sums)`` block with its clues."""
    lines = [f"{len(row_sums) + 1} {len(col_sums) + 1}"]
    lines.append("- " + " ".join(f"{s}," for s in col_sums))
    lines += [f",{s} " + " ".join("0" * len(col_sums)) for s in row_sums]
    return "\n".join(lines) + "\n"


def codes(findings) -> list[tuple[str, tuple]]:
    """``[(code, cells)]`` of findings, in the order reported."""
    return [(f.code, f.cells) for f in findings]


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.is_error]


# ---------------------------------------------------------------- independent checker


def clued_runs(squares) -> list[tuple[int, list[tuple[int, int]]]]:
    """Every clue with the cells it governs, read straight off the squares."""
    rows, cols = len(squares), len(squares[0])
    found = []
    for r in range(rows):
        for c in range(cols):
            sq = squares[r][c]
            if sq is WHITE:
                continue
            for clue, (dr, dc) in ((sq.across, (0, 1)), (sq.down, (1, 0))):
                if clue is None:
                    continue
                cells = []
                rr, cc = r + dr, c + dc
                while rr < rows and cc < cols and squares[rr][cc] is WHITE:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                found.append((clue, cells))
    return found


def rule_violations(puzzle_: Puzzle, grid: Grid) -> list[str]:
    """What is wrong with ``grid`` as a complete solution of ``puzzle_`` (empty = nothing)."""
    problems = []
    squares = puzzle_.squares
    if len(grid) != len(squares) or any(
        len(g) != len(s) for g, s in zip(grid, squares, strict=True)
    ):
        return ["wrong shape"]
    for r, row in enumerate(squares):
        for c, sq in enumerate(row):
            value = grid[r][c]
            if sq is WHITE and not 1 <= value <= 9:
                problems.append(f"white ({r},{c}) holds {value}")
            if sq is not WHITE and value != 0:
                problems.append(f"black ({r},{c}) holds {value}")
    for clue, cells in clued_runs(squares):
        digits = [grid[r][c] for r, c in cells]
        if len(set(digits)) != len(digits):
            problems.append(f"run {cells} repeats a digit: {digits}")
        if sum(digits) != clue:
            problems.append(f"run {cells} adds up to {sum(digits)}, not {clue}")
    return problems


FACTS = Facts(
    sample="kakuro-10x12.txt",
    formats_without_entries=frozenset({"penpa", "puzzlink"}),  # links hold the puzzle only
    corpus_key="162_12x12",
    two_solutions="3 3\n- 4, 4,\n,4 0 0\n,4 0 0\n",  # 1 3 / 3 1 and 3 1 / 1 3
    differing=frozenset({(1, 1), (1, 2), (2, 1), (2, 2)}),
    broken=sample("broken-clues.txt"),
    broken_findings=(
        ("impossible_clue", ((1, 0), (1, 1), (1, 2)), "across 2 at r1c0"),
        ("run_without_clue", ((2, 3), (3, 3)), "down run at r1c3"),
    ),
    rule_violations=rule_violations,
    size=(8, 8),
    open_puzzle=lambda: puzzle(open_block([28] * 7, [28] * 7)),  # 1-7 in every line
    corpus_size=749,
    trials=no_trials,  # none of the sample needs a trial
    corpus_warnings=frozenset({"one_cell_run"}),
    corpus_step=10,  # a tenth: all 749 take a minute (benchmarks/explain.py does all)
)
