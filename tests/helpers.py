"""Shared builders for the Kakuro tests: sample files, the corpus, small puzzles, and an
independent checker of solutions (it reads the clues itself, not through the library)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from numgrid.server.core import Board, Finding, Grid
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro.model import WHITE, Puzzle

KAKURO = KINDS["kakuro"]
REPO = Path(__file__).resolve().parents[1]
PUZZLES = REPO / "puzzles"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

# A valid 3x3 with one solution: 1 2 / 3 4.
VALID_3X3 = """\
3 3
- 4, 6,
,3 0 0
,7 0 0
"""


def sample(name: str) -> str:
    """The text of a file in the repository's ``puzzles/`` directory."""
    return (PUZZLES / name).read_text()


def board(text: str, fmt: str | None = None, **kwargs) -> Board:
    return formats.read(text, fmt, **kwargs)


def puzzle(text: str) -> Puzzle:
    return formats.read(text).puzzle


def solution_grid(name: str) -> Grid:
    return formats.read_solution(sample(name))


@functools.cache
def corpus_file(kind: str) -> Path:
    """A kind's corpus file: ``<name>.json``, else the dataset whose ``name`` is the
    kind's title (``JigsawSudoku`` for "Jigsaw Sudoku")."""
    path = CORPUS / f"{kind}.json"
    if path.is_file():
        return path
    title = KINDS[kind].title.replace(" ", "").lower()
    for other in sorted(CORPUS.glob("*.json")):
        with other.open() as f:
            head = f.read(200)
        named = re.search(r'"name"\s*:\s*"([^"]*)"', head)
        if named and named.group(1).replace(" ", "").lower() == title:
            return other
    return path


@functools.cache
def corpus() -> dict[str, dict]:
    """The published Kakuro corpus: ``{id: {"problem", "solution", ...}}``."""
    data = json.loads((CORPUS / "kakuro.json").read_text())
    return data["data"]


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
