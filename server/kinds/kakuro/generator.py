"""Making Kakuros: a publishable layout, a fill, and clues that pin it down.

A Kakuro's clues are the sums of its fill, so a maker chooses the shape and the digits
and reads the clues off them. What makes one unique (and how hard) is which sums the
fill gives: a run of extreme sums (``3 in two = 1+2``) allows one combination, mid sums
many. So a candidate here is:

1. a *layout*: the first row and column black (they hold the clues), the grid inside them
   180-degree symmetric (as published ones are: 697 of the corpus's 749), white cells
   connected, every run 2 to 9 cells long (1 with ``single_cell_runs``), white cells
   about ``density`` of the inner grid (the corpus: median 0.73, deciles 0.64-0.79);
2. a *fill*: digits 1-9, none twice in a run, from a randomised depth-first search that
   leans toward low digits in some patches of the grid and high ones in others (easier:
   extreme sums) or not at all (harder: mid sums);
3. a *refinement*: the native engine's propagation (techniques 1-6 reach the same
   fixpoint) from the empty grid; where it leaves cells open, the digits of one of their
   runs are chosen again, preferring sums with fewer combinations, until it leaves few.

``Spec.rows`` and ``Spec.cols`` count the whole grid, the clue row and column included
(as :class:`~.model.Puzzle` and every format do): a 12x12 has an 11x11 grid inside.
``pressure`` and the target grade pick a *hardness* in [0, 1] (:func:`_style`): longer
runs, denser grids, fewer extreme sums and more cells left to the search as it grows.
A second solution is repaired by choosing new digits where it differs (see
:meth:`KakuroMaker.repair`), so the repaired puzzle comes with its own solution.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from dataclasses import dataclass
from typing import Any

from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.making import no_diagonals

from . import native
from .checks import MAX_RUN
from .logic_regions import region_sum
from .model import WHITE
from .model import Clue
from .model import Puzzle
from .sums import ALL_DIGITS
from .sums import COMBINATIONS
from .sums import combos
from .techniques import Position
from .techniques import layout_of

MIN_SIZE = 3  # rows or columns, the clue row or column included: one 2x2 block inside
MAX_SIZE = 60  # rows or columns at most; 31x46 is the largest published puzzle here
SMALLEST_EXPERT = 5  # rows and columns a Kakuro needs before region sums or a trial
# White cells over the inner grid, by hardness when Spec.density is 0: from this, and up
# by the span (the corpus's 749: median 0.73, deciles 0.64 to 0.79).
LEAST_DENSITY, DENSITY_SPAN = 0.6, 0.16
LOOSEN = 0.8  # from this hardness, fills are loosened past what propagation solves
EASE_BELOW = 0.45  # below this hardness, fills are settled for techniques 1-3 too
ALLOWANCE = 12  # cells techniques 1-3 may leave to techniques 4-6, just below EASE_BELOW
# A HARD-like target (this span of the hardness before the size shift): the chain may take
# only so many combination eliminations, counted over the whole grid, so techniques 1-3
# may leave this many cells (from the first to the second, across the span) whatever the
# size. Measured at 30x30: 20 cells give MEDIUM, 45 to 80 mostly HARD, no limit EXPERT;
# at 12x12 a fill seldom leaves so many.
HARD_SPAN, HARD_ALLOWANCE = (0.6, 0.8), (20, 80)
PAST_REGIONS = 0.95  # from this hardness, loosened until region sums do not solve it
OPEN_CELLS = 26  # cells loosening leaves open at hardness 1
SIZE_SHIFT = 0.3  # hardness taken off the density of a 30x30 (see _style)
MIN_DENSITY, MAX_DENSITY = 0.45, 0.85
# Per target grade, the hardness before any pressure (measured, see the module's tests).
HARDNESS = {
    None: 0.5,
    Grade.EASY: 0.0,
    Grade.MEDIUM: 0.5,
    Grade.HARD: 0.72,
    Grade.EXPERT: 0.85,
    Grade.EXTREME: 1.0,
}
PRESSURE_REACH = 0.3  # how far pressure 1 moves the hardness
FILL_NODES = 20_000  # nodes of one fill's search before it starts again
SWEEPS = 30  # annealing moves per white cell
WEIGHT = 0.5  # of the runs' combinations in a fill's energy, against the cells'
REPAIR_HEAT = 0.5  # how widely a repair's digit is drawn (energy units)
STALL_ROUNDS = 8  # rounds without fewer open cells before a fill is given up
LOOSEN_STEPS = 100  # changes tried to loosen a settled fill
REGION_CHECKS = 6  # chains up to region sums run to see if a loosened fill needs a trial
REGION_STEP = 8  # cells more left open after each such chain
NEAR_OPEN = 0.8  # of those changes, how many go next to the cells left open
LAYOUTS = 5  # layouts one candidate may try
BLACKENINGS = 4  # cells a stuck fill may turn black (with their partners)
GROUP_NODES = 2000  # nodes of the search for a second way to fill a group of open cells
EXACT_GROUP = 30  # open cells from which a group's search uses all the rules
PIECE = 12  # open cells searched at once, the others held
NUDGE_OPTIONS = 12  # changes compared by the propagation around them
TABU_ROUNDS = 4  # rounds before a cell may take back a digit it left


@dataclass(frozen=True)
class Style:
    """What a hardness in [0, 1] asks of a candidate."""

    density: float  # white cells over the inner grid
    max_run: int  # longest run
    long_first: int  # black cells: the cell in the longest runs of this many draws
    cool: float  # the annealing's final temperature: lower, more binding sums
    allowance: int  # cells techniques 1-3 may leave open if propagation closes them (-1: any)
    open_cells: int  # cells loosening leaves open
    loosen: bool  # a settled fill is loosened until propagation no longer solves it
    past_regions: bool  # and then until region sums do not either (a trial is needed)


def _hardness(grade, pressure: float) -> float:
    base = HARDNESS.get(grade, 0.5)
    return max(0.0, min(1.0, base + PRESSURE_REACH * pressure))


def _allowance(raw: float, h: float) -> int:
    """Style.allowance: by the hardness before (``raw``) and after (``h``) the size shift."""
    (low, high), (least, most) = HARD_SPAN, HARD_ALLOWANCE
    if low <= raw < high:
        return round(least + (most - least) * (raw - low) / (high - low))
    return round(ALLOWANCE * h / EASE_BELOW) if h < EASE_BELOW else -1


def _style(spec, pressure: float) -> Style:
    raw = _hardness(spec.grade, pressure)
    # Grades count steps over the whole grid, not scaled by its size: a large grid gets
    # the style of a lower hardness for the same grade (less SIZE_SHIFT at 30x30 and
    # above), except that the hardest is always loosened past region sums.
    shift = SIZE_SHIFT * min(1.0, max(0.0, (spec.rows * spec.cols - 144) / (900 - 144)))
    h = max(0.0, raw - shift)
    # Past propagation only for a target that allows what such a fill needs: region sums
    # or a trial (EXPERT, EXTREME, any grade); past region sums only for a trial. Else
    # pressure on a HARD (EXPERT) target makes fills it can never be.
    grade = spec.grade
    past = raw >= PAST_REGIONS and grade in (None, Grade.EXTREME)
    loose = (h >= LOOSEN or past) and (grade is None or grade >= Grade.EXPERT)
    return Style(
        density=spec.density or LEAST_DENSITY + DENSITY_SPAN * h,
        max_run=min(MAX_RUN, 5 + round(4 * h)),
        long_first=3 if h < 0.3 else 2 if h < 0.6 else 1,
        cool=0.05 + 0.6 * h,
        allowance=_allowance(raw, h),
        open_cells=round(OPEN_CELLS * max(0.0, raw - LOOSEN) / (1 - LOOSEN)) if loose else 0,
        loosen=loose,
        past_regions=past,
    )


# ---------------------------------------------------------------- layout

# The eight neighbours of a cell in order around it; the odd ones share an edge with it.
_RING = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))


class Layout:
    """Black and white cells of a whole grid; row 0 and column 0 black."""

    def __init__(self, rows: int, cols: int, allow_single: bool):
        self.rows, self.cols, self.allow_single = rows, cols, allow_single
        self.white = [[r > 0 and c > 0 for c in range(cols)] for r in range(rows)]
        self.count = (rows - 1) * (cols - 1)

    def partner(self, r: int, c: int) -> tuple[int, int]:
        return self.rows - r, self.cols - c

    def _line_ok(self, cells) -> bool:
        """No run along ``cells`` (one row or column) is one cell long, unless allowed
        (runs too long are cut first, and black cells only shorten runs)."""
        run = 0
        for r, c in cells:
            if self.white[r][c]:
                run += 1
                continue
            if run == 1 and not self.allow_single:
                return False
            run = 0
        return run != 1 or self.allow_single

    def _lines_ok(self, cells) -> bool:
        rows = {r for r, _ in cells}
        cols = {c for _, c in cells}
        return all(self._line_ok([(r, c) for c in range(self.cols)]) for r in sorted(rows)) and all(
            self._line_ok([(r, c) for r in range(self.rows)]) for c in sorted(cols)
        )

    def _connected(self) -> bool:
        start = None
        for r in range(1, self.rows):
            for c in range(1, self.cols):
                if self.white[r][c]:
                    start = (r, c)
                    break
            if start:
                break
        if start is None:
            return False
        seen = {start}
        stack = [start]
        white = self.white
        while stack:
            r, c = stack.pop()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (
                    0 <= nr < self.rows
                    and 0 <= nc < self.cols
                    and white[nr][nc]
                    and (nr, nc) not in seen
                ):
                    seen.add((nr, nc))
                    stack.append((nr, nc))
        return len(seen) == self.count

    def _locally_connected(self, r: int, c: int) -> bool:
        """Whether the white neighbours of a cell just blackened still meet through its
        ring of eight neighbours (then the grid stays connected; else ask the search)."""
        on = [
            0 <= r + dr < self.rows and 0 <= c + dc < self.cols and self.white[r + dr][c + dc]
            for dr, dc in _RING
        ]
        if all(on):
            return True
        start = on.index(False)
        arcs = 0  # arcs of white ring cells that hold an orthogonal neighbour
        edge = False
        for k in range(start + 1, start + 9):
            if on[k % 8]:
                edge = edge or k % 2 == 1
            else:
                arcs += edge
                edge = False
        return arcs <= 1

    def try_black(self, *given: tuple[int, int]) -> bool:
        """Blacken the given white cells and their partners if the layout stays valid."""
        cells = sorted({cell for g in given for cell in (g, self.partner(*g))})
        if not all(self.white[r][c] for r, c in cells):
            return False
        for r, c in cells:
            self.white[r][c] = False
        self.count -= len(cells)
        ok = self.count > 0 and self._lines_ok(cells)
        if ok:
            apart = all(abs(a - c) + abs(b - d) > 1 for (a, b), (c, d) in _pairs(cells))
            local = apart and all(self._locally_connected(r, c) for r, c in cells)
            ok = local or self._connected()
        if not ok:
            for r, c in cells:
                self.white[r][c] = True
            self.count += len(cells)
        return ok

    def run_lengths(self, r: int, c: int) -> tuple[int, int]:
        """The across and down run lengths through a white cell."""
        w = self.white
        a0 = a1 = c
        while w[r][a0 - 1]:
            a0 -= 1
        while a1 + 1 < self.cols and w[r][a1 + 1]:
            a1 += 1
        d0 = d1 = r
        while w[d0 - 1][c]:
            d0 -= 1
        while d1 + 1 < self.rows and w[d1 + 1][c]:
            d1 += 1
        return a1 - a0 + 1, d1 - d0 + 1

    def long_runs(self, limit: int) -> list[list[tuple[int, int]]]:
        found = []
        for line in self._lines():
            run: list[tuple[int, int]] = []
            for cell in [*line, None]:
                if cell is not None and self.white[cell[0]][cell[1]]:
                    run.append(cell)
                    continue
                if len(run) > limit:
                    found.append(run)
                run = []
        return found

    def _lines(self):
        for r in range(1, self.rows):
            yield [(r, c) for c in range(self.cols)]
        for c in range(1, self.cols):
            yield [(r, c) for r in range(self.rows)]

    def blocks(self) -> list[tuple[int, int]]:
        """The top-left corners of the 3x3 blocks of white cells."""
        w = self.white
        return [
            (r, c)
            for r in range(1, self.rows - 2)
            for c in range(1, self.cols - 2)
            if all(w[r + i][c + j] for i in range(3) for j in range(3))
        ]

    def whites(self) -> list[tuple[int, int]]:
        return [
            (r, c) for r in range(1, self.rows) for c in range(1, self.cols) if self.white[r][c]
        ]


def _cut(layout: Layout, run: list[tuple[int, int]], rng) -> bool:
    """Blacken a cell of a run too long, preferring cuts that leave two or more cells on
    each side; where one cell alone would leave a neighbour in a one-cell run (next to
    the clue row or column), with that neighbour (a domino across the run)."""
    order = list(range(len(run)))
    rng.shuffle(order)
    order.sort(key=lambda k: 0 if 2 <= k <= len(run) - 3 else 1)
    if any(layout.try_black(run[k]) for k in order):
        return True
    dr, dc = run[1][1] - run[0][1], run[1][0] - run[0][0]  # across the run
    for k in order:
        r, c = run[k]
        for side in (-1, 1):
            nr, nc = r + side * dr, c + side * dc
            if 0 < nr < layout.rows and 0 < nc < layout.cols and layout.try_black((r, c), (nr, nc)):
                return True
    return False


def make_layout(rows: int, cols: int, style: Style, allow_single: bool, rng, budget) -> Layout:
    layout = Layout(rows, cols, allow_single)
    # 1. no run longer than style.max_run: black cells inside the long ones
    while True:
        if budget.expired():
            raise SearchTimeout()
        long = layout.long_runs(style.max_run)
        if not long:
            break
        rng.shuffle(long)
        for run in long:
            if _cut(layout, run, rng):
                break
        else:
            raise LayoutFailed(f"none of {len(long)} runs too long can be cut")
    # 2. no 3x3 block of white cells: the digits in one can be shuffled too many ways
    stuck: set[tuple[int, int]] = set()
    while True:
        blocks = [corner for corner in layout.blocks() if corner not in stuck]
        if not blocks:
            break
        r, c = rng.choice(blocks)
        cells = [(r + i, c + j) for i in range(3) for j in range(3)]
        rng.shuffle(cells)
        if not any(layout.try_black(cell) for cell in cells):
            stuck.add((r, c))
    # 3. black cells until the density is reached
    target = style.density * (rows - 1) * (cols - 1)
    failures = 0
    while layout.count > target and failures < 3:
        if budget.expired():
            raise SearchTimeout()
        whites = layout.whites()
        rng.shuffle(whites)
        placed = False
        for k in range(0, len(whites), style.long_first):
            draw = whites[k : k + style.long_first]
            draw.sort(key=lambda cell: -sum(layout.run_lengths(*cell)))
            if any(layout.try_black(cell) for cell in draw):
                placed = True
                break
        if not placed:
            failures += 1
    return layout


def _pairs(items):
    return [(a, b) for k, a in enumerate(items) for b in items[k + 1 :]]


class LayoutFailed(Exception):
    """This draw of black cells cannot be completed: the next one."""


# ---------------------------------------------------------------- runs and fill


class Frame:
    """A layout compiled: white cells 0..n-1, runs 0..m-1 (across first)."""

    def __init__(self, layout: Layout):
        self.rows, self.cols = layout.rows, layout.cols
        cells = layout.whites()
        self.cells = cells
        index = {cell: i for i, cell in enumerate(cells)}
        runs: list[tuple[int, ...]] = []
        across: list[bool] = []
        starts: list[tuple[int, int]] = []  # the clue cell of each run
        cell_runs = [[0, 0] for _ in cells]
        for direction, (dr, dc) in ((0, (0, 1)), (1, (1, 0))):
            for r, c in cells:
                if layout.white[r - dr][c - dc]:
                    continue
                run = []
                rr, cc = r, c
                while rr < self.rows and cc < self.cols and layout.white[rr][cc]:
                    run.append(index[(rr, cc)])
                    rr, cc = rr + dr, cc + dc
                for i in run:
                    cell_runs[i][direction] = len(runs)
                runs.append(tuple(run))
                across.append(direction == 0)
                starts.append((r - dr, c - dc))
        self.runs, self.across, self.starts = runs, across, starts
        self.cell_runs = [tuple(x) for x in cell_runs]

    def compiled(self, digits: list[int]) -> native.Compiled:
        clues = [sum(digits[i] for i in run) for run in self.runs]
        return native.Compiled(
            cells=tuple(self.cells),
            run_cells=tuple(self.runs),
            run_combos=tuple(combos(s, len(run)) for s, run in zip(clues, self.runs, strict=True)),
            cell_runs=tuple(self.cell_runs),
            shape=(self.rows, self.cols),
            clues=tuple(clues),
            across=tuple(self.across),
        )

    def puzzle(self, digits: list[int]) -> tuple[Puzzle, Grid]:
        squares: list[list] = [[Clue() for _ in range(self.cols)] for _ in range(self.rows)]
        grid = [[0] * self.cols for _ in range(self.rows)]
        for (r, c), d in zip(self.cells, digits, strict=True):
            squares[r][c] = WHITE
            grid[r][c] = d
        down: dict[tuple[int, int], int] = {}
        across: dict[tuple[int, int], int] = {}
        for run, is_across, start in zip(self.runs, self.across, self.starts, strict=True):
            (across if is_across else down)[start] = sum(digits[i] for i in run)
        for cell in sorted(set(down) | set(across)):
            squares[cell[0]][cell[1]] = Clue(down.get(cell), across.get(cell))
        puzzle = Puzzle(tuple(tuple(row) for row in squares))
        return puzzle, tuple(tuple(row) for row in grid)


def fill(frame: Frame, rng: random.Random, budget: Budget) -> list[int]:
    """Random digits 1-9, none twice in a run: depth-first, fewest options first."""
    n = len(frame.cells)
    while True:
        digits = [0] * n
        used = [0] * len(frame.runs)
        orders = [rng.sample(range(1, 10), 9) for _ in range(n)]
        if _fill_search(frame, digits, used, orders, budget):
            return digits


def _fill_search(frame, digits, used, orders, budget) -> bool:
    cell_runs = frame.cell_runs
    n = len(digits)
    stack: list[tuple[int, list[int]]] = []
    filled = nodes = 0
    while filled < n:
        nodes += 1
        if nodes > FILL_NODES:
            return False
        if not nodes % 1024 and budget.expired():
            raise SearchTimeout()
        best, best_free = -1, 10  # the open cell with fewest options
        for i in range(n):
            if not digits[i]:
                a, d = cell_runs[i]
                free = 9 - (used[a] | used[d]).bit_count()
                if free < best_free:
                    best, best_free = i, free
                    if free <= 1:
                        break
        a, d = cell_runs[best]
        blocked = used[a] | used[d]
        options = [x for x in orders[best] if not blocked >> (x - 1) & 1]
        while not options:  # back to the last cell with another digit to try
            if not stack:
                return False
            best, options = stack.pop()
            a, d = cell_runs[best]
            used[a] ^= 1 << (digits[best] - 1)
            used[d] ^= 1 << (digits[best] - 1)
            digits[best] = 0
            filled -= 1
        digit = options[0]
        stack.append((best, options[1:]))
        digits[best] = digit
        used[a] |= 1 << (digit - 1)
        used[d] |= 1 << (digit - 1)
        filled += 1
    return True


# ---------------------------------------------------------------- how binding a fill is


def _union(masks) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


# (sum, length) -> the digits some combination of it uses, and log2 of its combinations
_ALLOWED = {key: _union(masks) for key, masks in COMBINATIONS.items()}
_SPREAD = {key: math.log2(len(masks)) for key, masks in COMBINATIONS.items()}
_DIGIT = {1 << (d - 1): d for d in range(1, 10)}
_LOG = (99.0, *(math.log2(k) for k in range(1, 10)))  # by candidates left in a cell


class Fill:
    """Digits of a frame and how loosely their sums bind them (the *energy*): per cell,
    log2 of the digits both its runs' combinations allow (0 when one: the crossing
    technique places it), plus ``weight`` times log2 of each run's combinations. Lower
    energy: easier, and nearer to unique."""

    def __init__(self, frame: Frame, digits: list[int], weight: float):
        self.frame, self.digits, self.weight = frame, digits, weight
        runs = frame.runs
        self.lengths = [len(run) for run in runs]
        self.sums = [sum(digits[i] for i in run) for run in runs]
        self.used = [_union(1 << (digits[i] - 1) for i in run) for run in runs]
        self.allowed = [_ALLOWED[s, n] for s, n in zip(self.sums, self.lengths, strict=True)]

    def _cell(self, i: int, changes: dict[int, int]) -> float:
        a, d = self.frame.cell_runs[i]
        return _LOG[(changes.get(a, self.allowed[a]) & changes.get(d, self.allowed[d])).bit_count()]

    def delta(self, totals: dict[int, int]) -> tuple[float, dict[int, int]] | None:
        """The energy change if runs took new ``totals`` ({run: sum}); None if impossible."""
        masks, change = {}, 0.0
        for r, total in totals.items():
            key = (total, self.lengths[r])
            if key not in _ALLOWED:
                return None
            masks[r] = _ALLOWED[key]
            change += self.weight * (_SPREAD[key] - _SPREAD[self.sums[r], self.lengths[r]])
        seen = set()
        for r in totals:
            for i in self.frame.runs[r]:
                if i not in seen:
                    seen.add(i)
                    change += self._cell(i, masks) - self._cell(i, {})
        return change, masks

    def _set(self, i: int, digit: int, masks: dict[int, int], totals: dict[int, int]) -> None:
        old = 1 << (self.digits[i] - 1)
        for r in self.frame.cell_runs[i]:
            self.used[r] = self.used[r] & ~old
        self.digits[i] = digit
        for r in self.frame.cell_runs[i]:
            self.used[r] |= 1 << (digit - 1)
        for r, total in totals.items():
            self.sums[r], self.allowed[r] = total, masks[r]

    def change_move(self, i: int, digit: int):
        """(energy change, apply) for cell ``i`` taking ``digit``; None if not allowed."""
        a, d = self.frame.cell_runs[i]
        old = self.digits[i]
        if digit == old or (self.used[a] | self.used[d]) >> (digit - 1) & 1:
            return None
        totals = {a: self.sums[a] + digit - old, d: self.sums[d] + digit - old}
        found = self.delta(totals)
        if found is None:
            return None
        change, masks = found
        return change, lambda: self._set(i, digit, masks, totals)

    def swap_move(self, i: int, j: int, along: int):
        """(energy change, apply) for swapping cells ``i`` and ``j`` of run ``along``."""
        x, y = self.digits[i], self.digits[j]
        p = self.frame.cell_runs[i][1 - along]  # the runs crossing ``along`` at i and j
        q = self.frame.cell_runs[j][1 - along]
        if self.used[p] >> (y - 1) & 1 or self.used[q] >> (x - 1) & 1:
            return None
        totals = {p: self.sums[p] + y - x, q: self.sums[q] + x - y}
        found = self.delta(totals)
        if found is None:
            return None
        change, masks = found

        def apply():
            self._set(i, y, masks, totals)
            self._set(j, x, masks, totals)  # took y out of their run, which still has it
            self.used[self.frame.cell_runs[i][along]] |= 1 << (y - 1)

        return change, apply

    def random_move(self, i: int, rng: random.Random):
        if rng.random() < 0.5:
            return self.change_move(i, rng.randint(1, 9))
        along = rng.randrange(2)
        j = rng.choice(self.frame.runs[self.frame.cell_runs[i][along]])
        return None if j == i else self.swap_move(i, j, along)


def anneal(fill_: Fill, cells: list[int], steps: int, heat: tuple[float, float], rng, budget):
    """Simulated annealing of the fill over moves at ``cells``: new digits and swaps
    within a run; the temperature falls from ``heat[0]`` to ``heat[1]``."""
    start, end = heat
    for k in range(steps):
        if not k % 2048 and budget.expired():
            raise SearchTimeout()
        move = fill_.random_move(rng.choice(cells), rng)
        if move is None:
            continue
        change, apply = move
        t = start * (end / start) ** (k / steps)
        if change <= 0 or rng.random() < math.exp(-change / t):
            apply()


# ---------------------------------------------------------------- propagation, memoised
#
# A maker propagates the same fill's clues again and again (each change it weighs, each
# group it searches), and most runs come back with the digits they had last time. So
# the native engine's rules run here through a memo of (a run's candidates, its clue),
# in the native engine's own loop (:func:`native.fixpoint`): the same fixpoint as
# :func:`native.propagate`, three times faster on a maker's workload.

MEMO_SIZE = 1 << 13  # runs kept per rule, ~3 MB each: as fast as 1 << 16, 40 MB less


@functools.lru_cache(maxsize=MEMO_SIZE)
def _cheap(masks: tuple[int, ...], clue: int) -> tuple[int, ...] | None:
    """The native engine's cheap rules on one run (combinations, placed digits, hidden
    singles: about techniques 1-4)."""
    new = native.narrow(masks, combos(clue, len(masks)))
    return None if new is None else tuple(new)


@functools.lru_cache(maxsize=MEMO_SIZE)
def _exact(masks: tuple[int, ...], clue: int) -> tuple[int, ...] | None:
    """The native engine's exact run check (with the cheap rules, techniques 1-6)."""
    new = native.exact(masks, combos(clue, len(masks)))
    return None if new is None else tuple(new)


