"""Shared builders for the KenKen engine tests: the corpus, small hand-made puzzles, random
valid puzzles, and an independent checker of solutions (it does its own arithmetic, not
through the library's)."""

from __future__ import annotations

import math
import random

from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.kenken.model import Cage
from numgrid.server.kinds.kenken.model import Puzzle

from support.corpus import kind_corpus
from support.corpus import random_latin
from support.facts import Facts

KENKEN = KINDS["kenken"]
corpus, corpus_ids, corpus_puzzle = kind_corpus("kenken")


def puzzle(size: int, *cages: tuple[str, list[tuple[int, int]]]) -> Puzzle:
    """``puzzle(2, ("3+", [(0, 0), (0, 1)]), ...)``: clue strings as printed."""
    built = []
    for label, cells in cages:
        op = label[-1] if label[-1] in "+-x/" else ""
        target = int(label[:-1] if op else label)
        built.append(Cage(target, op, tuple(sorted(cells))))
    return Puzzle(size, tuple(sorted(built, key=lambda c: c.cells[0])))


# ---------------------------------------------------------------- independent checker


def _gives(operation: str, digits: list[int], target: int) -> bool:
    if operation == "+":
        return sum(digits) == target
    if operation == "x":
        return math.prod(digits) == target
    if operation == "-":
        return len(digits) == 2 and abs(digits[0] - digits[1]) == target
    if operation == "/":
        low, high = sorted(digits)
        return len(digits) == 2 and high == low * target
    if len(digits) == 1:
        return digits[0] == target
    # no operation on several cells: any that applies
    ops = "+x-/" if len(digits) == 2 else "+x"
    return any(_gives(op, digits, target) for op in ops)


def rule_violations(p: Puzzle, grid: Grid) -> list[str]:
    """What is wrong with ``grid`` as a solution of ``p`` (empty = nothing)."""
    n = p.size
    if len(grid) != n or any(len(row) != n for row in grid):
        return ["wrong shape"]
    problems = []
    digits = set(range(1, n + 1))
    for r in range(n):
        if set(grid[r]) != digits:
            problems.append(f"row {r} is {grid[r]}")
    for c in range(n):
        column = [grid[r][c] for r in range(n)]
        if set(column) != digits:
            problems.append(f"column {c} is {column}")
    covered = sorted(cell for cage in p.cages for cell in cage.cells)
    if covered != [(r, c) for r in range(n) for c in range(n)]:
        problems.append("the cages do not cover the grid once")
    for cage in p.cages:
        got = [grid[r][c] for r, c in cage.cells]
        if not _gives(cage.operation, got, cage.target):
            problems.append(f"cage {cage.target}{cage.operation} {cage.cells} holds {got}")
    return problems


# ---------------------------------------------------------------- random valid puzzles


def random_partition(size: int, rng: random.Random, max_cells: int = 4) -> list[list]:
    """Connected cages of 1..``max_cells`` cells covering the grid."""
    free = {(r, c) for r in range(size) for c in range(size)}
    cages = []
    for start in sorted(free):
        if start not in free:
            continue
        want = rng.randint(1, max_cells)
        cage = [start]
        free.discard(start)
        while len(cage) < want:
            frontier = sorted(
                {
                    (r + dr, c + dc)
                    for r, c in cage
                    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                    if (r + dr, c + dc) in free
                }
            )
            if not frontier:
                break
            cell = rng.choice(frontier)
            cage.append(cell)
            free.discard(cell)
        cages.append(sorted(cage))
    return cages


def random_puzzle(size: int, seed: int, max_cells: int = 4) -> tuple[Puzzle, Grid]:
    """A valid puzzle with ``solution`` among its solutions (maybe not the only one):
    each cage's operation chosen from what its digits allow, its target computed."""
    rng = random.Random(seed)
    grid = random_latin(size, rng)
    cages = []
    for cells in random_partition(size, rng, max_cells):
        digits = [grid[r][c] for r, c in cells]
        if len(cells) == 1:
            cages.append(Cage(digits[0], "", tuple(cells)))
            continue
        options = [("+", sum(digits)), ("x", math.prod(digits))]
        if len(cells) == 2:
            low, high = sorted(digits)
            options.append(("-", high - low))
            if high % low == 0:
                options.append(("/", high // low))
        op, target = rng.choice(options)
        cages.append(Cage(target, op, tuple(cells)))
    return Puzzle(size, tuple(sorted(cages, key=lambda c: c.cells[0]))), grid


def shows_operations(p: Puzzle) -> bool:
    """Every cage of more than one cell shows its operation (67 of janko's hide some)."""
    return all(len(c.cells) == 1 or c.operation for c in p.cages)


def _trials(results: dict[str, bool]) -> None:
    """Few of the puzzles that show their operations need a trial."""
    shown = [key for key in results if shows_operations(corpus_puzzle(key)[0])]
    assert (len(shown), len(results) - len(shown)) == (255, 67)
    assert sum(not results[key] for key in shown) >= 240


FACTS = Facts(
    sample="kenken-4x4.txt",
    corpus_key="07_5x5",
    two_solutions="2 2\n3+ .\n3+ .\n1 1\n2 2",  # one 3+ cage a row: both latin squares
    differing=frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}),
    broken="2 2\n3+ 2\n1 .\n1 2\n3 1",  # r0c0 and r1c1 share a cage but do not touch
    broken_findings=(("cage_not_connected", ((0, 0), (1, 1)), "cage 3+ at r0c0"),),
    rule_violations=rule_violations,
    size=(4, 4),
    # each row one 45+ cage: every 9x9 latin square
    open_puzzle=lambda: puzzle(9, *(("45+", [(r, c) for c in range(9)]) for r in range(9))),
    corpus_size=322,
    trials=_trials,
    corpus_warnings=frozenset({"operation_missing"}),  # janko.at hides some operations
    formats_without_entries=frozenset({"tatham", "penpa"}),  # a Keen game ID; an m=solve link
)
