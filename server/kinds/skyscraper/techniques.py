"""The techniques of the logical Skyscraper solver, simplest first, each a short function.

Vocabulary, named once (the latin part is :mod:`..latin`'s):

- *mask*: a set of values as bits: bit ``h - 1`` is height ``h``, bit ``H`` an empty lot.
- *layout* (of a puzzle): its :class:`~..latin.Frame` (cells ``r * N + c``; lines: rows,
  columns, diagonals), and its *views* (the clues, as in ``puzzle.views``) with their
  cells nearest the clue first.
- *position*: the candidates (a mask) of every cell and the values *placed* so far. A
  placed height leaves the rest of its lines at once, and a line that holds its N - H
  empty lots takes the empty lot from its other cells (the rules, not techniques); a
  cell left with one candidate that way waits for a ``NAKED_SINGLE`` step.
- *arrangement*: values for a whole row or column (nearest one clue first) holding each
  height once and the empty lots, that shows the line's clues.
- *step*: one deduction with one sentence and its numbers; *contradiction*: a position
  that no filling completes (raised, never returned).

A technique looks at one view, one line, one cell or the whole position and returns a
step or ``None``; it never changes the position. Every step is implied by the rules and
the position alone: no technique assumes the solution is unique.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

from numgrid.server.chain import Contradiction
from numgrid.server.chain import listed
from numgrid.server.chain import names
from numgrid.server.core import EMPTY
from numgrid.server.core import GroupType
from numgrid.server.core import PuzzleError
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.kinds import latin
from numgrid.server.kinds.latin import WORDS
from numgrid.server.kinds.latin import Frame
from numgrid.server.kinds.latin import LatinPosition
from numgrid.server.kinds.latin import Line
from numgrid.server.kinds.latin import hidden_single
from numgrid.server.kinds.latin import hidden_subset
from numgrid.server.kinds.latin import make_step
from numgrid.server.kinds.latin import naked_single
from numgrid.server.kinds.latin import naked_subset

from .checks import check_puzzle
from .model import Puzzle
from .model import Side
from .model import View
from .model import arrangements
from .native import revise


class Technique(enum.IntEnum):
    """The techniques, simplest first; the value is the difficulty rank."""

    EDGE_CLUE = 1  # a clue of 1 sees the tallest tower first; a clue of N sees them all rise
    CLUE_PAIR = 2  # opposite clues adding up to N + 1 place the tallest where they meet
    NAKED_SINGLE = 3  # one candidate left in a cell
    HIDDEN_SINGLE = 4  # a value with no more places left in a line than it needs
    VISIBILITY_BOUNDS = 5  # a clue of c: the k-th cell from it holds at most H - c + k
    NAKED_SUBSET = 6  # k cells of a line whose candidates fill no more than k cells
    HIDDEN_SUBSET = 7  # k values of a line with no more places than they need
    SEQUENCES = 8  # what no arrangement of a clued line that fits the candidates puts there
    TRIAL = 9  # last resort: an assumption, techniques 1-8, a contradiction


VIEW, LINE, CELL = "view", "line", "cell"  # what a technique looks at (or chain.WHOLE)


# ---------------------------------------------------------------- layout


@dataclass(frozen=True, eq=False)
class Layout:
    """A well-formed puzzle compiled to indices."""

    puzzle: Puzzle
    frame: Frame
    views: tuple[View, ...]
    view_cells: tuple[tuple[int, ...], ...]  # per view: its cells, nearest the clue first
    cell_views: tuple[tuple[int, ...], ...]  # per cell: the views through it
    ends: tuple[tuple[int, int], ...]  # per line: its clues at the start and end (0: none)


@functools.lru_cache(maxsize=32)
def layout_of(puzzle: Puzzle) -> Layout:
    """Compile ``puzzle``; raise :class:`PuzzleError` if it is not well formed."""
    errors = [f for f in check_puzzle(puzzle) if f.is_error]
    if errors:
        raise PuzzleError(errors)
    n = puzzle.size
    frame = latin.frame(n, puzzle.diagonals, puzzle.height)
    view_cells = tuple(tuple(r * n + c for r, c in view.cells) for view in puzzle.views)
    cell_views: list[list[int]] = [[] for _ in range(n * n)]
    for v, cells in enumerate(view_cells):
        for i in cells:
            cell_views[i].append(v)
    ends = []
    for line in frame.lines:
        if line.type is GroupType.DIAGONAL:
            ends.append((0, 0))
            continue
        near, far = (
            (Side.LEFT, Side.RIGHT) if line.type is GroupType.ROW else (Side.TOP, Side.BOTTOM)
        )
        ends.append((puzzle.clues(near)[line.index], puzzle.clues(far)[line.index]))
    return Layout(
        puzzle, frame, puzzle.views, view_cells, tuple(map(tuple, cell_views)), tuple(ends)
    )


# ---------------------------------------------------------------- position

# These read placements, and candidates only for whether they are there, so losing
# candidates can only shrink what they find: a finding of nothing stays true until a
# value is placed in the view (edge clues, visibility bounds) or the line (clue pairs).
VIEW_SLOTS = (Technique.EDGE_CLUE, Technique.VISIBILITY_BOUNDS)
KEPT_UNTIL_PLACED = (Technique.CLUE_PAIR,)  # per line; every view slot is kept so too
LINE_SLOTS = (
    Technique.HIDDEN_SINGLE,
    Technique.NAKED_SUBSET,
    Technique.HIDDEN_SUBSET,
    Technique.SEQUENCES,
)


class Position(LatinPosition):
    """A Skyscraper position (:class:`~numgrid.server.kinds.latin.LatinPosition`): its
    techniques memoise their findings per view, line or cell."""

    techniques = Technique
    layout: Layout
    refuted: list[tuple[int, int]]  # (cell, value)

    def place(self, i: int, value: int) -> None:
        if self.placed[i] == value:
            return
        frame = self.frame
        cell = frame.cells[i]
        b = frame.bit(value)
        if self.placed[i] or not self.masks[i] & b:
            shown = "empty" if value == EMPTY else value
            raise Contradiction(f"{cell_name(cell)} cannot be {shown}", self._lines(i), [cell])
        self.masks[i] = b
        self.placed[i] = value
        self._forget_cell(i, placed=True)
        for x in frame.cell_lines[i]:
            cells = frame.line_cells[x]
            if value == EMPTY:
                held = sum(self.placed[j] == EMPTY for j in cells)
                if held > frame.empties:
                    line = frame.lines[x]
                    raise Contradiction(
                        f"{line.name} holds more than {frame.empties} empty lots",
                        [line],
                        line.cells,
                    )
                if held < frame.empties:
                    continue
            for j in cells:
                if j != i and self.masks[j] & b and self.placed[j] != EMPTY:
                    self.set(j, self.masks[j] & ~b)

    def _forget_cell(self, i: int, placed: bool = False) -> None:
        """Forget what cell ``i``'s views, lines and own candidates showed; when only its
        candidates changed (not ``placed``), a view's or a clue pair's finding of nothing
        is kept (:data:`VIEW_SLOTS`, :data:`KEPT_UNTIL_PLACED`)."""
        memo = self._memo
        views, lines = self.layout.cell_views[i], self.frame.cell_lines[i]
        for slots, keys in ((VIEW_SLOTS, views), (KEPT_UNTIL_PLACED, lines)):
            for slot in slots:
                found = memo[slot]
                for key in keys:
                    if placed or found.get(key) is not None:
                        found.pop(key, None)
        for slot in LINE_SLOTS:
            found = memo[slot]
            for x in lines:
                found.pop(x, None)
        memo[Technique.NAKED_SINGLE].pop(i, None)
        memo[Technique.TRIAL].clear()


# ---------------------------------------------------------------- words


def value_words(values: Iterable[int]) -> str:
    """``2, 3 or empty``."""
    return listed("empty" if v == EMPTY else str(v) for v in values)


def heights_text(values: Iterable[int]) -> str:
    """A line's values as printed: ``2 5 - 1 3`` (``-`` for an empty lot)."""
    return " ".join("-" if v == EMPTY else str(v) for v in values)


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _line_views(layout: Layout, line: Line) -> list[View]:
    return [
        view
        for view in layout.views
        if view.side.line_type is line.type and view.index == line.index
    ]


