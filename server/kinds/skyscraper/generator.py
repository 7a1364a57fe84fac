"""Making Skyscraper puzzles as Tatham's Towers does: a random latin square of heights,
its clues, and clues taken away while the puzzle stays solvable within the target grade.

Why this way: Towers (``towers.c``, ``new_game_desc``) draws a latin square, computes
every clue, removes grid numbers and then clues in random order while its solver still
solves the puzzle at the difficulty asked. Its solver is C; the chain here is Python with
sentences, so the maker judges "within the grade" with a *shadow* of the chain
(:class:`Shadow`: techniques 1-8 of :mod:`.logic` on bitmasks, without the sentences)
and tries as few removals as it can:

1. a random latin square (:func:`latin_square`, as Towers' ``latin_generate``);
2. a random share of its clues (:data:`START_SHARE`; every clue for EASY), completed
   where the shadow stalls by a clue through a cell it left open, or that cell's height;
3. the givens, then the clues, left out one by one while the shadow still solves the
   puzzle within the grade (a puzzle the shadow solves is unique);
4. a puzzle graded below the target is drawn again, at most :data:`REDRAWS` times.

For EXTREME the clues go while the puzzle stays unique (:func:`_solutions`, the native
engine's search), until the shadow stalls. ``pressure`` leans within a grade (below 0
more clues, above 0 fewer).
Only the plain puzzle is made: heights 1..N, no empty lots, no diagonals.
:meth:`Maker.repair` adds a clue the second solution does not show, or else a height.
Each step in full: docs/generate.md, "Each kind's maker".
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds import latin
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.making import unreachable

from . import native
from .model import MAX_SIZE
from .model import SIDES
from .model import Puzzle
from .model import Side
from .model import visible

MIN_SIZE = 3  # a 1x1 or 2x2 grid has nothing to deduce
REDRAWS = 6  # squares drawn within one candidate before one graded off target is returned
START_SHARE = 0.35  # the share of the clues a candidate starts from (more where it stalls)
SKIP_SHARE = 0.5  # at pressure -1, the share of clues kept without being tried
# Per grade: the most sequence steps allowed (the chain's THRESHOLDS), and at pressure
# 1, how many more the shadow may allow at the grade's upper end.
SEQUENCE_LIMITS = {Grade.EASY: -1, Grade.MEDIUM: 2, Grade.HARD: 8, Grade.EXPERT: 10_000}
STRETCH = {Grade.MEDIUM: 1, Grade.HARD: 3, Grade.EXPERT: 0}
POLL_EVERY = 16  # removals tried, or search branches, between budget checks
SEARCH_NODES = 40  # branches of a search for a second solution before a removal is not made
TABLE_SIZE = 6  # up to this size EXTREME starts from a share of the clues, beyond from all
_COUNTS = tuple(k.bit_count() for k in range(1 << (MAX_SIZE + 1)))
# Per number m of open cells in a line: the sizes of naked subsets the chain finds (2
# to 4, and the complements of hidden ones of 2 to 4: m - 4 to m - 2), short of m - 1.
_SIZES = tuple(
    frozenset(s for s in (*range(2, 5), *range(m - 4, m - 1)) if 2 <= s <= m - 2)
    for m in range(MAX_SIZE + 1)
)


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


# ---------------------------------------------------------------- the latin square


def latin_square(n: int, rng: random.Random) -> Grid:
    """A random N x N latin square of heights 1..N, as Towers' ``latin_generate``: the
    heights tried in a fresh random order at every column (:func:`.latin.latin_square`)."""
    return latin.latin_square(n, rng, reshuffle=True)


def clues_of(grid: Grid) -> tuple[int, ...]:
    """Every clue of a full grid, side by side (top, bottom, left, right; see
    :data:`.model.SIDES`), each side's by index."""
    n = len(grid)
    return tuple(
        visible(grid[r][c] for r, c in side.cells(i, n)) for side in SIDES for i in range(n)
    )


def _puzzle(n: int, clues, givens) -> Puzzle:
    """A plain puzzle from the clues side by side and the givens by cell (0: none)."""
    sides = [tuple(clues[k * n : k * n + n]) for k in range(len(SIDES))]
    rows = tuple(tuple(givens[r * n : r * n + n]) for r in range(n))
    top, bottom, left, right = sides
    return Puzzle(n, n, False, top, bottom, left, right, rows)


# ---------------------------------------------------------------- the shadow chain


class Broken(Exception):
    """A contradiction: the position has no completion."""


