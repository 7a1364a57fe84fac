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
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field

from numgrid.server.chain import Contradiction
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
    """A well-formed puzzle compiled to indices."""

    puzzle: Puzzle
    frame: Frame  # the latin square: lines, peers, digits as bits
    size: int
    full: int  # the mask of every digit
    cells: tuple[Cell, ...]  # cell i is (i // N, i % N)
    cages: tuple[Cage, ...]
    cage_cells: tuple[tuple[int, ...], ...]
    cage_of: tuple[int, ...]  # per cell
    # per cage: its layouts, as bits (a large kind's: LiveLayouts, all live)
    cage_bits: tuple[tuple[tuple[int, ...], ...] | LiveLayouts, ...]
    cage_lines: tuple[tuple[int, ...], ...]  # per cage: the lines its cells are in
    lines: tuple[Line, ...]
    line_cells: tuple[tuple[int, ...], ...]
    cell_lines: tuple[tuple[int, ...], ...]  # per cell: (row line, column line)
    peers: tuple[tuple[int, ...], ...]  # per cell: the other cells of its row and column
    watchers: tuple[tuple[int, ...], ...]  # per cell: cages whose lines hold it
    inside: tuple[tuple[int, ...], ...]  # per line: the cages entirely inside it
    # per-cage tables built on demand (see :func:`cage_table`), freed with the layout
    tables: dict = field(default_factory=dict, repr=False)


def cage_table(layout: Layout, name: str, k: int, build):
    """Cage ``k``'s table ``name``, built by ``build(layout, k)`` the first time. Kept
    with the layout rather than in a cache keyed by layouts, which would keep up to its
    size of them alive (a 9x9's can hold tens of MB)."""
    tables = layout.tables.setdefault(name, {})
    found = tables.get(k)
    if found is None:
        found = tables[k] = build(layout, k)
    return found