# ---------------------------------------------------------------- a view's placed towers


def heights_placed(cells: Sequence[int], placed: Sequence[int], height: int) -> list[int]:
    """Per height 0..H of a view (its ``cells``, nearest the clue first): where it is
    placed, counted from the clue (0 first); -1 while it is not."""
    where = [-1] * (height + 1)
    for k, i in enumerate(cells):
        if placed[i] > 0:
            where[placed[i]] = k
    return where


def front_seen(where: Sequence[int], height: int) -> tuple[int, int]:
    """The tallest towers placed in a view (no empty lots) that are seen in rising order
    towards the clue, as a mask, and the position of the nearest of them (H: none)."""
    seen, nearest = 0, height
    for h in range(height, 0, -1):
        k = where[h]
        if k < 0:
            break
        if k < nearest:
            nearest = k
            seen |= 1 << (h - 1)
    return seen, nearest


# ---------------------------------------------------------------- 1. edge clues


def sees_all(clue: int, size: int) -> bool:
    """A clue of N (no empty lots) sees every tower: they rise 1, 2, ..., N from it."""
    return clue == size


def edge_clue_loss(clue: int, where: Sequence[int], height: int) -> int:
    """The heights an open first cell of a view (no empty lots) cannot hold, as a mask:
    when the clue leaves room for exactly one tower seen besides those of
    :func:`front_seen`, it is the first cell's, which hides the cells up to them, so
    it is taller than the lowest heights not placed behind them that fill those cells."""
    seen, nearest = front_seen(where, height)
    if clue != seen.bit_count() + 1 or nearest <= 1:
        return 0
    lower = count = 0
    for h in range(1, height + 1):
        if count == nearest - 1:
            break
        if where[h] < nearest:  # not placed behind the nearest seen
            lower |= 1 << (h - 1)
            count += 1
    return lower


