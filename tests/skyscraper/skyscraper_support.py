"""Shared builders for the Skyscraper tests: the corpus, Tatham's Towers IDs, small
puzzles, random valid puzzles, and an independent checker of solutions (it counts the
towers itself, not through the library)."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

from numgrid.server.core import Grid
from numgrid.server.kinds.skyscraper import formats
from numgrid.server.kinds.skyscraper.model import Puzzle

TESTS = Path(__file__).resolve().parents[1]
CORPUS = TESTS.parents[1] / "shared" / "corpus" / "skyscraper.json"
TOWERS_IDS = TESTS / "data" / "towers-ids.txt"
LOT = -1


def skyscraper_kind():
    from numgrid.server.kinds import KINDS

    return KINDS["skyscraper"]


@functools.cache
def corpus() -> dict[str, dict]:
    """The published Skyscraper corpus: ``{id: {"problem", "solution", ...}}``."""
    return json.loads(CORPUS.read_text())["data"]


def corpus_ids() -> list[str]:
    return sorted(corpus(), key=lambda key: int(key.split("_")[0]))


def corpus_puzzle(key: str) -> tuple[Puzzle, Grid]:
    item = corpus()[key]
    return formats.read_janko(item["problem"]).puzzle, formats.read_solution(item["solution"])


def towers_ids() -> list[tuple[str, str]]:
    """``(params, game ID)`` of the committed sgt-towers IDs."""
    lines = TOWERS_IDS.read_text().splitlines()
    return [tuple(line.split()) for line in lines if line.strip() and not line.startswith("#")]


def puzzle(
    top="",
    bottom="",
    left="",
    right="",
    givens: Grid | None = None,
    *,
    size: int | None = None,
    height: int | None = None,
    diagonals: bool = False,
) -> Puzzle:
    """``puzzle("1 2 3 2", ...)``: clue lines as printed (``-`` or 0 for none)."""
    lines = [
        [0 if t in "-." else int(t) for t in side.split()] for side in (top, bottom, left, right)
    ]
    n = size or max(len(line) for line in lines)
    clues = [tuple(line) if line else (0,) * n for line in lines]
    grid = givens or tuple((0,) * n for _ in range(n))
    return Puzzle(n, height or n, diagonals, *clues, grid)


# ---------------------------------------------------------------- independent checker


def seen(heights) -> int:
    count = tallest = 0
    for h in heights:
        if h > tallest:
            count, tallest = count + 1, h
    return count


def rule_violations(p: Puzzle, grid: Grid) -> list[str]:
    """What is wrong with ``grid`` as a solution of ``p`` (empty = nothing)."""
    n, height = p.size, p.height
    if len(grid) != n or any(len(row) != n for row in grid):
        return ["wrong shape"]
    want = sorted([*range(1, height + 1), *[LOT] * (n - height)])
    lines = {f"row {r}": list(grid[r]) for r in range(n)}
    lines |= {f"column {c}": [grid[r][c] for r in range(n)] for c in range(n)}
    if p.diagonals:
        lines["diagonal 0"] = [grid[k][k] for k in range(n)]
        lines["diagonal 1"] = [grid[k][n - 1 - k] for k in range(n)]
    problems = [f"{name} is {values}" for name, values in lines.items() if sorted(values) != want]
    for r in range(n):
        for c in range(n):
            if p.givens[r][c] and p.givens[r][c] != grid[r][c]:
                problems.append(f"r{r}c{c} is not its given {p.givens[r][c]}")
    views = {
        "top": [[grid[r][c] for r in range(n)] for c in range(n)],
        "left": [list(grid[r]) for r in range(n)],
    }
    views["bottom"] = [line[::-1] for line in views["top"]]
    views["right"] = [line[::-1] for line in views["left"]]
    for side, lines_seen in views.items():
        for i, line in enumerate(lines_seen):
            clue = getattr(p, side)[i]
            if clue and seen(line) != clue:
                problems.append(f"{side} clue {clue} of line {i} sees {seen(line)}")
    return problems


# ---------------------------------------------------------------- random valid puzzles


def random_latin(size: int, rng: random.Random) -> list[list[int]]:
    """A cyclic latin square with rows, columns and symbols shuffled."""
    rows, cols, symbols = list(range(size)), list(range(size)), list(range(1, size + 1))
    rng.shuffle(rows)
    rng.shuffle(cols)
    rng.shuffle(symbols)
    return [[symbols[(r + c) % size] for c in cols] for r in rows]


def random_puzzle(size: int, seed: int, empties: int = 0, keep: float = 0.7) -> tuple[Puzzle, Grid]:
    """A valid puzzle with ``solution`` among its solutions (maybe not the only one): a
    random latin square (its ``empties`` largest symbols made empty lots), each clue kept
    with probability ``keep``, a few givens."""
    rng = random.Random(seed)
    height = size - empties
    grid = tuple(tuple(LOT if v > height else v for v in row) for row in random_latin(size, rng))
    columns = [[grid[r][c] for r in range(size)] for c in range(size)]
    sides = {
        "top": [seen(col) for col in columns],
        "bottom": [seen(col[::-1]) for col in columns],
        "left": [seen(row) for row in grid],
        "right": [seen(row[::-1]) for row in grid],
    }
    clues = [tuple(c if rng.random() < keep else 0 for c in sides[s]) for s in sides]
    givens = tuple(tuple(v if rng.random() < 0.1 else 0 for v in row) for row in grid)
    return Puzzle(size, height, False, *clues, givens), grid
