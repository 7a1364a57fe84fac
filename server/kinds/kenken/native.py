"""The native KenKen engine: bitmask candidates, cage layout tables, propagation to a
fixpoint, dom/wdeg branching. No solver library.

Each cell has an N-bit *candidates* mask (bit ``d - 1`` for digit ``d``). Constraints
narrow them until nothing changes, cheapest first:

- a placed digit leaves the rest of its row and column at once;
- a *line* (row or column): hidden singles; a digit with no place, or two digits with
  one same only place, is a contradiction;
- a *cage*, by its layouts (:func:`.arith.layouts`; a cage without an operation takes
  any that applies): a layout survives while its digits are candidates of its cells and
  it puts in each line the digits the rest of that line can no longer hold (*required*);
  a digit every surviving layout puts in one line leaves the rest of it (*claimed*). The
  layouts holding a digit at a position are the bits of one int, so a revision is a few
  big-int ANDs, memoised per cage kind across puzzles;
- a *sum cage* of five cells or more (a 7-cell ``34+`` has up to 118,000 layouts) goes
  by reachable partial sums instead: weaker than layouts, exact once all is placed;
- a *band*, two adjacent rows (or columns), last and only after a placement in it: each
  line adds up to N(N+1)/2, and reachable sums (both lines' in fields of one int) narrow
  each cell and cage to what some choice of the others completes (:class:`_Band`). With
  every operation hidden this ties together cages that no cage or line sees alone.

Search is depth-first with an explicit stack (depth bounded by memory, not Python's
recursion limit), on the undecided cell with the fewest candidates per weight of its
row, column and cage (a constraint weighs 1 + the contradictions it found).

Why it is built this way, what each part saved and what was tried and dropped (probing,
subsets, matching, exact cover, other branching and band variants): docs/performance.md,
"KenKen's native engine".
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from functools import reduce
from operator import itemgetter
from operator import or_
from typing import Unpack

from numgrid.server.core import Ask
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchKeywords
from numgrid.server.core import SearchResult
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.branching import Branch
from numgrid.server.kinds.branching import depth_first

from . import arith
from .model import ADD
from .model import Cage
from .model import Puzzle

BAND = 2  # adjacent lines whose digits' sum is checked together (:class:`_Band`)
POLL_EVERY = 64  # nodes between budget checks; a node of a 9x9 takes well under 1 ms
DP_SUM_CELLS = 5  # sum cages from this many cells are propagated by partial sums
FEW = 16  # cage kinds with at most this many layouts are revised by a loop over them
MEMO_LIMIT = 1 << 16  # revisions remembered per cage kind before the memo starts over
SUPPORT_LIMIT = 1 << 12  # masks remembered per position of a cage kind, likewise
# Revisions and masks remembered across every cage kind (the whole KenKen corpus leaves
# about 44,000, 6.9 MB): past it, all kinds' memos are forgotten at once (their tables,
# 3.2 MB for the corpus's 1,198 kinds, stay: rebuilding them cost more than the misses),
# so that a long-running server meeting ever new cage kinds keeps its memory bounded.
# At 16,384 the memos rose and fell by 2.9 MB under load; at 8,192 by half that, as fast
# (benchmarks/engines.py: 0.17x-0.19x of puzzlekit either way).
MEMO_BUDGET = 1 << 13
_remembered = 0


def _remember() -> None:
    """Count one more remembered revision or mask; past the budget forget them all."""
    global _remembered
    _remembered += 1
    if _remembered > MEMO_BUDGET:
        _remembered = 0
        with _tables_lock:
            tables = list(_tables.values())
        for table in tables:
            table.memo.clear()
            if isinstance(table, _Layouts):
                for support in table.support:
                    support.clear()


Revision = tuple[tuple[int, ...], tuple[int, ...]] | None  # (new masks, claimed digits)


@functools.lru_cache(maxsize=8192)
def _parts(shape: tuple[tuple[int, int], ...]) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
    """The rows and columns holding two cells of a cage or more: ("row" or "column",
    the line's offset from the cage's first cell, the positions of those cells), by
    their positions, so that cages whose cells share lines alike list them alike."""
    found = []
    for axis, name in ((0, "row"), (1, "column")):
        for offset in {cell[axis] for cell in shape}:
            positions = tuple(j for j, cell in enumerate(shape) if cell[axis] == offset)
            if len(positions) > 1:
                found.append((name, offset, positions))
    return tuple(sorted(found, key=itemgetter(2)))


@functools.lru_cache(maxsize=8192)
def _structure(shape: tuple[tuple[int, int], ...]) -> tuple:
    """What of a cage's shape its tables depend on: which cells share a line
    (:func:`.arith.conflicts_of`) and its parts' positions. A row of two cells and a
    column of two are one cage kind, as are an L and its transpose: the corpus's
    1,620 cage kinds by shape are 1,198 so."""
    return arith.conflicts_of(shape), tuple(positions for _, _, positions in _parts(shape))


class _Layouts:
    """The layouts of one cage kind (target, operation, shape up to position).

    ``bits[j][d]``: the layouts with digit ``d + 1`` at position ``j``, as an int with
    bit ``k`` for layout ``k`` (built by C-level ``bytes.translate`` and ``int(..., 2)``,
    with no Python loop over the layouts); ``covers[p][d]``: the
    layouts with that digit somewhere in part ``p`` (:func:`_parts`), ``uncovers`` the
    rest; ``support[j]``: per mask seen at position ``j``, the layouts it allows. A
    revision maps the cells' masks, and per part the digits the rest of its line cannot
    hold (*required*), to the masks some live layout supports and, per part, the digits
    every live layout puts there (*claimed*); revisions are memoised, shared by every
    cage of the kind.
    """

    __slots__ = ("bits", "cells", "count", "covers", "memo", "parts", "support", "uncovers")

    def __init__(self, packed: bytes, cells: int, parts: tuple[tuple[int, ...], ...], size: int):
        self.cells, self.count = cells, len(packed) // cells
        self.bits = tuple(arith.digit_sets(packed[j::cells], size) for j in range(cells))
        self.parts = parts
        self.covers = tuple(
            tuple(reduce(or_, (self.bits[j][d] for j in positions)) for d in range(size))
            for positions in self.parts
        )
        every = (1 << self.count) - 1
        self.uncovers = tuple(tuple(every & ~c for c in covers) for covers in self.covers)
        self.support: tuple[dict[int, int], ...] = tuple({} for _ in range(cells))
        self.memo: dict = {}

    def alive(self, masks: tuple[int, ...]) -> int:
        """The layouts whose every digit is still a candidate of its cell (0: none)."""
        alive = -1
        for support, bits, m in zip(self.support, self.bits, masks, strict=True):
            found = support.get(m)
            if found is None:
                found, rest = 0, m
                while rest:
                    low = rest & -rest
                    found |= bits[low.bit_length() - 1]
                    rest ^= low
                if len(support) >= SUPPORT_LIMIT:  # big ints on a large grid: bounded
                    support.clear()
                support[m] = found
                _remember()
            alive &= found
            if not alive:
                return 0
        return alive

    def kept(self, masks: tuple[int, ...], alive: int) -> list[int]:
        """Each cell's digits that some layout of ``alive`` gives it."""
        new = []
        for bits, m in zip(self.bits, masks, strict=True):
            if m & (m - 1):
                keep, rest = 0, m
                while rest:
                    low = rest & -rest
                    if bits[low.bit_length() - 1] & alive:
                        keep |= low
                    rest ^= low
                new.append(keep)
            else:
                new.append(m)
        return new

    def revise(self, masks: tuple[int, ...], required: tuple[int, ...] = ()) -> Revision:
        alive = self.alive(masks)
        if not alive:
            return None
        for covers, need in zip(self.covers, required, strict=False):  # () or one per part
            while need:
                low = need & -need
                alive &= covers[low.bit_length() - 1]
                need ^= low
            if not alive:
                return None
        new = self.kept(masks, alive)
        claimed = []
        for positions, uncovers in zip(self.parts, self.uncovers, strict=True):
            union = 0
            for j in positions:
                union |= new[j]
            every = 0
            while union:
                low = union & -union
                union ^= low
                if not alive & uncovers[low.bit_length() - 1]:
                    every |= low
            claimed.append(every)
        return tuple(new), tuple(claimed)