# Cage layouts, over all cages, past which a compiled puzzle is not kept between calls:
# its large cages' layouts and their index are shared (:func:`_bit_layouts`), but the
# other tables made from them (:func:`cage_table`: cage states seen, cage lines) are
# the puzzle's own. Of the other 321 corpus puzzles the largest has 3,596 layouts (the
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
    ``t``), made by C-level passes over the bytes."""

    packed: bytes
    cells: int
    bits: tuple[int, ...]  # digit -> its bit (0 -> 0)
    index: tuple[tuple[int, ...], ...] = field(init=False)

    def __post_init__(self):
        size = len(self.bits) - 1
        columns = [self.packed[j :: self.cells] for j in range(self.cells)]
        index = tuple(arith.digit_sets(column, size) for column in columns)
        object.__setattr__(self, "index", index)


# Large cage kinds' layouts, shared by every puzzle and call, up to this many in all.
SHARED_LAYOUTS = 1 << 18
_shared: OrderedDict[tuple, LiveLayouts] = OrderedDict()
_shared_lock = threading.Lock()


def _bit_layouts(cage: Cage, n: int) -> tuple[tuple[int, ...], ...] | LiveLayouts:
    """The cage's layouts with each digit as its bit; a large kind's all live, packed and
    shared (:class:`LiveLayouts`)."""
    bits = (0, *(bit(d) for d in range(1, n + 1)))
    count = arith.count(cage, n)
    if count <= arith.PACK_OVER:
        return arith.layouts_as(cage, n, bits)
    key = (cage.target, cage.operation, arith.shape_of(cage.cells), n)
    with _shared_lock:
        found = _shared.get(key)
        if found is not None:
            _shared.move_to_end(key)
            return found
    found = LiveLayouts(_Packed(arith.packed(cage, n), len(cage.cells), bits), (1 << count) - 1)
    with _shared_lock:
        _shared[key] = found
        while sum(map(len, _shared.values())) > SHARED_LAYOUTS and len(_shared) > 1:
            _shared.popitem(last=False)
    return found


def _compiled(puzzle: Puzzle) -> Layout:
    n = puzzle.size
    errors = [f for f in check_puzzle(puzzle) if f.is_error]
    if errors:
        raise PuzzleError(errors)
    frame = latin.frame(n)
    index = {cell: i for i, cell in enumerate(puzzle.cells)}
    # never empty: check_puzzle refuses such cages
    cage_bits = [_bit_layouts(cage, n) for cage in puzzle.cages]
    cage_cells = tuple(tuple(index[c] for c in cage.cells) for cage in puzzle.cages)
    cage_of = [0] * (n * n)
    for k, cells in enumerate(cage_cells):
        for i in cells:
            cage_of[i] = k
    line_cells, cell_lines = frame.line_cells, frame.cell_lines
    cage_lines = tuple(
        tuple(sorted({x for i in cells for x in cell_lines[i]})) for cells in cage_cells
    )
    watchers: list[list[int]] = [[] for _ in range(n * n)]
    for k, ls in enumerate(cage_lines):
        for x in ls:
            for i in line_cells[x]:
                watchers[i].append(k)
    inside = tuple(
        tuple(k for k, cells in enumerate(cage_cells) if set(cells) <= set(line_cells[x]))
        for x in range(2 * n)
    )
    return Layout(
        puzzle=puzzle,
        frame=frame,
        size=n,
        full=frame.full,
        cells=frame.cells,
        cages=puzzle.cages,
        cage_cells=cage_cells,
        cage_of=tuple(cage_of),
        cage_bits=tuple(cage_bits),
        cage_lines=cage_lines,
        lines=frame.lines,
        line_cells=line_cells,
        cell_lines=cell_lines,
        peers=frame.peers,
        watchers=tuple(tuple(ks) for ks in watchers),
        inside=inside,
    )


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
    # per cage: the layouts live when last filtered, and the cells' masks then
    lives: list[tuple[tuple[tuple[int, ...], ...] | LiveLayouts, tuple[int, ...]]]
    # per cell, the digit (as a bit) of one solution agreeing with the candidates, all 0
    # when there is none; None until a trial asks (see logic.py's _witness)
    witness: list[int] | None

    def _more(self) -> None:
        layout = self.layout
        self.lives = [
            (bits, (layout.full,) * len(cells))
            for bits, cells in zip(layout.cage_bits, layout.cage_cells, strict=True)
        ]
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
    """The live layouts of cage ``k`` (as bits); Contradiction when none is left."""
    memo = pos.memo(LIVE)
    found = memo.get(k)
    if found is None:
        # Candidates only shrink, so the layouts live at the last filtering are filtered
        # again on the cells that changed since.
        masks = tuple(pos.masks[i] for i in pos.layout.cage_cells[k])
        before, then = pos.lives[k]
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
            cage = pos.layout.cages[k]
            shown = ""
            if len(masks) <= 4:
                each = [
                    f"{cell_name(c)} {listed(digits_of(m))}"
                    for c, m in zip(cage.cells, masks, strict=True)
                ]
                shown = f" ({'; '.join(each)})"
            raise Contradiction(
                f"no layout of {cage.name} fits its cells' candidates{shown}", [cage], cage.cells
            )
        memo[k] = found
    return found


def cage_index(layout: Layout, k: int) -> tuple[tuple[int, ...], ...]:
    """Per cell of cage ``k`` (in the cage's order) and digit ``d`` (index ``d - 1``): the
    set of the cage's layouts that put ``d`` there, as bits of a number (bit ``t`` is
    ``layout.cage_bits[k][t]``). Live layouts are then a few big-number ANDs and ORs."""
    return cage_table(layout, "index", k, _cage_index)


def _cage_index(layout: Layout, k: int) -> tuple[tuple[int, ...], ...]:
    found = layout.cage_bits[k]
    if isinstance(found, LiveLayouts):
        return found.kind.index
    n, size = len(layout.cage_cells[k]), layout.size
    count = len(found)
    index = []
    for j in range(n):
        flags = [bytearray(b"0" * count) for _ in range(size)]
        for t, lay in enumerate(found):
            flags[lay[j].bit_length() - 1][count - 1 - t] = 49  # "1"; layout 0 is the last
        index.append(tuple(int(f, 2) if count else 0 for f in flags))
    return tuple(index)


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


def cage_subject(pos: Position, k: int, found) -> str:
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
    if len(cells) < 2 or all(pos.placed[i] for i in cells):
        return None
    found = live(pos, k)
    keep = union_of(found, len(cells))
    removals = {
        i: pos.masks[i] & ~m
        for i, m in zip(cells, keep, strict=True)
        if not pos.placed[i] and pos.masks[i] & ~m
    }
    if not removals:
        return None
    cage = layout.cages[k]
    reason = f"{cage_subject(pos, k, found)} {cage_predicate(pos, k, found)}"
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
        reason += f", and no layout puts {listed(arranged[:3], 'or')}{more}"
    placed = [i for i in cells if pos.placed[i]]
    return make_step(pos, Technique.COMBINATIONS, removals, [cage], placed, reason)


# ---------------------------------------------------------------- 5. cage and line


def cage_line(pos: Position, k: int) -> Step | None:
    """A digit every live layout of a cage puts in one line (within the cage) leaves
    the rest of that line."""
    layout = pos.layout
    cells = layout.cage_cells[k]
    if len(cells) < 2 or all(pos.placed[i] for i in cells):
        return None
    found = live(pos, k)
    cage = layout.cages[k]
    removals: dict[int, int] = {}
    said = []
    for x in layout.cage_lines[k]:
        at = [j for j, i in enumerate(cells) if x in layout.cell_lines[i]]
        required = layout.full
        for lay in found:
            inside = 0
            for j in at:
                inside |= lay[j]
            required &= inside
            if not required:
                break
        if not required:
            continue
        gained = 0
        for i in layout.line_cells[x]:
            if layout.cage_of[i] != k and not pos.placed[i] and pos.masks[i] & required:
                removals[i] = removals.get(i, 0) | (pos.masks[i] & required)
                gained |= pos.masks[i] & required
        if gained:
            said.append(f"{listed(digits_of(gained), 'and')} in {layout.lines[x].name}")
    if not removals:
        return None
    shown = combos(found, 3)
    which = listed(combo_text(cage.operation, c, cage.target) for c in shown) if shown else ""
    which = f" ({which})" if which else ""
    reason = f"every layout left of {cage.name}{which} puts {listed(said, 'and')} inside the cage"
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
    values = {
        sum(digit_of(b) for b in lay) if op == ADD else math.prod(digit_of(b) for b in lay)
        for lay in live(pos, k)
    }
    return values.pop() if len(values) == 1 else None


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
    best = None
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
        parts = [
            layout.cages[k].name
            if layout.cages[k].operation == op
            else f"{layout.cages[k].name} ({value})"
            for k, value in known_cages
        ]
        parts += [f"{cell_name(layout.cells[i])} = {pos.placed[i]}" for i in placed]
        times = " × "  # noqa: RUF001 - the multiplication sign, on purpose
        verb, joined = ("adds up to", " + ") if op == ADD else ("multiplies to", times)
        rest_text = joined.join(cell_name(layout.cells[i]) for i in rest)
        give = "gives" if len(parts) == 1 else "give"
        reason = f"{line.name} {verb} {total}; {listed(parts, 'and')} {give} {known}"
        if len(rest) == 1:
            reason, joiner = f"{reason}, leaving {want} for {rest_text}", ", so "
        else:
            reason, joiner = f"{reason}, so {rest_text} = {want}", ": "
        groups: list[Group] = [line, *(layout.cages[k] for k, _ in known_cages)]
        if (op == MULTIPLY and total % known) or (support := assignments(masks, want, op)) is None:
            raise Contradiction(
                f"{capital(reason)}, which no digits of {rest_text} can make",
                groups,
                [layout.cells[i] for i in rest],
            )
        removals = {i: m & ~s for i, m, s in zip(rest, masks, support, strict=True) if m & ~s}
        if removals:
            step = make_step(
                pos, Technique.LINE_TOTALS, removals, groups, sorted(covered), reason, joiner
            )
            rank = (len(step.placements), len(step.eliminations))
            if best is None or rank > best[0]:
                best = (rank, step)
    return best[1] if best else None


CAGE, LINE, CELL = "cage", "line", "cell"  # what a technique looks at (or chain.WHOLE)
# The techniques by what they look at (the trial, in :mod:`.logic`, at the whole position).
SCOPES = {
    CAGE: (single_cell_cage, combinations, cage_line),
    CELL: (naked_single,),
    LINE: (hidden_single, naked_subset, hidden_subset, line_totals),
}
