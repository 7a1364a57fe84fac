"""The techniques of the logical KenKen solver, simplest first, each a short function.

Vocabulary, named once:

- *mask*: a set of digits as bits (bit ``d - 1`` is digit ``d``); the grid holds 1..N.
- *layout* (of a puzzle): the puzzle compiled to indices: cell ``(r, c)`` is ``r * N + c``,
  cages ``0..m-1`` as in ``puzzle.cages``, lines ``0..2N-1`` (rows, then columns) as in
  ``puzzle.lines``.
- *cage layout*: digits for a cage's cells (in the cage's order) that give its target and
  repeat no digit within a row or column (:func:`..arith.layouts`). A cage layout is
  *live* when every one of its digits is still a candidate of its cell.
- *position*: the candidates (a mask) of every cell, and the digits *placed* so far. A
  placement removes its digit from the rest of its row and column at once (the rule of
  the puzzle, not a technique); a cell left with one candidate that way is not placed
  until a ``NAKED_SINGLE`` step says so. Every other step that leaves a cell with one
  candidate places it.
- *step*: one deduction: placements ``cell = digit``, eliminations ``cell != digit``, the
  cages and lines that justify it, and one sentence with the numbers.
- *contradiction*: a position that no filling completes; raised, never returned.

A technique looks at one cage, one line, one cell or the whole position and returns a
step or ``None``; it never changes the position. Every step is implied by the rules and
the position alone: no technique assumes the solution is unique. The latin techniques
(singles, subsets), the lines and the making of steps are shared with the other latin
squares (:mod:`..latin`).
"""

from __future__ import annotations

import enum
import functools
import itertools
import math
import operator
import threading
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from numgrid.server.chain import Contradiction
from numgrid.server.chain import best
from numgrid.server.chain import capital
from numgrid.server.chain import listed
from numgrid.server.core import BeyondLogic
from numgrid.server.core import Cell
from numgrid.server.core import Group
from numgrid.server.core import PuzzleError
from numgrid.server.core import Step
from numgrid.server.core import cell_name as _cell_name
from numgrid.server.kinds import latin
from numgrid.server.kinds.latin import WORDS
from numgrid.server.kinds.latin import Frame
from numgrid.server.kinds.latin import LatinPosition

# The latin techniques, shared with the other latin squares; this ladder steps with them.
from numgrid.server.kinds.latin import hidden_single as hidden_single
from numgrid.server.kinds.latin import hidden_subset as hidden_subset
from numgrid.server.kinds.latin import make_step
from numgrid.server.kinds.latin import naked_single as naked_single
from numgrid.server.kinds.latin import naked_subset as naked_subset
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digit_of
from numgrid.server.kinds.masks import digits_of

from . import arith
from .checks import check_puzzle
from .model import ADD
from .model import DIVIDE
from .model import MULTIPLY
from .model import NONE
from .model import SUBTRACT
from .model import Cage
from .model import Line
from .model import Puzzle


class Technique(enum.IntEnum):
    """The techniques, simplest first; the value is the difficulty rank."""

    SINGLE_CELL_CAGE = 1  # a one-cell cage holds its target
    COMBINATIONS = 2  # a cage's cells keep the digits its live layouts put there
    NAKED_SINGLE = 3  # one candidate left in a cell
    HIDDEN_SINGLE = 4  # a digit with one place left in a row or column
    CAGE_LINE = 5  # a digit every live layout of a cage puts in a line leaves the rest of it
    NAKED_SUBSET = 6  # k cells of a line holding k digits between them (k = 2..4)
    HIDDEN_SUBSET = 7  # k digits of a line with k places between them (k = 2..4)
    LINE_TOTALS = 8  # a line adds up to N(N+1)/2 and multiplies to N!: the cells left over
    TRIAL = 9  # last resort: an assumption (or two), techniques 1-5, a contradiction


def cell_name(cell: Cell) -> str:
    return _cell_name(cell)


# ---------------------------------------------------------------- layout


