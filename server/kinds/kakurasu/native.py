"""The native Kakurasu engine: each line's options as bitmasks, propagation to a
fixpoint, branching on the most constrained cell. No solver library.

A *state* holds, per row, the masks of its shaded and white cells (bit ``c`` for column
``c``) and, per column, the same over rows (bit ``r``); a cell is set in both at once.
A line with a clue of n cells has *options*: the masks of the cells whose weights make
the clue (:func:`.sums.options`). With ``S`` its shaded cells and ``W`` its white ones,
an option is *live* when it holds all of ``S`` and nothing of ``W``; the cells every
live option shades are shaded, those none shades are white, and no live option is a
contradiction (:func:`revise`: exact per line). A cell decided in a row is then revised
in its column (the *crossing*), and so on until nothing changes. A revision depends on
``(n, clue, S, W)`` alone and is memoised on that, across puzzles too.

Search is depth-first with an explicit stack: after propagation, the open cell whose row
and column have the fewest live options between them is shaded, then (on backtracking)
left white. Every one of the 210 corpus puzzles is decided by propagation alone (one
node), so the search only matters for puzzles with several solutions and for hard ones
made up by hand; the budget is polled every few nodes. How it fares on random shadings,
and the branching rules measured and dropped there: docs/performance.md.

:func:`closure` is also the logical solver's fast screen for its trials.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Unpack

from numgrid.server.core import Ask
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchKeywords
from numgrid.server.core import SearchResult
from numgrid.server.core import Stats

from .model import OPEN
from .model import SHADED
from .model import WHITE
from .model import Puzzle
from .sums import options

POLL_EVERY = 64  # nodes between budget checks
MEMO_SIZE = 1 << 15  # revisions remembered before the memo starts over (~6 MB)
_memo: dict[tuple[int, int, int, int], tuple[int, int, int] | None] = {}


def revise(count: int, clue: int, shaded: int, white: int) -> tuple[int, int, int] | None:
    """For a line of ``count`` cells with ``shaded`` and ``white`` ones: the cells every
    live option shades, those some live option shades, and how many options are live;
    None when none is."""
    key = (count, clue, shaded, white)
    found = _memo.get(key, key)
    if found is not key:
        return found  # type: ignore[return-value]  # a revision: the key is only the default
    must, may, live = -1, 0, 0
    for option in options(count, clue):
        if option & shaded == shaded and not option & white:
            must &= option
            may |= option
            live += 1
    found = (must, may, live) if live else None
    if len(_memo) >= MEMO_SIZE:
        _memo.clear()
    _memo[key] = found
    return found


@dataclass(frozen=True)
class State:
    """Shaded and white cells per row (bits over columns) and per column (over rows)."""

    row_shaded: list[int]
    row_white: list[int]
    col_shaded: list[int]
    col_white: list[int]

    def copy(self) -> State:
        return State(
            list(self.row_shaded), list(self.row_white), list(self.col_shaded), list(self.col_white)
        )

    def set(self, r: int, c: int, value: int) -> None:
        if value == SHADED:
            self.row_shaded[r] |= 1 << c
            self.col_shaded[c] |= 1 << r
        else:
            self.row_white[r] |= 1 << c
            self.col_white[c] |= 1 << r

    def value(self, r: int, c: int) -> int:
        if self.row_shaded[r] >> c & 1:
            return SHADED
        return WHITE if self.row_white[r] >> c & 1 else OPEN

    def grid(self, rows: int, cols: int) -> Grid:
        return tuple(tuple(self.value(r, c) for c in range(cols)) for r in range(rows))


def empty_state(puzzle: Puzzle) -> State:
    return State([0] * puzzle.rows, [0] * puzzle.rows, [0] * puzzle.cols, [0] * puzzle.cols)


def closure(puzzle: Puzzle, state: State, dirty: set[int]) -> bool:
    """Revise the lines in ``dirty`` (rows ``0..R-1``, then columns ``R..R+C-1``) and the
    lines their decisions cross, in place, until nothing changes; False on a
    contradiction."""
    rows, cols = puzzle.rows, puzzle.cols
    rs, rw, cs, cw = state.row_shaded, state.row_white, state.col_shaded, state.col_white
    # Per direction: its clues, its lines' shaded and white masks, those of the lines
    # crossing them, its length, and where the crossing lines' numbers start.
    directions = (
        (puzzle.row_clues, rs, rw, cs, cw, cols, rows),
        (puzzle.column_clues, cs, cw, rs, rw, rows, 0),
    )
    while dirty:
        x = dirty.pop()
        clues, shaded, white, across_shaded, across_white, length, across = directions[x >= rows]
        i = x if x < rows else x - rows
        clue = clues[i]
        if clue is None:
            continue
        found = revise(length, clue, shaded[i], white[i])
        if found is None:
            return False
        must, may, _ = found
        shade, whiten = must & ~shaded[i], ((1 << length) - 1) & ~may & ~white[i]
        shaded[i] |= shade
        white[i] |= whiten
        for j in range(length):
            if shade >> j & 1:
                across_shaded[j] |= 1 << i
                dirty.add(across + j)
            elif whiten >> j & 1:
                across_white[j] |= 1 << i
                dirty.add(across + j)
    return True


def lives(count: int, clue: int | None, shaded: int, white: int) -> int:
    """How many ways a line can still go (a line without a clue: any way)."""
    if clue is None:
        return 1 << (count - (shaded | white).bit_count())
    found = revise(count, clue, shaded, white)
    return found[2] if found else 0


def branch_cell(puzzle: Puzzle, state: State) -> tuple[int, int] | None:
    """The open cell whose row and column have the fewest live options between them
    (the first such in reading order), or None when every cell is decided."""
    rows, cols = puzzle.rows, puzzle.cols
    row_live = [
        lives(cols, puzzle.row_clues[r], state.row_shaded[r], state.row_white[r])
        for r in range(rows)
    ]
    col_live = [
        lives(rows, puzzle.column_clues[c], state.col_shaded[c], state.col_white[c])
        for c in range(cols)
    ]
    best, best_cell = None, None
    for r in range(rows):
        open_cells = ~(state.row_shaded[r] | state.row_white[r]) & ((1 << cols) - 1)
        for c in range(cols):
            if open_cells >> c & 1:
                score = row_live[r] + col_live[c]
                if best is None or score < best:
                    best, best_cell = score, (r, c)
    return best_cell


def _start(puzzle: Puzzle, fixed: Grid | None) -> State | None:
    """The state with the ``fixed`` values held; None if one is not 1, -1 or 0."""
    state = empty_state(puzzle)
    if fixed is not None:
        for r, row in enumerate(fixed):
            for c, value in enumerate(row):
                if value in (SHADED, WHITE):
                    state.set(r, c, value)
                elif value != OPEN:
                    return None
    return state


def search(puzzle: Puzzle, /, **keywords: Unpack[SearchKeywords]) -> SearchResult:
    """Up to ``limit`` distinct solutions (1 shaded, -1 white), ``fixed`` values held,
    but ``other_than`` (a solution known already), within ``budget`` and ``most_nodes``.
    On timeout, cancel or past ``most_nodes``: the solutions found so far,
    complete=False."""
    limit, fixed, budget, other_than, most_nodes = Ask(**keywords)
    budget = budget or Budget()
    start = time.perf_counter()
    solutions: list[Grid] = []
    nodes, complete = 0, True
    state = _start(puzzle, fixed)
    lines = set(range(puzzle.rows + puzzle.cols))
    stack = [(state, lines)] if state is not None and limit > 0 else []
    while stack:
        if most_nodes is not None and nodes >= most_nodes:
            complete = False
            break
        nodes += 1
        if not nodes % POLL_EVERY and budget.expired():
            complete = False
            break
        state, dirty = stack.pop()
        if not closure(puzzle, state, dirty):
            continue
        cell = branch_cell(puzzle, state)
        if cell is None:
            solution = state.grid(puzzle.rows, puzzle.cols)
            if solution == other_than:
                continue
            solutions.append(solution)
            if len(solutions) >= limit:
                break
            continue
        r, c = cell
        for value in (WHITE, SHADED):  # shaded is popped, so tried, first
            other = state.copy()
            other.set(r, c, value)
            stack.append((other, {r, puzzle.rows + c}))
    stats = Stats("native", time.perf_counter() - start, nodes)
    return SearchResult(tuple(solutions), complete or len(solutions) >= limit, stats)