class _Few:
    """A cage kind of few layouts (:data:`FEW`; 903 of the corpus's 1,198 kinds, six
    layouts on average), revised as :class:`_Layouts` is, but by a loop over its layouts
    rather than by big-int tables. The cells' masks are packed into one int, N bits a
    cell, and so is each layout (a bit per cell): a layout is alive if ``layout & masks
    == layout``. Per layout also the digits it puts in each part, N bits a part, which
    must hold the required digits; what every live layout puts there is claimed."""

    __slots__ = (
        "cells",
        "count",
        "full",
        "layouts",
        "memo",
        "part_shifts",
        "parts",
        "rows",
        "shifts",
    )

    def __init__(self, packed: bytes, cells: int, parts: tuple[tuple[int, ...], ...], size: int):
        self.cells, self.count, self.layouts = cells, len(packed) // cells, packed
        self.parts = parts
        self.full = (1 << size) - 1
        self.shifts = shifts = tuple(range(0, cells * size, size))
        self.part_shifts = part_shifts = tuple(range(0, len(parts) * size, size))
        rows = []
        for layout in arith.unpacked(packed, cells):
            digits = unions = 0
            for d, s in zip(layout, shifts, strict=True):
                digits |= 1 << (d - 1 + s)
            for positions, s in zip(parts, part_shifts, strict=True):
                for j in positions:
                    unions |= 1 << (layout[j] - 1 + s)
            rows.append((digits, unions))
        self.rows = tuple(rows)
        self.memo: dict = {}

    def _packed(self, masks: tuple[int, ...]) -> int:
        packed = 0
        for m, s in zip(masks, self.shifts, strict=True):
            packed |= m << s
        return packed

    def alive(self, masks: tuple[int, ...]) -> int:
        """The layouts whose every digit is still a candidate of its cell, as bits."""
        packed, alive, bit = self._packed(masks), 0, 1
        for digits, _ in self.rows:
            if digits & packed == digits:
                alive |= bit
            bit <<= 1
        return alive

    def kept(self, masks: tuple[int, ...], alive: int) -> list[int]:
        new = 0
        for digits, _ in self.rows:
            if alive & 1:
                new |= digits
            alive >>= 1
        full = self.full
        return [new >> s & full for s in self.shifts]

    def revise(self, masks: tuple[int, ...], required: tuple[int, ...] = ()) -> Revision:
        packed, need = self._packed(masks), 0
        for r, s in zip(required, self.part_shifts, strict=False):
            need |= r << s
        new, claimed = 0, -1
        for digits, unions in self.rows:
            if digits & packed == digits and unions & need == need:
                new |= digits
                claimed &= unions
        if not new:
            return None
        full = self.full
        return (
            tuple([new >> s & full for s in self.shifts]),
            tuple([claimed >> s & full for s in self.part_shifts]),
        )


