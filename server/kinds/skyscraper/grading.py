"""The grade of a plain Skyscraper puzzle, fast: the chain of :mod:`.logic` without steps.

A maker grades a candidate at every clue it tries to leave out; the chain's positions,
memos and steps cost several times the deductions themselves. :class:`Grading` drives
the techniques' own cores (:mod:`.techniques`, :mod:`..latin`: ``sees_all``,
``tallest_at``, ``edge_clue_loss``, ``visibility_bounds_of``, ``sole_places``,
``tight_groups``, ``native.revise``) on masks, with work lists: a line is due for its
hidden singles when a candidate of it changed, for its views when a height was placed
in it, for its subsets when it changed since they were last sought. It takes
techniques 1-5 to a fixpoint, then one line's naked and hidden subsets and back, then
the sequence step the chain takes (``most_telling`` of the lines' revisions, by
``revision_rank``) and back. Techniques 1-7 reach the same fixpoint in any order and
the sequence steps are taken from those fixpoints by the chain's rule, so the grade and
the count of sequence steps are the chain's (tests/skyscraper/test_skyscraper_grading.py);
there are no steps, sentences or trials. Plain puzzles only: heights 1..N, no empty
lots, no diagonals. Cell ``i`` is ``(i // N, i % N)``; view ``v`` is clue ``v`` side by
side (:data:`.model.SIDES`); line ``x``: the rows, then the columns.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass

from numgrid.server.chain import Grade
from numgrid.server.chain import most_telling
from numgrid.server.kinds import latin
from numgrid.server.kinds.latin import LARGEST_SUBSET
from numgrid.server.kinds.latin import NAKED_ONLY
from numgrid.server.kinds.latin import places_of
from numgrid.server.kinds.latin import sole_places
from numgrid.server.kinds.latin import tight_groups
from numgrid.server.kinds.masks import digits_of

from . import native
from .logic import THRESHOLDS
from .logic import grade
from .model import SIDES
from .model import Side
from .techniques import Technique
from .techniques import edge_clue_loss
from .techniques import heights_placed
from .techniques import revision_rank
from .techniques import sees_all
from .techniques import tallest_at
from .techniques import visibility_bounds_of

UNLIMITED = 1 << 30  # sequence steps, when a grade sets no limit
Revision = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # cells, old, revised


class Broken(Exception):
    """A contradiction: the position has no completion."""


@dataclass(frozen=True)
class Graded:
    """A grading: the grade (None: the chain stalls short of a trial, or needs more
    sequence steps or harder techniques than allowed), the sequence steps taken, and
    the cells left open where it stalled."""

    grade: Grade | None
    sequences: int
    stalled: tuple[int, ...] = ()


def allowance(target: Grade) -> tuple[Technique, int]:
    """The hardest technique and the most sequence steps a grade allows (the chain's
    :data:`~.logic.THRESHOLDS`; past HARD, every technique but the trial, unlimited)."""
    hardest, limits = THRESHOLDS.get(target, (Technique.SEQUENCES, {}))
    return Technique(hardest), limits.get(Technique.SEQUENCES, UNLIMITED)


@dataclass(frozen=True)
class _Plain:
    """A plain N x N grid as indices: the frame's lines, and per view its cells, nearest
    the clue first; per line its views at the near (left, top) and far ends."""

    n: int
    frame: latin.Frame
    views: tuple[tuple[int, ...], ...]
    ends: tuple[tuple[int, int], ...]
    view_line: tuple[int, ...]


@functools.cache
def _plain(n: int) -> _Plain:
    views = tuple(tuple(r * n + c for r, c in side.cells(i, n)) for side in SIDES for i in range(n))
    index = {side: k for k, side in enumerate(SIDES)}
    ends = tuple(
        [(index[Side.LEFT] * n + r, index[Side.RIGHT] * n + r) for r in range(n)]
        + [(index[Side.TOP] * n + c, index[Side.BOTTOM] * n + c) for c in range(n)]
    )
    view_line = [0] * len(views)
    for x, pair in enumerate(ends):
        for v in pair:
            view_line[v] = x
    return _Plain(n, latin.frame(n), views, ends, tuple(view_line))


def quiet_grade(
    n: int,
    clues: Sequence[int],
    givens: Sequence[int],
    up_to: Technique = Technique.SEQUENCES,
    most: int = UNLIMITED,
) -> Graded:
    """The chain's grade of a plain puzzle (its clues side by side, its givens by cell,
    0: none) with techniques up to ``up_to`` and at most ``most`` sequence steps; raises
    :class:`Broken` on a contradiction."""
    return Grading(n, clues, givens).verdict(up_to, most)


class Grading:
    """One puzzle's candidates, the heights placed and the work lists. The clues are
    read from ``clues`` as it is: a maker that adds one says so (:meth:`clue_added`)."""

    def __init__(self, n: int, clues: Sequence[int], givens: Sequence[int]):
        plain = self.plain = _plain(n)
        frame = plain.frame
        self.clues = clues
        self.masks = [frame.full] * (n * n)
        self.placed = [0] * (n * n)
        self.pending: list[int] = []  # cells left with one candidate, not placed yet
        lines = len(frame.lines)
        self.changed = [True] * lines  # per line: a mask changed (hidden singles)
        self.moved = [True] * lines  # per line: a height placed (its views)
        self.unsubset = [True] * lines  # per line: changed since its subsets were sought
        self.count = [0] * lines  # per line: the heights placed in it
        for i, value in enumerate(givens):
            if value:
                self.height_given(i, value)
        for x in range(lines):
            self._clued(x)

    # -- what the maker adds

    def clue_added(self, v: int) -> None:
        """Clue ``v`` was added to ``clues``."""
        self._clued(self.plain.view_line[v])

    def height_given(self, i: int, value: int) -> None:
        """Cell ``i`` holds ``value``."""
        self._remove(i, ~(1 << (value - 1)))

    def views_through(self, cells: Sequence[int]) -> list[int]:
        """The views of the lines through ``cells``: the lines in order, each's near
        view, then its far one."""
        cell_lines = self.plain.frame.cell_lines
        lines = sorted({x for i in cells for x in cell_lines[i]})
        return [v for x in lines for v in self.plain.ends[x]]

    # -- the rules

    def _remove(self, i: int, bits: int) -> None:
        """Cell ``i`` loses the candidates of ``bits``."""
        old = self.masks[i]
        new = old & ~bits
        if new == old:
            return
        if not new:
            raise Broken
        self.masks[i] = new
        row, col = self.plain.frame.cell_lines[i]
        self.changed[row] = self.changed[col] = True
        self.unsubset[row] = self.unsubset[col] = True
        if not new & (new - 1):
            self.pending.append(i)

    def _place(self, i: int) -> None:
        """Cell ``i``'s one candidate is placed: it leaves the rest of its lines."""
        m = self.masks[i]
        self.placed[i] = m.bit_length()
        frame = self.plain.frame
        row, col = frame.cell_lines[i]
        self.moved[row] = self.moved[col] = True
        self.count[row] += 1
        self.count[col] += 1
        masks, pending, changed, unsubset = self.masks, self.pending, self.changed, self.unsubset
        cell_lines = frame.cell_lines
        for j in frame.peers[i]:
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

    def _clued(self, x: int) -> None:
        """What line ``x``'s clues say before anything is placed: a clue pair, a clue of
        N; and the line is due for everything."""
        plain, clues, n = self.plain, self.clues, self.plain.n
        near, far = (clues[v] for v in plain.ends[x])
        k = tallest_at(near, far, n)
        if k >= 0:
            self._remove(plain.frame.line_cells[x][k], plain.frame.full >> 1)
        for v in plain.ends[x]:
            if sees_all(clues[v], n):
                for k, i in enumerate(plain.views[v]):
                    self._remove(i, plain.frame.full & ~(1 << k))
        self.moved[x] = self.changed[x] = self.unsubset[x] = True

    def _view(self, clue: int, cells: tuple[int, ...]) -> None:
        """Edge clue and visibility bounds of one view."""
        n, placed, masks = self.plain.n, self.placed, self.masks
        where = heights_placed(cells, placed, n)
        if not placed[cells[0]] and not sees_all(clue, n):
            lost = edge_clue_loss(clue, where, n)
            if lost:
                self._remove(cells[0], lost)
        for h, away in visibility_bounds_of(clue, where, n)[0]:
            b = 1 << (h - 1)
            for i in cells[:away]:
                if masks[i] & b and not placed[i]:
                    self._remove(i, b)

    def _easy(self) -> None:
        """Techniques 1-5 to a fixpoint."""
        plain, clues = self.plain, self.clues
        pending, placed, changed, moved = self.pending, self.placed, self.changed, self.moved
        count, n, line_cells = self.count, plain.n, plain.frame.line_cells
        masks, full = self.masks, plain.frame.full
        lines = range(len(line_cells))
        while True:
            if pending:
                i = pending.pop()
                if not placed[i]:
                    self._place(i)
                continue
            busy = False
            for x in lines:
                if changed[x]:
                    changed[x] = False
                    if count[x] < n:
                        found = sole_places(line_cells[x], masks, full)
                        if found is None:
                            raise Broken
                        for i, b in found:
                            self._remove(i, ~b)
                    busy = True
            for x in lines:
                if moved[x] and not pending:
                    moved[x] = False
                    if count[x] < n:
                        for v in plain.ends[x]:
                            if clues[v]:
                                self._view(clues[v], plain.views[v])
                    busy = True
            if not busy and not pending:
                return

    # -- techniques 6-7

    def _subset(self) -> bool:
        """One line's naked and hidden subsets; False when no line has one (lines
        unchanged since they were last sought are skipped). In a line of m open cells a
        hidden subset of k digits is a naked one of the other m - k cells, so up to six
        open cells the naked ones of two to four are all there are."""
        masks = self.masks
        for x, cells in enumerate(self.plain.frame.line_cells):
            if not self.unsubset[x]:
                continue
            self.unsubset[x] = False
            open_ = [i for i in cells if masks[i] & (masks[i] - 1)]
            if len(open_) > 3 and (self._naked(open_) or self._hidden_subset(open_)):
                return True
        return False

    def _naked(self, open_: list[int]) -> bool:
        masks = self.masks
        own = [masks[i] for i in open_]
        sizes = range(2, min(LARGEST_SUBSET, len(open_) - 2) + 1)
        for size, members, union in tight_groups(own, sizes):
            if union.bit_count() < size:
                raise Broken
            found = False
            for k, i in enumerate(open_):
                if k not in members and masks[i] & union:
                    self._remove(i, union)
                    found = True
            if found:
                return True
        return False

    def _hidden_subset(self, open_: list[int]) -> bool:
        """After :meth:`_naked` found none in the line: a hidden subset of k digits is the
        complement of a naked one of the other cells, so only the sizes whose complement
        is past LARGEST_SUBSET are new (none up to :data:`~..latin.NAKED_ONLY` cells)."""
        largest = min(LARGEST_SUBSET, len(open_) - NAKED_ONLY + 1)
        if largest < 2:
            return False
        masks = self.masks
        lacking = 0
        for i in open_:
            lacking |= masks[i]
        digits = [1 << (d - 1) for d in digits_of(lacking)]
        places = places_of(open_, masks, lacking)
        for size, members, union in tight_groups(places, range(2, largest + 1)):
            if union.bit_count() < size:
                raise Broken
            keep = sum(digits[k] for k in members)
            found = False
            for i in open_:
                if union >> i & 1 and masks[i] & ~keep:
                    self._remove(i, ~keep)
                    found = True
            if found:
                return True
        return False

    # -- technique 8

    def _sequence(self) -> bool:
        """The one sequence step the chain takes; False when none removes anything."""
        best = most_telling(self._revisions())
        if best is None:
            return False
        for i, m, s in zip(*best, strict=True):
            if m != s:
                self._remove(i, ~s)
        return True

    def _revisions(self) -> Iterator[tuple[tuple[int, int], Revision]]:
        """Per clued line whose exact revision removes something: its rank, and (its
        cells, their candidates, the revised ones)."""
        plain, clues, masks = self.plain, self.clues, self.masks
        for x, cells in enumerate(plain.frame.line_cells):
            near, far = (clues[v] for v in plain.ends[x])
            if not near and not far:
                continue
            old = tuple(masks[i] for i in cells)
            revised = native.revise(old, near, far, plain.n)
            if revised is None:
                raise Broken
            if revised != old:
                yield revision_rank(old, revised), (cells, old, revised)

    # -- the grade

    def verdict(self, up_to: Technique = Technique.SEQUENCES, most: int = UNLIMITED) -> Graded:
        """The chain's grade from here with techniques up to ``up_to`` and at most
        ``most`` sequence steps (:class:`Graded`); raises :class:`Broken` on a
        contradiction."""
        sequences, subsets = 0, False
        while True:
            self._easy()
            if all(self.placed):
                break
            if up_to < Technique.NAKED_SUBSET:
                return self._stalled(sequences)
            if self._subset():
                subsets = True
                continue
            if up_to < Technique.SEQUENCES or sequences >= most or not self._sequence():
                return self._stalled(sequences)
            sequences += 1
        counts: dict[enum.IntEnum, int] = {
            Technique.NAKED_SUBSET: int(subsets),
            Technique.SEQUENCES: sequences,
        }
        return Graded(grade(counts), sequences)

    def _stalled(self, sequences: int) -> Graded:
        masks = self.masks
        return Graded(None, sequences, tuple(i for i, m in enumerate(masks) if m & (m - 1)))