def edge_clue(pos: Position, v: int) -> Step | None:
    """What a clue says about the cell next to it. A clue of N (no empty lots): every
    tower is seen, so they rise 1, 2, ..., N (:func:`sees_all`). Else the towers seen
    are the tallest ones placed in rising order towards the clue, and one more: when the
    clue leaves room for exactly one more, it is the first cell's, which hides the cells
    up to them, so it is taller than they are (:func:`edge_clue_loss`; a clue of 1: the
    tallest tower stands first). With empty lots: a clue of 1 puts the tallest tower
    first past the empty lots, or leaves it empty."""
    layout, frame = pos.layout, pos.frame
    view, cells = layout.views[v], layout.view_cells[v]
    if frame.empties:
        return _first_tallest(pos, view, cells) if view.clue == 1 else None
    if sees_all(view.clue, frame.size):
        place = {i: k + 1 for k, i in enumerate(cells) if not pos.placed[i]}
        if not place:
            return None

        def rising() -> str:
            return f"{view.name}: every tower is seen, rising from 1 to {frame.height}"

        return make_step(pos, Technique.EDGE_CLUE, {}, [view], [], rising, place=place)
    first = cells[0]
    if pos.placed[first]:
        return None
    where = heights_placed(cells, pos.placed, frame.height)
    lost = pos.masks[first] & edge_clue_loss(view.clue, where, frame.height)
    if not lost:
        return None

    def reason() -> str:
        mask, nearest = front_seen(where, frame.height)
        seen = [h for h in range(frame.height, 0, -1) if mask >> (h - 1) & 1]
        if not seen:
            return f"{view.name} sees only the tallest tower ({frame.height}), which stands first"
        at = names(frame.cells[cells[where[h]]] for h in seen)
        hidden = names(frame.cells[j] for j in cells[1:nearest])
        return (
            f"{view.name}: {listed(seen, 'and')} {'is' if len(seen) == 1 else 'are'} seen "
            f"already ({at}), so the one other "
            f"tower seen stands at {cell_name(frame.cells[first])}, taller than {hidden}"
        )

    return make_step(pos, Technique.EDGE_CLUE, {first: lost}, [view], [], reason)