@functools.lru_cache(maxsize=MEMO_SIZE)
def _ease(masks: tuple[int, ...], clue: int) -> tuple[int, ...] | None:
    """Techniques 1-3 on one run: its open cells keep the digits of the combinations of
    what they still add up to, less the placed digits (a last cell gets the rest; a cell
    its two runs pin is placed once both have narrowed it). None: a contradiction."""
    placed = total = size = 0
    for m in masks:
        if m & (m - 1):
            size += 1
        elif not m or placed & m:
            return None
        else:
            placed |= m
            total += _DIGIT[m]
    if not size:
        return masks if total == clue else None
    allowed = 0
    for combo in combos(clue - total, size):
        if not combo & placed:
            allowed |= combo
    if not allowed:
        return None
    return tuple(m & allowed if m & (m - 1) else m for m in masks)


# What a fill is settled for (see settle): techniques 1-3 solve it (EASY-like), or all
# the native engine's rules do (techniques 1-6); CHEAP, its cheap rules only, for quick
# looks. The rules of each: the first runs to a fixpoint before the second (dearer) takes
# one run, as in native.propagate.
EASE, CHEAP, FULL = 0, 1, 2
RULES = {EASE: (_ease,), CHEAP: (_cheap,), FULL: (_cheap, _exact)}


