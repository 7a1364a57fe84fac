"""Cage arithmetic: which digits a cage's cells can hold together.

A cage's *layouts* are the tuples of digits (one per cell, in the cage's order) that give
its target and repeat no digit within a row or column. Every part of KenKen that reasons
about a cage (checks, both engines' propagation, the techniques) starts from them.
"""

from __future__ import annotations

import functools
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence

from numgrid.server.core import Cell
from numgrid.server.core import poll_call

from .model import ADD
from .model import DIVIDE
from .model import MULTIPLY
from .model import NONE
from .model import SUBTRACT
from .model import Cage

Layout = tuple[int, ...]

# A cage kind's layouts are listed up to this many, and its listing takes at most
# MAX_STEPS steps (digits and conflicts looked at): the corpus's largest has 83,824
# layouts. A cage past either (an 81-cell ``405+`` is legal arithmetic) has too many:
# its rule is then applied by arithmetic, never by its layouts (:class:`TooManyLayouts`).
MAX_LAYOUTS = 1 << 18
MAX_STEPS = 600_000  # three times the corpus's largest listing, about 0.2 s
POLL_STEPS = 20_000  # steps between two looks at the call's budget (about 7 ms)


class TooManyLayouts(Exception):
    """A cage has more layouts than :data:`MAX_LAYOUTS` (or listing them would take
    more than :data:`MAX_STEPS`): whoever asked for them must do without."""


def operations_of(operation: str, cells: int) -> tuple[str, ...]:
    """The operations a cage may use: its own, or for a multi-cell cage whose operation
    is not given, any that applies to that many cells."""
    if operation != NONE or cells == 1:
        return (operation,)
    return (ADD, SUBTRACT, MULTIPLY, DIVIDE) if cells == 2 else (ADD, MULTIPLY)


def gives(operation: str, digits, target: int) -> bool:
    """Do ``digits`` give ``target`` under ``operation`` (any operation, if not given)?"""
    digits = tuple(digits)
    return any(value(op, digits) == target for op in operations_of(operation, len(digits)))


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


Conflicts = tuple[tuple[int, ...], ...]


@functools.lru_cache(maxsize=8192)
def conflicts_of(shape: tuple[Cell, ...]) -> Conflicts:
    """For each cell, the earlier cells of the cage in its row or column. A cage's layouts
    depend on its shape only through these, so cages of one target and operation with the
    same conflicts share them (a row of two cells and a column of two, an L and its
    transpose)."""
    return tuple(
        tuple(j for j in range(i) if shape[j][0] == cell[0] or shape[j][1] == cell[1])
        for i, cell in enumerate(shape)
    )


def layouts(cage: Cage, size: int) -> tuple[Layout, ...]:
    """Every layout of ``cage`` with digits 1..``size``, in lexicographic order."""
    shape = shape_of(cage.cells)
    found = _cached(cage.target, cage.operation, shape, size)
    if isinstance(found, bytes):
        return tuple(zip(*[iter(found)] * len(shape), strict=True))
    return found


def packed(cage: Cage, size: int) -> bytes:
    """:func:`layouts` packed, a byte a digit, one layout after another."""
    return _as_packed(_cached(cage.target, cage.operation, shape_of(cage.cells), size))


def _as_packed(found: tuple[Layout, ...] | bytes) -> bytes:
    return found if isinstance(found, bytes) else bytes(d for layout in found for d in layout)


_PICK = [bytes(49 if b == d else 48 for b in range(256)) for d in range(256)]  # "1" at d


def digit_sets(column: bytes, size: int) -> tuple[int, ...]:
    """Per digit ``d`` in 1..``size``, the places ``t`` of ``column`` (a cell's digit in
    each layout) holding it, as bit ``t`` of an int: C-level ``bytes.translate`` and
    ``int(..., 2)``, no Python loop over the layouts."""
    return tuple(int(column.translate(_PICK[d])[::-1] or b"0", 2) for d in range(1, size + 1))


def listed(target: int, operation: str, shape: tuple[Cell, ...], size: int) -> bytes:
    """:func:`packed` for a cage kind, listed anew and not cached: for a caller that
    keeps tables of its own (the native engine), which need no tuples. A kind found to
    have too many is remembered as such, and not listed again."""
    key = (target, operation, conflicts_of(shape), size)
    if key in _too_many:
        raise TooManyLayouts
    try:
        return _as_packed(_layouts(*key))
    except TooManyLayouts:
        with _packed_lock:
            _too_many[key] = None
            while len(_too_many) > RECENT_KINDS:
                _too_many.popitem(last=False)
        raise