@dataclass(frozen=True)
class Graded:
    """What the shadow made of a puzzle: its grade (None: a trial is needed, or the
    sequence steps passed the limit asked) and the sequence steps it took."""

    grade: Grade | None
    sequences: int
    stalled: tuple[int, ...] = ()  # the open cells where it stalled


class Shadow:
    """Techniques 1-8 of :mod:`.logic` on bitmasks, without sentences, for the plain
    variant (heights 1..N, no diagonals): edge clues, clue pairs, singles and visibility
    bounds (``EASY``) to a fixpoint, then the naked and hidden subsets (2 to 4) of one
    line and back, then one sequence step (the line whose exact revision places most, then
    removes most, as the chain picks it) and back. Work lists keep each pass to the
    lines that changed. Cell ``i`` is ``(i // N, i % N)``; view ``v`` is clue ``v`` side
    by side; line ``x``: the rows, then the columns."""

    def __init__(self, n: int):
        self.n = n
        self.full = (1 << n) - 1
        self.lines = tuple(
            [tuple(r * n + c for c in range(n)) for r in range(n)]
            + [tuple(r * n + c for r in range(n)) for c in range(n)]
        )
        self.cell_lines = tuple((i // n, n + i % n) for i in range(n * n))
        self.peers = tuple(
            tuple(j for x in self.cell_lines[i] for j in self.lines[x] if j != i)
            for i in range(n * n)
        )
        self.views = tuple(
            tuple(r * n + c for r, c in side.cells(i, n)) for side in SIDES for i in range(n)
        )
        index = {side: k for k, side in enumerate(SIDES)}
        # per line: its views at the near (left, top) and far ends
        self.ends = tuple(
            [(index[Side.LEFT] * n + r, index[Side.RIGHT] * n + r) for r in range(n)]
            + [(index[Side.TOP] * n + c, index[Side.BOTTOM] * n + c) for c in range(n)]
        )

    def verdict(self, clues, givens, limit: int = 1 << 30, easy_only: bool = False) -> Graded:
        """The shadow's grade of a puzzle (None: it stalls, or it needs more than
        ``limit`` sequence steps; with ``easy_only``, more than techniques 1-5);
        raises :class:`Broken` on a contradiction."""
        return _Run(self, clues, givens).verdict(limit, easy_only)


class _Run:
    """One shadow solve: the candidates, the values placed, and the work lists."""

    def __init__(self, shadow: Shadow, clues, givens):
        self.sh, self.clues = shadow, clues
        n = shadow.n
        cells, lines = n * n, 2 * n
        self.masks = [shadow.full] * cells
        self.placed = [0] * cells
        self.pending: list[int] = []  # cells left with one candidate, not placed yet
        self.changed = [True] * lines  # per line: a mask changed (hidden singles)
        self.moved = [True] * lines  # per line: a value placed (its views)
        self.unsubset = [True] * lines  # per line: changed since its subsets were sought
        self.count = [0] * lines  # per line: the values placed in it
        for i, value in enumerate(givens):
            if value:
                self.remove(i, shadow.full & ~(1 << (value - 1)))
        for x in range(lines):
            self.given_line(x)

    def given_line(self, x: int) -> None:
        """What line ``x``'s clues say before anything is placed: a clue pair, a clue of
        N (the rest of what they say comes from :meth:`_view`)."""
        sh, clues, n = self.sh, self.clues, self.sh.n
        near, far = (clues[v] for v in sh.ends[x])
        if near and far and near + far == n + 1:
            self.remove(sh.lines[x][near - 1], sh.full >> 1)
        for v in sh.ends[x]:
            if clues[v] == n:
                for k, i in enumerate(sh.views[v]):
                    self.remove(i, sh.full & ~(1 << k))
        self.moved[x] = self.changed[x] = self.unsubset[x] = True

    def remove(self, i: int, bits: int) -> None:
        old = self.masks[i]
        new = old & ~bits
        if new == old:
            return
        if not new:
            raise Broken
        self.masks[i] = new
        row, col = self.sh.cell_lines[i]
        self.changed[row] = self.changed[col] = True
        self.unsubset[row] = self.unsubset[col] = True
        if not new & (new - 1):
            self.pending.append(i)

    def place(self, i: int) -> None:
        m = self.masks[i]
        self.placed[i] = m.bit_length()
        row, col = self.sh.cell_lines[i]
        self.moved[row] = self.moved[col] = True
        self.count[row] += 1
        self.count[col] += 1
        masks, pending, changed, unsubset = self.masks, self.pending, self.changed, self.unsubset
        cell_lines = self.sh.cell_lines
        for j in self.sh.peers[i]:
            if masks[j] & m:
                new = masks[j] & ~m
                if not new:
                    raise Broken
                masks[j] = new
                row, col = cell_lines[j]
                changed[row] = changed[col] = unsubset[row] = unsubset[col] = True
                if not new & (new - 1):
                    pending.append(j)

    # -- techniques 1-5

    def _hidden(self, cells) -> None:
        once = twice = 0
        masks = self.masks
        for i in cells:
            m = masks[i]
            twice |= once & m
            once |= m
        if once != self.sh.full:
            raise Broken
        for b in _bits(once & ~twice):
            for i in cells:
                if masks[i] & b:
                    if masks[i] != b:
                        self.remove(i, ~b)
                    break

    def _view(self, clue: int, cells) -> None:
        """Edge clue and visibility bounds of one view, from the values placed in it."""
        n, placed, masks = self.sh.n, self.placed, self.masks
        where = [-1] * (n + 1)
        for k, i in enumerate(cells):
            if placed[i]:
                where[placed[i]] = k
        seen, nearest = 0, n
        for h in range(n, 0, -1):
            k = where[h]
            if k < 0:
                break
            if k < nearest:
                nearest, seen = k, seen + 1
        first = cells[0]
        if clue == seen + 1 and nearest > 1 and not placed[first]:
            lower, count = 0, 0
            for h in range(1, n + 1):
                if count == nearest - 1:
                    break
                if where[h] < nearest:  # not placed behind the nearest seen
                    lower |= 1 << (h - 1)
                    count += 1
            self.remove(first, lower)
        counted, taller = 0, n  # taller: the nearest position of a taller placed tower
        for h in range(n, 0, -1):
            k = where[h]
            if k >= 0:
                hidden = taller < k
                taller = min(taller, k)
                if hidden:
                    continue
            away = clue - 1 - counted
            if away <= 0:
                break
            counted += 1
            b = 1 << (h - 1)
            for i in cells[:away]:
                if masks[i] & b and not placed[i]:
                    self.remove(i, b)

    def easy(self) -> None:
        """Techniques 1-5 to a fixpoint."""
        sh, clues = self.sh, self.clues
        pending, placed, changed, moved = self.pending, self.placed, self.changed, self.moved
        count, n = self.count, sh.n
        lines = range(2 * n)
        while True:
            if pending:
                i = pending.pop()
                if not placed[i]:
                    self.place(i)
                continue
            busy = False
            for x in lines:
                if changed[x]:
                    changed[x] = False
                    if count[x] < n:
                        self._hidden(sh.lines[x])
                    busy = True
            for x in lines:
                if moved[x] and not pending:
                    moved[x] = False
                    if count[x] < n:
                        for v in sh.ends[x]:
                            if clues[v]:
                                self._view(clues[v], sh.views[v])
                    busy = True
            if not busy and not pending:
                return

    # -- techniques 6-7

    def subset(self) -> bool:
        """One line's naked and hidden subsets of two to four; False when no line has
        one (lines unchanged since they were last sought are skipped). In a line of m
        open cells a hidden subset of k values is a naked one of the other m - k cells,
        so only naked ones are sought, over every set of open cells at once."""
        masks, counts = self.masks, _COUNTS
        for x, cells in enumerate(self.sh.lines):
            if not self.unsubset[x]:
                continue
            self.unsubset[x] = False
            open_ = [i for i in cells if masks[i] & (masks[i] - 1)]
            m = len(open_)
            if m <= 3:  # a subset would leave one cell: a hidden single
                continue
            sizes = _SIZES[m]
            own = [masks[i] for i in open_]
            unions = [0] * (1 << m)
            for group in range(1, 1 << m):
                low = group & -group
                union = unions[group] = unions[group ^ low] | own[low.bit_length() - 1]
                size = counts[group]
                if size in sizes and counts[union] == size:
                    found = False
                    for k, i in enumerate(open_):
                        if not group >> k & 1 and masks[i] & union:
                            self.remove(i, union)
                            found = True
                    if found:
                        return True
        return False

    # -- technique 8

    def sequence(self) -> bool:
        """The one sequence step the chain would take; False when none removes anything."""
        sh, clues, masks, placed = self.sh, self.clues, self.masks, self.placed
        best, best_rank = None, (0, 0)
        for x, cells in enumerate(sh.lines):
            near, far = (clues[v] for v in sh.ends[x])
            if not near and not far:
                continue
            old = tuple(masks[i] for i in cells)
            found = native.revise(old, near, far, sh.n)
            if found is None:
                raise Broken
            if found == old:
                continue
            placements = eliminations = 0
            for i, m, s in zip(cells, old, found, strict=True):
                if m != s:
                    if not placed[i] and not s & (s - 1):
                        placements += 1
                    else:
                        eliminations += (m & ~s).bit_count()
            rank = (placements, eliminations)
            if rank > best_rank:
                best, best_rank = (cells, old, found), rank
        if best is None:
            return False
        for i, m, s in zip(*best, strict=True):
            if m != s:
                self.remove(i, ~s)
        return True

    def verdict(self, limit: int, easy_only: bool) -> Graded:
        sequences, subsets = 0, False
        while True:
            self.easy()
            if all(self.placed):
                break
            if easy_only:
                return self._stalled(sequences)
            if self.subset():
                subsets = True
                continue
            if sequences >= limit or not self.sequence():
                return self._stalled(sequences)
            sequences += 1
        if not subsets and not sequences:
            return Graded(Grade.EASY, 0)
        for grade in (Grade.MEDIUM, Grade.HARD):
            if sequences <= SEQUENCE_LIMITS[grade]:
                return Graded(grade, sequences)
        return Graded(Grade.EXPERT, sequences)

    def _stalled(self, sequences: int) -> Graded:
        masks = self.masks
        return Graded(None, sequences, tuple(i for i, m in enumerate(masks) if m & (m - 1)))


@functools.cache
def shadow(n: int) -> Shadow:
    return Shadow(n)


# ---------------------------------------------------------------- the maker


def _solutions(n: int, clues, givens, budget: Budget, most: int | None = None):
    """Up to two solutions, by the native engine (tallest heights tried first); None
    when that takes more than ``most`` branches."""
    result = native.search(
        _puzzle(n, clues, givens), limit=2, budget=budget, most_nodes=most, tallest_first=True
    )
    if not result.complete:
        if budget.expired():
            raise SearchTimeout()
        return None
    return result.solutions


def _order(n: int, clues: list[int], givens: list[int], rng: random.Random):
    """What to try leaving out: the givens, then the clues, each in random order, as
    (the list, the index)."""
    given = [i for i, v in enumerate(givens) if v]
    rng.shuffle(given)
    sides = [v for v, clue in enumerate(clues) if clue]
    rng.shuffle(sides)
    return [(givens, i) for i in given] + [(clues, i) for i in sides]


class Maker:
    """Skyscraper's :class:`~numgrid.server.kinds.base.Maker` (plain puzzles)."""

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        found = []
        if spec.diagonals:  # its puzzles have a diagonal variant, which is not made
            found.append(("diagonals", "the diagonal Skyscraper variant is not generated"))
        if spec.rows != spec.cols:
            found.append(("cols", f"a Skyscraper is square: {spec.rows}x{spec.cols} is not"))
        if not MIN_SIZE <= spec.rows <= MAX_SIZE:
            found.append(
                ("rows", f"a Skyscraper is {MIN_SIZE} to {MAX_SIZE} cells wide, not {spec.rows}")
            )
        else:
            size = f"{spec.rows}x{spec.rows}"
            found += unreachable("Skyscraper", size, spec.grade, reachable(spec.rows))
        return found

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        n = spec.rows
        target = spec.grade
        if target is None:  # any grade: one of those made fast
            target = rng.choice([g for g in reachable(n) if g <= Grade.HARD])
        for _ in range(REDRAWS):
            solution = latin_square(n, rng)
            if target is Grade.EXTREME:
                clues, givens, grade = self._extreme(n, solution, rng, budget)
            else:
                clues, givens, grade = self._within(n, solution, target, pressure, rng, budget)
            if grade == target:
                break
        return _puzzle(n, clues, givens), solution

    @staticmethod
    def _within(n, solution, target, pressure, rng, budget):
        """Clues and givens left once every one that can go has gone, the shadow still
        grading the puzzle at most ``target``; and the shadow's grade."""
        sh = shadow(n)
        values = [v for row in solution for v in row]
        limit = SEQUENCE_LIMITS[target] + round(max(pressure, 0.0) * STRETCH.get(target, 0))
        easy = target is Grade.EASY

        def judged(clues, givens) -> Graded:
            try:
                return sh.verdict(clues, givens, limit, easy_only=easy)
            except Broken:  # never from the solution's own clues and heights; but if so,
                open_cells = tuple(i for i, v in enumerate(givens) if not v)
                return Graded(None, 0, open_cells)  # heights given until it is solved

        every = clues_of(solution)
        share = 1.0 if easy else START_SHARE
        clues = [c if rng.random() < share else 0 for c in every]
        givens = [0] * (n * n)
        run = _Run(sh, clues, givens)
        try:
            while (found := run.verdict(limit, easy)).grade is None:
                # where the shadow stalls: a clue of a line through a cell left open, or
                # (when those are all there) the cell's height given; and on from there
                lines = sorted({x for i in found.stalled for x in sh.cell_lines[i]})
                missing = [v for x in lines for v in sh.ends[x] if not clues[v]]
                if missing:
                    v = rng.choice(missing)
                    clues[v] = every[v]
                    run.given_line(next(x for x in lines if v in sh.ends[x]))
                else:
                    i = rng.choice(found.stalled)
                    givens[i] = values[i]
                    run.remove(i, ~(1 << (values[i] - 1)))
        except Broken:  # as in judged(): never, but not trusted
            pass
        while (found := judged(clues, givens)).grade is None:  # afresh: rarely more
            i = rng.choice(found.stalled)
            givens[i] = values[i]
        grade = found.grade
        skip = SKIP_SHARE * max(-pressure, 0.0)
        order = _order(n, clues, givens, rng)
        if easy:  # every clue stays, as in Towers: only the givens go
            order = [(where, i) for where, i in order if where is givens]
        for k, (where, i) in enumerate(order):
            if not k % POLL_EVERY and budget.expired():
                raise SearchTimeout()
            if skip and rng.random() < skip:
                continue
            kept, where[i] = where[i], 0
            now = judged(clues, givens).grade
            if now is None:
                where[i] = kept
            else:
                grade = now
        return clues, givens, grade

    @staticmethod
    def _extreme(n, solution, rng, budget):
        """Clues and givens left once every one that can go has gone, the puzzle still
        unique; and EXTREME if the shadow then stalls, else its grade. From a random
        share of the clues made unique (up to :data:`TABLE_SIZE`; beyond, a search of a
        puzzle with few clues is slow, so from every clue); a removal whose search takes
        more than :data:`SEARCH_NODES` branches is not made."""
        sh = shadow(n)
        every = clues_of(solution)
        values = [v for row in solution for v in row]
        share = START_SHARE if n <= TABLE_SIZE else 1.0
        clues = [c if rng.random() < share else 0 for c in every]
        givens = [0] * (n * n)
        while len(found := _solutions(n, clues, givens, budget)) > 1:
            other = next(s for s in found if s != solution)
            telling = _telling(clues, every, clues_of(other))
            if telling:
                v = rng.choice(telling)
                clues[v] = every[v]
            else:
                i = rng.choice(_differing(values, other, givens))
                givens[i] = values[i]
        for where, i in _order(n, clues, givens, rng):
            kept, where[i] = where[i], 0
            found = _solutions(n, clues, givens, budget, SEARCH_NODES)
            if found is None or len(found) > 1:
                where[i] = kept
        try:
            grade = sh.verdict(clues, givens).grade
        except Broken:  # never from the solution's own clues and heights
            return clues, givens, None
        return clues, givens, Grade.EXTREME if grade is None else grade

    def repair(self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random):
        """A missing clue of a line where ``other`` differs that counts differently in
        ``solution``; else the height of a differing cell, given."""
        n = puzzle.size
        every = clues_of(solution)
        clues = [c for side in SIDES for c in puzzle.clues(side)]
        givens = [v for row in puzzle.givens for v in row]
        telling = _telling(clues, every, clues_of(other))
        if telling:
            v = rng.choice(telling)
            clues[v] = every[v]
        else:
            cells = _differing([v for row in solution for v in row], other, givens)
            if not cells:
                return None
            i = rng.choice(cells)
            givens[i] = solution[i // n][i % n]
        return _puzzle(n, clues, givens)


def _telling(clues, every, others) -> list[int]:
    """The clues missing from ``clues`` whose count differs in the other grid."""
    return [v for v, clue in enumerate(clues) if not clue and every[v] != others[v]]


def _differing(values, other: Grid, givens) -> list[int]:
    """The cells not given where the other grid differs from ``values``."""
    n = len(other)
    return [i for i, v in enumerate(values) if other[i // n][i % n] != v and not givens[i]]


def reachable(n: int) -> list[Grade]:
    """The grades a puzzle of size ``n`` can be made at (measured)."""
    return REACHABLE.get(n, list(Grade))


# Measured (2026-11, 200 draws of each path at sizes 3 and 4): no 3x3 puzzle needs more
# than 8 sequence steps or a trial (Towers makes none harder than Hard at 3 either), no
# 4x4 one more than 8 sequence steps; from 5x5 on every grade is made.
REACHABLE: dict[int, list[Grade]] = {
    3: [Grade.EASY, Grade.MEDIUM, Grade.HARD],
    4: [Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXTREME],
}

MAKER = Maker()
