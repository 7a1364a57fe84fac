"""Which sets of distinct digits 1-9 add up to a clue over a given number of cells.

A *combination* is a 9-bit mask: bit ``d - 1`` set means digit ``d`` is in it.
Both engines and the logical solver read these tables; they are built once.
"""

from __future__ import annotations

from itertools import combinations

from numgrid.server.kinds.masks import bit

ALL_DIGITS = 0x1FF


def _table() -> dict[tuple[int, int], tuple[int, ...]]:
    table: dict[tuple[int, int], list[int]] = {}
    for length in range(1, 10):
        for combo in combinations(range(1, 10), length):
            mask = sum(bit(d) for d in combo)
            table.setdefault((sum(combo), length), []).append(mask)
    return {key: tuple(masks) for key, masks in table.items()}


COMBINATIONS: dict[tuple[int, int], tuple[int, ...]] = _table()


def combos(clue: int, length: int) -> tuple[int, ...]:
    """Every combination of ``length`` distinct digits summing to ``clue`` (maybe none)."""
    return COMBINATIONS.get((clue, length), ())


def sum_range(length: int) -> tuple[int, int]:
    """Smallest and largest clue possible over ``length`` cells."""
    return length * (length + 1) // 2, sum(range(10 - length, 10))
