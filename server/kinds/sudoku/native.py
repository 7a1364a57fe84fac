"""Sudoku's native engine: the units family's (:mod:`numgrid.server.kinds.units.native`)."""

from __future__ import annotations

from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchResult
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.model import Puzzle


def search(
    puzzle: Puzzle,
    *,
    limit: int = 2,
    fixed: Grid | None = None,
    budget: Budget | None = None,
    other_than: Grid | None = None,
) -> SearchResult:
    """Up to ``limit`` solutions with the givens and ``fixed`` entries held, but
    ``other_than``."""
    givens = native.merged(puzzle.givens, fixed)
    return native.search_cells(
        puzzle.shape, givens, limit=limit, budget=budget, other_than=native.flat(other_than)
    )
