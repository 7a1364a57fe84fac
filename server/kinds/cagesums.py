"""Which sets of distinct digits 1..N add up to a sum over a given number of cells: the
cage-combination idea every kind with sums over groups of different digits shares (runs
of white cells, addition cages, cages of a grid with boxes).

A *combination* is a mask: bit ``d - 1`` set means digit ``d`` is in it. A table is
built once per highest digit N and kept.
"""

from __future__ import annotations

import functools
from itertools import combinations

from numgrid.server.kinds.masks import bit

Table = dict[tuple[int, int], tuple[int, ...]]


@functools.cache
def table(n: int = 9) -> Table:
    """``(sum, cells) -> combinations`` of the digits 1..``n``, each set once."""
    found: dict[tuple[int, int], list[int]] = {}
    for length in range(1, n + 1):
        for combo in combinations(range(1, n + 1), length):
            found.setdefault((sum(combo), length), []).append(sum(bit(d) for d in combo))
    return {key: tuple(masks) for key, masks in found.items()}


def combos(total: int, cells: int, n: int = 9) -> tuple[int, ...]:
    """Every set of ``cells`` distinct digits 1..``n`` adding up to ``total`` (maybe none)."""
    return table(n).get((total, cells), ())


def sum_range(cells: int, n: int = 9) -> tuple[int, int]:
    """The smallest and largest sum of ``cells`` distinct digits 1..``n``."""
    return cells * (cells + 1) // 2, sum(range(n + 1 - cells, n + 1))