def _narrowed(compiled: native.Compiled, cand: list[int], runs=None, oracle=FULL, budget=None):
    """``cand`` narrowed in place by the ``oracle``'s rules (:data:`RULES`) from ``runs``
    (None: every run) until nothing changes; False on a contradiction. With FULL, the
    fixpoint of :func:`native.propagate`, by its loop."""
    first, *rest = RULES[oracle]
    pending = set(range(len(compiled.run_cells)) if runs is None else runs)
    second = rest[0] if rest else None
    return native.fixpoint(compiled, cand, pending, compiled.clues, first, second, budget)


def _settled(compiled: native.Compiled, cand: list[int], oracle: int) -> bool:
    """``cand`` narrowed from every run by the oracle's rules; False on a contradiction."""
    return _narrowed(compiled, cand, oracle=oracle)


def _clusters(frame: Frame, open_: list[int], size: int = 0) -> list[list[int]]:
    """The open cells in groups linked by shared runs (each group's digits are decided
    apart from the others': the cells between them are placed); with ``size``, in
    pieces of at most that many cells."""
    is_open = set(open_)
    seen: set[int] = set()
    groups = []
    for i in open_:
        if i in seen:
            continue
        seen.add(i)
        group, queue = [i], [i]
        while queue and (not size or len(group) < size):
            j = queue.pop(0)
            for r in frame.cell_runs[j]:
                for k in frame.runs[r]:
                    if k in is_open and k not in seen and (not size or len(group) < size):
                        seen.add(k)
                        group.append(k)
                        queue.append(k)
        groups.append(sorted(group))
    return groups


