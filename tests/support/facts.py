"""What the conformance suite (``tests/conformance/``) knows of a kind beyond its ``Kind``
value, written by hand in ``tests/support/<kind>.py`` as ``FACTS``: a new kind adds that
file, and every test of the suite runs for it."""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import REGISTRY

from support import PUZZLES

MAX_CELLS = 100_000


def _has_facts(kind) -> bool:
    return importlib.util.find_spec(f"support.{kind.name}") is not None


# Every kind served whose FACTS are written, in the registry's order; and those without.
KINDS = tuple(kind for kind in REGISTRY if _has_facts(kind))
UNCOVERED = tuple(kind.name for kind in REGISTRY if not _has_facts(kind))


@dataclass(frozen=True)
class Facts:
    # puzzles/<sample>, one solution, in puzzles/<sample without its suffix>.solution.txt
    sample: str
    corpus_key: str  # a corpus puzzle the RPC tests solve
    two_solutions: str  # a puzzle text with several solutions
    differing: frozenset[Cell]  # the cells where the first two solutions differ
    broken: str  # a text with structural errors
    # Each error of ``broken``: (code, cells, group), in the order reported
    broken_findings: tuple[tuple[str, tuple[Cell, ...], str], ...]
    # The independent checker: what is wrong with a grid as a solution (empty: nothing)
    rule_violations: Callable[[Any, Grid], list[str]]
    size: tuple[int, int]  # rows and columns of the puzzles the generate tests make
    # A puzzle with more solutions than any search lists: what budgets and cancels stop
    open_puzzle: Callable[[], Any]
    corpus_size: int  # puzzles in the corpus
    # Given {corpus id: its explanation needed a trial}, asserts how few may need one
    trials: Callable[[dict[str, bool]], None]
    corpus_warnings: frozenset[str] = frozenset()  # warnings the published puzzles carry
    formats_without_entries: frozenset[str] = frozenset()  # they hold the puzzle only
    # The explanation and picture checks take every corpus_step-th puzzle of the corpus
    corpus_step: int = 1
    picture_band: int = 0  # rows (and columns) of clues a picture draws around the grid
    # Corpus puzzles published with both diagonals all different, which the data does not
    # mark: the suite reads them with that rule (UNIQUE), and checks that without it they
    # have several solutions
    unmarked_x: frozenset[str] = frozenset()


def no_trials(results: dict[str, bool]) -> None:
    """``Facts.trials`` of a kind whose published puzzles all explain without a trial."""
    assert not [key for key, trial in results.items() if trial]


def latin_violations(p, grid: Grid, units: dict[str, list[Cell]]) -> list[str]:
    """What is wrong with ``grid`` as a solution of ``p``, a square puzzle of
    ``p.size``, ``p.givens`` and ``p.diagonals`` (empty = nothing): each of ``units``
    (name: cells, its regions; the rows, columns and marked diagonals are added here) must
    hold 1 to ``p.size`` once, and each given stays; counted here, not through the library."""
    n = p.size
    if len(grid) != n or any(len(row) != n for row in grid):
        return ["wrong shape"]
    units = {f"row {r}": [(r, c) for c in range(n)] for r in range(n)} | units
    units = {f"column {c}": [(r, c) for r in range(n)] for c in range(n)} | units
    if p.diagonals:
        units["diagonal"] = [(i, i) for i in range(n)]
        units["anti-diagonal"] = [(i, n - 1 - i) for i in range(n)]
    problems = [
        f"{name} holds {[grid[r][c] for r, c in cells]}"
        for name, cells in units.items()
        if sorted(grid[r][c] for r, c in cells) != list(range(1, n + 1))
    ]
    for r, row in enumerate(p.givens):
        for c, given in enumerate(row):
            if given and grid[r][c] != given:
                problems.append(f"the given {given} at r{r}c{c} became {grid[r][c]}")
    return problems


def errors(kind, text: str) -> list[str]:
    """The error messages of reading ``text`` as ``kind`` (its format detected), then of
    checking its puzzle."""
    try:
        board = kind.formats.read(text, None, None)
    except PuzzleError as e:
        return [f.message for f in e.findings]
    return [f.message for f in kind.checks.check_puzzle(board.puzzle, None, None) if f.is_error]


def puzzle_of(kind, text: str):
    """The puzzle of a text of the kind."""
    return kind.formats.read(text, None, MAX_CELLS).puzzle


def facts(kind) -> Facts:
    """``FACTS`` of ``tests/support/<kind>.py``."""
    return importlib.import_module(f"support.{kind.name}").FACTS


def assert_sound(steps, solution) -> None:
    for step in steps:
        for (r, c), value in step.placements:
            assert solution[r][c] == value, step.explanation
        for (r, c), value in step.eliminations:
            assert solution[r][c] != value, step.explanation
        # a sentence: a capital or a digit first, or a cell's name (r2c3)
        opening = re.match(r"[A-Z0-9]|r\d+c\d+", step.explanation)
        assert opening and step.explanation.endswith("."), step.explanation


def sample(kind) -> tuple[Board, tuple]:
    """The kind's sample puzzle (``puzzles/``) and its published solution."""
    path = PUZZLES / facts(kind).sample
    board = kind.formats.read(path.read_text(), None, MAX_CELLS)
    solution = kind.formats.read_solution(path.with_suffix(".solution.txt").read_text())
    return board, solution


def entered(kind, puzzle, solution, fmt: str | None = None) -> Board:
    """The board of ``puzzle`` with ``solution`` entered, written in ``fmt`` (by default
    the first format that holds entries) and read back: the entries as the kind keeps
    them (a given's cell, e.g., holds no entry)."""
    if fmt is None:
        fmt = next(f for f in kind.formats.FORMATS if f not in facts(kind).formats_without_entries)
    board = kind.formats.read(kind.formats.write(Board(puzzle, solution), fmt), fmt, MAX_CELLS)
    assert board.puzzle == puzzle
    for values, wanted in zip(board.entries, solution, strict=True):
        assert all(v in (0, w) for v, w in zip(values, wanted, strict=True))
    return board