# Tables by cage kind (:func:`_layouts_of`) and by cage kind and band part
# (:func:`_part_sums_of`), oldest dropped first past TABLES (about 1.5 kB each).
TABLES = 4096
_tables: dict[tuple, _Layouts | _Few | _PartSums] = {}


_tables_lock = threading.Lock()  # searches run in several threads of a server


def _table(key: tuple, make: Callable):
    found = _tables.get(key)
    if found is None:
        found = make()  # two threads may both make it: the same table either way
        with _tables_lock:
            while len(_tables) >= TABLES:
                del _tables[next(iter(_tables))]
            _tables[key] = found
    return found


def _layouts_of(target: int, operation: str, shape: tuple, size: int) -> _Layouts | _Few:
    structure = _structure(shape)

    def make() -> _Layouts | _Few:
        packed, cells = arith.listed(target, operation, shape, size), len(shape)
        kind = _Few if len(packed) <= FEW * cells else _Layouts
        return kind(packed, cells, structure[1], size)

    return _table((target, operation, structure, size), make)


class _Sum:
    """A large sum cage, propagated by reachable partial sums (bit ``s`` = sum ``s``)."""

    __slots__ = ("memo", "target")
    parts = ()

    def __init__(self, target: int):
        self.target = target
        self.memo: dict[tuple[int, ...], Revision] = {}

    def revise(self, masks: tuple[int, ...], required: tuple[int, ...] = ()) -> Revision:
        k, target = len(masks), self.target
        # need[j]: partial sums of cells 0..j-1 that cells j.. can complete to the target
        need = [0] * (k + 1)
        need[k] = 1 << target
        for j in range(k - 1, -1, -1):
            acc, m, nxt = 0, masks[j], need[j + 1]
            while m:
                low = m & -m
                acc |= nxt >> low.bit_length()
                m ^= low
            if not acc:
                return None
            need[j] = acc
        if not need[0] & 1:
            return None
        new, reach = [], 1  # reach: sums cells 0..j-1 can make (and still complete)
        for j, m in enumerate(masks):
            keep, nxt_reach, rest, want = 0, 0, m, need[j + 1]
            while rest:
                low = rest & -rest
                shifted = reach << low.bit_length()
                if shifted & want:
                    keep |= low
                    nxt_reach |= shifted & want
                rest ^= low
            if not keep:
                return None
            new.append(keep)
            reach = nxt_reach
        return tuple(new), ()


class _Arithmetic:
    """A cage with too many layouts to list (:class:`.arith.TooManyLayouts`), propagated
    by arithmetic: a sum by reachable partial sums (:class:`_Sum`), a product by keeping
    the digits that divide what the placed ones leave to make, either of them for a cage
    without an operation. Weaker than layouts, exact once all is placed."""

    __slots__ = ("memo", "operations", "size", "sum", "target")
    parts = ()

    def __init__(self, target: int, operation: str, size: int):
        self.target, self.size, self.sum = target, size, _Sum(target)
        self.operations = arith.operations_of(operation, 3)  # + or x (many cells)
        self.memo: dict[tuple[int, ...], Revision] = {}

    def revise(self, masks: tuple[int, ...], required: tuple[int, ...] = ()) -> Revision:
        kept: list[int] | None = None
        for op in self.operations:
            found = self.sum.revise(masks) if op == ADD else self._product(masks)
            if found is not None:
                new = found[0]
                kept = (
                    list(new) if kept is None else [a | b for a, b in zip(kept, new, strict=True)]
                )
        return None if kept is None else (tuple(kept), ())

    def _product(self, masks: tuple[int, ...]) -> Revision:
        made, open_masks = 1, 0
        for m in masks:
            if m & (m - 1):
                open_masks += 1
            else:
                made *= m.bit_length()
        if self.target % made:
            return None
        rest = self.target // made
        if not open_masks:
            return (masks, ()) if rest == 1 else None
        n = self.size
        if rest > n**open_masks:
            return None
        divides = sum(1 << (d - 1) for d in range(1, n + 1) if not rest % d)
        new = tuple(m & divides if m & (m - 1) else m for m in masks)
        return None if not all(new) else (new, ())