@dataclass(frozen=True, eq=False)
class Layout:
    """A puzzle compiled to indices."""

    puzzle: Puzzle
    frame: Frame  # the latin square: lines, peers, digits as bits
    size: int
    full: int  # the mask of every digit
    cells: tuple[Cell, ...]  # cell i is (i // N, i % N)
    cages: tuple[Cage, ...]
    cage_cells: tuple[tuple[int, ...], ...]
    cage_of: tuple[int, ...]  # per cell
    kinds: tuple[CageKind, ...]  # per cage: its kind's tables (:class:`CageKind`)
    # per cage: its lines (rows, then columns, in order: as its kind's lines)
    cage_lines: tuple[tuple[int, ...], ...]
    lines: tuple[Line, ...]
    line_cells: tuple[tuple[int, ...], ...]
    cell_lines: tuple[tuple[int, ...], ...]  # per cell: (row line, column line)
    peers: tuple[tuple[int, ...], ...]  # per cell: the other cells of its row and column
    inside: tuple[tuple[int, ...], ...]  # per line: the cages entirely inside it
    # per cage: ``masks -> its cells' masks`` (a C-level ``itemgetter``)
    pickers: tuple[Callable[[list[int]], tuple[int, ...]], ...]

    @functools.cached_property
    def cage_bits(self) -> tuple[tuple[tuple[int, ...], ...] | LiveLayouts, ...]:
        """Per cage: its layouts, as bits (a large kind's: LiveLayouts, all live); for
        the sentences, made when one first asks."""
        return tuple(_bit_layouts(cage, self.size) for cage in self.cages)

    @functools.cached_property
    def watchers(self) -> tuple[tuple[int, ...], ...]:
        """Per cell: the cages whose lines hold it."""
        found: list[list[int]] = [[] for _ in self.cells]
        for k, ls in enumerate(self.cage_lines):
            for x in ls:
                for i in self.line_cells[x]:
                    found[i].append(k)
        return tuple(map(tuple, found))


# Cage layouts, over all cages, past which a compiled puzzle is not kept between calls:
# its cage kinds' tables and its large cages' layouts are shared (:func:`cage_kind`,
# :func:`_bit_layouts`), but its other layouts, as tuples for the sentences, are the
# puzzle's own. Of the other 321 corpus puzzles the largest has 3,596 layouts (the
# median 142).
KEPT_LAYOUTS = 1 << 15


def layout_of(puzzle: Puzzle) -> Layout:
    """Compile ``puzzle``; raise :class:`PuzzleError` if it is not well formed (every
    cell in exactly one cage, every cage with at least one layout). The last few are
    kept (a player's hints come one by one), unless huge. Raise :class:`BeyondLogic`
    for a cage with too many layouts to list (:class:`.arith.TooManyLayouts`)."""
    weight = 0
    for cage in puzzle.cages:
        try:
            weight += arith.count(cage, puzzle.size) if cage.cells else 0
        except arith.TooManyLayouts:
            raise BeyondLogic(
                f"{cage.name}: its {len(cage.cells)} cells have more than "
                f"{arith.MAX_LAYOUTS:,} layouts, too many for the logical techniques"
            ) from None
    if weight > KEPT_LAYOUTS:
        return _compiled(puzzle)
    return _kept(puzzle)


@functools.lru_cache(maxsize=8)
def _kept(puzzle: Puzzle) -> Layout:
    return _compiled(puzzle)


class LiveLayouts:
    """Some layouts of a large cage kind (more than :data:`.arith.PACK_OVER`), as a bit
    set over its packed layouts (bit ``t``: layout ``t``) rather than a tuple of tuples:
    419_9x9's 34+ (83,824 layouts) took 8.5 MB of small tuples, which the allocator kept
    (a step of 10-25 MB in a server's memory under load at its first call). Read as a
    sequence of layouts (as bits), made one at a time when iterated; narrowed by ANDs
    with :attr:`_Packed.index`, the per cell and digit bit sets of the kind."""

    __slots__ = ("alive", "kind")

    def __init__(self, kind: _Packed, alive: int):
        self.kind, self.alive = kind, alive

    def __len__(self) -> int:
        return self.alive.bit_count()

    def __bool__(self) -> bool:
        return bool(self.alive)

    def __iter__(self):
        kind = self.kind
        every = zip(*[map(kind.bits.__getitem__, kind.packed)] * kind.cells, strict=True)
        return itertools.compress(every, bin(self.alive)[:1:-1].encode().translate(_ZERO_ONE))

    def __getitem__(self, t: int) -> tuple[int, ...]:
        return next(itertools.islice(iter(self), t, None))

    def narrowed(self, changed: dict[int, int]) -> LiveLayouts:
        """Those whose digit at each position ``j`` of ``changed`` is in its mask."""
        alive, index = self.alive, self.kind.index
        for j, mask in changed.items():
            allowed = 0
            for d in digits_of(mask):
                allowed |= index[j][d - 1]
            alive &= allowed
        return LiveLayouts(self.kind, alive)

    def union(self) -> list[int]:
        """Per position, the digits some of them put there (as bits)."""
        alive = self.alive
        return [
            sum(bit(d) for d, layouts in enumerate(per_digit, 1) if layouts & alive)
            for per_digit in self.kind.index
        ]


_ZERO_ONE = bytes.maketrans(b"01", b"\x00\x01")


@dataclass(frozen=True, eq=False)
class _Packed:
    """A large cage kind: its layouts packed (a byte a digit, :func:`.arith.packed`),
    and per position and digit the set of layouts putting it there (bit ``t``: layout
    ``t``; its :attr:`CageKind.index`)."""

    packed: bytes
    cells: int
    bits: tuple[int, ...]  # digit -> its bit (0 -> 0)
    index: tuple[tuple[int, ...], ...]


