"""The native Skyscraper engine: bitmask candidates, latin propagation and exact line
filtering to a fixpoint, smallest-domain branching. No solver library.

Each cell has a *mask* of candidates: bit ``h - 1`` for height ``h``, bit ``H`` for an
empty lot (when H < N). Propagation narrows the masks until nothing changes:

- a cell left with one height removes it from the rest of its lines; a line that has
  its N - H empty lots takes the empty lot away from its other cells;
- a *line* without clues (or a diagonal): a height with one place left goes there; the
  empty lots go where they still can, when that is exactly as many cells as they need;
  too few places for a value is a contradiction;
- a *clued line* (a row or column with a clue at either end) keeps, in each cell, the
  values some whole arrangement of the line puts there: an arrangement that fits every
  cell's candidates, holds each height once and the N - H empty lots, and shows the
  clues. :func:`line_support` finds them without listing arrangements.

Search is depth-first with an explicit stack of branch points, on the open cell with the
fewest candidates; the budget is polled every ``POLL_EVERY`` nodes.

:func:`line_support` is a dynamic program over the set of heights already placed from
the clue's end. Whether a height ``h`` placed next is seen from the near end depends only
on that set (no taller one in it), and so does whether it is seen from the far end: a
tower is seen from the far end when every taller one stands nearer the near end, that is
when the set already holds all heights above ``h``. So a state is (set of heights,
towers seen from the near end, towers seen from the far end); the counts are bits of one
int (``near * W + far``), and placing a value shifts them all at once. A forward pass
keeps the states reachable, a backward pass those that can still end at the clues; a
value stays in a cell when a transition joins the two there. On 9x9 with every cell open
that is at most 2^9 sets per position, instead of the 9! arrangements.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Unpack
from typing import cast

from numgrid.server.core import EMPTY
from numgrid.server.core import Ask
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchKeywords
from numgrid.server.core import SearchResult
from numgrid.server.core import SearchTimeout
from numgrid.server.core import smallest_domain
from numgrid.server.kinds.branching import Branch
from numgrid.server.kinds.branching import depth_first

from .model import Puzzle
from .model import Side

POLL_EVERY = 64  # nodes between budget checks
MEMO_LIMIT = 1 << 16  # line revisions remembered before the memo starts over

Revision = tuple[int, ...] | None


def line_support(masks: tuple[int, ...], near: int, far: int, height: int) -> Revision:
    """Per cell of a line (nearest the ``near`` clue first), the values some arrangement
    puts there; None when no arrangement fits. ``near``/``far``: the clues at the two ends
    (0: none); bit ``height`` of a mask is the empty lot, allowed N - ``height`` times."""
    n = len(masks)
    empties = n - height
    width = n + 2  # the bits of (seen from near, seen from far) = near * width + far
    valid = 0
    for k in range(near + 1):
        valid |= ((1 << (far + 1)) - 1) << (k * width)
    target = 1 << (near * width + far)
    every = (1 << height) - 1
    lot = 1 << height
    # per height bit: the shift of the (near, far) counts when it comes after the heights
    # ``placed`` (seen from near when nothing placed is taller; from far when every taller
    # one is placed), as (bit, taller heights, near shift)
    heights = [(b, every & ~(b | (b - 1))) for b in (1 << h for h in range(height))]
    layers: list[dict[int, int]] = [{0: 1}]
    for i in range(n):
        mask = masks[i]
        open_heights = [(b, taller) for b, taller in heights if mask & b]
        here: dict[int, int] = {}
        for placed, counts in layers[i].items():
            if mask & lot and i - placed.bit_count() < empties:
                here[placed] = here.get(placed, 0) | counts
            for b, taller in open_heights:
                if placed & b:
                    continue
                shift = width if near and placed < b else 0
                if far and placed & taller == taller:
                    shift += 1
                moved = (counts << shift) & valid
                if moved:
                    after = placed | b
                    here[after] = here.get(after, 0) | moved
        if not here:
            return None
        layers.append(here)
    final = layers[n].get(every, 0) & target
    if not final:
        return None
    ahead: dict[int, int] = {every: final}  # states that can still end at the clues
    keep = [0] * n
    for i in range(n - 1, -1, -1):
        mask = masks[i]
        open_heights = [(b, taller) for b, taller in heights if mask & b]
        behind: dict[int, int] = {}
        for placed, counts in layers[i].items():
            back = 0
            if mask & lot and i - placed.bit_count() < empties:
                both = counts & ahead.get(placed, 0)
                if both:
                    keep[i] |= lot
                    back |= both
            for b, taller in open_heights:
                if placed & b:
                    continue
                later = ahead.get(placed | b)
                if later:
                    shift = width if near and placed < b else 0
                    if far and placed & taller == taller:
                        shift += 1
                    both = counts & (later >> shift)
                    if both:
                        keep[i] |= b
                        back |= both
            if back:
                behind[placed] = back
        ahead = behind
    return tuple(keep)


@dataclass(frozen=True)
class Compiled:
    """A puzzle as indices: cell ``(r, c)`` is ``r * N + c``; lines are the rows, the
    columns, then the diagonals, each with its clues at the near (left, top) and far ends."""

    size: int
    height: int
    empties: int
    full: int
    lines: tuple[tuple[int, ...], ...]
    clues: tuple[tuple[int, int], ...]  # per line: (near clue, far clue), 0 for none
    cell_lines: tuple[tuple[int, ...], ...]
    givens: tuple[int, ...]  # per cell: its mask, or 0 when not given

    @classmethod
    def of(cls, puzzle: Puzzle) -> Compiled:
        n, height = puzzle.size, puzzle.height
        lines = tuple(tuple(r * n + c for r, c in line.cells) for line in puzzle.lines)
        clues = []
        for k in range(len(lines)):
            if k < n:
                near, far = puzzle.clues(Side.LEFT), puzzle.clues(Side.RIGHT)
            elif k < 2 * n:
                near, far = puzzle.clues(Side.TOP), puzzle.clues(Side.BOTTOM)
            else:
                clues.append((0, 0))
                continue
            index = k % n
            pair = tuple(side[index] if index < len(side) else 0 for side in (near, far))
            clues.append(cast("tuple[int, int]", pair))  # (near, far)
        cell_lines: list[list[int]] = [[] for _ in range(n * n)]
        for k, cells in enumerate(lines):
            for i in cells:
                cell_lines[i].append(k)
        empties = n - height
        full = (1 << (height + (1 if empties else 0))) - 1
        givens = tuple(_mask(v, height, empties) for row in puzzle.givens for v in row)
        return cls(
            n, height, empties, full, lines, tuple(clues), tuple(map(tuple, cell_lines)), givens
        )

    def initial(self, fixed: Grid | None) -> list[int] | None:
        """Candidates before search: the givens and the held entries (None when they clash
        or are out of range), every value elsewhere."""
        cand = [g or self.full for g in self.givens]
        if fixed is not None:
            for r, row in enumerate(fixed):
                for c, value in enumerate(row):
                    if value:
                        cand[r * self.size + c] &= _mask(value, self.height, self.empties)
        return cand if all(cand) else None

    def to_grid(self, cand: list[int]) -> Grid:
        n, height = self.size, self.height
        values = [EMPTY if m.bit_length() > height else m.bit_length() for m in cand]
        return tuple(tuple(values[r * n : r * n + n]) for r in range(n))


def _mask(value: int, height: int, empties: int) -> int:
    """The mask of one value (0 when out of range)."""
    if value == EMPTY:
        return 1 << height if empties else 0
    return 1 << (value - 1) if 1 <= value <= height else 0


@functools.lru_cache(maxsize=64)
def compiled(puzzle: Puzzle) -> Compiled:
    return Compiled.of(puzzle)


_MEMO: dict = {}


def revise(masks: tuple[int, ...], near: int, far: int, height: int) -> Revision:
    """:func:`line_support`, remembered across lines, searches and puzzles."""
    key = (masks, near, far, height)
    found = _MEMO.get(key, False)
    if found is False:
        if len(_MEMO) >= MEMO_LIMIT:
            _MEMO.clear()
        found = _MEMO[key] = line_support(masks, near, far, height)
    return found


def _latin(comp: Compiled, cand: list[int], cells: tuple[int, ...]) -> Revision:
    """A line without clues: hidden singles, and the empty lots where exactly as many
    cells can take them as it needs; None when a value lacks places."""
    new = [cand[i] for i in cells]
    for b in (1 << h for h in range(comp.height)):
        places = [j for j, m in enumerate(new) if m & b]
        if not places:
            return None
        if len(places) == 1:
            new[places[0]] = b
    if comp.empties:
        lot = 1 << comp.height
        places = [j for j, m in enumerate(new) if m & lot]
        if len(places) < comp.empties:
            return None
        if len(places) == comp.empties:
            for j in places:
                new[j] = lot
    return tuple(new)


def propagate(comp: Compiled, cand: list[int], placed: list[int], due: set[int]) -> int:
    """Narrow ``cand`` in place until nothing changes: -1, or the line that found a
    contradiction. ``placed``: cells just left with one value (their value leaves the
    rest of their lines first); ``due``: lines to revise."""
    lines, clues, cell_lines = comp.lines, comp.clues, comp.cell_lines
    lot = 1 << comp.height if comp.empties else 0
    height = comp.height
    while placed or due:
        if placed:
            i = placed.pop()
            m = cand[i]
            for k in cell_lines[i]:
                if m == lot:
                    lots = [j for j in lines[k] if cand[j] == lot]
                    if len(lots) > comp.empties:
                        return k
                    if len(lots) < comp.empties:
                        continue
                for j in lines[k]:
                    c = cand[j]
                    if j != i and c & m and c != m:
                        c &= ~m
                        if not c:
                            return k
                        cand[j] = c
                        if not c & (c - 1):
                            placed.append(j)
                        due.update(cell_lines[j])
                    elif j != i and c == m and m != lot:
                        return k
            continue
        k = due.pop()
        cells = lines[k]
        near, far = clues[k]
        masks = tuple(cand[i] for i in cells)
        new = revise(masks, near, far, height) if near or far else _latin(comp, cand, cells)
        if new is None:
            return k
        if new != masks:
            for i, old, m in zip(cells, masks, new, strict=True):
                if m != old:
                    cand[i] = m
                    if not m & (m - 1):
                        placed.append(i)
                    due.update(cell_lines[i])
    return -1


def search(
    puzzle: Puzzle, /, *, tallest_first: bool = False, **keywords: Unpack[SearchKeywords]
) -> SearchResult:
    """Find up to ``limit`` distinct solutions (honouring the givens and ``fixed``
    entries), but ``other_than`` (a solution known already), within ``budget`` and (if
    given) ``most_nodes`` nodes. On timeout, cancel or past ``most_nodes``: the
    solutions found so far, ``complete=False``. A branch tries its cell's
    values lowest first, or with ``tallest_first`` the other way round (the maker's
    order, which decides which two of many solutions are found)."""
    limit, fixed, budget, other_than, most_nodes = Ask(**keywords)
    start = time.perf_counter()
    budget = budget or Budget()
    comp = compiled(puzzle)
    solutions: list[Grid] = []
    branches: list[Branch] = []
    nodes = 0
    cap = -1 if most_nodes is None else most_nodes

    def visit(cand: list[int], cell: int) -> None:
        """The root (``cell`` -1: every single placed, every line due) or the child that
        decided ``cell``."""
        nonlocal nodes
        if not nodes % POLL_EVERY and budget.expired():
            raise SearchTimeout
        if nodes == cap:
            raise SearchTimeout
        nodes += 1
        if cell >= 0:
            placed, due = [cell], set(comp.cell_lines[cell])
        else:
            placed = [i for i, m in enumerate(cand) if not m & (m - 1)]
            due = set(range(len(comp.lines)))
        if propagate(comp, cand, placed, due) >= 0:
            return
        cell = smallest_domain(cand)
        if cell < 0:
            solutions.append(comp.to_grid(cand))
        else:
            branches.append((cand, cell, cand[cell]))

    def root() -> None:
        cand = comp.initial(fixed) if limit > 0 else None
        if cand is not None:
            visit(cand, -1)

    return depth_first(
        root, visit, branches, solutions, limit, start, lambda: nodes, tallest_first, other_than
    )