def _rule(cage: Cage, where: _Where, n: int) -> _Layouts | _Few | _Sum | _Arithmetic:
    """How the engine propagates a cage: a large sum by partial sums, most by layouts,
    one with too many layouts to list by arithmetic."""
    if cage.operation == ADD and len(where.cells) >= DP_SUM_CELLS:
        return _Sum(cage.target)
    try:
        return _layouts_of(cage.target, cage.operation, where.shape, n)
    except arith.TooManyLayouts:
        return _Arithmetic(cage.target, cage.operation, n)


class _PartSums:
    """What the digits of one cage kind at some of its positions (those inside a band,
    :class:`_Band`) add up to: per sum, the layouts giving it (built from the layout
    tables a position at a time, or for few layouts by a loop over them); memoised per
    cage masks. A digit counts ``weight`` times its value: the band keeps each line's
    sum in a field of its own (:func:`_bands`)."""

    __slots__ = ("memo", "rule", "table")

    def __init__(self, rule: _Layouts | _Few, positions, weights, packed: bytes | None = None):
        table: dict[int, int] = {}
        if packed is not None:  # the layouts, packed (:func:`.arith.packed`)
            for k, layout in enumerate(arith.unpacked(packed, rule.cells)):
                value = sum(layout[j] * w for j, w in zip(positions, weights, strict=True))
                table[value] = table.get(value, 0) | 1 << k
        else:
            table[0] = -1
            for j, weight in zip(positions, weights, strict=True):
                grown: dict[int, int] = {}
                for total, layouts in table.items():
                    # (no packed layouts: the rule is a _Layouts, which has bits)
                    for d, bits in enumerate(rule.bits[j], 1):  # type: ignore[union-attr]
                        both = layouts & bits
                        if both:
                            value = total + d * weight
                            grown[value] = grown.get(value, 0) | both
                table = grown
        self.rule = rule
        self.table = tuple(sorted(table.items()))
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def sums(self, masks: tuple[int, ...]) -> tuple[int, ...]:
        """The sums some live layout makes there."""
        found = self.memo.get(masks)
        if found is None:
            alive = self.rule.alive(masks)
            found = tuple(total for total, layouts in self.table if layouts & alive)
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            self.memo[masks] = found
            _remember()
        return found

    def narrowed(self, masks: tuple[int, ...], allowed: list[int]) -> list[int]:
        """The masks the live layouts making one of the ``allowed`` sums support."""
        alive = self.rule.alive(masks)
        keep = 0
        for total, layouts in self.table:
            if total in allowed:
                keep |= layouts
        return self.rule.kept(masks, alive & keep)


def _part_sums_of(
    target: int,
    operation: str,
    shape: tuple,
    size: int,
    positions: tuple[int, ...],
    weights: tuple[int, ...],
) -> _PartSums:
    def make() -> _PartSums:
        rule = _layouts_of(target, operation, shape, size)
        packed = rule.layouts if isinstance(rule, _Few) else None
        return _PartSums(rule, positions, weights, packed)

    key = (target, operation, _structure(shape), size, positions, weights)
    return _table(key, make)


@dataclass(frozen=True)
class _Band:
    """Adjacent lines (rows or columns; :data:`BAND` of them) whose digits add up to
    N(N+1)/2 each: a cage inside or across them adds what its cells inside do, a set
    of sums its live layouts allow (:class:`_PartSums`); a cell whose cage has no other
    cell inside adds its candidates. ``total`` leaves out large sum cages wholly inside
    (their target), and their cells; ``line``: the first line, blamed for a
    contradiction."""

    total: int
    line: int
    # per weight of a line: its cells' values, and the cells on their own
    cells: tuple[tuple[_Values, tuple[int, ...]], ...]
    # per cage with two cells or more inside: its cells, candidates -> their masks, sums
    parts: tuple[tuple[tuple[int, ...], Callable, _PartSums], ...]


@dataclass(frozen=True)
class _Where:
    """Where a cage lies on an N x N grid: all of a compiled cage but how it is revised,
    shared by the cages of every puzzle on those cells (the corpus's 6,774 cages lie in
    1,641 places)."""

    cells: tuple[int, ...]
    shape: tuple[tuple[int, int], ...]  # the cells relative to the first
    parts: tuple[tuple[int, int], ...]  # per part (:func:`_parts`), its line and cells there
    others: tuple[tuple[int, ...], ...]  # per part, the other cells of its line
    # candidates -> the cells' masks; per part, -> the masks of its others (C calls)
    pick: Callable = field(compare=False, repr=False)
    gather: tuple[Callable, ...] = field(compare=False, repr=False)


