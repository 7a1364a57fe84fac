"""Making KenKen puzzles: Keen-style candidates, steered onto the target grade by a
shadow of the logical chain.

Why this way: the driver (:mod:`numgrid.server.generate`) proves each candidate unique
and explains it with the chain, which costs 10-30 times what drawing one does; random
candidates land on a given grade 1 to 80 % of the time, and a repair that makes one
unique mostly makes it easy. So the maker grades its own candidates first, with a
*shadow* of the chain (:class:`Shadow`: the same techniques on bitmasks, no sentences),
and edits a candidate until the shadow gives the target grade:

1. a draw (:func:`draw`), as Tatham's Keen makes one: a random latin square, dominoes
   and folded single cells as cages, clues spread over the four operations, with knobs
   per target grade (:class:`Style`, :data:`ANCHORS`);
2. edits while the shadow grades it off target (:func:`_easier`, :func:`_harder`, at
   most :data:`EDITS`); a stalled HARD-or-harder candidate is first searched for a
   second solution by the native engine (:func:`.making.second_solution`) and
   repaired where the two differ;
3. :meth:`KenKenMaker.repair` (also the driver's): an operation that tells the
   solutions apart, a cell moved to the next cage, two cages merged, or a cell alone.

Every clue is computed from the solution, so it always fits; every random choice comes
from the driver's ``rng``. ``pressure`` leans the knobs toward the next easier (< 0) or
harder (> 0) grade's. Each step in full: docs/generate.md, "Each kind's maker".
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
from dataclasses import dataclass
from typing import cast

from numgrid.server.chain import Grade
from numgrid.server.chain import open_cells
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds import latin
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.judging import connected_parts
from numgrid.server.kinds.latin import latin_square
from numgrid.server.kinds.making import no_diagonals
from numgrid.server.kinds.making import second_solution
from numgrid.server.kinds.making import unreachable
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digits_of

from . import arith
from . import logic
from . import native
from .model import ADD
from .model import DIVIDE
from .model import MULTIPLY
from .model import SUBTRACT
from .model import Cage
from .model import Puzzle
from .techniques import LINE_TOTALS_CELLS
from .techniques import Technique
from .techniques import assignments
from .techniques import layout_of

MIN_SIZE, MAX_SIZE = 3, 9  # as Tatham's Keen
REMEMBERED = 1024  # layouts of a cage whose shadow tables remember masks
EFFECTS = 256  # states of a cage's cells whose effect the shadow remembers, per kind
MAX_CAGE = 6  # cells of the largest cage a candidate or a repair makes
# The chance a repair splits a cage at once. The other repairs (another operation, a
# cell moved to the next cage) keep the grade but may undo each other: this bounds a
# cycle of them.
SPLIT_FIRST = 0.15

DRAWS = 100  # candidates drawn in one call before one off target is returned
EDITS = 16  # shadow gradings (and edits between them) of one draw
EASIER_OPERATION = 0.5  # the chance an edit toward easier changes an operation, not a cage
HARDER_OPERATION = 0.7  # the chance an edit toward harder does, rather than merge two cages
# Gradings whose limit is this grade or a harder one need not tell EASY, MEDIUM and HARD
# apart (their cage lines run in bulk).
BULK_FROM = Grade.EXPERT
SEARCH_FROM = Grade.HARD  # targets whose stalled candidates are searched for a second solution
# A stalled candidate for HARD or EXPERT is searched by the native engine for a second
# solution for at most this many nodes, then made easier as if it had none (one for
# EXTREME is searched to the end).
GUESS_NODES = 60
# Per size, the hardest grade made: no 3x3 of 20,000 random candidates needed more than
# cage lines (22 were MEDIUM), nor did any edited from 5 seeds (1,600 gradings each).
HARDEST = {3: Grade.MEDIUM}

Turns = tuple[float, float, float, float]


@dataclass(frozen=True)
class Style:
    """The knobs of a candidate's shape and clues."""

    max_cage: int  # cells of the largest cage
    domino: float  # chance a cell with a free neighbour starts a domino
    singles: float  # chance a cell left alone stays a cage of its own
    grow: float  # chance a cage is merged with a neighbouring one afterwards
    giveaway: float  # chance a clue with a single pair of digits is allowed as a good one
    # per operation (/, -, x, +): the chance it takes its turn in each round of clues
    turns: Turns = (1.0, 1.0, 1.0, 1.0)


# The knobs per target grade: of a few tried, the ones whose candidates reached the
# grade fastest (draws and edits; 30-60 seeds each on 6x6 and 9x9). "below" and
# "above" are where pressure -1 (1) leans the easiest (hardest) grade.
_S = Style
ANCHORS = {
    "small": {  # up to 7x7
        "below": _S(3, 0.75, 0.45, 0.0, 1.0),
        Grade.EASY: _S(3, 0.75, 0.3, 0.0, 1.0),
        Grade.MEDIUM: _S(3, 0.75, 0.0, 0.0, 0.3, (1, 0.6, 1, 1)),
        Grade.HARD: _S(3, 0.75, 0.0, 0.0, 0.0, (1, 1, 0.3, 0.3)),
        Grade.EXPERT: _S(3, 0.75, 0.0, 0.0, 0.5, (1, 0.6, 0.3, 1)),
        Grade.EXTREME: _S(4, 0.75, 0.0, 0.0, 0.0, (1, 1, 0.3, 0.3)),
        "above": _S(5, 0.75, 0.0, 0.2, 0.0),
    },
    "large": {  # 8x8 and 9x9
        "below": _S(3, 0.75, 0.45, 0.0, 1.0),
        Grade.EASY: _S(3, 0.75, 0.3, 0.0, 1.0),
        Grade.MEDIUM: _S(4, 0.75, 0.1, 0.0, 0.6),
        Grade.HARD: _S(4, 0.75, 0.0, 0.0, 0.6),
        Grade.EXPERT: _S(3, 0.75, 0.0, 0.0, 0.5, (1, 0.6, 0.3, 1)),
        Grade.EXTREME: _S(4, 0.75, 0.0, 0.0, 0.3),
        "above": _S(4, 0.75, 0.0, 0.0, 0.0, (1, 1, 0.3, 0.3)),
    },
}
ORDER = ("below", *Grade, "above")