def _other(
    compiled, cand: list[int], group: list[int], digits: list[int], budget, memo=None, quick=False
):
    """Digits for ``group`` other than the fill's that also fit (a second solution
    there), None if there are none, or False past :data:`GROUP_NODES` nodes. With a
    ``memo`` (a dict), a group met before is not searched again: the answer depends only
    on its cells, their digits and candidates, and its runs (their clues and cells; the
    cells outside the group are placed). ``quick``: the fill's own digits are tried
    last, so that another assignment, if any, comes first (when only whether there is
    one matters; which one is found guides :func:`settle`'s changes, and the order it
    was tuned with, the highest digit first, suits those better: measured)."""
    if memo is not None:
        runs = sorted({r for i in group for r in compiled.cell_runs[i]})
        key = (
            tuple(group),
            tuple(digits[i] for i in group),
            tuple(compiled.clues[r] for r in runs),
            tuple(cand[k] for r in runs for k in compiled.run_cells[r]),
        )
        found = memo.get(key, 0)
        if found == 0:
            found = memo[key] = _other(compiled, cand, group, digits, budget, None, quick)
        return found
    # Depth first, a child propagated when it is taken (most never are when another
    # assignment is found).
    stack: list[tuple[list[int], int, int]] = [(cand, -1, 0)]
    nodes, pops = 0, 0
    oracle = FULL if len(group) > EXACT_GROUP else CHEAP  # fewer nodes, each dearer
    while stack:
        pops += 1
        if not pops % 256 and budget.expired():
            raise SearchTimeout()
        node, cell, digit = stack.pop()
        if cell >= 0:
            node = node.copy()
            node[cell] = digit
            if not _narrowed(compiled, node, compiled.cell_runs[cell], oracle):
                continue
        nodes += 1
        if nodes > GROUP_NODES:
            return False
        best, fewest = -1, 10
        for i in group:
            count = node[i].bit_count()
            if 1 < count < fewest:
                best, fewest = i, count
        if best < 0:
            found = [_DIGIT[node[i]] for i in group]
            if found != [digits[i] for i in group]:
                return found
            continue
        options, own = node[best], 1 << (digits[best] - 1) if quick else 0
        if options & own:
            stack.append((node, best, own))
        options &= ~own
        while options:
            digit = options & -options
            options ^= digit
            stack.append((node, best, digit))
    return None