def _bit_layouts(cage: Cage, n: int) -> tuple[tuple[int, ...], ...] | LiveLayouts:
    """The cage's layouts with each digit as its bit; a large kind's all live, packed and
    shared with its kind (:meth:`CageKind.every`)."""
    if arith.count(cage, n) <= arith.PACK_OVER:
        return arith.layouts_as(cage, n, (0, *(bit(d) for d in range(1, n + 1))))
    return cage_kind(cage.target, cage.operation, arith.shape_of(cage.cells), n).every()


# ---------------------------------------------------------------- cage kinds

# Cage kinds whose tables are kept, shared by every puzzle and call (a maker's
# candidates, one edit apart, and a trial's assumptions meet the same cage states
# again), the least recently used going first: at most KINDS_KEPT kinds of KIND_LAYOUTS
# layouts in all (the corpus's 1,633 kinds have 122,530; a 7-cell 34+'s 83,824 take
# about 2 MB of tables), each remembering the effect of up to KIND_STATES states.
KINDS_KEPT = 2048
KIND_LAYOUTS = 1 << 19
KIND_STATES = 1 << 10
# Most layouts of a kind whose live layouts per cell and candidates are remembered (a
# large kind's would take megabytes).
REMEMBERED = 1024
# What :meth:`CageKind.effect` gives for a state it leaves as it is, pointing nowhere:
# one object (compared by identity), so that such states cost their keys alone.
UNCHANGED = ((), ())


class CageKind:
    """What every cage of one target, operation and shape (cells relative to the first)
    shares: the tables of COMBINATIONS and CAGE_LINE. A set of layouts is an int, bit
    ``t`` for layout ``t`` of :func:`.arith.layouts`; per position ``j`` and digit ``d``,
    ``index[j][d - 1]`` holds the layouts putting ``d`` there, and per line of the shape
    (rows, then columns, in order) ``lines[x][d - 1]`` those putting ``d`` in it."""

    __slots__ = (
        "all_live",
        "by_total",
        "cage",
        "count",
        "effects",
        "either",
        "index",
        "lines",
        "size",
    )

    def __init__(self, cage: Cage, size: int):
        self.cage, self.size = cage, size
        cells, self.count = len(cage.cells), arith.count(cage, size)
        self.index = _index(cage, size, self.count)
        lines = []
        for axis in (0, 1):
            for offset in sorted({cell[axis] for cell in cage.cells}):
                at = [self.index[j] for j, cell in enumerate(cage.cells) if cell[axis] == offset]
                lines.append(at[0] if len(at) == 1 else tuple(map(_or_all, zip(*at, strict=True))))
        self.lines = tuple(lines)
        remembered = self.count <= REMEMBERED
        self.either: tuple[dict[int, int], ...] | None = (
            tuple({} for _ in range(cells)) if remembered else None
        )
        self.effects: dict[tuple[int, ...], tuple] = {}
        self.by_total: dict[bool, dict[int, int]] = {}
        self.all_live: LiveLayouts | None = None

    def every(self) -> LiveLayouts:
        """Every layout, packed, as :class:`LiveLayouts` (for a large kind; made once)."""
        if self.all_live is None:
            bits = (0, *(bit(d) for d in range(1, self.size + 1)))
            packed = arith.packed(self.cage, self.size)
            kind = _Packed(packed, len(self.cage.cells), bits, self.index)
            self.all_live = LiveLayouts(kind, (1 << self.count) - 1)
        return self.all_live

    def of(self, j: int, mask: int) -> int:
        """The layouts putting one of the digits of ``mask`` at position ``j``."""
        either = self.either[j] if self.either is not None else None
        found = either.get(mask) if either is not None else None
        if found is None:
            column, found = self.index[j], 0
            for d in digits_of(mask):
                found |= column[d - 1]
            if either is not None:
                either[mask] = found
        return found

    def live(self, now: tuple[int, ...]) -> int:
        """The layouts whose every digit is a candidate of its cell (cells' candidates
        ``now``): the live layouts."""
        found = -1
        for j, m in enumerate(now):
            found &= self.of(j, m)
            if not found:
                return 0
        return found

    def effect(self, now: tuple[int, ...]) -> tuple:
        """For the cells' candidates ``now``: the candidates some live layout gives each
        cell (COMBINATIONS), and per line of :attr:`lines` the digits every live layout
        puts in it (CAGE_LINE; ``()`` when none); ``()`` when no layout is live,
        :data:`UNCHANGED` when it keeps every candidate and puts no digit in a line for
        sure. Remembered per state (up to :data:`KIND_STATES`)."""
        found = self.effects.get(now)
        if found is None:
            found = self._effect(now)
            if len(self.effects) >= KIND_STATES:
                self.effects.clear()
            self.effects[now] = found
        return found

    def _effect(self, now: tuple[int, ...]) -> tuple:
        live = self.live(now)
        if not live:
            return ()
        keeps = []
        kept_any = 0  # the digits some cell keeps: only these can be required in a line
        for m, column in zip(now, self.index, strict=True):
            keep = m
            for d in digits_of(m):
                if not live & column[d - 1]:
                    keep ^= 1 << (d - 1)
            keeps.append(keep)
            kept_any |= keep
        required = []
        for column in self.lines:
            found = 0
            for d in digits_of(kept_any):
                if not live & ~column[d - 1]:
                    found |= 1 << (d - 1)
            required.append(found)
        kept = tuple(keeps)
        if not any(required):
            return UNCHANGED if kept == now else (kept, ())
        return kept, tuple(required)

    def known(self, live: int, adding: bool) -> int | None:
        """The sum (``adding``) or product that every layout of ``live`` gives, if they
        agree (LINE_TOTALS)."""
        found = [value for value, where in self._totals(adding).items() if where & live]
        return found[0] if len(found) == 1 else None

    def _totals(self, adding: bool) -> dict[int, int]:
        """Per sum (``adding``) or product, the layouts giving it."""
        found = self.by_total.get(adding)
        if found is None:
            found = self.by_total[adding] = {}
            for t, digits in enumerate(arith.layouts(self.cage, self.size)):
                value = sum(digits) if adding else math.prod(digits)
                found[value] = found.get(value, 0) | 1 << t
        return found