def style(size: int, grade, pressure: float) -> Style:
    """The knobs for a target grade (None: MEDIUM's), leaned by ``pressure`` in [-1, 1]
    toward the next easier (< 0) or harder (> 0) grade's."""
    anchors = ANCHORS["small" if size <= 7 else "large"]
    at = ORDER.index(Grade.MEDIUM if grade is None else grade)
    pressure = max(-1.0, min(1.0, pressure))
    here, there = anchors[ORDER[at]], anchors[ORDER[at + (1 if pressure > 0 else -1)]]
    t = abs(pressure)

    def mix(a: float, b: float) -> float:
        return a + (b - a) * t

    return Style(
        max_cage=min(size, round(mix(here.max_cage, there.max_cage))),
        domino=mix(here.domino, there.domino),
        singles=mix(here.singles, there.singles),
        grow=mix(here.grow, there.grow),
        giveaway=mix(here.giveaway, there.giveaway),
        turns=cast(Turns, tuple(mix(a, b) for a, b in zip(here.turns, there.turns, strict=True))),
    )


# ---------------------------------------------------------------- cages


class _Groups:
    """Union-find over the cells ``r * n + c`` with sizes."""

    def __init__(self, cells: int):
        self.parent = list(range(cells))
        self.size = [1] * cells

    def root(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def merge(self, i: int, j: int) -> None:
        i, j = self.root(i), self.root(j)
        if i != j:
            if self.size[i] < self.size[j]:
                i, j = j, i
            self.parent[j] = i
            self.size[i] += self.size[j]


def _neighbours(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    found = []
    if c > 0:
        found.append(i - 1)
    if c + 1 < n:
        found.append(i + 1)
    if r > 0:
        found.append(i - n)
    if r + 1 < n:
        found.append(i + n)
    return found


def cage_cells(n: int, rng: random.Random, knobs: Style) -> list[list[int]]:
    """The cages as lists of cells ``r * n + c`` (Keen's way, see the module)."""
    a = n * n
    order = list(range(a))
    rng.shuffle(order)
    rank = [0] * a
    for position, i in enumerate(order):
        rank[i] = position
    groups = _Groups(a)
    alone = [True] * a
    for i in range(a):  # dominoes
        if alone[i]:
            free = [j for j in _neighbours(i, n) if alone[j]]
            if free and rng.random() < knobs.domino:
                best = min(free, key=rank.__getitem__)
                groups.merge(i, best)
                alone[i] = alone[best] = False
    for i in range(a):  # fold the cells left alone into neighbouring cages
        if alone[i] and rng.random() >= knobs.singles:
            near = _neighbours(i, n)
            room = [j for j in near if groups.size[groups.root(j)] < knobs.max_cage]
            if not room:  # Keen starts again; the smallest neighbour takes one cell more
                least = min(groups.size[groups.root(j)] for j in near)
                room = [j for j in near if groups.size[groups.root(j)] == least < MAX_CAGE]
            if room:
                best = min(room, key=rank.__getitem__)
                groups.merge(i, best)
                alone[i] = alone[best] = False
    if knobs.grow:
        rng.shuffle(order)
        for i in order:  # merge some cages with a neighbouring one
            if rng.random() < knobs.grow:
                mine = groups.size[groups.root(i)]
                room = [
                    j
                    for j in _neighbours(i, n)
                    if groups.root(j) != groups.root(i)
                    and mine + groups.size[groups.root(j)] <= knobs.max_cage
                ]
                if room:
                    groups.merge(i, min(room, key=rank.__getitem__))
    by_root: dict[int, list[int]] = {}
    for i in range(a):
        by_root.setdefault(groups.root(i), []).append(i)
    return list(by_root.values())  # in order of first cell, each cell list in reading order


# ---------------------------------------------------------------- clues

GOOD, BAD = 1, 2  # how a clue of some operation suits a cage


@functools.cache
def _pairs(n: int, operation: str, target: int) -> int:
    """Unordered pairs of distinct digits 1..n giving ``target`` under ``operation``."""
    return sum(
        1
        for a in range(1, n + 1)
        for b in range(a + 1, n + 1)
        if arith.value(operation, (a, b)) == target
    )


def suitability(digits: list[int], n: int) -> dict[str, int]:
    """The operations a cage holding ``digits`` may take, GOOD or BAD (a give-away).

    As Keen: a cage of three cells or more adds or multiplies; a pair may also subtract
    or divide (a whole quotient, at most n/2); a pair that one pair of digits alone
    gives is a give-away (sums 3, 4, 2n-2 and 2n-1; a difference of n-1; products of
    one factor pair)."""
    if len(digits) == 1:
        return {}
    if len(digits) > 2:
        return {ADD: GOOD, MULTIPLY: GOOD}
    low, high = sorted(digits)
    found = {
        ADD: GOOD if _pairs(n, ADD, low + high) > 1 else BAD,
        MULTIPLY: GOOD if _pairs(n, MULTIPLY, low * high) > 1 else BAD,
        SUBTRACT: GOOD if high - low < n - 1 else BAD,
    }
    if high % low == 0 and 2 * (high // low) <= n:
        found[DIVIDE] = GOOD if _pairs(n, DIVIDE, high // low) > 1 else BAD
    return found


def choose_operations(
    digits: list[list[int]], n: int, rng: random.Random, knobs: Style
) -> list[str]:
    """An operation per cage: Keen's round robin over ``/``, ``-``, ``x``, ``+`` (each
    takes the next cage, in random order, that suits it well, else one that suits it
    badly), so the operations come in about equal numbers, unless ``turns`` has one
    skip its turn at times. A give-away counts as good with probability ``giveaway``."""
    suits = []
    for ds in digits:
        found = suitability(ds, n)
        suits.append(
            {
                op: GOOD if how == BAD and rng.random() < knobs.giveaway else how
                for op, how in found.items()
            }
        )
    chosen = ["" for _ in digits]
    order = list(range(len(digits)))
    rng.shuffle(order)
    left = [k for k in order if suits[k]]
    forced = False
    while left:
        before = len(left)
        for op, turn in zip((DIVIDE, SUBTRACT, MULTIPLY, ADD), knobs.turns, strict=True):
            if not forced and turn < 1.0 and rng.random() >= turn:
                continue
            pick = next((k for k in left if suits[k].get(op) == GOOD), None)
            if pick is None:
                pick = next((k for k in left if suits[k].get(op) == BAD), None)
            if pick is not None:
                chosen[pick] = op
                left.remove(pick)
        forced = len(left) == before  # a round that chose none: the next skips no turn
    return chosen


# ---------------------------------------------------------------- the shadow of the chain


@dataclass(frozen=True)
class _Kind:
    """What the shadow knows of a cage of one target, operation and shape (cached across
    puzzles): per cell and digit the layouts putting it there, per row and column of the
    shape the layouts putting each digit in it, and per sum and product its layouts (a
    set of layouts is an int, a bit per layout, as :func:`.techniques.cage_index`)."""

    index: tuple[tuple[int, ...], ...]
    # per row and column of the shape: a row?, its offset, per digit the layouts putting
    # it there, the cells (positions in the shape) in it
    lines: tuple[tuple[bool, int, tuple[int, ...], tuple[int, ...]], ...]
    cage: Cage  # at the shape's origin
    n: int
    by_total: dict[bool, dict[int, int]]  # per adding?, per sum (product): its layouts
    either: tuple[dict[int, int], ...]  # per cell, per mask: the layouts of its digits
    # (empty for a cage of more than REMEMBERED layouts)
    effects: dict  # per tuple of its cells' candidates: what :meth:`effect` gave

    def of(self, j: int, mask: int) -> int:
        """The layouts putting one of the digits of ``mask`` in cell ``j`` (remembered
        for cages of few layouts: a big cage's would take megabytes)."""
        either = self.either[j] if self.either else None
        got = either.get(mask) if either is not None else None
        if got is None:
            column, m, got = self.index[j], mask, 0
            while m:
                low = m & -m
                got |= column[low.bit_length() - 1]
                m ^= low
            if either is not None:
                either[mask] = got
        return got

    def totals(self, adding: bool) -> dict[int, int]:
        """Per sum (``adding``) or product, the layouts giving it (worked out when first
        asked: only line totals ask)."""
        found = self.by_total.get(adding)
        if found is None:
            found = self.by_total[adding] = {}
            for t, digits in enumerate(arith.layouts(self.cage, self.n)):
                value = sum(digits) if adding else math.prod(digits)
                found[value] = found.get(value, 0) | 1 << t
        return found

    def effect(self, now: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """For the cells' candidates ``now``: the candidates its live layouts keep, and
        per line of :attr:`lines` the digits every live layout puts in it (techniques 2
        and 5). Raises _Broken when no layout is live. Remembered per state (up to
        :data:`EFFECTS`): a candidate's gradings, one edit apart, meet the same states."""
        got = self.effects.get(now)
        if got is None:
            live = -1
            for j, m in enumerate(now):
                live &= self.of(j, m)
            if live:
                keeps = []
                for m, column in zip(now, self.index, strict=True):
                    keep = m
                    while m:
                        low = m & -m
                        if not live & column[low.bit_length() - 1]:
                            keep ^= low
                        m ^= low
                    keeps.append(keep)
                required = []
                for _, _, column, at in self.lines:
                    found = may = 0  # (a digit some cell of the line keeps may be required)
                    for j in at:
                        may |= keeps[j]
                    while may:
                        low = may & -may
                        may ^= low
                        if not live & ~column[low.bit_length() - 1]:
                            found |= low
                    required.append(found)
                got = (tuple(keeps), tuple(required))
            else:
                got = ()
            if len(self.effects) >= EFFECTS:
                self.effects.clear()
            self.effects[now] = got
        if not got:
            raise _Broken
        return got


@functools.lru_cache(maxsize=2048)
def _kind(target: int, operation: str, shape: tuple[Cell, ...], n: int) -> _Kind:
    cage = Cage(target, operation, shape)
    found = arith.layouts(cage, n)
    index = [[0] * n for _ in shape]
    for j, per_digit in enumerate(index):
        for t, digits in enumerate(found):
            per_digit[digits[j] - 1] |= 1 << t
    lines: list[tuple[bool, int, tuple[int, ...], tuple[int, ...]]] = []
    for row in (True, False):
        for offset in sorted({cell[0 if row else 1] for cell in shape}):
            at = [j for j, cell in enumerate(shape) if cell[0 if row else 1] == offset]
            column = tuple(
                functools.reduce(operator.or_, (index[j][d] for j in at)) for d in range(n)
            )
            lines.append((row, offset, column, tuple(at)))
    either: tuple[dict[int, int], ...] = (
        tuple({} for _ in shape) if len(found) <= REMEMBERED else ()
    )
    return _Kind(tuple(map(tuple, index)), tuple(lines), cage, n, {}, either, {})


@functools.lru_cache(maxsize=4096)
def _placed(cage: Cage, n: int) -> tuple[tuple[int, ...], _Kind, tuple[int, ...], bool, bool]:
    """A cage as the shadow reads it: its cells (``r * n + c``), its kind, the lines
    of :attr:`_Kind.lines`, and whether it lies in one row, in one column."""
    (r0, c0), ids = cage.cells[0], tuple(r * n + c for r, c in cage.cells)
    shape = tuple((r - r0, c - c0) for r, c in cage.cells)
    kind = _kind(cage.target, cage.operation, shape, n)
    lines = tuple(r0 + off if row else n + c0 + off for row, off, _, _ in kind.lines)
    rows, cols = {r for r, _ in cage.cells}, {c for _, c in cage.cells}
    return ids, kind, lines, len(rows) == 1, len(cols) == 1


class _Broken(Exception):
    """The shadow's candidates ran out: only on a bug, as every step is implied."""


class Shadow:
    """The chain's techniques (:mod:`.logic`) on bitmasks, without steps or sentences:
    the grade it would give a puzzle, at a fraction of the cost, so that a candidate off
    the target grade is drawn again before the driver proves and explains it.

    Techniques 1-4 run to a fixpoint (the one the chain reaches, whatever the order),
    then one cage-line step as the chain takes it (the one with most placements, then
    most eliminations, the first cage of equals), counted; when none is left, every
    naked and hidden subset, then every line total, then the candidates of a cell that
    the chain's fast propagation (its trial's screen, :func:`.logic.closure`; here
    :meth:`settle` with cage lines) refutes. Once the count of cage-line steps no longer
    matters (a subset was used), cage lines run in bulk with techniques 1-4. The grade
    is the chain's rule on what was used (:data:`.logic.THRESHOLDS`). It agreed with
    the chain on every one of 300 6x6 and 120 9x9 candidates (and this version with the
    one before on 2,200 draws of 5x5 to 9x9), but need not on all (the chain may need a
    two-level trial where the screen finds one); the driver grades every puzzle with the
    chain itself. A puzzle the shadow completes is unique: every deduction is implied by
    the clues."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        n = self.n = puzzle.size
        frame = latin.frame(n)
        self.full, self.peers = frame.full, frame.peers
        self.line_cells, self.cell_lines = frame.line_cells, frame.cell_lines
        self.cages: list[tuple[tuple[int, ...], _Kind, tuple[int, ...]]] = []
        self.cage_of = [0] * (n * n)
        self.inside: list[list[int]] = [[] for _ in range(2 * n)]  # per line, cages in it
        for k, cage in enumerate(puzzle.cages):
            ids, kind, lines, in_row, in_column = _placed(cage, n)
            self.cages.append((ids, kind, lines))
            for i in ids:
                self.cage_of[i] = k
            if in_row:
                self.inside[lines[0]].append(k)
            if in_column:
                self.inside[lines[-1]].append(k)
        self.masks = [self.full] * (n * n)
        self.done = [False] * (n * n)  # single, and its digit gone from its row and column
        self.left = n * n  # cells not done
        self.dirty = set(range(n * n))  # cells changed since the last settle()
        self.cage_lines = 0
        self.used = Technique.HIDDEN_SINGLE  # the hardest technique used
        self.pointing = False  # cage lines in bulk, in settle()
        self.subsets_seen: dict[int, tuple[int, ...]] = {}  # per line, its masks when seen

    def grade(self, limit: Grade = Grade.EXTREME, exact: bool = True) -> Grade | None:
        """The chain's grade, or None when it is above ``limit`` (or the chain would
        stall, as far as the shadow sees). Not ``exact``: a grade below EXPERT may be
        any of them (MEDIUM said for HARD, or the other way round), faster.

        Once a subset is used (or from the start when not ``exact``), the cage-line
        steps no longer count: the techniques below a trial then run to their fixpoint
        in bulk (cage lines with the singles, :meth:`settle`), which is the same
        whatever the order (each removes more from fewer candidates), so the hardest
        technique it needs is the chain's."""
        most = logic.THRESHOLDS[Grade.MEDIUM][1][Technique.CAGE_LINE]
        steps = (
            (Technique.CAGE_LINE, self.cage_line),
            (Technique.HIDDEN_SUBSET, self.subsets),
            (Technique.LINE_TOTALS, self.totals),
            (Technique.TRIAL, self.trial),
        )
        top = ceiling(limit)
        if not exact and top >= Technique.CAGE_LINE:
            self._bulk()
        try:
            while True:
                self.settle()
                if not self.left:
                    break
                for technique, step in steps:
                    if technique > top:
                        return None
                    if step():
                        self.used = max(self.used, technique)
                        break
                else:
                    return None
                if limit == Grade.MEDIUM and self.cage_lines > most:
                    return None
                if self.used >= Technique.NAKED_SUBSET and not self.pointing:
                    self._bulk()
        except _Broken:
            return None
        if self.used >= Technique.TRIAL:
            return Grade.EXTREME
        if self.used >= Technique.LINE_TOTALS:
            return Grade.EXPERT
        if self.used >= Technique.NAKED_SUBSET or self.cage_lines > most:
            return Grade.HARD
        return Grade.MEDIUM if self.cage_lines else Grade.EASY

    def _live(self, k: int) -> int:
        """Cage ``k``'s layouts that fit its cells' candidates (as bits)."""
        ids, kind, _ = self.cages[k]
        masks = self.masks
        live = -1
        for j, c in enumerate(ids):
            live &= kind.of(j, masks[c])
        if not live:
            raise _Broken
        return live

    def _bulk(self) -> None:
        """From now on, cage lines in bulk: every cage's, in :meth:`settle`."""
        self.pointing = True
        self.used = max(self.used, Technique.CAGE_LINE)
        self.dirty = {c for c in range(len(self.masks)) if not self.done[c]}

    def settle(self) -> None:
        """Techniques 1-4 to a fixpoint: single cells, cage combinations, naked and hidden
        singles (a placed digit leaving its row and column); in bulk mode cage lines too
        (every digit that all live layouts of a cage put in a line leaves the rest of
        it)."""
        masks, done, peers, full = self.masks, self.done, self.peers, self.full
        cage_of, cell_lines, line_cells = self.cage_of, self.cell_lines, self.line_cells
        pointing = self.pointing
        changed, self.dirty = self.dirty, set()
        while changed:
            cells, changed = changed, set()
            for c in cells:
                m = masks[c]
                if not m:
                    raise _Broken
                if not done[c] and not m & (m - 1):
                    done[c] = True
                    self.left -= 1
                    for j in peers[c]:
                        if masks[j] & m:
                            masks[j] &= ~m
                            changed.add(j)
            for k in {cage_of[c] for c in cells}:
                ids, kind, lines = self.cages[k]
                now: tuple[int, ...]
                if len(ids) == 1:
                    if done[ids[0]]:
                        continue
                    now = (masks[ids[0]],)
                else:
                    now = tuple([masks[c] for c in ids])
                keeps, pointed = kind.effects.get(now) or kind.effect(now)
                for c, m, keep in zip(ids, now, keeps, strict=True):
                    if keep != m:
                        masks[c] = keep
                        changed.add(c)
                if pointing and len(ids) > 1:
                    for x, required in zip(lines, pointed, strict=True):
                        if required:
                            for c in line_cells[x]:
                                if masks[c] & required and cage_of[c] != k:
                                    masks[c] &= ~required
                                    changed.add(c)
            for x in {x for c in cells for x in cell_lines[c]}:
                if not logic.line_singles(masks, line_cells[x], full, changed):
                    raise _Broken

    def _remove(self, removals: dict[int, int]) -> None:
        for c, r in removals.items():
            self.masks[c] &= ~r
            self.dirty.add(c)

    def cage_line(self) -> bool:
        """One cage-line step, the one the chain takes (none in bulk mode: :meth:`settle`
        has taken them all)."""
        if self.pointing:
            return False
        masks, done, cage_of, line_cells = self.masks, self.done, self.cage_of, self.line_cells
        best, best_rank = None, (0, 0)
        for k, (ids, kind, lines) in enumerate(self.cages):
            if len(ids) < 2 or all(done[c] for c in ids):
                continue
            pointed = kind.effect(tuple([masks[c] for c in ids]))[1]
            removals: dict[int, int] = {}
            for x, required in zip(lines, pointed, strict=True):
                if not required:
                    continue
                for c in line_cells[x]:
                    if cage_of[c] != k and not done[c] and masks[c] & required:
                        removals[c] = removals.get(c, 0) | (masks[c] & required)
            if removals:
                placements = eliminations = 0
                for c, r in removals.items():
                    left = masks[c] & ~r
                    if left & (left - 1):
                        eliminations += (masks[c] & r).bit_count()
                    else:
                        placements += 1
                rank = (placements, eliminations)
                if best is None or rank > best_rank:
                    best, best_rank = removals, rank
        if best is None:
            return False
        self._remove(best)
        self.cage_lines += 1
        return True

    def subsets(self) -> bool:
        """Every naked subset (two to four cells) and hidden subset (two to four digits)
        of every line, as the chain finds them (a line unchanged since the last look
        has none left). Only cells with at most as many candidates as the subset's size
        (digits with at most as many places) can be in one: the others are not tried."""
        masks, done, seen, dirty = self.masks, self.done, self.subsets_seen, self.dirty
        found = False
        for x, ids in enumerate(self.line_cells):
            now = tuple([masks[c] for c in ids])
            if seen.get(x) == now:
                continue
            open_ = [c for c in ids if not done[c]]
            gave = False
            m = len(open_)
            for size in (2, 3, 4):
                if m <= size:
                    break
                fit = [c for c in open_ if masks[c].bit_count() <= size]
                for group in itertools.combinations(fit, size):
                    union = 0
                    for c in group:
                        union |= masks[c]
                    if union.bit_count() == size:
                        for c in open_:
                            if masks[c] & union and c not in group:
                                masks[c] &= ~union
                                dirty.add(c)
                                gave = True
            if m > 3:
                # per digit (as a bit), the open cells that can take it (as bits)
                places: dict[int, int] = {}
                for j, c in enumerate(open_):
                    mask = masks[c]
                    while mask:
                        low = mask & -mask
                        places[low] = places.get(low, 0) | 1 << j
                        mask ^= low
                for size in (2, 3, 4):
                    if m <= size + 1:
                        break
                    fit = [d for d, where in places.items() if where.bit_count() <= size]
                    for group in itertools.combinations(fit, size):
                        where = 0
                        for d in group:
                            where |= places[d]
                        if where.bit_count() == size:
                            keep = sum(group)
                            for j, c in enumerate(open_):
                                if where >> j & 1 and masks[c] & ~keep:
                                    masks[c] &= keep
                                    dirty.add(c)
                                    gave = True
            if not gave:  # a line that gave nothing gives nothing until it changes
                seen[x] = now
            found = found or gave
        return found

    def _known(self, k: int, adding: bool) -> int | None:
        """The sum (product) every live layout of cage ``k`` gives, if they agree."""
        live, kind = self._live(k), self.cages[k][1]
        found = [v for v, where in kind.totals(adding).items() if where & live]
        return found[0] if len(found) == 1 else None

    def totals(self) -> bool:
        """Every line total (:func:`.techniques.line_totals`) as far as it narrows."""
        masks, done, n = self.masks, self.done, self.n
        found = False
        for x, cells in enumerate(self.line_cells):
            if sum(1 for c in cells if not done[c]) < 2:
                continue
            for adding, total in ((True, n * (n + 1) // 2), (False, math.factorial(n))):
                known, any_known = (0 if adding else 1), False
                covered: set[int] = set()
                for k in self.inside[x]:
                    ids = self.cages[k][0]
                    if all(done[c] for c in ids):
                        continue
                    value = self._known(k, adding)
                    if value is not None:
                        any_known = True
                        known = known + value if adding else known * value
                        covered.update(ids)
                if not any_known:
                    continue
                for c in cells:
                    if done[c] and c not in covered:
                        d = masks[c].bit_length()
                        known = known + d if adding else known * d
                        covered.add(c)
                rest = [c for c in cells if c not in covered]
                if not rest or len(rest) > LINE_TOTALS_CELLS:
                    continue
                if not adding and total % known:
                    raise _Broken
                want = total - known if adding else total // known
                op = ADD if adding else MULTIPLY
                support = assignments([masks[c] for c in rest], want, op)
                if support is None:
                    raise _Broken
                for c, keep in zip(rest, support, strict=True):
                    if masks[c] & ~keep:
                        masks[c] &= keep
                        self.dirty.add(c)
                        found = True
        return found

    def trial(self) -> bool:
        """The candidates of the first cell (fewest candidates first) that the chain's
        fast propagation (:func:`.logic.closure`, its trial's screen) refutes, removed
        (the chain removes one a trial step). Called where every step up to cage lines
        has stalled: the shadow's singles have left their lines, as the chain's have."""
        masks, done = self.masks, self.done
        state = logic.Candidates(layout_of(self.puzzle), masks)
        c, refuted = -1, 0
        for c in open_cells(masks, done):
            refuted = 0
            for d in digits_of(masks[c]):
                if logic.closure(state, c, d)[1] is None:
                    refuted |= bit(d)
            if refuted:
                break
        if not refuted:
            return False
        self._remove({c: refuted})
        return True


def ceiling(grade: Grade) -> Technique:
    """The hardest technique a chain for ``grade`` may use (a trial for EXTREME)."""
    if grade in logic.THRESHOLDS:
        return cast(Technique, logic.THRESHOLDS[grade][0])  # the kind's own thresholds
    return Technique.TRIAL


# ---------------------------------------------------------------- edits


def _cages(puzzle: Puzzle) -> tuple[list[tuple[list[Cell], str]], dict[Cell, int]]:
    cages = [(list(cage.cells), cage.operation) for cage in puzzle.cages]
    return cages, {cell: k for k, (cells, _) in enumerate(cages) for cell in cells}


def _options(cells, solution: Grid, n: int, rng: random.Random) -> list[str]:
    """The operations that suit a cage, good ones first, each group in random order."""
    if len(cells) == 1:
        return [""]
    suits = suitability([solution[r][c] for r, c in cells], n)
    found = list(suits)
    rng.shuffle(found)
    return sorted(found, key=suits.__getitem__)


def _stuck(shadow: Shadow) -> list[Cell]:
    """The cells the shadow left open."""
    n = shadow.n
    return [divmod(i, n) for i, done in enumerate(shadow.done) if not done]


def _easier(
    puzzle: Puzzle, solution: Grid, stuck: list[Cell], rng: random.Random
) -> tuple[Puzzle | None, bool]:
    """One change that tells more about a cell the shadow left open: its cage's
    operation changed, or the cell made a cage of its own, or its cage cut in two (the
    parts keeping a sum's or product's operation, so that they imply the old clue).
    With whether the new clues imply the old ones (a cut): then a puzzle with one
    solution keeps it alone."""
    if not stuck:
        return None, False
    n = puzzle.size
    cages, where = _cages(puzzle)
    cell = stuck[rng.randrange(len(stuck))]
    k = where[cell]
    cells, op = cages[k]
    if len(cells) == 1:
        return None, False  # a given digit the shadow left open: cannot happen
    if rng.random() < EASIER_OPERATION:
        for new in _options(cells, solution, n, rng):
            if new != op:
                changed = [*cages[:k], (cells, new), *cages[k + 1 :]]
                return _puzzle(n, changed, solution), False
    part = [cell]
    if len(cells) >= 4 and rng.random() < 0.5:  # a part of about half the cage
        inside = set(cells)
        while len(part) < len(cells) // 2:
            near = [c for p in part for c in _adjacent(p, n) if c in inside and c not in part]
            part.append(near[rng.randrange(len(near))])
    rest = connected_parts([c for c in cells if c not in part])
    if len(part) > 1 and len(rest) > 1:
        part, rest = [cell], connected_parts([c for c in cells if c != cell])
    keep = op if op in (ADD, MULTIPLY) else ""  # - and / cages leave two single cells
    made = [
        (p, keep if keep or len(p) == 1 else _options(p, solution, n, rng)[0])
        for p in (part, *rest)
    ]
    return _puzzle(n, [*cages[:k], *made, *cages[k + 1 :]], solution), True


def _harder(puzzle: Puzzle, solution: Grid, most: int, rng: random.Random):
    """One change that tells less: a cage (a single cell first) merged with a
    neighbouring one, or a cage's operation changed."""
    n = puzzle.size
    cages, where = _cages(puzzle)
    singles = [k for k, (cells, _) in enumerate(cages) if len(cells) == 1]
    many = [k for k, (cells, _) in enumerate(cages) if len(cells) > 1]
    if many and not singles and rng.random() < HARDER_OPERATION:
        k = many[rng.randrange(len(many))]
        cells, op = cages[k]
        for new in _options(cells, solution, n, rng):
            if new != op:
                return _puzzle(n, [*cages[:k], (cells, new), *cages[k + 1 :]], solution)
    order = singles or list(range(len(cages)))
    rng.shuffle(order)
    for k in order:
        near = list(dict.fromkeys(where[c] for cell in cages[k][0] for c in _adjacent(cell, n)))
        rng.shuffle(near)
        for j in near:
            cells = sorted(cages[k][0] + cages[j][0])
            if j != k and len(cells) <= max(most, 2):
                op = _options(cells, solution, n, rng)[0]
                rest = [c for i, c in enumerate(cages) if i not in (j, k)]
                return _puzzle(n, [*rest, (cells, op)], solution)
    return None


# ---------------------------------------------------------------- the maker


def draw(n: int, knobs: Style, rng: random.Random) -> tuple[Puzzle, Grid]:
    """A random candidate: a latin square, cages, clues (see the module)."""
    solution = latin_square(n, rng)
    cages = cage_cells(n, rng, knobs)
    digits = [[solution[i // n][i % n] for i in cells] for cells in cages]
    operations = choose_operations(digits, n, rng, knobs)
    cells = [[divmod(i, n) for i in cage] for cage in cages]
    return _puzzle(n, list(zip(cells, operations, strict=True)), solution), solution


class KenKenMaker:
    """Makes KenKen candidates and repairs them (:class:`~numgrid.server.kinds.base.Maker`)."""

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        n = spec.rows
        if spec.diagonals:
            return no_diagonals("KenKen", spec)
        if spec.cols != n:
            return [("cols", f"a KenKen is square: {n}x{spec.cols} is not")]
        if not MIN_SIZE <= n <= MAX_SIZE:
            return [("rows", f"a KenKen is {MIN_SIZE} to {MAX_SIZE} cells wide, not {n}")]
        hardest = HARDEST.get(n, Grade.EXTREME)
        return unreachable("KenKen", f"{n}x{n}", spec.grade, [g for g in Grade if g <= hardest])

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        """A draw, then edits guided by the shadow (:func:`_easier` where it stalls,
        :func:`_harder` while it grades below the target) until the shadow grades it at
        the target; at most :data:`EDITS` edits a draw and :data:`DRAWS` draws. For any
        grade, one the shadow completes without a trial (unique, then).

        For HARD and harder, a puzzle the shadow stalls on is searched for a second
        solution by the native engine (:func:`.making.second_solution`): if there is
        one, it is repaired (:meth:`repair`) where it differs. A puzzle known to have
        one solution keeps it through a cut (:func:`_easier`), and is not searched
        again. For
        EXTREME, one that needs more than line totals is searched to the end (the
        shadow's trials are slow at failing), then graded with a trial."""
        n, target = spec.rows, spec.grade
        puzzle: Puzzle | None  # None once a cut or repair cannot be made
        limit = Grade.EXPERT if target in (None, Grade.EXTREME) else target
        knobs = style(n, target, pressure)
        for _ in range(DRAWS):
            puzzle, solution = draw(n, knobs, rng)
            unique = False  # known to have no other solution
            for _ in range(EDITS):
                if budget.expired():
                    raise SearchTimeout()
                shadow = Shadow(puzzle)
                got = shadow.grade(limit, exact=limit < BULK_FROM)
                if got == target or (target is None and got is not None):
                    return puzzle, solution
                other, cut = None, False
                if got is not None:
                    puzzle = _harder(puzzle, solution, min(MAX_CAGE, knobs.max_cage + 1), rng)
                    unique = False
                    if puzzle is None:
                        break
                    continue
                if target is not None and target >= SEARCH_FROM and not unique:
                    # EXTREME: to the end; else a short search, and past it made easier
                    most = None if target is Grade.EXTREME else GUESS_NODES
                    settled, other = second_solution(native, puzzle, solution, budget, most)
                    unique = settled and other is None
                if other is not None:
                    puzzle = self.repair(puzzle, solution, other, rng)
                elif target is Grade.EXTREME and shadow.grade(Grade.EXTREME) is Grade.EXTREME:
                    return puzzle, solution
                else:
                    puzzle, cut = _easier(puzzle, solution, _stuck(shadow), rng)
                unique = unique and cut
                if puzzle is None:
                    break
        return draw(n, knobs, rng)

    def repair(
        self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random
    ) -> Puzzle | None:
        n = puzzle.size
        differ = [(r, c) for r in range(n) for c in range(n) if solution[r][c] != other[r][c]]
        if not differ:
            return None
        rng.shuffle(differ)
        cages = [(list(cage.cells), cage.operation) for cage in puzzle.cages]
        where = {cell: k for k, (cells, _) in enumerate(cages) for cell in cells}
        touched = list(dict.fromkeys(where[cell] for cell in differ))
        fix = _Fix(n, solution, other, rng)
        if rng.random() >= SPLIT_FIRST:
            for attempt in (fix.operation, fix.move, fix.merge):
                for k in touched:
                    found = attempt(cages, where, k, differ)
                    if found is not None:
                        return _puzzle(n, found, solution)
        # A differing cell on its own, the rest of its cage keeping the operation: the
        # new clues imply the old ones, so repairs of this kind never undo each other.
        cell = differ[0]
        k = where[cell]
        cells, op = cages[k]
        rest = [(part, op) for part in connected_parts([c for c in cells if c != cell])]
        return _puzzle(n, [*cages[:k], ([cell], ""), *rest, *cages[k + 1 :]], solution)

    def __repr__(self) -> str:
        return "KenKenMaker()"


class _Fix:
    """The repairs short of a split, for a second solution ``other``: each returns the
    new list of (cells, operation), or None."""

    def __init__(self, n: int, solution: Grid, other: Grid, rng: random.Random):
        self.n, self.solution, self.other, self.rng = n, solution, other, rng

    def fits(self, cells, op: str) -> bool:
        """Does ``other`` fit the cage ``cells`` with ``op`` (the target from solution)?"""
        if len(cells) == 1:
            (r, c) = cells[0]
            return self.solution[r][c] == self.other[r][c]
        mine = [self.solution[r][c] for r, c in cells]
        theirs = [self.other[r][c] for r, c in cells]
        return arith.value(op, mine) == arith.value(op, theirs)

    def options(self, cells) -> list[str]:
        return _options(cells, self.solution, self.n, self.rng)

    def operation(self, cages, where, k, differ):
        """Another operation for a cage that tells the two apart."""
        cells, op = cages[k]
        for new in self.options(cells):
            if new != op and not self.fits(cells, new):
                return [*cages[:k], (cells, new), *cages[k + 1 :]]
        return None

    def move(self, cages, where, k, differ):
        """A differing cell of cage ``k`` given to a neighbouring cage, the rest of ``k``
        staying connected and not a single cell."""
        cells = cages[k][0]
        if len(cells) < 3:
            return None
        for cell in differ:
            if where[cell] != k:
                continue
            rest = [c for c in cells if c != cell]
            if len(connected_parts(rest)) != 1:
                continue
            near = list(dict.fromkeys(where[c] for c in _adjacent(cell, self.n)))
            self.rng.shuffle(near)
            for j in near:
                if j == k or len(cages[j][0]) >= MAX_CAGE:
                    continue
                grown = sorted([*cages[j][0], cell])
                for op_j in self.options(grown):
                    for op_k in self.options(rest):
                        if not (self.fits(grown, op_j) and self.fits(rest, op_k)):
                            changed = {k: (rest, op_k), j: (grown, op_j)}
                            return [changed.get(i, cage) for i, cage in enumerate(cages)]
        return None

    def merge(self, cages, where, k, differ):
        """Cage ``k`` merged with a neighbouring cage."""
        near = list(
            dict.fromkeys(where[c] for cell in cages[k][0] for c in _adjacent(cell, self.n))
        )
        self.rng.shuffle(near)
        for j in near:
            cells = sorted(cages[k][0] + cages[j][0])
            if j == k or len(cells) > MAX_CAGE:
                continue
            for op in self.options(cells):
                if not self.fits(cells, op):
                    return [*(c for i, c in enumerate(cages) if i not in (j, k)), (cells, op)]
        return None


def _adjacent(cell: Cell, n: int) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if 0 <= r + dr < n and 0 <= c + dc < n
    ]


def _puzzle(n: int, cages, solution: Grid) -> Puzzle:
    """The puzzle of (cells, operation) pairs, targets from ``solution``, cages in order
    of their first cell."""
    made = []
    for cells, op in cages:
        cells = tuple(sorted(cells))
        ds = [solution[r][c] for r, c in cells]
        if len(cells) == 1:
            made.append(Cage(ds[0], "", cells))
        else:
            made.append(Cage(cast(int, arith.value(op, ds)), op, cells))  # op fits the digits
    return Puzzle(n, tuple(sorted(made, key=lambda cage: cage.cells[0])))


MAKER = KenKenMaker()

__all__ = ["MAKER", "KenKenMaker", "Style", "latin_square", "style"]