def may_complete(cage: Cage, size: int, digits) -> bool:
    """:func:`completes`, or for a cage with too many layouts to list, whether the digits
    placed (0 for open) leave the target within reach of what the open cells can add or
    multiply (the repeat rule aside)."""
    try:
        return completes(cage, size, digits)
    except TooManyLayouts:
        placed = [d for d in digits if d]
        left = len(digits) - len(placed)
        return any(
            _within_reach(op, cage.target, placed, left, size)
            for op in operations_of(cage.operation, len(digits))
        )


def _within_reach(operation: str, target: int, placed: list[int], left: int, size: int) -> bool:
    if operation == ADD:
        return sum(placed) + left <= target <= sum(placed) + left * size
    if operation == MULTIPLY:
        made = math.prod(placed)
        return target % made == 0 and target // made <= size**left
    return True  # - and / have two cells: never too many


def layouts_as(cage: Cage, size: int, table) -> tuple[tuple, ...]:
    """:func:`layouts` with each digit ``d`` given as ``table[d]``, made straight from the
    packed digits of a large cage: its 83,824 layouts are not made twice."""
    shape = shape_of(cage.cells)
    found = _cached(cage.target, cage.operation, shape, size)
    if isinstance(found, bytes):
        return tuple(zip(*[map(table.__getitem__, found)] * len(shape), strict=True))
    return tuple(tuple(map(table.__getitem__, layout)) for layout in found)


def count(cage: Cage, size: int) -> int:
    """How many layouts :func:`layouts` gives, without unpacking them."""
    shape = shape_of(cage.cells)
    found = _cached(cage.target, cage.operation, shape, size)
    return len(found) // len(shape) if isinstance(found, bytes) else len(found)