def _first_tallest(pos: Position, view: View, cells: tuple[int, ...]) -> Step | None:
    """A clue of 1 with empty lots: the first tower seen is the tallest, so the first
    cell past the empty lots placed at the edge holds the tallest or is empty too."""
    frame = pos.frame
    k = next((k for k, i in enumerate(cells) if pos.placed[i] != EMPTY), None)
    if k is None or pos.placed[cells[k]]:
        return None
    i = cells[k]
    lost = pos.masks[i] & ~(frame.bit(frame.height) | frame.bit(EMPTY))
    if not lost:
        return None

    def reason() -> str:
        past = f" past {names(frame.cells[j] for j in cells[:k])}" if k else ""
        return (
            f"{view.name} sees only the tallest tower ({frame.height}): the first lot{past} "
            "holds it or stays empty"
        )

    return make_step(pos, Technique.EDGE_CLUE, {i: lost}, [view], [], reason)


# ---------------------------------------------------------------- 2. clue pairs


def tallest_at(near: int, far: int, size: int) -> int:
    """Opposite clues a and b with a + b = N + 1 (no empty lots): every tower is seen
    from one side or the other, a - 1 of them before the tallest, so the tallest stands
    at position a - 1 from the first clue (0 first); -1 for other clues."""
    return near - 1 if near and far and near + far == size + 1 else -1


def clue_pair(pos: Position, x: int) -> Step | None:
    """Opposite clues adding up to N + 1 place the tallest tower (:func:`tallest_at`)."""
    layout, frame = pos.layout, pos.frame
    near, far = layout.ends[x]
    k = -1 if frame.empties else tallest_at(near, far, frame.size)
    if k < 0:
        return None
    i = frame.line_cells[x][k]
    if pos.placed[i]:
        return None
    line = frame.lines[x]
    views = _line_views(layout, line)

    def reason() -> str:
        start = "left" if line.type is GroupType.ROW else "top"
        return (
            f"clues {near} and {far} at the ends of {line.name} add up to {frame.size + 1}: "
            f"every tower is seen from one end, {near - 1} before the tallest, which stands "
            f"{_ordinal(near)} from the {start}"
        )

    place = {i: frame.height}
    return make_step(pos, Technique.CLUE_PAIR, {}, [line, *views], [], reason, place=place)


# ---------------------------------------------------------------- 5. visibility bounds

NONE_NEARER = 1 << 30  # the position of a taller tower placed nearer the clue, when none is


def visibility_bounds_of(
    clue: int, where: Sequence[int], height: int
) -> tuple[list[tuple[int, int]], int]:
    """A clue of c: the heights from the tallest down, leaving out those placed behind a
    taller placed tower (hidden, so not among those seen). The i-th of them (i = 0 for
    the tallest) at the k-th cell from the clue would leave at most k cells before it
    and the i taller ones after it to be seen, so it stands at least (c - i)-th from the
    clue. Per such height, (height, the first cells it cannot stand in); and the
    heights left out as hidden on the way, as a mask."""
    bounds: list[tuple[int, int]] = []
    hidden = counted = 0
    taller = NONE_NEARER  # the nearest position of a taller placed tower
    for h in range(height, 0, -1):
        k = where[h]
        if k >= 0:
            if taller < k:
                hidden |= 1 << (h - 1)
                continue
            taller = k
        away = clue - 1 - counted
        if away <= 0:
            break
        counted += 1
        bounds.append((h, away))
    return bounds, hidden