class _Settler:
    """Changes to a fill where propagation (``cand``, from the empty grid) leaves cells
    open, each chosen by how many cells propagation, redone around it, leaves open."""

    def __init__(self, fill_: Fill, rng, oracle: int = FULL):
        self.fill, self.rng, self.oracle = fill_, rng, oracle
        self.frame = fill_.frame
        self.tabu: dict[tuple[int, int], int] = {}  # (cell, digit it left): round
        self.round = 0

    def start(self) -> list[int]:
        """Propagation from the empty grid; the open cells."""
        self.compiled = self.frame.compiled(self.fill.digits)
        self.combos = list(self.compiled.run_combos)
        self.cand = [ALL_DIGITS] * len(self.fill.digits)
        if not _settled(self.compiled, self.cand, self.oracle):
            raise AssertionError("a fill contradicts its own clues")
        self.round += 1
        return [i for i, m in enumerate(self.cand) if m & (m - 1)]

    def nudge(self, cells: list[int], piece: list[int] | None = None, budget=None) -> bool:
        """A new digit in one of ``cells``: of a few, the change that leaves ``piece``
        (if given, the rest held) no second way to be filled, and then the fewest cells
        open around it after propagation. False when no cell can change."""
        fill_, frame, digits, rng = self.fill, self.frame, self.fill.digits, self.rng
        options = [
            (i, d, m)
            for i in cells
            for d in range(1, 10)
            if self.round - self.tabu.get((i, d), -TABU_ROUNDS) >= TABU_ROUNDS
            and (m := fill_.change_move(i, d)) is not None
        ]
        if not options:
            return False
        options = rng.sample(options, min(len(options), NUDGE_OPTIONS))
        best, best_key = None, None
        for i, digit, move in options:
            around = _around(frame, i)
            combos_, clues = list(self.combos), list(self.compiled.clues)
            for r in frame.cell_runs[i]:
                clues[r] = fill_.sums[r] + digit - digits[i]
                combos_[r] = combos(clues[r], fill_.lengths[r])
            local = list(self.cand)
            for k in around:
                local[k] = ALL_DIGITS
            changed = dataclasses.replace(
                self.compiled, run_combos=tuple(combos_), clues=tuple(clues)
            )
            runs = {q for k in around for q in frame.cell_runs[k]}
            if not _narrowed(changed, local, runs, EASE if self.oracle == EASE else CHEAP):
                continue  # cannot happen: the new digits fit
            left = sum(1 for k in around if local[k] & (local[k] - 1))
            again = False
            if piece is not None:
                moved = list(digits)
                moved[i] = digit
                held = _pinned(changed, local, piece, moved)
                again = bool(held and _other(changed, held, piece, moved, budget or Budget()))
            key = (again, left + rng.random(), move[0])
            if best_key is None or key < best_key:
                best, best_key = (i, digit, move, around), key
        if best is None:
            return False
        i, digit, move, around = best
        self.tabu[i, digits[i]] = self.round
        move[1]()
        self.compiled = frame.compiled(digits)
        self.combos = list(self.compiled.run_combos)
        for k in around:  # no longer known: later changes this round see them open
            self.cand[k] = ALL_DIGITS
        return True


