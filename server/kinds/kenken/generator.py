"""Making KenKen puzzles: Keen-style candidates, steered onto the target grade by the
chain's fast grading.

Why this way: the driver (:mod:`numgrid.server.generate`) proves each candidate unique
and explains it with the chain, which costs 10-30 times what drawing one does; random
candidates land on a given grade 1 to 80 % of the time, and a repair that makes one
unique mostly makes it easy. So the maker grades its own candidates first, with the
chain's fast grading (:class:`.logic.Grading`: the chain's deductions without steps or
sentences), and edits a candidate until it gives the target grade:

1. a draw (:func:`draw`), as Tatham's Keen makes one: a random latin square, dominoes
   and folded single cells as cages, clues spread over the four operations, with knobs
   per target grade (:class:`Style`, :data:`ANCHORS`);
2. edits while it grades off target (:func:`_easier`, :func:`_harder`, at
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
import random
from dataclasses import dataclass
from typing import cast

from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.judging import connected_parts
from numgrid.server.kinds.latin import latin_square
from numgrid.server.kinds.making import no_diagonals
from numgrid.server.kinds.making import second_solution
from numgrid.server.kinds.making import unreachable

from . import arith
from . import logic
from . import native
from .model import ADD
from .model import DIVIDE
from .model import MULTIPLY
from .model import SUBTRACT
from .model import Cage
from .model import Puzzle

MIN_SIZE, MAX_SIZE = 3, 9  # as Tatham's Keen
MAX_CAGE = 6  # cells of the largest cage a candidate or a repair makes
# The chance a repair splits a cage at once. The other repairs (another operation, a
# cell moved to the next cage) keep the grade but may undo each other: this bounds a
# cycle of them.
SPLIT_FIRST = 0.15

DRAWS = 100  # candidates drawn in one call before one off target is returned
EDITS = 16  # gradings (and edits between them) of one draw
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


def _easier(
    puzzle: Puzzle, solution: Grid, stuck: list[Cell], rng: random.Random
) -> tuple[Puzzle | None, bool]:
    """One change that tells more about a cell the grading left open: its cage's
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
        return None, False  # a given digit the grading left open: cannot happen
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
        """A draw, then edits guided by the chain's fast grading (:func:`_easier` where
        it stalls, :func:`_harder` while it grades below the target) until it grades it
        at the target; at most :data:`EDITS` edits a draw and :data:`DRAWS` draws. For
        any grade, one the grading completes without a trial (unique, then).

        For HARD and harder, a puzzle the grading stalls on is searched for a second
        solution by the native engine (:func:`.making.second_solution`): if there is
        one, it is repaired (:meth:`repair`) where it differs. A puzzle known to have
        one solution keeps it through a cut (:func:`_easier`), and is not searched
        again. For EXTREME, one that needs more than line totals is searched to the end
        (trials are slow at failing), then graded with a trial."""
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
                grading = logic.Grading(puzzle)
                got = grading.grade(limit, exact=limit < BULK_FROM)
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
                elif target is Grade.EXTREME and grading.grade(Grade.EXTREME) is Grade.EXTREME:
                    return puzzle, solution
                else:
                    puzzle, cut = _easier(puzzle, solution, grading.stalled, rng)
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
