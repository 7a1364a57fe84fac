"""Cage arithmetic: which digits a cage's cells can hold together.

A cage's *layouts* are the tuples of digits (one per cell, in the cage's order) that give
its target and repeat no digit within a row or column. Every part of KenKen that reasons
about a cage (checks, both engines' propagation, the techniques) starts from them.
"""

from __future__ import annotations

import functools
import math

from numgrid.server.core import Cell

from .model import ADD, DIVIDE, MULTIPLY, NONE, SUBTRACT, Cage

Layout = tuple[int, ...]


def value(operation: str, digits) -> int | None:
    """What ``digits`` give under ``operation``; None when it is not defined (``/`` that
    does not divide, ``-``/``/``/none on the wrong number of cells)."""
    digits = list(digits)
    if operation == ADD:
        return sum(digits)
    if operation == MULTIPLY:
        return math.prod(digits)
    if operation == NONE:
        return digits[0] if len(digits) == 1 else None
    if len(digits) != 2:
        return None
    low, high = sorted(digits)
    if operation == SUBTRACT:
        return high - low
    if operation == DIVIDE:
        return high // low if high % low == 0 else None
    return None


def _conflicts(cells: tuple[Cell, ...]) -> tuple[tuple[int, ...], ...]:
    """For each cell, the earlier cells of the cage in its row or column."""
    return tuple(
        tuple(j for j in range(i) if cells[j][0] == cell[0] or cells[j][1] == cell[1])
        for i, cell in enumerate(cells)
    )


def layouts(cage: Cage, size: int) -> tuple[Layout, ...]:
    """Every layout of ``cage`` with digits 1..``size``, in lexicographic order."""
    origin = cage.cells[0]
    shape = tuple((r - origin[0], c - origin[1]) for r, c in cage.cells)
    return _layouts(cage.target, cage.operation, shape, size)


@functools.lru_cache(maxsize=4096)
def _layouts(target: int, operation: str, shape: tuple[Cell, ...], size: int) -> tuple[Layout, ...]:
    n = len(shape)
    if operation in (SUBTRACT, DIVIDE, NONE):
        want = 2 if operation != NONE else 1
        if n != want:
            return ()
        if n == 1:
            return ((target,),) if 1 <= target <= size else ()
        return tuple(
            (a, b)
            for a in range(1, size + 1)
            for b in range(1, size + 1)
            if a != b and value(operation, (a, b)) == target
        )
    conflicts = _conflicts(shape)
    found: list[Layout] = []
    digits = [0] * n

    def extend(i: int, acc: int) -> None:
        left = n - i
        if operation == ADD:
            if acc + left > target or acc + left * size < target:
                return
        elif target % acc or acc * size**left < target:
            return
        if i == n:
            if acc == target:
                found.append(tuple(digits))
            return
        used = {digits[j] for j in conflicts[i]}
        for d in range(1, size + 1):
            if d not in used:
                digits[i] = d
                extend(i + 1, acc + d if operation == ADD else acc * d)

    extend(0, 0 if operation == ADD else 1)
    return tuple(found)


def possible(cage: Cage, size: int) -> bool:
    return bool(layouts(cage, size))


def range_of(operation: str, cells: int, size: int) -> tuple[int, int]:
    """The smallest and largest target a cage of ``cells`` cells could have (ignoring
    the repeat rule): for messages that say why a target is impossible."""
    if operation == ADD:
        return cells, cells * size
    if operation == MULTIPLY:
        return 1, size**cells
    if operation == SUBTRACT:
        return 1, size - 1
    if operation == DIVIDE:
        return 2, size
    return 1, size