def _around(frame: Frame, i: int) -> list[int]:
    """The cells of the runs crossing the runs through ``i``."""
    return sorted(
        {
            k
            for r in frame.cell_runs[i]
            for j in frame.runs[r]
            for q in frame.cell_runs[j]
            for k in frame.runs[q]
        }
    )


def _pinned(compiled, cand: list[int], group: list[int], digits: list[int]):
    """``cand`` with every cell outside ``group`` holding its digit, propagated; None
    when that contradicts (it cannot: the fill is a solution)."""
    inside = set(group)
    local = [m if i in inside else 1 << (digits[i] - 1) for i, m in enumerate(cand)]
    runs = {r for i in group for r in compiled.cell_runs[i]}
    return local if _narrowed(compiled, local, runs) else None


def settle(fill_: Fill, oracle: int, open_limit: int, rng, budget: Budget) -> list[int] | None:
    """Where the ``oracle``'s rules leave cells open: a second way to fill some of them
    shows which cells to change. First in pieces of :data:`PIECE` cells, the rest held
    at the fill (one change per piece and round: many at once on a large grid); when no
    piece has a second way, whole groups. Groups with none stay, up to ``open_limit``
    open cells if all the native engine's rules close them; beyond, they change too.

    None when no group has a second way (the fill is unique); when the open cells have
    not shrunk for :data:`STALL_ROUNDS` rounds, the cells changed in the last round (a
    second way keeps moving on there: the layout may be at fault)."""
    settler = _Settler(fill_, rng, oracle)
    digits = fill_.digits
    memo: dict[tuple[Any, ...], Any] = {}  # groups searched (see _other)
    fewest, since = len(digits) + 1, 0
    stuck: list[int] = []
    while since < STALL_ROUNDS:
        if budget.expired():
            raise SearchTimeout()
        open_ = settler.start()
        if not open_:
            return None
        if len(open_) < fewest:
            fewest, since = len(open_), 0
        since += 1
        compiled, cand = settler.compiled, list(settler.cand)
        stuck = []
        for piece in _clusters(fill_.frame, open_, PIECE):
            local = _pinned(compiled, cand, piece, digits)
            other = _other(compiled, local, piece, digits, budget) if local else None
            if other:
                differ = [i for i, d in zip(piece, other, strict=True) if d != digits[i]]
                stuck.extend(differ)
                settler.nudge(differ, piece, budget)
        if stuck:
            continue
        unique = []
        for group in _clusters(fill_.frame, open_):
            other = _other(compiled, cand, group, digits, budget, memo)
            if other is None:
                unique.append(group)
                continue
            differ = (
                group
                if other is False
                else [i for i, d in zip(group, other, strict=True) if d != digits[i]]
            )
            stuck.extend(differ)
            settler.nudge(differ)
        left = sum(len(group) for group in unique)
        limit = open_limit if left and _solves(compiled, cand, open_) else 0
        if not stuck and left <= limit:
            return None
        rng.shuffle(unique)
        for group in unique:
            if left <= limit:
                break
            settler.nudge(group)
            stuck.extend(group)
            left -= len(group)
    return sorted(set(stuck))


