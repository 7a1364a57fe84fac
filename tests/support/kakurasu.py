"""Shared builders for the Kakurasu tests: the corpus, small hand-made puzzles, random
valid puzzles, and an independent checker of solutions (it adds up the weights itself,
not through the library)."""

from __future__ import annotations

import random

from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.kakurasu.model import Puzzle

from support.corpus import kind_corpus
from support.facts import Facts
from support.facts import no_trials

KAKURASU = KINDS["kakurasu"]
corpus, corpus_ids, corpus_puzzle = kind_corpus("kakurasu")
# The corpus's 302_5x5, its solution, and the text of both.
SMALL = "5 5\n8 8 9 13 6\n4 5 7 12 10\n"
SMALL_SOLUTION = "5 5\n- - - x -\n- - - - x\nx x - x -\n- - x x x\nx x x x -\n"


def grid(text: str) -> Grid:
    """``"x-- -x-"``: rows of ``x`` (1), ``-`` (-1) and ``.`` (0), split on spaces."""
    value = {"x": 1, "-": -1, ".": 0}
    return tuple(tuple(value[t] for t in row) for row in text.split())


def clues_of(shading: Grid) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row and column clues a shading gives, added up here."""
    rows = tuple(sum(c + 1 for c, v in enumerate(row) if v == 1) for row in shading)
    cols = tuple(
        sum(r + 1 for r, row in enumerate(shading) if row[c] == 1) for c in range(len(shading[0]))
    )
    return rows, cols


def puzzle_of(shading: Grid) -> Puzzle:
    rows, cols = clues_of(shading)
    return Puzzle(len(shading), len(shading[0]), rows, cols)


def rule_violations(p: Puzzle, solution: Grid) -> list[str]:
    """What is wrong with ``solution`` as a solution of ``p`` (empty = nothing)."""
    if len(solution) != p.rows or any(len(row) != p.cols for row in solution):
        return ["wrong shape"]
    if any(v not in (1, -1) for row in solution for v in row):
        return ["a cell neither shaded (1) nor white (-1)"]
    rows, cols = clues_of(solution)
    problems = [
        f"row {r} weighs {got}, not {want}"
        for r, (got, want) in enumerate(zip(rows, p.row_clues, strict=True))
        if want is not None and got != want
    ]
    problems += [
        f"column {c} weighs {got}, not {want}"
        for c, (got, want) in enumerate(zip(cols, p.column_clues, strict=True))
        if want is not None and got != want
    ]
    return problems


def random_puzzle(rows: int, cols: int, seed: int, density: float = 0.5) -> tuple[Puzzle, Grid]:
    """A valid puzzle with ``shading`` among its solutions (maybe not the only one): a
    random shading, and the clues it gives."""
    rng = random.Random(seed)
    shading = tuple(
        tuple(1 if rng.random() < density else -1 for _ in range(cols)) for _ in range(rows)
    )
    return puzzle_of(shading), shading


FACTS = Facts(
    sample="kakurasu-5x5.txt",
    formats_without_entries=frozenset({"penpa"}),  # an m=solve link holds the puzzle only
    corpus_key="547_10x10",
    two_solutions="3 3\n3 3 3\n3 3 3\n",  # a shaded diagonal of 3s, either way
    differing=frozenset((r, c) for r in range(3) for c in range(3)),
    broken="3 3\n1 2 9\n7 2 3\n",  # weights 1-3 add up to 6 at most
    broken_findings=(
        ("impossible_clue", (), "row 0 (clue 7)"),
        ("impossible_clue", (), "column 2 (clue 9)"),
    ),
    rule_violations=rule_violations,
    size=(4, 4),
    open_puzzle=lambda: Puzzle(12, 12, (None,) * 12, (None,) * 12),  # 2**144 shadings
    corpus_size=210,
    trials=no_trials,  # none needs a trial
    picture_band=2,  # the weights and the clues
)