# Layouts of a kind past which its index is made by C-level passes over its packed digits
# (:func:`.arith.digit_sets`) rather than by a loop over its layouts.
SMALL_KIND = 64


def _index(cage: Cage, size: int, count: int) -> tuple[tuple[int, ...], ...]:
    """Per position ``j`` and digit ``d``, the layouts putting ``d`` there (as bits)."""
    cells = len(cage.cells)
    if count > SMALL_KIND:
        packed = arith.packed(cage, size)
        return tuple(arith.digit_sets(packed[j::cells], size) for j in range(cells))
    index = [[0] * size for _ in range(cells)]
    for t, layout in enumerate(arith.layouts(cage, size)):
        for column, d in zip(index, layout, strict=True):
            column[d - 1] |= 1 << t
    return tuple(map(tuple, index))


def _or_all(parts: Iterable[int]) -> int:
    found = 0
    for part in parts:
        found |= part
    return found


_kinds: OrderedDict[tuple, CageKind] = OrderedDict()
_kinds_lock = threading.Lock()
_kind_layouts = [0]  # the layouts of the kinds kept


def cage_kind(target: int, operation: str, shape: tuple[Cell, ...], size: int) -> CageKind:
    """The tables of a cage kind (see :class:`CageKind`), kept while recently used."""
    key = (target, operation, shape, size)
    with _kinds_lock:
        found = _kinds.get(key)
        if found is not None:
            _kinds.move_to_end(key)
            return found
    made = CageKind(Cage(target, operation, shape), size)
    with _kinds_lock:
        found = _kinds.setdefault(key, made)  # another thread's, if it came first
        if found is made:
            _kind_layouts[0] += made.count
        evicted = False
        while len(_kinds) > 1 and (len(_kinds) > KINDS_KEPT or _kind_layouts[0] > KIND_LAYOUTS):
            _kind_layouts[0] -= _kinds.popitem(last=False)[1].count
            evicted = True
        if evicted:
            placed_kind.cache_clear()  # which would keep the kinds let go
    return found


@functools.lru_cache(maxsize=4096)
def placed_kind(
    cage: Cage, n: int
) -> tuple[tuple[int, ...], CageKind, tuple[int, ...], tuple[int, ...]]:
    """A cage on an N x N grid: its cells (``r * N + c``), its kind, its lines (as the
    kind's lines) and the lines it lies entirely in."""
    cells = tuple(r * n + c for r, c in cage.cells)
    kind = cage_kind(cage.target, cage.operation, arith.shape_of(cage.cells), n)
    rows, columns = sorted({r for r, _ in cage.cells}), sorted({n + c for _, c in cage.cells})
    within = (*(rows if len(rows) == 1 else ()), *(columns if len(columns) == 1 else ()))
    return cells, kind, (*rows, *columns), within


def _compiled(puzzle: Puzzle) -> Layout:
    errors = [f for f in check_puzzle(puzzle) if f.is_error]
    if errors:
        raise PuzzleError(errors)
    return compiled(puzzle)


def compiled(puzzle: Puzzle) -> Layout:
    """A well-formed puzzle (not checked: a maker's) compiled to indices, from its
    cages' kinds (:func:`placed_kind`, cached across puzzles)."""
    n = puzzle.size
    frame = latin.frame(n)
    placed = [placed_kind(cage, n) for cage in puzzle.cages]
    cage_of = [0] * (n * n)
    inside: list[list[int]] = [[] for _ in range(2 * n)]
    for k, (cells, _, _, within) in enumerate(placed):
        for i in cells:
            cage_of[i] = k
        for x in within:
            inside[x].append(k)
    return Layout(
        puzzle=puzzle,
        frame=frame,
        size=n,
        full=frame.full,
        cells=frame.cells,
        cages=puzzle.cages,
        cage_cells=tuple(cells for cells, _, _, _ in placed),
        cage_of=tuple(cage_of),
        kinds=tuple(kind for _, kind, _, _ in placed),
        cage_lines=tuple(lines for _, _, lines, _ in placed),
        lines=frame.lines,
        line_cells=frame.line_cells,
        cell_lines=frame.cell_lines,
        peers=frame.peers,
        inside=tuple(map(tuple, inside)),
        pickers=tuple(_picker(cells) for cells, _, _, _ in placed),
    )