def _solves(compiled: native.Compiled, cand: list[int], open_: list[int]) -> bool:
    """Whether all the native engine's rules, from ``cand``, leave no cell open."""
    cand = list(cand)
    runs = {r for i in open_ for r in compiled.cell_runs[i]}
    return _narrowed(compiled, cand, runs) and all(not m & (m - 1) for m in cand)


def _propagated(frame: Frame, digits: list[int], budget: Budget | None = None):
    """(compiled, candidates, open cells) after all the native engine's rules."""
    compiled = frame.compiled(digits)
    cand = [ALL_DIGITS] * len(digits)
    if not _narrowed(compiled, cand, budget=budget):
        raise AssertionError("a fill contradicts its own clues")
    return compiled, cand, [k for k, m in enumerate(cand) if m & (m - 1)]


def _unique(propagated, frame: Frame, digits: list[int], budget: Budget, memo) -> bool:
    """Whether no group of the cells propagation leaves open (``propagated``, from
    :func:`_propagated`) has a second way to be filled (or too many to search)."""
    compiled, cand, open_ = propagated
    groups = _clusters(frame, open_)
    return all(
        _other(compiled, cand, group, digits, budget, memo, quick=True) is None for group in groups
    )


def _second_near(frame: Frame, digits: list[int], cand: list[int], i: int, budget, memo) -> bool:
    """Whether the fill's puzzle, just changed at cell ``i``, shows a second solution
    near it (or too many to search): a quick look before :func:`_unique` on the whole.
    ``cand`` is the propagation of the puzzle before the change; from it, with the cells
    :func:`_around` ``i`` open again, propagation keeps the fill (a solution of the new
    puzzle) and can only narrow too much, never too little, so a second way found to
    fill a group of the cells left open is a second solution indeed."""
    compiled = frame.compiled(digits)
    local, around = list(cand), _around(frame, i)
    for k in around:
        local[k] = ALL_DIGITS
    runs = {r for k in around for r in frame.cell_runs[k]}
    if not _narrowed(compiled, local, runs, budget=budget):
        raise AssertionError("a fill contradicts its own clues")
    near = set(around)
    open_ = [k for k, m in enumerate(local) if m & (m - 1)]
    return any(
        _other(compiled, local, group, digits, budget, memo, quick=True) is not None
        for group in _clusters(frame, open_)
        if not near.isdisjoint(group)
    )


def _needs_trial(frame: Frame, digits: list[int], cand: list[int], budget: Budget) -> bool:
    """Whether the chain of techniques up to region sums stalls on this fill's puzzle,
    from ``cand``, the fixpoint of techniques 1-6 (the native engine's propagation): as
    the chain goes, a region sum where those are stuck, then those again to their
    fixpoint, until no region sum is left; without the chain's steps and sentences."""
    puzzle = frame.puzzle(digits)[0]
    layout = layout_of(puzzle)  # its cells and runs are the frame's, in the same order
    compiled, masks = layout.compiled, list(cand)
    while any(m & (m - 1) for m in masks):
        pos = Position(layout, masks, budget)
        step = region_sum(pos)
        if step is None:
            return True
        pos.apply(step)
        masks = pos.masks
        changed = [layout.index[cell] for cell, _ in (*step.placements, *step.eliminations)]
        runs = {r for i in changed for r in compiled.cell_runs[i]}
        if not _narrowed(compiled, masks, runs, budget=budget):
            raise AssertionError("a fill contradicts its own clues")
    return False


def loosen(fill_: Fill, style: Style, rng, budget: Budget) -> bool:
    """Changes to a settled fill that bind less (higher energy), kept while the fill
    stays unique (propagation solves it, or the groups of cells it leaves open have no
    second way to be filled), until ``style.open_cells`` cells are left open (at least
    one): a unique puzzle past techniques 1-6, for a region sum or a trial. With
    ``style.past_regions``, until the chain up to region sums stalls too (checked at
    most :data:`REGION_CHECKS` times, more cells left open after each). Changes go next
    to the open cells, mostly: one large open region has fewer narrow necks for region
    sums than many small ones. False if :data:`LOOSEN_STEPS` changes do not get there
    (the fill is left unique). Most changes make a second solution, most of them near
    the change: :func:`_second_near` looks there first (cheap, and it can only reject);
    a change it keeps is checked on the whole grid (:func:`_unique`, whose searches of
    the groups left unchanged are remembered from the steps before)."""
    frame, digits = fill_.frame, fill_.digits
    target = max(1, style.open_cells)
    _, cand, open_ = _propagated(frame, digits, budget)
    checks = 0
    memo: dict[tuple[Any, ...], Any] = {}  # groups searched (see _other)
    for _ in range(LOOSEN_STEPS):
        if budget.expired():
            raise SearchTimeout()
        if open_ and rng.random() < NEAR_OPEN:
            nearby = sorted({j for k in open_ for r in frame.cell_runs[k] for j in frame.runs[r]})
            i = rng.choice(nearby)
        else:
            i = rng.randrange(len(digits))
        options = [m for d in range(1, 10) if (m := fill_.change_move(i, d)) is not None]
        if not options:
            continue
        high = max(change for change, _ in options)
        weights = [math.exp((change - high) / REPAIR_HEAT) for change, _ in options]
        old = digits[i]
        rng.choices(options, weights)[0][1]()
        near = _second_near(frame, digits, cand, i, budget, memo)
        now = None if near else _propagated(frame, digits)
        if now is None or not _unique(now, frame, digits, budget, memo):
            back = fill_.change_move(i, old)
            assert back is not None
            back[1]()
            continue
        cand, open_ = now[1], now[2]
        if len(open_) < target:
            continue
        if not style.past_regions:
            return True
        checks += 1
        if _needs_trial(frame, digits, cand, budget):
            return True
        if checks == REGION_CHECKS:
            return False
        target += REGION_STEP
    if not open_:
        return False
    return not style.past_regions or (
        checks < REGION_CHECKS and _needs_trial(frame, digits, cand, budget)
    )