def _gatherer(cells: tuple[int, ...]):
    """``cand -> (cand[i] for i in cells)`` as a tuple, by ``itemgetter`` (which needs a
    repeat to give a tuple for one cell; no cells give ``(0,)``)."""
    if not cells:
        return lambda cand: (0,)
    return itemgetter(*cells, *cells) if len(cells) == 1 else itemgetter(*cells)


@functools.lru_cache(maxsize=4096)
def _where(cells: tuple[tuple[int, int], ...], n: int) -> _Where:
    indices = tuple(r * n + c for r, c in cells)
    r0, c0 = cells[0]
    shape = arith.shape_of(cells)
    parts = tuple(
        (r0 + at if name == "row" else n + c0 + at, len(positions))
        for name, at, positions in _parts(shape)
    )
    lines = _latin(n)[0]
    others = tuple(tuple(i for i in lines[line] if i not in indices) for line, _ in parts)
    pick = itemgetter(*indices) if len(indices) > 1 else lambda cand: (cand[indices[0]],)
    return _Where(indices, shape, parts, others, pick, tuple(map(_gatherer, others)))


class _Cage:
    """A cage of the compiled puzzle: its cells (:class:`_Where`) and how it is revised
    (a shared :class:`_Layouts` or :class:`_Few`, or its own :class:`_Sum` or
    :class:`_Arithmetic`, which look at no line)."""

    __slots__ = ("cells", "gather", "others", "pick", "rule")

    def __init__(self, where: _Where, rule: _Layouts | _Few | _Sum | _Arithmetic):
        self.cells, self.pick, self.rule = where.cells, where.pick, rule
        lines = isinstance(rule, (_Layouts, _Few))
        self.others = where.others if lines else ()
        self.gather = where.gather if lines else ()


@dataclass(frozen=True, eq=False)
class Compiled:
    """A puzzle flattened to indices: cell ``r * N + c``, lines 0..N-1 the rows and
    N..2N-1 the columns, cages in the puzzle's order."""

    size: int
    lines: tuple[tuple[int, ...], ...]
    cages: tuple[_Cage, ...]
    # per cell, its row and its column, each with its other cells' (cell, other line)
    peers: tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...]
    cage_of: tuple[int, ...]
    line_cages: tuple[tuple[int, ...], ...]  # per line, the cages with a part in it
    line_bands: tuple[tuple[int, ...], ...]  # per line, the bands holding it
    line_depth: tuple[int, ...]  # per line, the most cells a cage of line_cages has in it
    puzzle: Puzzle = field(repr=False)

    @classmethod
    def of(cls, puzzle: Puzzle) -> Compiled:
        n = puzzle.size
        lines, peers = _latin(n)
        cages = []
        cage_of = [0] * (n * n)
        line_cages: list[list[int]] = [[] for _ in range(2 * n)]
        line_depth = [0] * (2 * n)
        for k, cage in enumerate(puzzle.cages):
            where = _where(cage.cells, n)
            rule = _rule(cage, where, n)
            cages.append(_Cage(where, rule))
            if isinstance(rule, (_Layouts, _Few)):  # by layouts: its parts in lines count
                for line, depth in where.parts:
                    line_cages[line].append(k)
                    line_depth[line] = max(line_depth[line], depth)
            for i in where.cells:
                cage_of[i] = k
        return cls(
            n,
            lines,
            tuple(cages),
            peers,
            tuple(cage_of),
            tuple(map(tuple, line_cages)),
            _line_bands(n),
            tuple(line_depth),
            puzzle,
        )

    def blamed(self, culprit: int) -> tuple[int, ...]:
        """The constraints whose weight a contradiction found by ``culprit`` (a line, a
        cage, or past them a band) raises: a band's are its lines."""
        first_band = 2 * self.size + len(self.cages)
        if culprit < first_band:
            return (culprit,)
        line = self.bands[culprit - first_band].line
        return tuple(range(line, line + BAND))

    @functools.cached_property
    def bands(self) -> tuple[_Band, ...]:
        """Built on first use: most puzzles are solved by propagation without them."""
        return _bands(self.puzzle, self.cages)

    def initial(self, fixed: Grid | None) -> list[int]:
        """Candidates before search: every digit, or the held entry (none if out of range);
        then per line the digits placed in it, none yet (see :func:`propagate`)."""
        n = self.size
        cand = [(1 << n) - 1] * (n * n)
        if fixed is not None:
            for r, row in enumerate(fixed):
                for c, digit in enumerate(row):
                    if digit:
                        cand[r * n + c] = 1 << (digit - 1) if 1 <= digit <= n else 0
        return cand + [0] * (2 * n)

    def to_grid(self, cand: list[int]) -> Grid:
        n = self.size
        return tuple(tuple(m.bit_length() for m in cand[r * n : r * n + n]) for r in range(n))