def _picker(cells: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    if len(cells) > 1:
        return itemgetter(*cells)
    (i,) = cells
    return lambda masks: (masks[i],)


# ---------------------------------------------------------------- position

LIVE = 0  # memo slot of the live layouts (per cage); each technique's slot is its value
CAGE_SLOTS = (Technique.SINGLE_CELL_CAGE, Technique.COMBINATIONS)
LINE_SLOTS = (
    Technique.HIDDEN_SINGLE,
    Technique.NAKED_SUBSET,
    Technique.HIDDEN_SUBSET,
    Technique.LINE_TOTALS,
)


class Position(LatinPosition):
    """A KenKen position (:class:`~numgrid.server.kinds.latin.LatinPosition`): per cage
    also its layouts live when last filtered, and for trials a witness solution."""

    techniques = Technique
    layout: Layout
    refuted: list[tuple[int, int, int]]  # (depth, cell, digit)
    refuted2: list[tuple[int, int, int]]  # (cell, digit, second cell)
    # per cage: the layouts live when last filtered, and the cells' masks then (None:
    # never filtered)
    lives: list[tuple[tuple[tuple[int, ...], ...] | LiveLayouts, tuple[int, ...]] | None]
    # per cell, the digit (as a bit) of one solution agreeing with the candidates, all 0
    # when there is none; None until a trial asks (see logic.py's _witness)
    witness: list[int] | None

    def _more(self) -> None:
        self.lives = [None] * len(self.layout.cages)
        self.refuted2 = []
        self.witness = None

    def copy(self) -> Position:
        other = super().copy()
        other.lives = list(self.lives)
        other.refuted2 = list(self.refuted2)
        other.witness = self.witness
        return other

    def place(self, i: int, digit: int) -> None:
        """Place ``digit`` in cell ``i``: it leaves the rest of its row and column."""
        if self.placed[i] == digit:
            return
        cell = self.layout.cells[i]
        if self.placed[i] or not self.masks[i] & bit(digit):
            raise Contradiction(f"{cell_name(cell)} cannot be {digit}", self._lines(i), [cell])
        self.set(i, bit(digit))
        self.placed[i] = digit
        self._forget_cell(i)
        b = bit(digit)
        for j in self.layout.peers[i]:
            if self.masks[j] & b:
                self.set(j, self.masks[j] & ~b)

    def _forget_cell(self, i: int) -> None:
        layout, memo = self.layout, self._memo
        k = layout.cage_of[i]
        memo[LIVE].pop(k, None)
        for slot in CAGE_SLOTS:
            memo[slot].pop(k, None)
        cage_line = memo[Technique.CAGE_LINE]
        for w in layout.watchers[i]:
            cage_line.pop(w, None)
        for x in layout.cell_lines[i]:
            for slot in LINE_SLOTS:
                memo[slot].pop(x, None)
        memo[Technique.NAKED_SINGLE].pop(i, None)
        memo[Technique.TRIAL].clear()


# ---------------------------------------------------------------- live layouts


def live(pos: Position, k: int) -> tuple[tuple[int, ...], ...] | LiveLayouts:
    """The live layouts of cage ``k`` (as bits), for the sentences; Contradiction when
    none is left."""
    memo = pos.memo(LIVE)
    found = memo.get(k)
    if found is None:
        # Candidates only shrink, so the layouts live at the last filtering are filtered
        # again on the cells that changed since.
        layout = pos.layout
        masks = layout.pickers[k](pos.masks)
        before, then = pos.lives[k] or (layout.cage_bits[k], (layout.full,) * len(masks))
        changed = [j for j, (a, b) in enumerate(zip(masks, then, strict=True)) if a != b]
        if not changed:
            found = before
        elif isinstance(before, LiveLayouts):
            found = before.narrowed({j: masks[j] for j in changed})
        elif len(changed) == 1:
            j, m = changed[0], masks[changed[0]]
            found = tuple(layout for layout in before if layout[j] & m)
        else:
            found = tuple(layout for layout in before if all(layout[j] & masks[j] for j in changed))
        pos.lives[k] = (found, masks)
        if not found:
            raise _no_layout(layout.cages[k], masks)
        memo[k] = found
    return found


def cage_effect(pos: Position, k: int) -> tuple:
    """What the live layouts of cage ``k`` keep and put in its lines
    (:meth:`CageKind.effect`); Contradiction when none is left."""
    layout = pos.layout
    now = layout.pickers[k](pos.masks)
    found = layout.kinds[k].effect(now)
    if not found:
        raise _no_layout(layout.cages[k], now)
    return found


def _no_layout(cage: Cage, masks: tuple[int, ...]) -> Contradiction:
    shown = ""
    if len(masks) <= 4:
        each = [
            f"{cell_name(c)} {listed(digits_of(m))}" for c, m in zip(cage.cells, masks, strict=True)
        ]
        shown = f" ({'; '.join(each)})"
    return Contradiction(
        f"no layout of {cage.name} fits its cells' candidates{shown}", [cage], cage.cells
    )


def cage_index(layout: Layout, k: int) -> tuple[tuple[int, ...], ...]:
    """Per cell of cage ``k`` (in the cage's order) and digit ``d`` (index ``d - 1``): the
    set of the cage's layouts that put ``d`` there, as bits of a number (bit ``t`` is
    ``layout.cage_bits[k][t]``). Live layouts are then a few big-number ANDs and ORs."""
    return layout.kinds[k].index


def union_of(layouts, size: int) -> list[int]:
    """Per cell, the digits some layout puts there."""
    if not layouts:
        return [0] * size
    if isinstance(layouts, LiveLayouts):
        return layouts.union()
    # a position at a time: zip(*layouts) would make an iterator per layout (5 MB for
    # the 83,824 of a 7-cell 34+)
    return [
        functools.reduce(operator.or_, set(map(operator.itemgetter(j), layouts)))
        for j in range(size)
    ]


# ---------------------------------------------------------------- words


OPERATION_WORDS = {ADD: "adds", SUBTRACT: "subtracts", MULTIPLY: "multiplies", DIVIDE: "divides"}


def combo_text(operation: str, digits: Iterable[int], target: int | None = None) -> str:
    """A multiset of digits as the cage computes it: ``1+3+4``, ``1·3·4``, ``5-2``, ``6/3``.
    A cage whose operation is not shown (given its ``target``) shows the operations that
    give it: ``3·5``, ``1+2+3 = 1·2·3``."""
    ds = sorted(digits)
    if operation == NONE and len(ds) > 1 and target is not None:
        ops = ways(ds, target)
        return " = ".join(combo_text(op, ds) for op in ops) if ops else combo_text(ADD, ds)
    if operation == SUBTRACT and len(ds) == 2:
        return f"{ds[1]}-{ds[0]}"
    if operation == DIVIDE and len(ds) == 2:
        return f"{ds[1]}/{ds[0]}"
    if operation == MULTIPLY:
        return "·".join(map(str, ds))
    return "+".join(map(str, ds))


def ways(digits, target: int) -> list[str]:
    """The operations under which ``digits`` give ``target``."""
    ds = tuple(digits)
    return [op for op in arith.operations_of(NONE, len(ds)) if arith.value(op, ds) == target]


def operations_left(cage: Cage, multisets) -> str:
    """For a cage whose operation is not shown: `` (so it multiplies)`` when every digit
    multiset left gives its target by one operation only ("" otherwise)."""
    if cage.operation != NONE or len(cage.cells) < 2:
        return ""
    ops = {op for c in multisets for op in ways(c, cage.target)}
    return f" (so it {OPERATION_WORDS[ops.pop()]})" if len(ops) == 1 else ""


OPERATIONS_SHOWN = 2000  # most live layouts whose operations a sentence works out


def combos(layouts, limit: int = 4) -> list[tuple[int, ...]] | None:
    """The digit multisets of some layouts (as bits), sorted; None if over ``limit``."""
    found: set[tuple[int, ...]] = set()
    for layout in layouts:
        found.add(tuple(sorted(layout)))
        if len(found) > limit:
            return None
    return sorted(tuple(digit_of(b) for b in combo) for combo in found)


def _cells_word(n: int) -> str:
    return "one cell" if n == 1 else f"{WORDS[n] if n < len(WORDS) else n} cells"


# ---------------------------------------------------------------- 1. single-cell cages


def single_cell_cage(pos: Position, k: int) -> Step | None:
    cells = pos.layout.cage_cells[k]
    if len(cells) != 1 or pos.placed[cells[0]]:
        return None
    i, cage = cells[0], pos.layout.cages[k]
    digit = digit_of(live(pos, k)[0][0])
    return make_step(
        pos,
        Technique.SINGLE_CELL_CAGE,
        {},
        [cage],
        [i],
        f"{cage.name} is a single cell",
        place={i: digit},
    )


# ---------------------------------------------------------------- 2. combinations


def cage_subject(pos: Position, k: int) -> str:
    """``cage 12x at r0c0 in three cells``, with what narrowed its layouts."""
    layout = pos.layout
    cage, cells = layout.cages[k], layout.cage_cells[k]
    placed = [(layout.cells[i], pos.placed[i]) for i in cells if pos.placed[i]]
    subject = f"{cage.name} in {_cells_word(len(cells))}"
    if cage.operation == NONE and len(cells) > 1:
        subject += " (operation not shown)"
    if placed:
        subject += f" with {listed((f'{cell_name(c)} = {d}' for c, d in placed), 'and')}"
    if any(not pos.placed[i] and pos.masks[i] != layout.full for i in cells):
        subject += ", given its cells' candidates,"
    return subject


def cage_predicate(pos: Position, k: int, found) -> str:
    cage = pos.layout.cages[k]
    shown = combos(found)
    if shown is not None:
        which = listed(combo_text(cage.operation, c, cage.target) for c in shown)
        return f"can only be {which}{operations_left(cage, shown)}"
    ops = ""
    if cage.operation == NONE and len(found) <= OPERATIONS_SHOWN:
        ops = operations_left(cage, {tuple(sorted(map(digit_of, lay))) for lay in found})
    allowed = 0
    for mask in union_of(found, len(pos.layout.cage_cells[k])):
        allowed |= mask
    missing = pos.layout.full & ~allowed
    if missing:
        return f"cannot hold {listed(digits_of(missing))}{ops}"
    return f"has {len(found)} layouts left{ops}"


def combinations(pos: Position, k: int) -> Step | None:
    """A cage's open cells keep the digits that some live layout puts there."""
    layout = pos.layout
    cells = layout.cage_cells[k]
    if len(cells) < 2 or all(map(pos.placed.__getitem__, cells)):
        return None
    found = cage_effect(pos, k)
    if found is UNCHANGED:
        return None
    keep = found[0]
    removals = {
        i: pos.masks[i] & ~m
        for i, m in zip(cells, keep, strict=True)
        if not pos.placed[i] and pos.masks[i] & ~m
    }
    if not removals:
        return None
    cage = layout.cages[k]

    def reason() -> str:
        said = f"{cage_subject(pos, k)} {cage_predicate(pos, k, live(pos, k))}"
        allowed = 0
        for m in keep:
            allowed |= m
        arranged = [  # digits of the live layouts that still fit no cell of the arrangement
            f"{listed(digits_of(removals[i] & allowed))} in {cell_name(layout.cells[i])}"
            for i in cells
            if removals.get(i, 0) & allowed
        ]
        if arranged:
            more = " (and more)" if len(arranged) > 3 else ""
            said += f", and no layout puts {listed(arranged[:3], 'or')}{more}"
        return said

    placed = [i for i in cells if pos.placed[i]]
    return make_step(pos, Technique.COMBINATIONS, removals, [cage], placed, reason)


# ---------------------------------------------------------------- 5. cage and line


def cage_line(pos: Position, k: int) -> Step | None:
    """A digit every live layout of a cage puts in one line (within the cage) leaves
    the rest of that line."""
    layout = pos.layout
    cells = layout.cage_cells[k]
    if len(cells) < 2 or all(map(pos.placed.__getitem__, cells)):
        return None
    required = cage_effect(pos, k)[1]
    if not required:
        return None
    masks, placed, cage_of = pos.masks, pos.placed, layout.cage_of
    removals: dict[int, int] = {}
    gained: list[tuple[int, int]] = []  # (line, the digits its other cells lose)
    for x, digits in zip(layout.cage_lines[k], required, strict=True):
        lost = 0
        for i in layout.line_cells[x]:
            if cage_of[i] != k and not placed[i] and masks[i] & digits:
                removals[i] = removals.get(i, 0) | (masks[i] & digits)
                lost |= masks[i] & digits
        if lost:
            gained.append((x, lost))
    if not removals:
        return None
    cage = layout.cages[k]

    def reason() -> str:
        said = [f"{listed(digits_of(lost), 'and')} in {layout.lines[x].name}" for x, lost in gained]
        shown = combos(live(pos, k), 3)
        which = listed(combo_text(cage.operation, c, cage.target) for c in shown) if shown else ""
        which = f" ({which})" if which else ""
        return f"every layout left of {cage.name}{which} puts {listed(said, 'and')} inside the cage"

    lines = [layout.lines[x] for x in layout.cage_lines[k]]
    return make_step(pos, Technique.CAGE_LINE, removals, [cage, *lines], cells, reason)


# ---------------------------------------------------------------- 8. line totals

LINE_TOTALS_CELLS = 4  # most cells left over that a line total restricts


def assignments(masks: list[int], want: int, op: str) -> list[int] | None:
    """Per cell, the digits of some assignment (distinct digits, within the masks) whose
    sum (``+``) or product (``x``) is ``want``; None when there is none."""
    n = len(masks)
    support = [0] * n
    chosen = [0] * n
    any_found = False

    def extend(j: int, acc: int, used: int) -> None:
        nonlocal any_found
        if j == n:
            if acc == want:
                any_found = True
                for t in range(n):
                    support[t] |= chosen[t]
            return
        for d in digits_of(masks[j] & ~used):
            if op == ADD:
                nxt = acc + d
                if nxt > want:
                    break
            else:
                nxt = acc * d
                if want % nxt:
                    continue
            chosen[j] = bit(d)
            extend(j + 1, nxt, used | bit(d))

    extend(0, 0 if op == ADD else 1, 0)
    return support if any_found else None


def _known(pos: Position, k: int, op: str) -> int | None:
    """The sum (product) of cage ``k`` when every live layout has the same one."""
    layout = pos.layout
    now = layout.pickers[k](pos.masks)
    found = layout.kinds[k].live(now)
    if not found:
        raise _no_layout(layout.cages[k], now)
    return layout.kinds[k].known(found, op == ADD)


def _rest_text(pos: Position, op: str, rest: list[int]) -> str:
    """Cells ``rest`` as a sum or a product: ``r1c2 + r1c3``."""
    times = " × "  # noqa: RUF001 - the multiplication sign, on purpose
    return (" + " if op == ADD else times).join(cell_name(pos.layout.cells[i]) for i in rest)


def _totals_reason(
    pos: Position,
    x: int,
    op: str,
    total: int,
    known: int,
    known_cages: list[tuple[int, int]],
    placed: list[int],
    rest: list[int],
    want: int,
) -> str:
    """Why line ``x``'s other cells ``rest`` make ``want``: :func:`line_totals`' words."""
    layout = pos.layout
    parts = [
        layout.cages[k].name
        if layout.cages[k].operation == op
        else f"{layout.cages[k].name} ({value})"
        for k, value in known_cages
    ]
    parts += [f"{cell_name(layout.cells[i])} = {pos.placed[i]}" for i in placed]
    verb = "adds up to" if op == ADD else "multiplies to"
    rest_text = _rest_text(pos, op, rest)
    give = "gives" if len(parts) == 1 else "give"
    reason = f"{layout.lines[x].name} {verb} {total}; {listed(parts, 'and')} {give} {known}"
    if len(rest) == 1:
        return f"{reason}, leaving {want} for {rest_text}"
    return f"{reason}, so {rest_text} = {want}"


def line_totals(pos: Position, x: int) -> Step | None:
    """A line adds up to N(N+1)/2 and multiplies to N!; the cages inside it whose total is
    known (and the placed digits) leave the other cells a known sum or product."""
    layout = pos.layout
    n = layout.size
    line = layout.lines[x]
    cells = layout.line_cells[x]
    open_ = [i for i in cells if not pos.placed[i]]
    if len(open_) < 2:
        return None
    steps: list[Step] = []
    for op, total in ((ADD, n * (n + 1) // 2), (MULTIPLY, math.factorial(n))):
        known_cages: list[tuple[int, int]] = []  # (cage, its known sum or product)
        known = 0 if op == ADD else 1
        covered: set[int] = set()
        for k in layout.inside[x]:
            cage_cells = layout.cage_cells[k]
            if all(pos.placed[i] for i in cage_cells):
                continue
            value = _known(pos, k, op)
            if value is not None:
                known_cages.append((k, value))
                known = known + value if op == ADD else known * value
                covered.update(cage_cells)
        if not known_cages:
            continue
        placed = [i for i in cells if pos.placed[i] and i not in covered]
        for i in placed:
            known = known + pos.placed[i] if op == ADD else known * pos.placed[i]
            covered.add(i)
        rest = [i for i in cells if i not in covered]
        if not rest or len(rest) > LINE_TOTALS_CELLS:
            continue
        want = total - known if op == ADD else total // known
        masks = [pos.masks[i] for i in rest]
        # The words only when said (a maker's quiet grading asks every line, often).
        reason = functools.partial(
            _totals_reason, pos, x, op, total, known, known_cages, placed, rest, want
        )
        groups: list[Group] = [line, *(layout.cages[k] for k, _ in known_cages)]
        if (op == MULTIPLY and total % known) or (support := assignments(masks, want, op)) is None:
            raise Contradiction(
                f"{capital(reason())}, which no digits of {_rest_text(pos, op, rest)} can make",
                groups,
                [layout.cells[i] for i in rest],
            )
        removals = {i: m & ~s for i, m, s in zip(rest, masks, support, strict=True) if m & ~s}
        if removals:
            joiner = ", so " if len(rest) == 1 else ": "
            steps.append(
                make_step(
                    pos, Technique.LINE_TOTALS, removals, groups, sorted(covered), reason, joiner
                )
            )
    return best(steps)


CAGE, LINE, CELL = "cage", "line", "cell"  # what a technique looks at (or chain.WHOLE)
# The techniques by what they look at (the trial, in :mod:`.logic`, at the whole position).
SCOPES = {
    CAGE: (single_cell_cage, combinations, cage_line),
    CELL: (naked_single,),
    LINE: (hidden_single, naked_subset, hidden_subset, line_totals),
}