def _settled_fill(fill_: Fill, style: Style, rng, budget: Budget) -> list[int] | None:
    """:func:`settle` as the style asks: unique, then loosened; or solved by propagation,
    and for easy styles by techniques 1-3 but for ``style.allowance`` cells. None when
    done, else where it is stuck (empty when loosening failed)."""
    if style.loosen:
        stuck = settle(fill_, FULL, len(fill_.digits), rng, budget)
        if stuck is None and not loosen(fill_, style, rng, budget):
            return []
        return stuck
    stuck = settle(fill_, FULL, 0, rng, budget)
    if stuck is not None or style.allowance < 0:
        return stuck
    return settle(fill_, EASE, style.allowance, rng, budget)


# ---------------------------------------------------------------- the maker


def _frame_of(puzzle: Puzzle) -> Frame:
    layout = Layout(puzzle.rows, puzzle.cols, True)
    layout.white = [[sq is WHITE for sq in row] for row in puzzle.squares]
    layout.count = len(puzzle.white_cells)
    return Frame(layout)


class KakuroMaker:
    """:class:`~numgrid.server.kinds.base.Maker` for Kakuro."""

    def problems(self, spec) -> list[tuple[str, str]]:
        found = no_diagonals("Kakuro", spec)
        for field, size in (("rows", spec.rows), ("cols", spec.cols)):
            if not MIN_SIZE <= size <= MAX_SIZE:
                line = "row" if field == "rows" else "column"
                found.append(
                    (
                        field,
                        f"a generated Kakuro has {MIN_SIZE} to {MAX_SIZE} {field} "
                        f"(the clue {line} included), not {size}",
                    )
                )
        small = spec.grade is not None and spec.grade >= Grade.EXPERT
        if small and min(spec.rows, spec.cols) <= SMALLEST_EXPERT - 1 and not found:
            # measured: no 4x4 candidate reached region sums or a trial in 8 s of tries
            found.append(
                (
                    "grade",
                    f"a {spec.rows}x{spec.cols} Kakuro is too small to need "
                    f"{spec.grade.name.lower()} techniques: make it at least "
                    f"{SMALLEST_EXPERT}x{SMALLEST_EXPERT}",
                )
            )
        if spec.density and not MIN_DENSITY <= spec.density <= MAX_DENSITY:
            found.append(
                (
                    "density",
                    f"a generated Kakuro has {MIN_DENSITY:g} to {MAX_DENSITY:g} of its inner "
                    f"cells white (0: chosen by grade), not {spec.density:g}",
                )
            )
        return found

    def candidate(self, spec, rng: random.Random, pressure: float, budget: Budget):
        """A layout, a fill annealed and settled (:func:`settle`). Where a fill does not
        settle, a cell where it is stuck turns black (with its partner), up to
        :data:`BLACKENINGS` times; then another layout, up to :data:`LAYOUTS` (then the
        last goes to the driver's repairs)."""
        style = _style(spec, pressure)
        tries = 0
        while True:
            try:
                layout = make_layout(
                    spec.rows, spec.cols, style, spec.single_cell_runs, rng, budget
                )
            except LayoutFailed:
                continue
            tries += 1
            frame = Frame(layout)
            fill_ = Fill(frame, fill(frame, rng, budget), WEIGHT)
            cells = list(range(len(frame.cells)))
            anneal(fill_, cells, SWEEPS * len(cells), (1.5, style.cool), rng, budget)
            for _ in range(BLACKENINGS + 1):
                stuck = _settled_fill(fill_, style, rng, budget)
                if stuck is None:
                    return frame.puzzle(fill_.digits)
                where = [frame.cells[i] for i in stuck]
                rng.shuffle(where)
                if not any(layout.try_black(cell) for cell in where):
                    break
                digit = dict(zip(frame.cells, fill_.digits, strict=True))
                frame = Frame(layout)
                fill_ = Fill(frame, [digit[cell] for cell in frame.cells], WEIGHT)
            if tries >= LAYOUTS:
                return frame.puzzle(fill_.digits)

    def repair(self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random):
        """A new digit in one cell where ``other`` differs: the sums of its runs change,
        so ``other`` no longer fits (and ``solution`` neither: the fill is the clues'
        source). Of a few such changes, the one after which propagation leaves fewest
        cells open around it. Returns (puzzle, its solution), None when no cell where
        they differ can take another digit."""
        frame = _frame_of(puzzle)
        fill_ = Fill(frame, [solution[r][c] for r, c in frame.cells], WEIGHT)
        differ = [i for i, (r, c) in enumerate(frame.cells) if solution[r][c] != other[r][c]]
        settler = _Settler(fill_, rng)
        settler.start()
        if not settler.nudge(differ):
            return None
        return frame.puzzle(fill_.digits)


MAKER = KakuroMaker()
