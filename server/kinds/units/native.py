"""The native engine of the units family, built for speed in pure Python.

A position is one integer of N * N * N bits: bit ``d * N*N + i`` says the digit ``d + 1``
is still possible in cell ``i`` (a *slice* per digit, each cell's bits one slice apart).
Every rule is then a handful of whole-board integer operations, never a loop over cells:

- folding the N slices onto one (shift, mask, ``twice |= once & x; once |= x``) tells
  the cells with no candidate (a contradiction), exactly one (a naked single) or two;
- folding each regular class of units (rows, columns, boxes, each diagonal: one unit
  shape at several *origins*) onto its origins tells, per digit and unit, whether the
  digit has no place left (a contradiction) or exactly one (a hidden single); a
  multiplication by the unit's pattern spreads origins back over their units' cells;
- placing digits clears their units' other cells in their slices the same way.

Irregular regions, which have no common pattern, are folded region by region. Singles
are applied to a fixpoint; the search then branches on a cell with the fewest
candidates (two, nearly always), depth first, counting solutions up to the limit and
polling the budget. Positions are immutable integers: a branch costs no copying.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from numgrid.server.core import Budget, Grid, SearchResult, SearchTimeout, Stats
from numgrid.server.core import GroupType as _T

from .shape import Shape

POLL_EVERY = 64  # nodes between two looks at the budget

# A constraint beyond the units (e.g. a cage's sum): a settled position to a narrower
# one, the same one when it has nothing to add, None when no filling completes it.
Extra = Callable[[int], int | None]


@dataclass(frozen=True)
class Tables:
    """A shape compiled to bit masks (see the module's docstring)."""

    n: int
    cells: int  # N * N
    all_cells: int  # the N*N bits of one slice
    rep: int  # bit 0 of every slice: a slice's mask times ``rep`` is that mask in all
    slices: tuple[int, ...]  # each slice's shift, d * N*N
    # per regular class: (origins in every slice, the shifts of its cells from an
    # origin, the unit's pattern of cells from bit 0)
    classes: tuple[tuple[int, tuple[int, ...], int], ...]
    regions: tuple[int, ...]  # each irregular unit's cells, one slice's bits
    peer_bits: tuple[int, ...]  # per bit (digit, cell): the cell's peers in that slice
    locked: Locked | None  # boxes and lines crossing, when the grid has boxes

    def fresh(self, givens: Sequence[int]) -> int:
        """The position of ``givens`` (per cell index, 0 empty) before any rule."""
        full = (1 << (self.cells * self.n)) - 1
        pos = full
        for i, g in enumerate(givens):
            if g:
                pos &= ~(self.rep << i)
                pos |= 1 << ((g - 1) * self.cells + i)
        return pos

    def digits(self, pos: int, i: int) -> list[int]:
        """The candidates of cell ``i``, 1-based."""
        return [d + 1 for d, s in enumerate(self.slices) if pos >> (s + i) & 1]

    def values(self, pos: int) -> list[int]:
        """Per cell index, its digit if decided (one candidate), else 0."""
        out = [0] * self.cells
        seen = [0] * self.cells
        for d, s in enumerate(self.slices):
            x = (pos >> s) & self.all_cells
            while x:
                low = x & -x
                i = low.bit_length() - 1
                out[i] = d + 1
                seen[i] += 1
                x ^= low
        return [v if k == 1 else 0 for v, k in zip(out, seen, strict=True)]


@dataclass(frozen=True)
class Locked:
    """Masks for locked candidates where boxes cross rows and columns: a *segment* is
    where a box crosses a row (its cells across) or a column (down), marked at its
    first cell, in every slice."""

    across: tuple[int, tuple[int, ...], int]  # segment origins, cell shifts, pattern
    down: tuple[int, tuple[int, ...], int]
    # (group origins, segment shifts within the group) for: a box's segments across,
    # a row's segments, a box's segments down, a column's segments
    box_across: tuple[int, tuple[int, ...]]
    row: tuple[int, tuple[int, ...]]
    box_down: tuple[int, tuple[int, ...]]
    column: tuple[int, tuple[int, ...]]
    row_full: tuple[int, tuple[int, ...], int]  # row origins, shifts to them, row pattern
    col_full: tuple[int, tuple[int, ...], int]
    box_full: tuple[int, tuple[int, ...], int]  # from a segment across to its box
    box_full_down: tuple[int, tuple[int, ...], int]  # from a segment down to its box


def _locked(n: int, bh: int, bw: int, rep: int) -> Locked:
    def bits(cells: list[int]) -> int:
        return sum(1 << i for i in cells) * rep

    across = bits([r * n + c for r in range(n) for c in range(0, n, bw)])
    down = bits([r * n + c for r in range(0, n, bh) for c in range(n)])
    box_orig = bits([r * n + c for r in range(0, n, bh) for c in range(0, n, bw)])
    row_orig = bits([r * n for r in range(n)])
    col_orig = bits(list(range(n)))
    return Locked(
        (across, tuple(range(bw)), (1 << bw) - 1),
        (down, tuple(i * n for i in range(bh)), sum(1 << (i * n) for i in range(bh))),
        (box_orig, tuple(i * n for i in range(bh))),
        (row_orig, tuple(range(0, n, bw))),
        (box_orig, tuple(range(bw))),
        (col_orig, tuple(i * n for i in range(0, n, bh))),
        (row_orig, tuple(range(0, n, bw)), (1 << n) - 1),
        (col_orig, tuple(i * n for i in range(0, n, bh)), sum(1 << (i * n) for i in range(n))),
        (
            box_orig,
            tuple(i * n for i in range(bh)),
            sum(1 << (i * n + j) for i in range(bh) for j in range(bw)),
        ),
        (
            box_orig,
            tuple(range(bw)),
            sum(1 << (i * n + j) for i in range(bh) for j in range(bw)),
        ),
    )


def _presence(pos: int, seg: tuple[int, tuple[int, ...], int]) -> int:
    """Per segment origin and slice: whether the segment holds the digit."""
    orig, offs, _ = seg
    p = 0
    for off in offs:
        p |= pos >> off
    return p & orig


def _sole(present: int, group: tuple[int, tuple[int, ...]]) -> int:
    """The segments that are the only ones of their group holding their digit."""
    orig, offs = group
    o = tw = 0
    for off in offs:
        x = (present >> off) & orig
        tw |= o & x
        o |= x
    ex = o & ~tw
    sole = 0
    if ex:
        for off in offs:
            sole |= (ex << off) & present
    return sole


def _spread(sole: int, full: tuple[int, tuple[int, ...], int]) -> int:
    """The whole units (rows, columns or boxes) of the given segment origins."""
    orig, offs, pattern = full
    o = 0
    for off in offs:
        o |= sole >> off
    return (o & orig) * pattern


def locked_candidates(t: Tables, pos: int) -> int:
    """``pos`` without the candidates that boxes and lines crossing rule out: a digit
    whose places in a box lie in one row (column) leaves the rest of that row
    (pointing), and one whose places in a row (column) lie in one box leaves the rest
    of that box (claiming)."""
    lk = t.locked
    if lk is None:
        return pos
    kill = 0
    for seg, box_group, line_group, line_full, box_full in (
        (lk.across, lk.box_across, lk.row, lk.row_full, lk.box_full),
        (lk.down, lk.box_down, lk.column, lk.col_full, lk.box_full_down),
    ):
        present = _presence(pos, seg)
        pattern = seg[2]
        pointing = _sole(present, box_group)
        if pointing:
            kill |= _spread(pointing, line_full) & ~(pointing * pattern)
        claiming = _sole(present, line_group)
        if claiming:
            kill |= _spread(claiming, box_full) & ~(claiming * pattern)
    return pos & ~kill


def _regular_class(n: int, origins: list[int], cells: list[int]) -> tuple[int, int]:
    """(origins as bits, the unit's pattern from bit 0) for units that are translates of
    one set of cells."""
    return sum(1 << o for o in origins), sum(1 << i for i in cells)


@functools.lru_cache(maxsize=64)
def tables(shape: Shape) -> Tables:
    """The masks of a shape, compiled once."""
    n, cells = shape.size, shape.cells
    rep = sum(1 << (d * cells) for d in range(n))
    classes: list[tuple[int, tuple[int, ...], int]] = []
    regions: list[int] = []
    by_type: dict[_T, list[tuple[int, ...]]] = {}
    for unit in shape.units:
        if unit.type is _T.DIAGONAL:
            start = unit.cells[0]
            offs = tuple(i - start for i in unit.cells)
            classes.append(((1 << start) * rep, offs, sum(1 << o for o in offs)))
        elif unit.type is _T.REGION:
            regions.append(sum(1 << i for i in unit.cells))
        else:
            by_type.setdefault(unit.type, []).append(unit.cells)
    for units in by_type.values():
        starts = [u[0] for u in units]
        offs = tuple(i - units[0][0] for i in units[0])
        if all(tuple(i - u[0] for i in u) == offs for u in units):
            orig, pattern = _regular_class(n, starts, list(offs))
            classes.append((orig * rep, offs, pattern))
        else:  # not translates of one another: fold them one by one, as regions
            regions.extend(sum(1 << i for i in u) for u in units)
    return Tables(
        n,
        cells,
        (1 << cells) - 1,
        rep,
        tuple(d * cells for d in range(n)),
        tuple(classes),
        tuple(regions),
        tuple(
            sum(1 << (s + j) for j in shape.peers[i])
            for s in (d * cells for d in range(n))
            for i in range(cells)
        ),
        _locked(n, *shape.boxes, rep) if shape.boxes is not None else None,
    )


def settle(t: Tables, pos: int, done: int, extra: Extra | None = None) -> tuple[int, int] | None:
    """Naked and hidden singles (then locked candidates, then ``extra``) to a fixpoint:
    the narrowed position and its decided cells (one slice's bits), or None on a
    contradiction. ``done``: the decided cells whose peers were already cleared.

    A round places every naked single at once (clearing each one's peers from its
    slice, a table lookup per digit placed); only when there is none are the units
    folded for hidden singles, the costlier test; locked candidates come last."""
    all_cells, rep, slices = t.all_cells, t.rep, t.slices
    classes, regions, peers = t.classes, t.regions, t.peer_bits
    while True:
        once = twice = 0
        for s in slices:
            x = (pos >> s) & all_cells
            twice |= once & x
            once |= x
        if once != all_cells:
            return None  # a cell without candidates
        new = once & ~twice & ~done
        if new:
            bits = (new * rep) & pos
            kill = 0
            while bits:
                low = bits & -bits
                kill |= peers[low.bit_length() - 1]
                bits ^= low
            pos &= ~kill
            done |= new
            continue
        hidden = 0
        for orig, offs, pattern in classes:
            o = tw = 0
            for off in offs:
                x = (pos >> off) & orig
                tw |= o & x
                o |= x
            if o != orig:
                return None  # a digit without a place in a unit
            ex = o & ~tw
            if ex:
                hidden |= (ex * pattern) & pos
        for region in regions:
            for s in slices:
                x = (pos >> s) & region
                if not x:
                    return None
                if not x & (x - 1):
                    hidden |= x << s
        hidden_cells = 0
        if hidden:
            for s in slices:
                x = (hidden >> s) & all_cells
                if hidden_cells & x:
                    return None  # two digits each with one place left, in one cell
                hidden_cells |= x
            hidden_cells &= ~done
        if hidden_cells:
            pos &= ~(hidden_cells * rep) | hidden
            continue
        if t.locked is not None:
            narrowed = locked_candidates(t, pos)
            if narrowed != pos:
                pos = narrowed
                continue
        if extra is not None:
            more = extra(pos)
            if more is None:
                return None
            if more != pos:
                pos = more
                continue
        return pos, done


def _branch_cell(t: Tables, pos: int) -> int:
    """An open cell with the fewest candidates (-1 when every cell is decided)."""
    all_cells = t.all_cells
    once = twice = thrice = 0
    for s in t.slices:
        x = (pos >> s) & all_cells
        thrice |= twice & x
        twice |= once & x
        once |= x
    if not twice:
        return -1
    two = twice & ~thrice
    if two:
        return (two & -two).bit_length() - 1
    best, best_count = -1, t.n + 1
    x = twice
    while x:
        low = x & -x
        i = low.bit_length() - 1
        x ^= low
        count = sum(pos >> (s + i) & 1 for s in t.slices)
        if count < best_count:
            best, best_count = i, count
    return best


def count(
    t: Tables,
    pos: int,
    *,
    limit: int = 2,
    budget: Budget | None = None,
    extra: Extra | None = None,
) -> tuple[list[int], bool, int]:
    """Up to ``limit`` solved positions below ``pos`` (depth first), whether the search
    ended on its own or by the limit (False: out of budget), and the nodes visited."""
    solutions: list[int] = []
    nodes = 0
    stack: list[tuple[int, int]] = [(pos, 0)]
    slices = t.slices
    rep = t.rep
    try:
        while stack and len(solutions) < limit:
            pos, done = stack.pop()
            nodes += 1
            if not nodes % POLL_EVERY and budget is not None and budget.expired():
                raise SearchTimeout
            settled = settle(t, pos, done, extra)
            if settled is None:
                continue
            pos, done = settled
            i = _branch_cell(t, pos)
            if i < 0:
                solutions.append(pos)
                continue
            cleared = pos & ~(rep << i)
            for s in reversed(slices):
                bit = 1 << (s + i)
                if pos & bit:
                    stack.append((cleared | bit, done))
    except SearchTimeout:
        return solutions, False, nodes
    return solutions, True, nodes


def search_cells(
    shape: Shape,
    givens: Sequence[int],
    *,
    limit: int = 2,
    budget: Budget | None = None,
    extra: Extra | None = None,
) -> SearchResult:
    """Up to ``limit`` solutions of a units grid with ``givens`` (per cell index, 0
    empty); a given out of 1..N is the checks' business and must not reach here."""
    start = time.perf_counter()
    t = tables(shape)
    solutions: list[int] = []
    complete, nodes = True, 0
    if limit > 0 and all(0 <= g <= shape.size for g in givens):
        solutions, complete, nodes = count(
            t, t.fresh(givens), limit=limit, budget=budget or Budget(), extra=extra
        )
    n = shape.size
    grids: list[Grid] = []
    for pos in solutions:
        values = t.values(pos)
        grids.append(tuple(tuple(values[r * n : r * n + n]) for r in range(n)))
    stats = Stats("native", time.perf_counter() - start, nodes)
    return SearchResult(tuple(grids), complete or len(grids) >= limit, stats)


def merged(givens: Grid, fixed: Grid | None) -> list[int]:
    """Givens and the entries held (``fixed``, 0 elsewhere) as one list per cell index;
    a held entry never overrides a given (a clash shows as no solution)."""
    flat = [v for row in givens for v in row]
    if fixed is not None:
        for i, v in enumerate(v for row in fixed for v in row):
            if v > 0:
                if flat[i] and flat[i] != v:
                    flat[i] = -1
                elif not flat[i]:
                    flat[i] = v
    return flat
