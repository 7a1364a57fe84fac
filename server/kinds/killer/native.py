"""Killer Sudoku's native engine: the units family's bitmask engine
(:mod:`numgrid.server.kinds.units.native`) on the grid's units (the plain grid's
tables, shared by every Killer of a size), and the cages as its ``extra`` rule: in the
fixpoint, each cage keeps the digits each of its cells holds in some filling of its sum
(:mod:`..cagesums`: different digits, one of the combinations; exactly, for cages of
up to four cells; a cage of more keeps the combinations its cells can all hold, and
exactly once four cells or fewer are open: the generator's large cages). The
rule of 45 adds cages of its own: in each row, column and box, the cells outside the
cages it holds whole (the innies) add up to the rest of 45, all different.

A cage's narrowing is remembered by its cells' candidates (one AND of the position), and
the narrowing of three or four cells within a combination by its pattern (the same
for every combination of those digits): a search meets the same ones again and again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchResult
from numgrid.server.kinds import cagesums
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.native import Extra

from .model import Cage
from .model import Puzzle

EXACT_CELLS = 4  # cages up to this size keep exactly the digits some filling uses
MEMO_CELLS = 200_000  # narrowings remembered per puzzle before they are forgotten


def _exact(masks: tuple[int, ...], combos: tuple[int, ...]) -> tuple[int, ...] | None:
    """Per cell, the digits it holds in some filling of the cage (different digits,
    together one of ``combos``); None when there is none. Each (cell, digit) not yet
    seen in a filling is tried once: a filling found marks all of its pairs."""
    k = len(masks)
    out = [0] * k
    union = 0
    for m in masks:
        union |= m
    chosen = [0] * k

    def walk(i: int, left: int) -> bool:
        """Cells ``i``.. take the digits ``left`` (one each, all used): ``chosen``."""
        if i == k:
            return True
        if chosen[i]:  # fixed by the caller
            return walk(i + 1, left)
        m = masks[i] & left
        while m:
            low = m & -m
            m ^= low
            chosen[i] = low
            if walk(i + 1, left ^ low):
                return True
        chosen[i] = 0
        return False

    for combo in combos:
        if combo & ~union or not all(m & combo for m in masks):
            continue
        for i in range(k):
            todo = masks[i] & combo & ~out[i]
            while todo:
                low = todo & -todo
                todo ^= low
                chosen[:] = [0] * k
                chosen[i] = low
                if walk(0, combo ^ low):
                    for j in range(k):
                        out[j] |= chosen[j]
                    todo &= ~out[i]
    return tuple(out) if all(out) else None


@functools.cache
def _mirrors(n: int, total: int) -> tuple[int, ...]:
    """Per mask of digits 1..N: the digits ``total - d`` for its digits ``d`` (1..N),
    without ``total / 2`` (two cells of a cage differ)."""
    out = []
    for mask in range(1 << n):
        found = 0
        for d in range(1, n + 1):
            e = total - d
            if mask >> (d - 1) & 1 and 1 <= e <= n and e != d:
                found |= 1 << (e - 1)
        out.append(found)
    return tuple(out)


def _pair(
    n: int, total: int
) -> Callable[[tuple[int, ...], tuple[int, ...]], tuple[int, ...] | None]:
    """:func:`_exact` for a cage of two cells: each keeps the partners of the other's."""
    mirror = _mirrors(n, total)

    def narrow(masks: tuple[int, ...], _combos: tuple[int, ...]) -> tuple[int, ...] | None:
        a, b = masks
        a &= mirror[b]
        b &= mirror[a]
        return (a, b) if a and b else None

    return narrow


@functools.cache
def _squeeze(combo: int, n: int) -> tuple[list[int], list[int]]:
    """Per mask of digits 1..N, its digits of ``combo`` as bits 0..k-1 (the combination's
    digits in order), and per such pattern the mask again: a cage's candidates within a
    combination, whatever its digits."""
    places = [d for d in range(n) if combo >> d & 1]
    at = {1 << d: 1 << j for j, d in enumerate(places)}
    squeeze = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask  # each mask from the one without its lowest digit
        squeeze[mask] = squeeze[mask ^ low] | at.get(low, 0)
    spread = [0] * (1 << len(places))
    for small in range(1, 1 << len(places)):
        low = small & -small
        spread[small] = spread[small ^ low] | 1 << places[low.bit_length() - 1]
    return squeeze, spread


_PATTERNS: dict[tuple[int, ...], tuple[int, ...] | None] = {}


