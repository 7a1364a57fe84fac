"""Sets of small values as bits, as every kind's engines and techniques keep candidates:
bit ``d - 1`` stands for the value ``d`` (a digit; a line position weighing ``d``)."""

from __future__ import annotations

import functools


def bit(d: int) -> int:
    """The mask of the one value ``d``."""
    return 1 << (d - 1)


def single(mask: int) -> bool:
    """Does the mask hold exactly one value?"""
    return mask != 0 and not mask & (mask - 1)


@functools.lru_cache(maxsize=1 << 16)
def digits_of(mask: int) -> tuple[int, ...]:
    """The values of a mask, smallest first (bit ``d - 1`` for ``d``)."""
    out, d = [], 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return tuple(out)


def digit_of(mask: int) -> int:
    """The value of a one-value mask."""
    return mask.bit_length()