@functools.cache
def _line_bands(n: int) -> tuple[tuple[int, ...], ...]:
    """Per line (rows, then columns), the bands holding it, as :func:`_bands` lists them:
    the bands of rows, then those of columns, each by its first line."""
    count = max(n - BAND + 1, 0)
    return tuple(
        tuple(axis * count + first for first in range(count) if first <= at < first + BAND)
        for axis in (0, 1)
        for at in range(n)
    )


def _bands(puzzle: Puzzle, cages: tuple[_Cage, ...]) -> tuple[_Band, ...]:
    """Every band of :data:`BAND` adjacent rows, then of adjacent columns, as
    :func:`_line_bands` numbers them. A band adds up each of its lines in a field of its
    own (a digit in its k-th line counts ``(N(N+1)/2 + 1) ** k`` times), so that one
    bit set of sums checks every line's total at once, and a cage across lines adds to
    each what it puts there."""
    n = puzzle.size
    half = n * (n + 1) // 2
    weights = tuple((half + 1) ** k for k in range(BAND))
    count = max(n - BAND + 1, 0)
    totals = [half * sum(weights)] * (2 * count)
    cells: list[list[list[int]]] = [[[] for _ in weights] for _ in totals]
    parts: list[list] = [[] for _ in totals]
    for cage, compiled in zip(puzzle.cages, cages, strict=True):
        r0, c0 = cage.cells[0]
        shape = tuple((r - r0, c - c0) for r, c in cage.cells)
        large_sum = isinstance(compiled.rule, _Sum)
        unlisted = large_sum or isinstance(compiled.rule, _Arithmetic)  # no part sums
        for axis in (0, 1):
            lines = [cell[axis] for cell in cage.cells]
            for first in range(max(min(lines) - BAND + 1, 0), min(max(lines) + 1, count)):
                b = axis * count + first
                inner = tuple(j for j, at in enumerate(lines) if first <= at < first + BAND)
                at = tuple(lines[j] - first for j in inner)
                if large_sum and len(inner) == len(lines) and len(set(at)) == 1:
                    totals[b] -= cage.target * weights[at[0]]
                elif unlisted or len(inner) == 1:
                    for j, k in zip(inner, at, strict=True):
                        cells[b][k].append(compiled.cells[j])
                else:
                    part_weights = tuple(weights[k] for k in at)
                    sums = _part_sums_of(cage.target, cage.operation, shape, n, inner, part_weights)
                    parts[b].append((compiled.cells, compiled.pick, sums))
    return tuple(
        _Band(
            totals[b],
            b % count + (n if b >= count else 0),
            tuple((_values(w), tuple(group)) for w, group in zip(weights, cells[b], strict=True)),
            tuple(parts[b]),
        )
        for b in range(2 * count)
    )


def _band_changes(band: _Band, cand: list[int]) -> list[tuple[int, int]] | None:
    """The cells whose candidates the band's sum narrows, with their new candidates;
    None when no choice of sums, one per cell or cage inside, makes the band's total.

    Reachable sums as bits, forwards (``reach[j]``: what the first ``j`` open terms can
    make), then backwards (``need``: what the first terms must make for the rest to
    complete the total): a term keeps the sums ``s`` with ``reach[j] << s`` meeting
    ``need``. Decided terms just leave the total."""
    total = band.total
    terms: list[tuple[int, ...]] = []  # per open term, the sums it can make
    owners: list = []  # per open term, its cell, or (cells, part sums, masks)
    for values, cells in band.cells:
        for i in cells:
            m = cand[i]
            found = values[m]
            if m & (m - 1):
                terms.append(found)
                owners.append(i)
            else:
                total -= found[0]
    for cells, pick, part in band.parts:
        masks = pick(cand)
        sums = part.memo.get(masks) or part.sums(masks)  # () again if there is none
        if len(sums) > 1:
            terms.append(sums)
            owners.append((cells, part, masks))
        elif sums:
            total -= sums[0]
        else:
            return None
    if total < 0:
        return None
    reach = [1]
    now = 1
    for sums in terms:
        acc = 0
        for value in sums:
            acc |= now << value
        now = acc
        reach.append(now)
    if not now >> total & 1:
        return None
    changes = []
    need = 1 << total
    for j in range(len(terms) - 1, -1, -1):
        sums, before = terms[j], reach[j]
        after, allowed = 0, []
        for value in sums:
            shifted = need >> value
            if shifted & before:
                allowed.append(value)
                after |= shifted
        need = after
        if len(allowed) < len(sums):
            owner = owners[j]
            if type(owner) is int:
                changes.append((owner, _mask(sums, allowed, cand[owner])))
            else:
                cells, part, masks = owner
                changes.extend(zip(cells, part.narrowed(masks, allowed), strict=True))
    return changes