def _pattern(small: tuple[int, ...]) -> tuple[int, ...] | None:
    """:func:`_exact` of k cells over the digits 0..k-1 (bits), remembered: every
    combination of every cage of k cells comes down to one of these patterns."""
    try:
        return _PATTERNS[small]
    except KeyError:
        found = _PATTERNS[small] = _exact(small, ((1 << len(small)) - 1,)) if all(small) else None
        return found


_KEPT: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...] | None] = {}
_UNKNOWN: tuple[int, ...] = (-1,)  # not worked out yet (None: no filling)


def _shared_exact(masks: tuple[int, ...], combos: tuple[int, ...]) -> tuple[int, ...] | None:
    """:func:`_exact` through the patterns: each combination's candidates squeezed to
    its k digits, looked up, spread back; remembered for every cage and puzzle (up to a
    bound: the cages of a sum over cells of the same candidates narrow alike)."""
    key = (masks, combos)
    found = _KEPT.get(key, _UNKNOWN)
    if found is not _UNKNOWN:
        return found
    if len(_KEPT) > MEMO_CELLS:
        _KEPT.clear()
    k = len(masks)
    out = [0] * k
    n = max(combos).bit_length() if combos else 0
    patterns = _PATTERNS
    for combo in combos:
        squeeze, spread = _squeeze(combo, n)
        small = [squeeze[m & combo] for m in masks]
        # the cells are alike: the pattern in order, each cell's answer by its own
        ordered = tuple(sorted(small))
        got = patterns.get(ordered, _UNKNOWN)
        if got is _UNKNOWN:
            got = _pattern(ordered)
        if got is not None:
            answer = dict(zip(ordered, got, strict=True))
            out = [a | spread[answer[b]] for a, b in zip(out, small, strict=True)]
    result = _KEPT[key] = tuple(out) if all(out) else None
    return result


def narrowed(masks: tuple[int, ...], combo: int) -> tuple[int, ...] | None:
    """Per cell, the digits of ``combo`` it holds in some filling of the cells by the
    digits of ``combo`` (one each, all used); None when there is none."""
    return _shared_exact(masks, (combo,))


def _decided(masks: tuple[int, ...]) -> int | None:
    """The digits of a cage's decided cells (one candidate each); None when two are
    decided alike."""
    placed = 0
    for m in masks:
        if not m & (m - 1):
            if placed & m:
                return None
            placed |= m
    return placed


def _loose(masks: tuple[int, ...], combos: tuple[int, ...]) -> tuple[int, ...] | None:
    """For a large cage: a decided cell's digit leaves the others (two decided alike:
    None); then each cell keeps the digits of the combinations every cell can take a
    digit of and whose digits the cells can all hold between them."""
    placed = _decided(masks)
    if placed is None:
        return None
    if placed:
        masks = tuple([m if not m & (m - 1) else m & ~placed for m in masks])
    union = 0
    for m in masks:
        union |= m
    allowed = 0
    for combo in combos:
        if combo & ~union or allowed | combo == allowed:
            continue
        for m in masks:
            if not m & combo:
                break
        else:
            allowed |= combo
    if not allowed:
        return None
    return tuple([m & allowed for m in masks])


def _open_exact(masks: tuple[int, ...], combos: tuple[int, ...]) -> tuple[int, ...] | None:
    """For a large cage: once no more than :data:`EXACT_CELLS` of its cells are open,
    :func:`_shared_exact` on those, with the combinations that hold the decided digits
    less those digits (the decided cells keep theirs); before that, nothing more than
    :func:`_loose` found."""
    placed = _decided(masks)
    if placed is None:
        return None
    open_cells = [i for i, m in enumerate(masks) if m & (m - 1)]
    if len(open_cells) > EXACT_CELLS or not open_cells:
        return masks
    rest = tuple([c ^ placed for c in combos if c & placed == placed])
    kept = _shared_exact(tuple([masks[i] for i in open_cells]), rest) if rest else None
    if kept is None:
        return None
    out = list(masks)
    for i, k in zip(open_cells, kept, strict=True):
        out[i] = k
    return tuple(out)


