"""Killer Sudoku's native engine: the units family's bitmask engine
(:mod:`numgrid.server.kinds.units.native`) on the grid's units (the plain grid's
tables, shared by every Killer of a size), and the cages as its ``extra`` rules
(:func:`cage_rule`): in the fixpoint, each cage keeps the digits each of its cells holds
in some filling of its sum (:mod:`..cagesums`: different digits, one of the
combinations; exactly, for cages of up to four cells; a cage of more keeps the
combinations its cells can all hold, and exactly once four cells or fewer are open),
and the digits every filling uses leave the cells that see all of the cage's cells
that may hold them. The rule of 45 adds cages of its own
(:func:`rule_of_45`): per row, column and box, its innies and outies.

A cage is passed over while its cells are as it last left them; the exact narrowing of
a cage's candidates is remembered (across cages and puzzles), and that of k cells
within a combination by its pattern (the same for every combination of k digits).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Unpack

from numgrid.server.core import Ask
from numgrid.server.core import Grid
from numgrid.server.core import SearchKeywords
from numgrid.server.core import SearchResult
from numgrid.server.core import Stats
from numgrid.server.kinds import cagesums
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.native import Extra
from numgrid.server.kinds.units.shape import Shape

from .model import Cage
from .model import Puzzle

EXACT_CELLS = 4  # cages up to this size keep exactly the digits some filling uses
VIRTUAL_CELLS = 3  # the rule of 45's groups of up to this many cells are checked
MEMO_CELLS = 50_000  # exact narrowings remembered (about 19 MB) before they are forgotten


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


@functools.cache
def _squeeze(combo: int) -> tuple[list[int], list[int]]:
    """Per mask of digits up to ``combo``'s highest, its digits of ``combo`` as bits
    0..k-1 (the combination's digits in order), and per such pattern the mask again: a
    cage's candidates within a combination, whatever its digits."""
    n = combo.bit_length()
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


_PATTERNS: dict[tuple[int, ...], dict[int, int] | None] = {}


def _pattern(small: tuple[int, ...]) -> dict[int, int] | None:
    """:func:`_exact` of k cells over the digits 0..k-1 (bits), as what each cell's
    candidates keep (cells of the same candidates keep the same), remembered: every
    combination of every cage of k cells comes down to one of these patterns."""
    try:
        return _PATTERNS[small]
    except KeyError:
        kept = _exact(small, ((1 << len(small)) - 1,)) if all(small) else None
        found = _PATTERNS[small] = None if kept is None else dict(zip(small, kept, strict=True))
        return found


# (kept, required): per cell the digits it keeps, and the digits every filling uses
Narrowed = tuple[tuple[int, ...], int]
_KEPT: dict[tuple[tuple[int, ...], tuple[int, ...]], Narrowed | None] = {}
_UNKNOWN: Narrowed = ((), -1)  # not worked out yet (None: no filling)


def _shared_exact(masks: tuple[int, ...], combos: tuple[int, ...]) -> Narrowed | None:
    """:func:`_exact` through the patterns, with the digits every filling uses: each
    combination's candidates squeezed to its k digits, looked up, spread back;
    remembered for every cage and puzzle (up to a bound: the cages of a sum over cells
    of the same candidates narrow alike)."""
    key = (masks, combos)
    found = _KEPT.get(key, _UNKNOWN)
    if found is not _UNKNOWN:
        return found
    if len(_KEPT) > MEMO_CELLS:
        _KEPT.clear()
    out = [0] * len(masks)
    patterns = _PATTERNS
    union = 0
    for m in masks:
        union |= m
    required = union
    for combo in combos:
        if combo & ~union:
            continue  # a digit no cell can take: no filling
        squeeze, spread = _squeeze(combo)
        small = [squeeze[m & combo] for m in masks]
        # the cells are alike: the pattern in order, each cell's answer by its own
        ordered = tuple(sorted(small))
        try:
            answer = patterns[ordered]
        except KeyError:
            answer = _pattern(ordered)
        if answer is not None:
            out = [a | spread[answer[b]] for a, b in zip(out, small, strict=True)]
            required &= combo
    result = _KEPT[key] = (tuple(out), required) if all(out) else None
    return result


def narrowed(masks: tuple[int, ...], combo: int) -> tuple[int, ...] | None:
    """Per cell, the digits of ``combo`` it holds in some filling of the cells by the
    digits of ``combo`` (one each, all used); None when there is none."""
    found = _shared_exact(masks, (combo,))
    return None if found is None else found[0]


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
    less those digits (the decided cells keep theirs); before that, nothing."""
    placed = _decided(masks)
    if placed is None:
        return None
    open_cells = [i for i, m in enumerate(masks) if m & (m - 1)]
    if not open_cells:
        return masks if placed in combos else None
    if len(open_cells) > EXACT_CELLS:
        return masks
    rest = tuple([c ^ placed for c in combos if c & placed == placed])
    found = _shared_exact(tuple([masks[i] for i in open_cells]), rest) if rest else None
    if found is None:
        return None
    out = list(masks)
    for i, k in zip(open_cells, found[0], strict=True):
        out[i] = k
    return tuple(out)


_BITS = tuple(1 << i for i in range(16 * 16))  # per cell index, its bit


@functools.cache
def _houses(
    n: int, boxes: tuple[int, int] | None
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per house (rows 0..N-1, columns N.., boxes 2N..; no box without boxes) the bits of
    its cells, and per cell index the bits outside each of its houses."""
    of: list[tuple[int, ...]] = []
    bits = [0] * (3 * n if boxes is not None else 2 * n)
    for r in range(n):
        for c in range(n):
            houses: tuple[int, ...] = (r, n + c)
            if boxes is not None:
                houses += (2 * n + (r // boxes[0]) * (n // boxes[1]) + c // boxes[1],)
            of.append(houses)
            for h in houses:
                bits[h] |= 1 << (r * n + c)
    beyond = tuple(tuple(~bits[h] for h in houses) for houses in of)
    return tuple(bits), beyond


@functools.cache
def _areas(
    n: int, boxes: tuple[int, int] | None, wide: bool
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """Per cell index, the areas holding it; per area the bits of its cells, and how
    many houses it is: the houses, and with ``wide`` each band of two or three rows or
    columns side by side."""
    bits, _ = _houses(n, boxes)
    areas, houses = list(bits), [1] * len(bits)
    if wide:
        for k in (2, 3):
            for first in range(n - k + 1):
                rows = cols = 0
                for j in range(first, first + k):
                    rows |= bits[j]
                    cols |= bits[n + j]
                areas += (rows, cols)
                houses += (k, k)
    area_of = tuple(
        tuple(a for a, cells in enumerate(areas) if cells >> i & 1) for i in range(n * n)
    )
    return area_of, tuple(areas), tuple(houses)


def _indices(bits: int) -> list[int]:
    """The cell indices of ``bits``, in order."""
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        out.append(low.bit_length() - 1)
    return out


def rule_of_45(
    n: int, boxes: tuple[int, int] | None, cages: list[tuple[int, list[int]]], wide: bool = False
) -> list[tuple[int, list[int]]]:
    """The rule of 45 as cages the engine checks too (each a sum and its cells' indices,
    as ``cages``), for each row, column and box (a house; with ``wide`` also each band of
    two or three rows or columns), whose cells add up to N x (N + 1) / 2 a house: the
    *innies*, its cells outside the cages it holds whole, add up to the rest; the
    *outies*, the cells outside it of the cages that cross it, add up to what those
    cages hold beyond it. Kept when they are one cell (its digit is the sum) or two to
    :data:`VIRTUAL_CELLS` cells all in one house (different digits). None unless the
    cages cover the grid once."""
    _, beyond = _houses(n, boxes)
    area_of, areas, houses = _areas(n, boxes, wide)
    bit = _BITS
    covered, count = 0, 0
    inside = [0] * len(areas)  # per area, the cells of the cages it holds whole
    caged = [0] * len(areas)  # and their sums
    crossing = [0] * len(areas)  # per area, the cells of the cages that cross it
    crossed = [0] * len(areas)  # and their sums
    for total, cells in cages:
        bits = sum(map(bit.__getitem__, cells))  # cells once each, as the reader makes them
        covered |= bits
        count += len(cells)
        for a in {a for i in cells for a in area_of[i]}:
            if not bits & ~areas[a]:
                inside[a] |= bits
                caged[a] += total
            else:
                crossing[a] |= bits
                crossed[a] += total
    if count != n * n or covered != (1 << n * n) - 1:
        return []  # cells left out, or in two cages
    out = []
    house_total = n * (n + 1) // 2
    found = set()  # a group found twice (the outies of one house, the innies of another)
    for a, bits in enumerate(areas):
        full = houses[a] * house_total
        innies = (bits & ~inside[a], full - caged[a])
        outies = (crossing[a] & ~bits, caged[a] + crossed[a] - full)
        for group, total in (innies, outies):
            if (
                group
                and group.bit_count() <= VIRTUAL_CELLS
                and group not in found
                and _in_one_house(group, beyond)
            ):
                out.append((total, _indices(group)))
                found.add(group)
    return out


def _in_one_house(group: int, beyond: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the cells of ``group`` (bits) are one cell or all in one house
    (``beyond``: per cell index, the cells outside each of its houses)."""
    first = (group & -group).bit_length() - 1
    return group == 1 << first or 0 in map(group.__and__, beyond[first])


def _outside(kept: tuple[int, ...], required: int, reach: tuple[int, ...]) -> int:
    """What a cage removes outside itself: each digit every filling of it uses lies in
    one of its cells holding it, so no cell that sees all of those holds it (``reach``:
    per cell of the cage, its peers' bits of digit 1)."""
    kill = 0
    while required:
        low = required & -required
        required ^= low
        common = -1
        for m, peers in zip(kept, reach, strict=True):
            if m & low:
                common &= peers
        kill |= common * low
    return kill


def _large(masks: tuple[int, ...], combos: tuple[int, ...]) -> Narrowed | None:
    """A cage of more than :data:`EXACT_CELLS` cells: :func:`_loose`, then
    :func:`_open_exact`; the digits every combination within the cells' candidates
    uses are required."""
    loose = _loose(masks, combos)
    kept = None if loose is None else _open_exact(loose, combos)
    if kept is None or not all(kept):
        return None
    union = 0
    for m in kept:
        union |= m
    required, left = union, False
    for combo in combos:
        if not combo & ~union:
            required &= combo
            left = True
    return (kept, required) if left else None


Narrow = Callable[[tuple[int, ...], tuple[int, ...]], Narrowed | None]
# A cage of three cells or more as the engine reads it: its cells' bits, their shifts,
# its combinations, its narrowing, per cell its peers' bits of digit 1
Larger = tuple[int, tuple[int, ...], tuple[int, ...], Narrow, tuple[int, ...]]


@functools.lru_cache(maxsize=16)
def _peers(shape: Shape) -> tuple[int, ...]:
    """Per cell index, its peers' bits of digit 1 in the engine's position."""
    n = shape.size
    return tuple(guard >> n for guard in native.tables(shape).peer_guards)


@functools.lru_cache(maxsize=256)
def cage_rule(shape: Shape, cages: tuple[Cage, ...], wide: bool = False) -> Extra:
    """The sums of ``cages`` and the rule of 45's (:func:`rule_of_45`, ``wide`` as
    there) as the engine's rules beyond its units for a grid of ``shape``.

    Cheap: a cell alone in a cage holds its sum; each cage of two cells keeps in each
    cell the partners of the other's digits, and when one pair of digits is left, no
    cell seeing both cells holds either. Thorough: each larger cage narrows its cells
    exactly (:data:`EXACT_CELLS`), and takes each digit every filling uses from the
    cells that see all of its cells that may hold it (:func:`_outside`)."""
    n = shape.size
    width = n + 1
    digits = (1 << n) - 1
    peers = _peers(shape)
    # two-cell cages: their shifts, the partners of each digit, the cells seeing both
    pairs: list[tuple[int, int, tuple[int, ...], int]] = []
    larger: list[Larger] = []
    keep = -1  # every digit but the sum of a cell alone in a cage
    real = [(cage.sum, [r * n + c for r, c in cage.cells]) for cage in cages]
    for total, cells in (*real, *rule_of_45(n, shape.boxes, real, wide)):
        size = len(cells)
        if size < 2:
            allowed = 1 << (total - 1) if 1 <= total <= n else 0
            keep &= ~((digits & ~allowed) << width * cells[0])
            continue
        if size == 2:
            i, j = cells
            pairs.append((width * i, width * j, _mirrors(n, total), peers[i] & peers[j]))
            continue
        shifts = tuple([width * i for i in cells])
        bits = 0
        for s in shifts:
            bits |= digits << s
        narrow = _shared_exact if size <= EXACT_CELLS else _large
        combos = cagesums.combos(total, size, n)
        larger.append((bits, shifts, combos, narrow, tuple([peers[i] for i in cells])))
    # per larger cage, its cells' candidates as it last left them (-1: none yet): while
    # they are the same, it has nothing to remove
    left = [-1] * len(larger)

    def cheap(pos: int) -> int | None:
        pos &= keep
        for a_at, b_at, mirror, both in pairs:
            a = pos >> a_at & digits
            b = pos >> b_at & digits
            a_kept = a & mirror[b]
            b_kept = b & mirror[a_kept]
            if a_kept != a or b_kept != b:
                if not a_kept or not b_kept:
                    return None
                pos &= ~((a ^ a_kept) << a_at | (b ^ b_kept) << b_at)
            if a_kept == b_kept and a_kept.bit_count() == 2:
                pos &= ~(both * a_kept)
        return pos

    def thorough(pos: int) -> int | None:
        for j, (bits, shifts, combos, narrow, reach) in enumerate(larger):
            key = pos & bits
            if key == left[j]:
                continue
            masks = tuple([(key >> s) & digits for s in shifts])
            found = narrow(masks, combos)
            if found is None:
                return None
            kept, required = found
            kill = _outside(kept, required, reach) if required else 0
            for s, m, k in zip(shifts, masks, kept, strict=True):
                kill |= (m & ~k) << s
            if kill:
                pos &= ~kill
            left[j] = key & ~kill
        return pos

    return Extra(cheap, thorough)


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


def search(puzzle: Puzzle, /, **keywords: Unpack[SearchKeywords]) -> SearchResult:
    """Up to ``limit`` solutions with the givens and ``fixed`` entries held, but
    ``other_than``, within ``most_nodes`` (the root's node counted)."""
    limit, fixed, budget, other_than, most_nodes = Ask(**keywords)
    givens = givens_with_singles(puzzle, fixed)  # a sum no digits make: no fixpoint

    def run(wide: bool, most_nodes: int | None) -> SearchResult:
        rule = cage_rule(puzzle.shape, puzzle.cages, wide)
        return native.search_cells(
            puzzle.shape,
            givens,
            limit=limit,
            budget=budget,
            extra=rule,
            other_than=other_than,
            most_nodes=most_nodes,
        )

    # Most puzzles settle at the root with the rule of 45 over single houses; one that
    # needs a search takes it over bands of rows and columns too, which costs more to
    # set up and saves more nodes than it costs.
    root = run(False, 1 if most_nodes is None else min(1, most_nodes))
    if root.complete or (most_nodes is not None and most_nodes <= 1):
        return root
    found = run(True, None if most_nodes is None else most_nodes - 1)
    spent = root.stats.seconds + found.stats.seconds
    stats = Stats("native", spent, root.stats.nodes + found.stats.nodes)
    return SearchResult(found.solutions, found.complete, stats)
