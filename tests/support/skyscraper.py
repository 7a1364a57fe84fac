"""Shared builders for the Skyscraper tests: the corpus, Tatham's Towers IDs, small
puzzles, random valid puzzles, and an independent checker of solutions (it counts the
towers itself, not through the library)."""

from __future__ import annotations

import random

from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.skyscraper.model import Puzzle

from support import DATA
from support import PUZZLES
from support.corpus import kind_corpus
from support.corpus import random_latin
from support.facts import Facts

SKYSCRAPER = KINDS["skyscraper"]
corpus, corpus_ids, corpus_puzzle = kind_corpus("skyscraper")
TOWERS_IDS = DATA / "towers-ids.txt"
LOT = -1


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
    """Towers seen along ``heights``: each one taller than all before it (a lot hides none)."""
    heights = list(heights)
    return sum(1 for i, h in enumerate(heights) if h > 0 and all(h > e for e in heights[:i]))


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


def _trials(results: dict[str, bool]) -> None:
    assert sum(results.values()) <= 40  # 34 of the 352 need one


FACTS = Facts(
    sample="skyscraper-5x5.txt",
    corpus_key="02_5x5",
    two_solutions="2 2 2\n- -\n- -\n- -\n- -\n- -\n- -\n",  # no clue: both latin squares
    differing=frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}),
    broken=(PUZZLES / "skyscraper-5x5.txt").read_text().replace("1 3 2 2 3", "7 3 2 2 3", 1),
    broken_findings=(("clue_too_large", ((-1, 0),), ""),),
    rule_violations=rule_violations,
    size=(4, 4),
    open_puzzle=lambda: puzzle(size=9),  # no clue: every 9x9 latin square
    corpus_size=352,
    trials=_trials,
    picture_band=2,  # the clues around the grid
    corpus_warnings=frozenset({"variant"}),  # diagonals, empty lots
    formats_without_entries=frozenset(
        {"tatham", "penpa", "puzzlink"}
    ),  # IDs and links: givens only
)