class _Values(dict):
    """``mask -> its digits times a weight``, filled on first use (a few hundred masks in
    practice, 2^N at worst)."""

    def __init__(self, weight: int):
        super().__init__()
        self.weight = weight

    def __missing__(self, mask: int) -> tuple[int, ...]:
        w = self.weight
        found = self[mask] = tuple(
            d * w for d in range(1, mask.bit_length() + 1) if mask >> (d - 1) & 1
        )
        return found


@functools.cache
def _values(weight: int) -> _Values:
    return _Values(weight)


def _mask(values: tuple[int, ...], kept: list[int], mask: int) -> int:
    """``mask`` less the digits whose values (as :class:`_Values` lists them) are not kept."""
    rest = mask
    for value in values:
        low = rest & -rest
        rest ^= low
        if value not in kept:
            mask ^= low
    return mask


@functools.cache
def _latin(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple]:
    """The lines (rows, then columns) and each cell's peers of an N x N grid."""
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    peers = tuple(
        (
            (i // n, tuple((j, n + j % n) for j in rows[i // n] if j != i)),
            (n + i % n, tuple((j, j // n) for j in cols[i % n] if j != i)),
        )
        for i in range(n * n)
    )
    return rows + cols, peers


@functools.lru_cache(maxsize=16)
def compiled(puzzle: Puzzle) -> Compiled:
    return Compiled.of(puzzle)


def propagate(
    comp: Compiled,
    cand: list[int],
    placed: list[int],
    lines_due: set[int],
    cages_due: set[int],
    bands_due: set[int] | None,
) -> int:
    """Narrow ``cand`` in place until nothing changes: -1, or on a contradiction the
    constraint that found it (line ``0..2N-1``, cage ``2N + k``). ``cand`` holds the N*N
    cells' candidates, then per line the digits placed in it so far (set here as
    placements leave their peers), so that a line check looks for hidden singles only
    when a digit that is not yet placed has one place.

    ``placed``: cells just given one digit, whose digit still has to leave their row and
    column (cheapest, first); ``lines_due``: lines to check for a digit with one place
    left (hidden single) or none, whose cages with two cells or more in it are then due
    (what the rest of the line lacks, they must hold) if a digit not yet placed there has
    no more places than such a cage has cells in it (else the rest lacks nothing new:
    72 % of revisions changed nothing before); ``cages_due``: cages to revise
    (dearest, last; revising a cage is idempotent, so what it changes in its own cells
    does not make it due again), before lines (nearly every line would be due again
    after each cage otherwise); ``bands_due``: bands to check (:class:`_Band`; dearest,
    when nothing else is due; made due by a placement in one of their lines), or None
    not to check any.
    """
    n = comp.size
    nn = n * n
    full = (1 << n) - 1
    lines, cages, peers, cage_of = comp.lines, comp.cages, comp.peers, comp.cage_of
    line_cages, line_bands, line_depth = comp.line_cages, comp.line_bands, comp.line_depth
    get = cand.__getitem__
    while True:
        if placed:
            i = placed.pop()
            m = cand[i]
            if bands_due is not None:
                bands_due.update(line_bands[i // n])
                bands_due.update(line_bands[n + i % n])
            cand[nn + i // n] |= m
            cand[nn + n + i % n] |= m
            for own, side in peers[i]:  # its row, then its column
                hit = False
                for p, line in side:
                    c = cand[p]
                    if c & m:
                        c ^= m
                        if not c:
                            return own
                        cand[p] = c
                        if not c & (c - 1):
                            placed.append(p)
                        lines_due.add(line)
                        cages_due.add(cage_of[p])
                        hit = True
                if hit:
                    lines_due.add(own)
        elif lines_due and not cages_due:
            line = lines_due.pop()
            cells = lines[line]
            once = twice = thrice = more = 0  # digits with a place, two, three, four or more
            for m in map(get, cells):
                more |= thrice & m
                thrice |= twice & m
                twice |= once & m
                once |= m
            if once != full:
                return line
            # a digit only a cage's part can hold there has at most that many places
            depth = line_depth[line]
            many = thrice if depth == 2 else more if depth == 3 else 0
            if depth and full & ~many & ~cand[nn + line]:
                cages_due.update(line_cages[line])
            hidden = once & ~twice & ~cand[nn + line]  # placed digits aside
            if hidden:
                for i in cells:
                    m = cand[i]
                    h = m & hidden
                    if h and m & (m - 1):
                        if h & (h - 1):
                            return line  # two digits with this cell as their only place
                        cand[i] = h
                        placed.append(i)
                        lines_due.add(i // n)
                        lines_due.add(n + i % n)
                        cages_due.add(cage_of[i])
        elif cages_due:
            k = cages_due.pop()
            cage = cages[k]
            cells = cage.cells
            masks = cage.pick(cand)
            key = masks
            required: tuple[int, ...] = ()
            gather = cage.gather
            if len(gather) == 1:  # most cages lie in one line
                lack = full & ~reduce(or_, gather[0](cand))
                if lack:
                    required = (lack,)
                    key = (masks, required)
            elif gather:
                lacks = [full & ~reduce(or_, others(cand)) for others in gather]
                if any(lacks):
                    required = tuple(lacks)
                    key = (masks, required)
            memo = cage.rule.memo
            revision = memo.get(key, False)
            if revision is False:
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                revision = memo[key] = cage.rule.revise(masks, required)
                _remember()
            if revision is None:
                return 2 * n + k
            new, claimed = revision  # type: ignore[misc]  # not False: revised above
            if new != masks:
                for i, old, m in zip(cells, masks, new, strict=True):
                    if m != old:
                        cand[i] = m
                        if not m & (m - 1):
                            placed.append(i)
                        lines_due.add(i // n)
                        lines_due.add(n + i % n)
            for others, claim in zip(cage.others, claimed, strict=True):
                if claim:
                    for p in others:
                        c = cand[p]
                        if c & claim:
                            c &= ~claim
                            if not c:
                                return 2 * n + k
                            cand[p] = c
                            if not c & (c - 1):
                                placed.append(p)
                            lines_due.add(p // n)
                            lines_due.add(n + p % n)
                            cages_due.add(cage_of[p])
        elif bands_due:
            b = bands_due.pop()
            changes = _band_changes(comp.bands[b], cand)
            if changes is None:
                return 2 * n + len(cages) + b
            for i, m in changes:
                if m != cand[i]:
                    if not m:
                        return 2 * n + len(cages) + b
                    cand[i] = m
                    if not m & (m - 1):
                        placed.append(i)
                    lines_due.add(i // n)
                    lines_due.add(n + i % n)
                    cages_due.add(cage_of[i])
        else:
            return -1


def _branch_cell(cand: list[int], weights: list[int], comp: Compiled) -> int:
    """The undecided cell with the fewest candidates per weight of its row, column and
    cage (dom/wdeg: a constraint weighs 1 + the contradictions it found); -1 when all
    cells are decided."""
    n = comp.size
    cage_of = comp.cage_of
    best, best_count, best_weight = -1, 1, 0
    for i, m in zip(range(n * n), cand, strict=False):  # the cells, not the lines after
        if m & (m - 1):
            count = m.bit_count()
            weight = weights[i // n] + weights[n + i % n] + weights[2 * n + cage_of[i]]
            if count * best_weight < best_count * weight:
                best, best_count, best_weight = i, count, weight
    return best


def search(puzzle: Puzzle, /, **keywords: Unpack[SearchKeywords]) -> SearchResult:
    """Find up to ``limit`` distinct solutions (honouring ``fixed`` entries) within
    ``budget`` and ``most_nodes``, but ``other_than`` (a solution known already). On
    timeout, cancel or past ``most_nodes``: the solutions found so far,
    ``complete=False``."""
    limit, fixed, budget, other_than, most_nodes = Ask(**keywords)
    start = time.perf_counter()
    budget = budget or Budget()
    comp = compiled(puzzle)
    n = comp.size
    solutions: list[Grid] = []
    branches: list[Branch] = []
    nodes = 0
    weights = [1] * (2 * n + len(comp.cages))

    def visit(cand: list[int], cell: int) -> None:
        """The root (``cell`` -1) or the child that decided ``cell``."""
        nonlocal nodes
        if not nodes % POLL_EVERY and budget.expired():
            raise SearchTimeout
        nodes += 1
        if cell < 0:  # the bands only if propagation alone leaves cells open (most: none)
            placed = [i for i, m in enumerate(cand[: n * n]) if not m & (m - 1)]
            lines, cages = set(range(2 * n)), set(range(len(comp.cages)))
            culprit = propagate(comp, cand, placed, lines, cages, None)
            if culprit < 0 and _branch_cell(cand, weights, comp) >= 0:
                culprit = propagate(comp, cand, [], set(), set(), set(range(len(comp.bands))))
        else:
            lines, cages = {cell // n, n + cell % n}, {comp.cage_of[cell]}
            culprit = propagate(comp, cand, [cell], lines, cages, set())
        if culprit >= 0:
            for at in comp.blamed(culprit):
                weights[at] += 1
            return
        cell = _branch_cell(cand, weights, comp)
        if cell < 0:
            solutions.append(comp.to_grid(cand))
        else:
            branches.append((cand, cell, cand[cell]))

    def root() -> None:
        if limit > 0:
            cand = comp.initial(fixed)
            if all(cand[: n * n]):
                visit(cand, -1)

    return depth_first(
        root,
        visit,
        branches,
        solutions,
        limit,
        start,
        lambda: nodes,
        other_than=other_than,
        most_nodes=most_nodes,
    )
