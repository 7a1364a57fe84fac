"""The native engine of the units family, built for speed in pure Python.

A position is one integer: each cell ``i`` owns a *group* of N + 1 bits from bit
``i * (N + 1)``, bit ``d - 1`` of it saying the digit ``d`` is still possible there, the
top one a *guard* kept 0. Every rule is a handful of whole-board integer operations:

- adding N ones to every group carries into its guard exactly when the group is not
  empty, so one addition finds the cells without a candidate (a contradiction), and
  ``x & (x - ones)`` (each group's lowest candidate cleared) then the cells with one (a
  naked single) or two (where the search branches);
- folding each regular class of units (rows, columns, boxes, each diagonal: one shape of
  cells at several *origins*) onto its origins tells, per unit and digit, whether the
  digit has no place left (a contradiction) or exactly one (a hidden single); a
  multiplication by the unit's pattern spreads the origins back over its cells; where
  boxes cross rows and columns, the same folds give locked candidates;
- a placed digit clears its peers by one table lookup (its peers' bits of that digit).

The folds of the regular units and the locked candidates are written out per shape as
Python source (unrolled, constants in place, a unit folded a factor at a time: a row's
three cells, then three of those) and compiled once: less time than the loops they stand
for, which stay as the reference (a test holds them equal).
Irregular regions, which have no common pattern, are folded cell by cell. A round places
every naked single; only when there is none are the units folded for hidden singles,
then locked candidates are looked for. The search then branches on a cell with the
fewest candidates (two, nearly always), depth first, counting solutions up to the limit
and polling the budget. Positions are immutable integers: a branch costs no copying.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Unpack

from numgrid.server.core import Ask
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import GroupType as _T
from numgrid.server.core import SearchKeywords
from numgrid.server.core import SearchResult
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Stats

from .model import Puzzle
from .shape import Shape

POLL_EVERY = 64  # nodes between two looks at the budget

# A rule beyond the units (e.g. cages' sums): a position to a narrower one, the same
# one when it has nothing to add, None when no filling completes it.
Narrowing = Callable[[int], int | None]


@dataclass(frozen=True)
class Extra:
    """A kind's rules beyond the units: ``cheap`` runs once no naked single is left,
    before the units are folded; ``thorough`` once every other rule has nothing to add."""

    cheap: Narrowing
    thorough: Narrowing


# (origins: every digit bit of each origin's group; the shifts from an origin to the
# other cells; the unit's pattern: bit 0 of each of its groups from the origin's)
Fold = tuple[int, tuple[int, ...], int]


@dataclass(frozen=True)
class Locked:
    """Masks for locked candidates where boxes cross rows and columns: a *segment* is
    where a box crosses a row (its cells across) or a column (down), marked at its
    first cell."""

    across: Fold  # segment origins, cell shifts, pattern
    down: Fold
    # (group origins, segment shifts within the group) for: a box's segments across, a
    # row's segments, a box's segments down, a column's segments
    box_across: tuple[int, tuple[int, ...]]
    row: tuple[int, tuple[int, ...]]
    box_down: tuple[int, tuple[int, ...]]
    column: tuple[int, tuple[int, ...]]
    row_full: Fold  # row origins, the shifts of its segments to them, the row's pattern
    col_full: Fold
    box_full: Fold  # from a segment across to its box
    box_full_down: Fold  # from a segment down to its box


@dataclass(frozen=True)
class Tables:
    """A shape compiled to bit masks (see the module's docstring)."""

    n: int
    cells: int  # N * N
    width: int  # bits a cell's group takes: N + 1
    ones: int  # bit 0 of every group
    digits: int  # the N digit bits of one group (group 0)
    full: int  # every digit of every cell
    guards: int  # the guard bit of every group
    classes: tuple[Fold, ...]  # the regular units, class by class
    regions: tuple[tuple[tuple[int, ...], int], ...]  # irregular units: shifts, pattern
    peer_bits: tuple[int, ...]  # per bit (cell, digit): that digit's bits in the peers
    locked: Locked | None  # boxes and lines crossing, when the grid has boxes
    # The folds of ``classes`` and ``regions`` as one function: the hidden singles' bits
    # of a position, or -1 on a digit without a place in a unit. Written out for a shape
    # without regions (constants in place, no loops), looped for one with them.
    hidden: Callable[[int], int]
    # :func:`locked_candidates` written out likewise, when the grid has boxes
    written_locked: Callable[[int], int] | None
    peer_guards: tuple[int, ...]  # per cell: its peers' guard bits

    def bit(self, d: int, i: int) -> int:
        """The bit of digit ``d`` (1-based) in cell ``i``."""
        return 1 << (i * self.width + d - 1)

    def cell(self, i: int) -> int:
        """Every digit bit of cell ``i``."""
        return self.digits << (i * self.width)

    def fresh(self, givens: Sequence[int]) -> int:
        """The position of ``givens`` (per cell index, 0 empty) before any rule."""
        pos, digits, width = self.full, self.digits, self.width
        at = 0
        for g in givens:
            if g:
                pos = (pos & ~(digits << at)) | 1 << (at + g - 1)
            at += width
        return pos

    def position(self, masks: Sequence[int]) -> int:
        """The position of per-cell candidate masks (bit ``d - 1`` for digit ``d``), as a
        chain's position holds them."""
        pos, width = 0, self.width
        for i, m in enumerate(masks):
            pos |= m << (i * width)
        return pos

    def guards_of(self, cells: Sequence[int]) -> int:
        """The guard bits of ``cells`` (cell indices): how a position marks them done."""
        return sum(1 << (i * self.width + self.n) for i in cells)

    def undecided(self, pos: int) -> int:
        """The guard bits of the cells with two candidates or more, in a position whose
        guard bits are clear (``pos & (pos + full)`` drops each group's lowest
        candidate; adding ``full`` again carries into the guard bit of each group with a
        candidate still left: one that had two or more)."""
        full = self.full
        return ((pos & (pos + full)) + full) & self.guards

    def candidates(self, pos: int, i: int) -> list[int]:
        """The candidates of cell ``i``, 1-based."""
        group = (pos >> (i * self.width)) & self.digits
        return [d + 1 for d in range(self.n) if group >> d & 1]

    def values(self, pos: int) -> list[int]:
        """Per cell index, its digit if decided (one candidate), else 0."""
        digits, width = self.digits, self.width
        out = []
        for at in range(0, self.cells * width, width):
            group = (pos >> at) & digits
            out.append(group.bit_length() if not group & (group - 1) else 0)  # 0: none
        return out


def _locked(n: int, bh: int, bw: int, g: int, digits: int) -> Locked:
    def origins(cells: list[int]) -> int:
        return sum(digits << (g * i) for i in cells)

    def pattern(cells: list[int]) -> int:
        return sum(1 << (g * i) for i in cells)

    across = origins([r * n + c for r in range(n) for c in range(0, n, bw)])
    down = origins([r * n + c for r in range(0, n, bh) for c in range(n)])
    box_orig = origins([r * n + c for r in range(0, n, bh) for c in range(0, n, bw)])
    row_orig = origins([r * n for r in range(n)])
    col_orig = origins(list(range(n)))
    box = [i * n + j for i in range(bh) for j in range(bw)]
    return Locked(
        (across, tuple(g * j for j in range(bw)), pattern(list(range(bw)))),
        (down, tuple(g * i * n for i in range(bh)), pattern([i * n for i in range(bh)])),
        (box_orig, tuple(g * i * n for i in range(bh))),
        (row_orig, tuple(g * c for c in range(0, n, bw))),
        (box_orig, tuple(g * j for j in range(bw))),
        (col_orig, tuple(g * r * n for r in range(0, n, bh))),
        (row_orig, tuple(g * c for c in range(0, n, bw)), pattern(list(range(n)))),
        (col_orig, tuple(g * r * n for r in range(0, n, bh)), pattern([r * n for r in range(n)])),
        (box_orig, tuple(g * i * n for i in range(bh)), pattern(box)),
        (box_orig, tuple(g * j for j in range(bw)), pattern(box)),
    )


def _factored(offs: tuple[int, ...]) -> tuple[int, list[list[int]]]:
    """``offs`` as their least one plus a sum of small sets, each from 0 (a row's nine:
    three cells, then three of those): folding set by set takes fewer operations than
    offset by offset."""
    rel = sorted(offs)
    base = rel[0]
    rel = [off - base for off in rel]
    levels = []
    while len(rel) > 1:
        p = next(
            p
            for p in range(2, len(rel) + 1)
            if not len(rel) % p and sorted(a + b for b in rel[::p] for a in rel[:p]) == rel
        )
        levels.append(rel[:p])
        rel = rel[::p]
    return base, levels


@functools.lru_cache(maxsize=64)
def _written_folds(classes: tuple[Fold, ...]) -> Callable[[int], int]:
    """The hidden singles of the regular classes as a function written out for them:
    each fold unrolled, its masks and shifts literal constants, and done a factor of the
    unit at a time (:func:`_factored`), unmasked until the end, a first factor that two
    classes share folded once. ``o`` holds the digits seen once or more, ``t`` twice or
    more. Kept by its classes: shapes that differ only in groups not folded (cages)
    share it."""
    lines = ["def hidden(pos):", "    found = 0"]
    first: dict[tuple[int, ...], str] = {}  # a first factor folded already: its names
    for orig, offs, pattern in classes:
        base, (head, *levels) = _factored(offs)
        key = (base, *head)
        if key in first:  # rows and boxes share their first three cells
            lines.append(f"    o, t = {first[key]}")
        else:
            first[key] = f"head{len(first)}"
            lines.append(f"    o = pos >> {base}" if base else "    o = pos")
            for k, shift in enumerate(head[1:]):
                lines.append(f"    x = pos >> {base + shift}")
                lines.append("    t = o & x" if not k else "    t |= o & x")
                lines.append("    o |= x")
            lines.append(f"    {first[key]} = o, t")
        for _, *shifts in levels:
            lines.append("    o0, t0 = o, t")  # each cell's factor so far, unshifted
            for shift in shifts:
                lines.append(f"    x = o0 >> {shift}")
                lines.append(f"    t |= (t0 >> {shift}) | (o & x)")
                lines.append("    o |= x")
        lines.append(f"    if o & {orig} != {orig}:")
        lines.append("        return -1")
        lines.append(f"    ex = (t & {orig}) ^ {orig}")
        lines.append("    if ex:")
        lines.append(f"        found |= (ex * {pattern}) & pos")
    lines.append("    return found")
    namespace: dict[str, Callable[[int], int]] = {}
    exec(compile("\n".join(lines), "<units hidden singles>", "exec"), namespace)
    return namespace["hidden"]


def _looped_folds(classes: tuple[Fold, ...]) -> Callable[[int], int]:
    """:func:`_written_folds`' function as a loop: for a shape with irregular regions,
    mostly met once (each puzzle draws its own), where writing it out costs more than it
    saves."""

    def hidden(pos: int) -> int:
        found = 0
        for orig, offs, pattern in classes:
            o = tw = 0
            for off in offs:
                x = (pos >> off) & orig
                tw |= o & x
                o |= x
            if o != orig:
                return -1
            ex = o & ~tw
            if ex:
                found |= (ex * pattern) & pos
        return found

    return hidden


@functools.lru_cache(maxsize=64)
def _written_locked(lk: Locked) -> Callable[[int], int]:
    """:func:`locked_candidates` written out for one shape: each fold unrolled, its
    masks and shifts literal constants; a group's segments folded unmasked (``o`` the
    digits seen once or more, ``t`` twice or more), spread back by a multiplication, and
    a segment's own cells taken out of its unit's by XOR (they lie within it)."""
    lines = ["def locked(pos):", "    kill = 0"]

    def shifted(name: str, off: int) -> str:
        return f"({name} >> {off})" if off else name

    for seg, box_group, line_group, line_full, box_full in (
        (lk.across, lk.box_across, lk.row, lk.row_full, lk.box_full),
        (lk.down, lk.box_down, lk.column, lk.col_full, lk.box_full_down),
    ):
        orig, offs, pattern = seg
        lines.append(f"    p = ({' | '.join(shifted('pos', off) for off in offs)}) & {orig}")
        for (g_orig, g_offs), (f_orig, f_offs, f_pattern) in (
            (box_group, line_full),
            (line_group, box_full),
        ):
            first, *rest = g_offs
            lines.append(f"    o = {shifted('p', first)}")
            lines.append("    t = 0")
            for off in rest:
                lines.append(f"    x = {shifted('p', off)}")
                lines.append("    t |= o & x")
                lines.append("    o |= x")
            lines.append(f"    ex = (o ^ t) & {g_orig}")
            lines.append("    if ex:")
            lines.append(f"        sole = (ex * {sum(1 << off for off in g_offs)}) & p")
            spread = " | ".join(shifted("sole", off) for off in f_offs)
            lines.append(
                f"        kill |= ((({spread}) & {f_orig}) * {f_pattern}) ^ (sole * {pattern})"
            )
    lines.append("    return pos & ~kill")
    namespace: dict[str, Callable[[int], int]] = {}
    exec(compile("\n".join(lines), "<units locked candidates>", "exec"), namespace)
    return namespace["locked"]


def _presence(pos: int, seg: Fold) -> int:
    """Per segment origin and digit: whether the segment holds the digit."""
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


def _spread(sole: int, full: Fold) -> int:
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


@functools.lru_cache(maxsize=64)
def tables(shape: Shape) -> Tables:
    """The masks of a shape, compiled once."""
    n, cells = shape.size, shape.cells
    g = n + 1
    digits = (1 << n) - 1
    ones = sum(1 << (g * i) for i in range(cells))
    classes: list[Fold] = []
    regions: list[tuple[tuple[int, ...], int]] = []
    by_type: dict[_T, list[tuple[int, ...]]] = {}
    for unit in shape.units:
        if unit.type is _T.DIAGONAL:
            start = unit.cells[0]
            offs = tuple(g * (i - start) for i in unit.cells)
            classes.append((digits << (g * start), offs, sum(1 << o for o in offs)))
        elif not shape.fills(unit):
            continue  # a cage: its cells are peers, but it need not hold every digit
        elif unit.type is _T.REGION:
            cells_at = tuple(g * i for i in unit.cells)
            regions.append((cells_at, sum(1 << at for at in cells_at)))
        else:
            by_type.setdefault(unit.type, []).append(unit.cells)
    for units in by_type.values():
        offs = tuple(g * (i - units[0][0]) for i in units[0])
        if all(tuple(g * (i - u[0]) for i in u) == offs for u in units):
            orig = sum(digits << (g * u[0]) for u in units)
            classes.append((orig, offs, sum(1 << o for o in offs)))
        else:  # not translates of one another: folded one by one, as regions
            regions.extend((tuple(g * i for i in u), sum(1 << (g * i) for i in u)) for u in units)
    locked = _locked(n, *shape.boxes, g, digits) if shape.boxes is not None else None
    peer_cells = [sum(1 << (g * j) for j in shape.peers[i]) for i in range(cells)]
    peer_bits = [peer_cells[i] << d for i in range(cells) for d in range(g)]
    return Tables(
        n,
        cells,
        g,
        ones,
        digits,
        digits * ones,
        ones << n,
        tuple(classes),
        tuple(regions),
        tuple(peer_bits),
        locked,
        # irregular units fold the same way, from group 0 (their shifts are absolute)
        (_looped_folds if regions else _written_folds)(
            (*classes, *((digits, offs, pattern) for offs, pattern in regions))
        ),
        _written_locked(locked) if locked is not None else None,
        tuple(peer << n for peer in peer_cells),
    )


def settle(
    t: Tables, pos: int, done: int, extra: Extra | None = None, locked: bool = True
) -> tuple[int, int] | None:
    """Naked singles, ``extra.cheap``, hidden singles, locked candidates (unless not
    ``locked``), then ``extra.thorough``, to a fixpoint: the narrowed position and its
    decided cells (their guard bits), or None on a contradiction. ``done``: the decided
    cells whose peers were already cleared."""
    full, ones, guards, shift = t.full, t.ones, t.guards, t.n
    digits, peers, written = t.digits, t.peer_bits, t.hidden
    cheap = extra.cheap if extra is not None else None
    while True:
        carried = pos + full  # a group's guard set when it holds a candidate, below it - 1
        if carried & guards != guards:
            return None  # a cell without candidates
        multi = ((pos & carried) + full) & guards  # pos & carried: each lowest candidate gone
        new = guards ^ (multi | done)  # the open cells of one candidate
        if new:
            bits = pos & ((new >> shift) * digits)
            if bits & (bits - 1):
                kill = 0
                while bits:
                    top = bits.bit_length() - 1
                    kill |= peers[top]
                    bits ^= 1 << top
            else:
                kill = peers[bits.bit_length() - 1]
            pos ^= pos & kill
            done |= new
            continue
        if cheap is not None:
            more = cheap(pos)
            if more is None:
                return None
            if more != pos:
                pos = more
                continue
        hidden = written(pos)
        if hidden < 0:
            return None  # a digit without a place in a unit
        if hidden:
            marked = (hidden + full) & guards
            safe = hidden | (ones ^ (marked >> shift))  # one bit in every group
            if ((safe & (safe - ones)) + full) & guards:
                return None  # two digits each with one place left, in one cell
            marked ^= marked & done
            if marked:
                pos &= ~((marked >> shift) * digits) | hidden
                continue
        if locked and t.written_locked is not None:
            narrowed = t.written_locked(pos)
            if narrowed != pos:
                pos = narrowed
                continue
        if extra is not None:
            more = extra.thorough(pos)
            if more is None:
                return None
            if more != pos:
                pos = more
                continue
        return pos, done


def _branch_cell(t: Tables, pos: int) -> int:
    """An open cell with the fewest candidates, -1 when every cell is decided."""
    full, ones, guards, shift = t.full, t.ones, t.guards, t.n
    y = pos & (pos - ones)
    multi = (y + full) & guards
    if not multi:
        return -1
    safe = y | (ones ^ (multi >> shift))
    two = multi ^ (((safe & (safe - ones)) + full) & guards)  # less those of three or more
    if two:
        # Of the cells of two candidates, the one whose digits most of its peers hold
        # (peers of two candidates counting five times): either branch then settles the
        # most. On top1465 this halves the nodes of taking the first such cell.
        best, best_score = -1, -1
        x = two
        pg, width, digits = t.peer_guards, t.width, t.digits
        while x:  # from the last cell: of equal scores, the last one is taken
            top = x.bit_length() - 1
            x ^= 1 << top
            at = top - shift  # the cell's group, below its guard
            share = ((pos & (((pos >> at) & digits) * ones)) + full) & pg[at // width]
            score = share.bit_count() + 4 * (share & two).bit_count()
            if score > best_score:
                best, best_score = at, score
        return best // width
    best, best_count = -1, t.n + 1
    x = multi
    while x:
        low = x & -x
        i = (low.bit_length() - 1) // t.width
        x ^= low
        k = ((pos >> (i * t.width)) & t.digits).bit_count()
        if k < best_count:
            best, best_count = i, k
    return best


def count(
    t: Tables,
    pos: int,
    *,
    limit: int = 2,
    budget: Budget | None = None,
    extra: Extra | None = None,
    most_nodes: int | None = None,
    other_than: int | None = None,
) -> tuple[list[int], bool, int]:
    """Up to ``limit`` solved positions below ``pos`` (depth first), whether the search
    ended on its own or by the limit (False: out of budget, or past ``most_nodes``), and
    the nodes visited. ``other_than``: a solved position known already, not counted; its
    digit is tried first at every branch, so the search goes straight down to it and
    then tries the branches nearest it, where a second solution that differs from it in
    a few cells lies (a maker's candidate that is not yet unique)."""
    solutions: list[int] = []
    nodes = 0
    stack: list[tuple[int, int]] = [(pos, 0)]
    width, digits = t.width, t.digits
    try:
        while stack and len(solutions) < limit:
            if most_nodes is not None and nodes >= most_nodes:
                raise SearchTimeout
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
                if pos != other_than:
                    solutions.append(pos)
                continue
            at = i * width
            group = (pos >> at) & digits
            cleared = pos & ~(digits << at)
            known = 0 if other_than is None else (other_than >> at) & group
            rest = group & ~known
            while rest:  # the highest digit first, so the lowest is tried first
                d = rest.bit_length() - 1
                stack.append((cleared | 1 << (at + d), done))
                rest ^= 1 << d
            if known:
                stack.append((cleared | known << at, done))
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
    other_than: Grid | None = None,
    most_nodes: int | None = None,
) -> SearchResult:
    """Up to ``limit`` solutions of a units grid with ``givens`` (per cell index, 0
    empty); a given out of 1..N means no solution. ``other_than``: a solution known
    already, left out of the solutions (see :func:`count`). Past ``most_nodes`` the
    search stops, incomplete."""
    start = time.perf_counter()
    t = tables(shape)
    solutions: list[int] = []
    complete, nodes = True, 0
    if limit > 0 and min(givens, default=0) >= 0 and max(givens, default=0) <= shape.size:
        solutions, complete, nodes = count(
            t,
            t.fresh(givens),
            limit=limit,
            budget=budget,
            extra=extra,
            most_nodes=most_nodes,
            other_than=_solved(t, other_than),
        )
    n = shape.size
    grids: list[Grid] = []
    for pos in solutions:
        values = t.values(pos)
        grids.append(tuple(tuple(values[r * n : r * n + n]) for r in range(n)))
    stats = Stats("native", time.perf_counter() - start, nodes)
    return SearchResult(tuple(grids), complete or len(grids) >= limit, stats)


def _solved(t: Tables, grid: Grid | None) -> int | None:
    """The solved position of ``grid``; None unless it holds a digit 1..N in every cell
    (another grid is no solution, so a search need not leave it out)."""
    values = [] if grid is None else [v for row in grid for v in row]
    if len(values) != t.cells or not all(1 <= v <= t.n for v in values):
        return None
    return t.fresh(values)


def search(puzzle: Puzzle, /, **keywords: Unpack[SearchKeywords]) -> SearchResult:
    """Up to ``limit`` solutions of a units puzzle whose rules are its shape's alone (no
    sums), with the givens and ``fixed`` entries held, but ``other_than``, within
    ``most_nodes``."""
    limit, fixed, budget, other_than, most_nodes = Ask(**keywords)
    givens = merged(puzzle.givens, fixed)
    return search_cells(
        puzzle.shape,
        givens,
        limit=limit,
        budget=budget,
        other_than=other_than,
        most_nodes=most_nodes,
    )


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
