"""Shared builders for the units ladder tests: corpus lines as puzzles, their solutions
(found by a search, checked against the rules here), and a checker of steps against a
known solution."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from numgrid.server.core import Step
from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.shape import Shape
from numgrid.server.kinds.units.shape import shape
from numgrid.server.kinds.units.techniques_chains import solve

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
SEVENTEEN = CORPUS / "sudoku-17clue-sample.txt"
TOP = CORPUS / "sudoku-top1465.txt"


@dataclass(frozen=True)
class Puzzle:
    """What the ladder reads of a puzzle."""

    shape: Shape
    givens: tuple[int, ...]
    unique: bool = True


@functools.cache
def lines(path: Path) -> tuple[str, ...]:
    """The puzzles of a one-a-line file (81 characters, ``.`` or ``0`` empty)."""
    text = path.read_text().splitlines()
    return tuple(line.strip() for line in text if line.strip() and not line.startswith("#"))


def puzzle(line: str, grid: Shape | None = None) -> Puzzle:
    n = round(len(line) ** 0.5)
    grid = grid or shape(n, (3, 3) if n == 9 else None)
    return Puzzle(grid, tuple(0 if ch in ".0" else int(ch) for ch in line))


def solution(p: Puzzle) -> list[int]:
    """The puzzle's one solution (asserted unique and valid)."""
    pos = ladder.position(p)
    found = solve(pos, list(pos.masks), 2)
    assert len(found) == 1, f"{len(found)} solutions"
    sol = found[0]
    for unit in p.shape.units:
        assert sorted(sol[i] for i in unit.cells) == list(range(1, p.shape.size + 1))
    assert all(not g or g == s for g, s in zip(p.givens, sol, strict=True))
    return sol


def wrong(step: Step, sol: list[int], n: int) -> list[str]:
    """What a step gets wrong against a solution: a placement of another digit, an
    elimination of the solution's digit."""
    out = []
    for (r, c), d in step.placements:
        if sol[r * n + c] != d:
            out.append(f"places {d} in r{r}c{c} (solution {sol[r * n + c]}): {step.explanation}")
    for (r, c), d in step.eliminations:
        if sol[r * n + c] == d:
            out.append(f"removes {d} from r{r}c{c}, the solution's digit: {step.explanation}")
    return out