def visibility_bounds(pos: Position, v: int) -> Step | None:
    """The bounds a clue sets on the heights of its view (:func:`visibility_bounds_of`)."""
    layout, frame = pos.layout, pos.frame
    view, cells = layout.views[v], layout.view_cells[v]
    where = heights_placed(cells, pos.placed, frame.height)
    bounds, hidden = visibility_bounds_of(view.clue, where, frame.height)
    removals: dict[int, int] = {}
    told: list[tuple[int, int]] = []  # (height, the first cells it cannot stand in)
    for h, away in bounds:
        b = frame.bit(h)
        gone = [i for i in cells[:away] if not pos.placed[i] and pos.masks[i] & b]
        for i in gone:
            removals[i] = removals.get(i, 0) | b
        if gone:
            told.append((h, away))
    if not removals:
        return None

    def reason() -> str:
        said: list[str] = []
        for h, away in told:
            first = "first cell" if away == 1 else f"first {WORDS[away]} cells"
            said.append(f"{h} {'not' if said else 'cannot stand'} in the {first}")
        behind = [
            f"{h} is hidden behind {_nearer_taller(where, h)}"
            for h in range(frame.height, 0, -1)
            if hidden >> (h - 1) & 1
        ]
        why = f" ({listed(behind, 'and')})" if behind else ""
        return f"{view.name}: {view.clue} towers must be seen, so {listed(said, 'and')}{why}"

    return make_step(pos, Technique.VISIBILITY_BOUNDS, removals, [view], [], reason, ": ")


def _nearer_taller(where: Sequence[int], h: int) -> int:
    """The lowest of the taller towers placed nearer the clue than ``h``."""
    return min(g for g in range(h + 1, len(where)) if 0 <= where[g] < where[h])


# ---------------------------------------------------------------- 8. sequences

SHOWN = 3  # arrangements a sentence lists, at most


def sequences(pos: Position, x: int) -> Step | None:
    """The values of a clued row or column that no arrangement fitting its candidates and
    its clues puts in a cell leave it (every arrangement, not only the obvious ones). A
    complete line that does not show its clues is a contradiction found here too."""
    layout, frame = pos.layout, pos.frame
    near, far = layout.ends[x]
    if not near and not far:
        return None
    cells = frame.line_cells[x]
    pos.poll()
    line = frame.lines[x]
    masks = tuple(pos.masks[i] for i in cells)
    support = revise(masks, near, far, frame.height)
    if support == masks:
        return None
    views = _line_views(layout, line)
    clues = listed((f"{view.clue} {view.side.where.split()[0]}" for view in views), "and")
    subject = f"{line.name} (clue{'s' if len(views) > 1 else ''} {clues})"
    if support is None:
        raise Contradiction(
            f"no arrangement of {subject} fits its cells' candidates", [line, *views], line.cells
        )
    removals = {i: m & ~s for i, m, s in zip(cells, masks, support, strict=True) if m & ~s}
    if not removals:
        return None

    def reason() -> str:
        allowed = [frozenset(frame.values_of(m)) for m in masks]
        fitting = arrangements(frame.size, frame.height, near, far, allowed)
        found = list(itertools.islice(fitting, SHOWN + 1))
        order = "left to right" if line.type is GroupType.ROW else "top to bottom"
        if len(found) <= SHOWN:
            shown = listed(heights_text(a) for a in found)
            return f"{subject}, given its cells' candidates, can only be {shown} ({order})"
        lost = [
            f"{value_words(frame.values_of(removals[i]))} in {cell_name(frame.cells[i])}"
            for i in cells
            if i in removals
        ]
        more = " (and more)" if len(lost) > 3 else ""
        return (
            f"no arrangement of {subject} that fits its cells' candidates puts "
            f"{listed(lost[:3])}{more}"
        )

    return make_step(pos, Technique.SEQUENCES, removals, [line, *views], cells, reason)


def revision_rank(old: Sequence[int], revised: Sequence[int]) -> tuple[int, int]:
    """What revising a line's candidates tells, counted as its step counts it: the cells
    it leaves one candidate, and the candidates it removes from the others."""
    placements = eliminations = 0
    for m, s in zip(old, revised, strict=True):
        if m != s:
            if s & (s - 1):
                eliminations += (m & ~s).bit_count()
            else:
                placements += 1
    return placements, eliminations


# The techniques by what they look at (the trial, in :mod:`.logic`, at the whole position).
SCOPES = {
    VIEW: (edge_clue, visibility_bounds),
    LINE: (clue_pair, hidden_single, naked_subset, hidden_subset, sequences),
    CELL: (naked_single,),
}
