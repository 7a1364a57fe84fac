"""Killer Sudoku's native engine: the units family's bitmask engine
(:mod:`numgrid.server.kinds.units.native`) on the grid's units with the cages as groups
of different digits, and the cages' sums as its ``extra`` rule: in the fixpoint, each
cage keeps the combinations of its sum (:mod:`..cagesums`) that every one of its cells
can take a digit of and whose digits its cells can all hold, and each cell of it keeps
only the digits of those combinations."""

from __future__ import annotations

import functools

from numgrid.server.core import Budget, Grid, SearchResult
from numgrid.server.kinds import cagesums
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.native import Extra

from .model import Cage, Puzzle


@functools.lru_cache(maxsize=256)
def cage_rule(n: int, cages: tuple[Cage, ...]) -> Extra:
    """The sums of ``cages`` as the engine's ``extra`` rule for an N x N grid."""
    width = n + 1
    digits = (1 << n) - 1
    plan = [
        (
            tuple(width * (r * n + c) for r, c in cage.cells),
            cagesums.combos(cage.sum, len(cage.cells), n),
        )
        for cage in cages
        if len(cage.cells) > 1
    ]
    # a one-cell cage holds its sum: fixed once, at the start (see :func:`search`)

    def extra(pos: int) -> int | None:
        for shifts, combos in plan:
            masks = [(pos >> s) & digits for s in shifts]
            union = 0
            for m in masks:
                union |= m
            allowed = 0
            for combo in combos:
                if combo & ~union:
                    continue
                for m in masks:
                    if not m & combo:
                        break
                else:
                    allowed |= combo
            if not allowed:
                return None
            if union & ~allowed:
                for s, m in zip(shifts, masks, strict=True):
                    if m & ~allowed:
                        if not m & allowed:
                            return None
                        pos &= ~((m & ~allowed) << s)
        return pos

    return extra


def givens_with_singles(puzzle: Puzzle, fixed: Grid | None) -> list[int]:
    """The givens, the entries held and each one-cell cage's sum, per cell index (a sum
    out of 1..N, or clashing with a given, makes the cell impossible: -1)."""
    flat = native.merged(puzzle.givens, fixed)
    n = puzzle.size
    for cage in puzzle.cages:
        if len(cage.cells) == 1:
            r, c = cage.cells[0]
            i = r * n + c
            if not 1 <= cage.sum <= n or (flat[i] and flat[i] != cage.sum):
                flat[i] = -1
            else:
                flat[i] = cage.sum
    return flat


def search(
    puzzle: Puzzle, *, limit: int = 2, fixed: Grid | None = None, budget: Budget | None = None
) -> SearchResult:
    """Up to ``limit`` solutions with the givens and ``fixed`` entries held."""
    givens = givens_with_singles(puzzle, fixed)
    if any(
        len(cage.cells) > 1 and not cagesums.combos(cage.sum, len(cage.cells), puzzle.size)
        for cage in puzzle.cages
    ):
        givens = [-1] * len(givens)  # a sum no digits make: no solution
    rule = cage_rule(puzzle.size, puzzle.cages)
    return native.search_cells(puzzle.cage_shape, givens, limit=limit, budget=budget, extra=rule)