def virtual_cages(n: int, boxes: tuple[int, int] | None, cages: tuple[Cage, ...]) -> list[Cage]:
    """The rule of 45 as cages the engine checks too: in each row, column and box, the
    cells outside the cages it holds whole add up to the rest of N x (N + 1) / 2, and,
    all in one unit, hold different digits (kept when they are two to five cells)."""
    if (
        sum(len(c.cells) for c in cages) != n * n
        or len({x for c in cages for x in c.cells}) != n * n
    ):
        return []
    bh, bw = boxes if boxes is not None else (n, n)
    # per house (rows 0..N-1, columns N.., boxes 2N..): the sums of the cages inside it
    # whole, and its cells outside them
    caged = [0] * (3 * n)
    rest: list[list[Cell]] = [[] for _ in range(3 * n)]
    for cage in cages:
        rows = {r for r, _ in cage.cells}
        cols = {c for _, c in cage.cells}
        boxes_of = {(r // bh) * (n // bw) + c // bw for r, c in cage.cells}
        for houses, offset in ((rows, 0), (cols, n), (boxes_of, 2 * n)):
            if len(houses) == 1:
                caged[offset + next(iter(houses))] += cage.sum
            else:
                for r, c in cage.cells:
                    h = (r, c, (r // bh) * (n // bw) + c // bw)[offset // n]
                    rest[offset + h].append((r, c))
    last = 3 * n if boxes is not None else 2 * n
    return [
        Cage(n * (n + 1) // 2 - caged[h], tuple(sorted(rest[h])))
        for h in range(last)
        if 2 <= len(rest[h]) <= 5
    ]


@functools.lru_cache(maxsize=256)
def cage_rule(n: int, cages: tuple[Cage, ...], boxes: tuple[int, int] | None = None) -> Extra:
    """The sums of ``cages`` (and the rule of 45's innies of the grid's units) as the
    engine's ``extra`` rule for an N x N grid. Each cage's narrowing is remembered by its
    cells' candidates: a search meets the same ones again and again."""
    width = n + 1
    digits = (1 << n) - 1
    Narrow = Callable[[tuple[int, ...], tuple[int, ...]], tuple[int, ...] | None]
    Rule = tuple[int, tuple[int, ...], tuple[int, ...], Narrow, dict[int, int]]
    quick: list[Rule] = []  # every cage, narrowed cheaply
    thorough: list[Rule] = []  # cages of three cells or more, exactly, once quiet
    for cage in (*cages, *virtual_cages(n, boxes, cages)):
        if len(cage.cells) < 2:
            continue  # a one-cell cage holds its sum: fixed at the start (:func:`search`)
        shifts = tuple(width * (r * n + c) for r, c in cage.cells)
        combos = cagesums.combos(cage.sum, len(cage.cells), n)
        bits = sum(digits << s for s in shifts)
        if len(cage.cells) == 2:
            quick.append((bits, shifts, combos, _pair(n, cage.sum), {}))
            continue
        quick.append((bits, shifts, combos, _loose, {}))
        exact = _shared_exact if len(cage.cells) <= EXACT_CELLS else _open_exact
        thorough.append((bits, shifts, combos, exact, {}))

    quiet_at = [-1]  # the last position every cage left as it was (-1: none yet)

    def apply(pos: int, rules: list[Rule], changed: int) -> int | None:
        for bits, shifts, combos, narrow, memo in rules:
            if not bits & changed:
                continue  # as at the last quiet position: nothing to remove
            # the cage's candidates as one int: what it removes is remembered by them
            key = pos & bits
            kill = memo.get(key)
            if kill is None:
                if len(memo) > MEMO_CELLS:
                    memo.clear()
                masks = tuple([(key >> s) & digits for s in shifts])
                kept = narrow(masks, combos)
                if kept is None or not all(kept):
                    kill = -1
                else:
                    kill = 0
                    for s, m, k in zip(shifts, masks, kept, strict=True):
                        kill |= (m & ~k) << s
                memo[key] = kill
            if kill:
                if kill < 0:
                    return None
                pos &= ~kill
        return pos

    def extra(pos: int) -> int | None:
        """The cheap narrowing of every cage; when it has nothing to add, the exact one.
        Cages whose candidates are those of the last position both left unchanged are
        passed over."""
        last = quiet_at[0]
        changed = pos ^ last if last >= 0 else -1
        quick_pos = apply(pos, quick, changed)
        if quick_pos is None or quick_pos != pos:
            return quick_pos
        found = apply(pos, thorough, changed)
        if found == pos:
            quiet_at[0] = pos
        return found

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
    puzzle: Puzzle,
    *,
    limit: int = 2,
    fixed: Grid | None = None,
    budget: Budget | None = None,
    other_than: Grid | None = None,
) -> SearchResult:
    """Up to ``limit`` solutions with the givens and ``fixed`` entries held, but
    ``other_than``."""
    givens = givens_with_singles(puzzle, fixed)
    if any(
        len(cage.cells) > 1 and not cagesums.combos(cage.sum, len(cage.cells), puzzle.size)
        for cage in puzzle.cages
    ):
        givens = [-1] * len(givens)  # a sum no digits make: no solution
    rule = cage_rule(puzzle.size, puzzle.cages, puzzle.boxes)
    return native.search_cells(
        puzzle.shape,
        givens,
        limit=limit,
        budget=budget,
        extra=rule,
        other_than=other_than,
    )