def shape_of(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """A cage's cells relative to its first: the cache key of its layouts."""
    origin = cells[0]
    return tuple((r - origin[0], c - origin[1]) for r, c in cells)


# Layouts past which a cage's are cached packed, a byte a digit: the 83,824 of a 7-cell
# cage take 10 MB as tuples, 0.6 MB packed, and unpack in a quarter of their making.
PACK_OVER = 4096
# Packed layouts are also kept apart, up to this many bytes in all, so that the cache of
# the last RECENT_KINDS cage kinds does not drop them among small ones: listing those 83,824
# anew takes 0.16 s and 13 MB of small objects at once, which the
# allocator keeps (a server under load grew by steps that way).
PACKED_BYTES = 8 << 20
# Cage kinds whose layouts are kept. The KenKen corpus has about 1,200 (0.2 MB of
# layouts); at 512 the cache turned over 8,300 times in 50 s of load (benchmarks/load.py),
# each time making the layouts anew.
RECENT_KINDS = 4096
_packed: OrderedDict[tuple, bytes] = OrderedDict()
_too_many: OrderedDict[tuple, None] = OrderedDict()  # kinds listed (by listed) past the limits


_packed_lock = threading.Lock()


def _cached(target: int, operation: str, shape: tuple[Cell, ...], size: int) -> tuple | bytes:
    """The layouts of a cage kind, listed once; TooManyLayouts when it has too many."""
    conflicts = conflicts_of(shape)
    key = (target, operation, conflicts, size)
    with _packed_lock:
        packed = _packed.get(key)
        if packed is not None:
            _packed.move_to_end(key)
            return packed
    found = _recent(target, operation, conflicts, size)
    if found is _TOO_MANY:
        raise TooManyLayouts
    if isinstance(found, bytes):
        with _packed_lock:
            _packed[key] = found
            while sum(map(len, _packed.values())) > PACKED_BYTES and len(_packed) > 1:
                _packed.popitem(last=False)
    return found


# What _recent keeps for a cage kind with too many layouts: it is not listed again.
_TOO_MANY = b"too many"


@functools.lru_cache(maxsize=RECENT_KINDS)
def _recent(target: int, operation: str, conflicts: Conflicts, size: int) -> tuple | bytes:
    try:
        found = _layouts(target, operation, conflicts, size)
    except TooManyLayouts:
        return _TOO_MANY
    n = len(conflicts)
    if isinstance(found, bytes):
        return found if len(found) > PACK_OVER * n else unpacked(found, n)
    if len(found) > PACK_OVER:
        return bytes(d for layout in found for d in layout)
    return found


def unpacked(packed: bytes, n: int) -> tuple[Layout, ...]:
    """Packed layouts (a byte a digit, ``n`` digits a layout) as tuples."""
    return tuple(zip(*[iter(packed)] * n, strict=True))


def _layouts(
    target: int, operation: str, conflicts: Conflicts, size: int
) -> tuple[Layout, ...] | bytes:
    """The layouts, in lexicographic order: ``+`` and ``x`` cages of a cell or more, and
    cages of several cells without an operation, give theirs packed (a layout's bytes
    sort as its digits do), the others as tuples."""
    n = len(conflicts)
    if operation == NONE and n > 1:  # not given: whatever any operation allows
        found: set[bytes] = set()
        for op in operations_of(NONE, n):
            each = _as_packed(_layouts(target, op, conflicts, size))
            found.update(each[at : at + n] for at in range(0, len(each), n))
        return b"".join(sorted(found))
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
    return _sum_or_product(target, operation == ADD, conflicts, size)


def _sum_or_product(target: int, adding: bool, conflicts: Conflicts, size: int):
    """The layouts of a ``+`` (``adding``) or ``x`` cage, in lexicographic order, packed
    (a byte a digit): depth first, a digit at a time in increasing order while the cells
    after it can still make up the target, the last digit computed, not tried; each
    layout is copied into one buffer as it is completed. Nothing but that buffer grows
    with the count: 419_9x9's 7-cell ``34+`` (83,824 layouts) peaks at 1.2 MB and takes
    32 ms; its prefixes grown a level at a time made 13 MB of small objects at once
    (41 ms; 25.5 MB as tuples), which the allocator then kept: a server under load grew
    by steps of 16 MB that way. Small cages list a little slower so (the corpus's 1,229
    kinds 15.6 to 17.8 ms)."""
    n = len(conflicts)
    if not n:
        return ((),) if target == (0 if adding else 1) else ()
    if n == 1:
        return bytes((target,)) if 1 <= target <= size else b""
    layout, found = bytearray(n), bytearray()
    divisors: dict[int, list[int]] = {}  # what is left to make -> its divisors up to size
    last = n - 1
    meets_last = set(conflicts[last])
    steps = [MAX_STEPS]
    poll_at = [MAX_STEPS - POLL_STEPS]  # where the call's budget is next looked at

    def grow(i: int, acc: int) -> None:  # cells before i hold digits making acc
        used = 0  # the digits of the earlier cells this one meets, as bits
        for j in conflicts[i]:
            used |= 1 << layout[j]
        left = last - i  # the cells after this one
        choices: Sequence[int] | None
        if adding:  # they add left..left * size
            choices = range(max(1, target - left * size - acc), min(size, target - left - acc) + 1)
        else:  # a digit divides what is left to make; they can make the rest
            rest = target // acc
            choices = divisors.get(rest)
            if choices is None:
                choices = divisors[rest] = [d for d in range(1, size + 1) if not rest % d]
            least = -(-rest // size**left)
        steps[0] -= len(conflicts[i]) + len(choices)  # the work of this cell
        if steps[0] < 0 or len(found) > MAX_LAYOUTS * n:
            raise TooManyLayouts
        if steps[0] < poll_at[0]:
            poll_at[0] -= POLL_STEPS
            poll_call()
        if left > 1:
            for d in choices:
                if not used >> d & 1 and (adding or d >= least):
                    layout[i] = d
                    grow(i + 1, acc + d if adding else acc * d)
            return
        taken = 0  # the last cell's digit is computed; the digits it must not repeat:
        for j in conflicts[last]:
            if j != i:
                taken |= 1 << layout[j]
        for d in choices:
            if used >> d & 1:
                continue
            if adding:
                e = target - acc - d
            else:
                e, rest = divmod(target, acc * d)
                e = 0 if rest else e
            if 1 <= e <= size and not taken >> e & 1 and not (i in meets_last and e == d):
                layout[i], layout[last] = d, e
                found.extend(layout)

    grow(0, 0 if adding else 1)
    return bytes(found)


def possible(cage: Cage, size: int) -> bool:
    return bool(count(cage, size))


def completes(cage: Cage, size: int, digits) -> bool:
    """Does some layout of ``cage`` agree with ``digits`` (one per cell, 0 for open)? A
    large cage's packed layouts are searched as they are, by a regular expression that
    steps a layout at a time, rather than unpacked into tuples."""
    digits = tuple(digits)
    found = _cached(cage.target, cage.operation, shape_of(cage.cells), size)
    if isinstance(found, bytes):
        layout = b"".join(re.escape(bytes((d,))) if d else b"." for d in digits)
        step = rb"(?:.{%d})*?" % len(digits)
        return re.match(step + layout, found, re.DOTALL) is not None
    return any(
        all(d == 0 or d == want for d, want in zip(digits, layout, strict=True)) for layout in found
    )


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
    return (1, size) if cells == 1 else (1, max(cells * size, size**cells))
