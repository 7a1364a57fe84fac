"""The depth-first search of the native engines that keep candidates as masks: an
explicit stack of branch points (parent candidates, the cell, its values not yet tried),
so depth is bounded by memory, not by Python's recursion limit. The engine's own
``visit`` propagates a node and adds a solution or a branch point."""

from __future__ import annotations

import time
from collections.abc import Callable

from numgrid.server.core import Grid
from numgrid.server.core import SearchResult
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Stats

Branch = tuple[list[int], int, int]  # parent candidates, the cell, its values not yet tried


def depth_first(
    root: Callable[[], None],
    visit: Callable[[list[int], int], None],
    branches: list[Branch],
    solutions: list[Grid],
    limit: int,
    start: float,
    nodes: Callable[[], int],
    highest_first: bool = False,
    other_than: Grid | None = None,
    most_nodes: int | None = None,
) -> SearchResult:
    """``root()`` (the first node, if any), then the branch points, last first, until
    ``limit`` solutions: each tries its cell's lowest value not yet tried (its highest,
    ``highest_first``), the rest stay on the stack, and ``visit(child, cell)`` takes the
    child. A solution equal to ``other_than`` (one known already) is left out. A
    :class:`SearchTimeout` from either ends it with the solutions found so far,
    ``complete=False``, as does a branch past ``most_nodes`` nodes; ``nodes()`` is the
    count for the stats."""
    complete = True

    def leave_out_the_known() -> None:
        if solutions and solutions[-1] == other_than:
            solutions.pop()

    try:
        if most_nodes is not None and most_nodes <= 0:
            raise SearchTimeout
        root()
        leave_out_the_known()
        while branches and len(solutions) < limit:
            if most_nodes is not None and nodes() >= most_nodes:
                raise SearchTimeout
            cand, cell, untried = branches.pop()
            value = 1 << (untried.bit_length() - 1) if highest_first else untried & -untried
            if untried != value:
                branches.append((cand, cell, untried ^ value))
            child = cand.copy()
            child[cell] = value
            visit(child, cell)
            leave_out_the_known()
    except SearchTimeout:
        complete = False
    stats = Stats("native", time.perf_counter() - start, nodes())
    return SearchResult(tuple(solutions), complete or len(solutions) >= limit, stats)
