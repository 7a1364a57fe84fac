"""Which sets of distinct digits 1-9 add up to a clue over a given number of cells.

A *combination* is a 9-bit mask: bit ``d - 1`` set means digit ``d`` is in it.
Both engines and the logical solver read these tables; they are built once.
"""

from __future__ import annotations

from numgrid.server.kinds import cagesums

ALL_DIGITS = 0x1FF


# The digits 1-9 table shared with the other cage kinds (:mod:`..cagesums`).
COMBINATIONS: dict[tuple[int, int], tuple[int, ...]] = cagesums.table(9)


def combos(clue: int, length: int) -> tuple[int, ...]:
    """Every combination of ``length`` distinct digits summing to ``clue`` (maybe none)."""
    return COMBINATIONS.get((clue, length), ())


def sum_range(length: int) -> tuple[int, int]:
    """Smallest and largest clue possible over ``length`` cells."""
    return length * (length + 1) // 2, sum(range(10 - length, 10))
