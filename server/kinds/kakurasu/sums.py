"""Which sets of a line's weights add up to its clue: the line's *options*.

An option is a mask over the line's positions: bit ``j`` set means the cell at position
``j`` (weight ``j + 1``) is shaded. Both engines' checks, the native engine and the logical
solver read these tables; each is built once, on first use.

The weights 1..n make every sum from 0 to n(n+1)/2 (by induction: adding weight n to the
sets of 1..n-1 reaches the rest), so a clue no option makes is always one above the total.
"""

from __future__ import annotations

import functools

from numgrid.server.kinds.masks import digits_of

# The weights of the positions of a mask: bit ``j`` weighs ``j + 1``, as bit ``d - 1``
# stands for the digit ``d``.
weights_of = digits_of


def weight_of(mask: int) -> int:
    return sum(weights_of(mask))


@functools.lru_cache(maxsize=4096)
def options(count: int, clue: int) -> tuple[int, ...]:
    """Every set of the weights 1..``count`` adding up to ``clue``, as masks in increasing
    order (none if the clue is negative or above the total)."""
    found: list[int] = []

    def extend(top: int, need: int, mask: int) -> None:
        """Sets of the weights 1..top adding up to ``need``, with ``mask`` already in."""
        if need == 0:
            found.append(mask)
            return
        if need > top * (top + 1) // 2:
            return
        for w in range(min(top, need), 0, -1):
            extend(w - 1, need - w, mask | 1 << (w - 1))

    if clue >= 0:
        extend(count, clue, 0)
    return tuple(sorted(found))


@functools.lru_cache(maxsize=4096)
def sizes(count: int, clue: int) -> frozenset[int]:
    """How many cells the options of a clue shade: the counts it allows."""
    return frozenset(mask.bit_count() for mask in options(count, clue))
