"""The techniques of the logical Kakuro solver, simplest first, each a short function.

Vocabulary, named once:

- *mask*: a set of digits as 9 bits (bit ``d - 1`` is digit ``d``), as in :mod:`.sums`.
- *layout*: a puzzle compiled to indices: white cells ``0..n-1``, clued runs ``0..m-1``;
  every white cell lies in one across run and one down run.
- *position*: the candidates (a mask) of every white cell. A cell is *placed* when one
  digit is left, *open* otherwise.
- *view* of a run: its placed digits, its open cells, what they still add up to (the clue
  minus the placed digits) and the *combinations* left: sets of distinct digits of that
  sum and size that avoid the placed digits. A view reads the run's clue, length and
  placed digits only, never the candidates of its open cells.
- *step*: one deduction: placements ``cell = digit``, eliminations ``cell != digit``, the
  runs and cells that justify it, and one sentence with the numbers. A cell a step leaves
  with one candidate is one of its placements.
- *contradiction*: a position that no filling completes; raised, never returned.

A technique looks at one run, one cell or the whole position and returns a step or
``None``; it never changes the position. Every step is implied by the rules and the
position alone: no technique assumes the solution is unique.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from numgrid.server.chain import Contradiction
from numgrid.server.chain import Memos
from numgrid.server.chain import listed
from numgrid.server.chain import names
from numgrid.server.chain import outcome
from numgrid.server.chain import said
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digits_of
from numgrid.server.kinds.masks import single

from . import native
from .checks import check_puzzle
from .model import Puzzle
from .model import Run
from .sums import ALL_DIGITS
from .sums import combos

DIGIT = {1 << (d - 1): d for d in range(1, 10)}  # one-digit mask -> digit
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


class Technique(enum.IntEnum):
    """The techniques, simplest first; the value is the difficulty rank."""

    LAST_CELL = 1  # the last open cell of a run: clue minus the others
    COMBINATIONS = 2  # a run's digits come from its combinations ("16 in two = 7+9")
    CROSSING = 3  # a cell pinned by the combinations of both its runs
    REQUIRED_DIGIT = 4  # a digit every combination needs, one cell can take (hidden single)
    NAKED_SUBSET = 5  # two or three cells of a run holding as many digits between them
    COMBINATION_ELIMINATION = 6  # combinations that no longer fit the cells' candidates
    REGION_SUM = 7  # across clues minus down clues of a region ("innies and outies")
    TRIAL = 8  # last resort: one assumption, techniques 1-6, a contradiction


# ---------------------------------------------------------------- layout and position


@dataclass(frozen=True, eq=False)
class Layout:
    """A well-formed puzzle compiled to indices (shared with :mod:`.native`)."""

    puzzle: Puzzle
    compiled: native.Compiled
    runs: tuple[Run, ...]  # clued runs, numbered like compiled.run_cells
    index: dict[Cell, int]

    @property
    def across(self) -> tuple[bool, ...]:
        return self.compiled.across  # per run

    @property
    def cells(self) -> tuple[Cell, ...]:
        return self.compiled.cells

    @property
    def run_cells(self) -> tuple[tuple[int, ...], ...]:
        return self.compiled.run_cells

    @property
    def cell_runs(self) -> tuple[tuple[int, ...], ...]:
        return self.compiled.cell_runs  # (across, down) for every cell


@functools.lru_cache(maxsize=8)
def layout_of(puzzle: Puzzle) -> Layout:
    """Compile ``puzzle``; raise :class:`PuzzleError` if it is not well formed."""
    errors = [f for f in check_puzzle(puzzle) if f.is_error]
    if errors:
        raise PuzzleError(errors)
    compiled = native.Compiled.of(puzzle)
    runs = tuple(run for run in puzzle.runs if run.clue is not None)
    return Layout(
        puzzle=puzzle,
        compiled=compiled,
        runs=runs,
        index={cell: i for i, cell in enumerate(compiled.cells)},
    )


VIEW = 0  # memo slot of the views; each technique's slot is its value
RUN_SLOTS = (  # memos kept per run (CROSSING keeps its per cell)
    VIEW,
    Technique.LAST_CELL,
    Technique.COMBINATIONS,
    Technique.REQUIRED_DIGIT,
    Technique.NAKED_SUBSET,
    Technique.COMBINATION_ELIMINATION,
)


class Position(Memos):
    """The candidates of every white cell, plus what each technique found so far.

    Techniques memoise their findings per run (or cell); changing a cell forgets those
    of its two runs, so a chain of steps only re-examines what changed. The techniques
    whose search grows faster than the grid (region sums, trial) :meth:`poll` the
    position's ``budget``, if any, and raise :class:`SearchTimeout` once it runs out.
    """

    def __init__(self, layout: Layout, masks: Iterable[int], budget: Budget | None = None):
        super().__init__(budget, len(Technique) + 1)
        self.layout = layout
        self.masks = list(masks)

    def copy(self) -> Position:
        other = Position(self.layout, self.masks, self.budget)
        self.copy_memos(other)
        return other

    @property
    def solved(self) -> bool:
        return all(single(m) for m in self.masks)

    def candidates(self) -> dict[Cell, tuple[int, ...]]:
        return {cell: digits_of(m) for cell, m in zip(self.layout.cells, self.masks, strict=True)}

    def grid(self) -> Grid:
        """Placed digits, ``0`` for open and black cells."""
        p = self.layout.puzzle
        rows = [[0] * p.cols for _ in range(p.rows)]
        for (r, c), m in zip(self.layout.cells, self.masks, strict=True):
            rows[r][c] = DIGIT.get(m, 0)
        return tuple(tuple(row) for row in rows)

    def apply(self, step: Step) -> None:
        """Make the step's placements and eliminations."""
        index, changed = self.layout.index, {}
        for cell, digit in step.placements:
            i = index[cell]
            if not self.masks[i] & bit(digit):
                raise Contradiction(f"{cell_name(cell)} cannot be {digit}", cells=[cell])
            changed[i] = bit(digit)
        for cell, digit in step.eliminations:
            i = index[cell]
            changed[i] = changed.get(i, self.masks[i]) & ~bit(digit)
        for i, mask in changed.items():
            self.set(i, mask)

    def place(self, i: int, digit: int) -> None:
        self.set(i, bit(digit))

    def set(self, i: int, mask: int) -> None:
        if mask == self.masks[i]:
            return
        if not mask:
            cell = self.layout.cells[i]
            raise Contradiction(f"{cell_name(cell)} has no candidate left", cells=[cell])
        self.masks[i] = mask
        layout, memo = self.layout, self._memo
        crossing = memo[Technique.CROSSING]
        for r in layout.cell_runs[i]:
            for slot in RUN_SLOTS:
                memo[slot].pop(r, None)
            for j in layout.run_cells[r]:
                crossing.pop(j, None)
        memo[Technique.REGION_SUM].clear()
        memo[Technique.TRIAL].clear()


# ---------------------------------------------------------------- views of runs


@dataclass(frozen=True)
class View:
    run: Run
    open: tuple[int, ...]  # cells with two or more candidates
    placed: int  # mask of the placed digits
    placed_cells: tuple[int, ...]
    need: int  # what the open cells add up to
    combos: tuple[int, ...]  # combinations the open cells can still be
    allowed: int  # union of combos


def combos_left(need: int, size: int, placed: int) -> tuple[int, ...]:
    """Not memoised: a filter over at most 12 combinations, whose 4,096-entry cache
    turned over 20,000 times in 50 s of load (benchmarks/load.py)."""
    if size == 0:
        return (0,) if need == 0 else ()
    return tuple(c for c in combos(need, size) if not c & placed)


def view(pos: Position, r: int) -> View:
    memo = pos.memo(VIEW)
    found = memo.get(r)
    if found is None:
        found = memo[r] = _view(pos, r)
    return found


def _view(pos: Position, r: int) -> View:
    run = pos.layout.runs[r]
    open_, placed_cells, placed, total = [], [], 0, 0
    for i in pos.layout.run_cells[r]:
        m = pos.masks[i]
        if not m:
            raise Contradiction(f"{cell_name(pos.layout.cells[i])} has no candidate left")
        if not single(m):
            open_.append(i)
            continue
        if placed & m:
            raise Contradiction(f"{label(run)} would hold {DIGIT[m]} twice", [run], run.cells)
        placed |= m
        total += DIGIT[m]
        placed_cells.append(i)
    need = run.clue - total  # type: ignore[operator]  # the layout's runs are clued
    found = combos_left(need, len(open_), placed)
    if not found:
        if not open_:
            why = f"{label(run)} would add up to {total}, not {run.clue}"
        elif len(open_) == 1:
            why = f"{label(run)} would need {need} in its last cell"
        else:
            why = f"{subject(run, need, len(open_), placed)} has no combination"
        raise Contradiction(why, [run], run.cells)
    allowed = 0
    for c in found:
        allowed |= c
    return View(run, tuple(open_), placed, tuple(placed_cells), need, found, allowed)


# ---------------------------------------------------------------- words


def label(run: Run) -> str:
    return f"{run.direction.capitalize()} {run.clue} at {cell_name(run.clue_cell or run.cells[0])}"


def _cells_word(n: int) -> str:
    return "one cell" if n == 1 else f"{WORDS[n]} cells"


def subject(run: Run, need: int, size: int, placed: int) -> str:
    if not placed:
        return f"{label(run)} in {_cells_word(size)}"
    return f"{label(run)} with {need} left in {_cells_word(size)}"


def subject_of(v: View) -> str:
    return subject(v.run, v.need, len(v.open), v.placed)


def combo_text(mask: int) -> str:
    return "+".join(str(d) for d in digits_of(mask))


def predicate(v: View) -> str:
    """What a view allows: ``can only be 7+9`` or ``cannot hold 8 or 9``."""
    if len(v.combos) <= 3:
        return f"can only be {listed(combo_text(c) for c in v.combos)}"
    missing = ALL_DIGITS & ~v.allowed  # placed digits included: they cannot repeat
    return f"cannot hold {listed(digits_of(missing))}" if missing else "can hold any digit"


def make_step(
    pos: Position,
    technique: Technique,
    removals: dict[int, int],
    runs: Iterable[Run],
    cells: Iterable[int],
    reason: str,
    joiner: str = ", so ",
) -> Step:
    """A step removing ``removals[i]`` from cell ``i``; cells left with one digit are placed."""
    layout = pos.layout
    placements: list[tuple[Cell, int]] = []
    eliminations: list[tuple[Cell, int]] = []
    for i in sorted(removals):
        mask = pos.masks[i]
        left = mask & ~removals[i]
        if not left:
            raise Contradiction(
                f"{reason}, which leaves {cell_name(layout.cells[i])} no candidate", runs
            )
        if single(left):
            placements.append((layout.cells[i], DIGIT[left]))
        else:
            eliminations.extend((layout.cells[i], d) for d in digits_of(mask & removals[i]))
    return Step(
        technique,
        tuple(placements),
        tuple(eliminations),
        tuple(runs),
        tuple(layout.cells[i] for i in cells),
        said(pos, lambda: f"{reason}{joiner}{outcome(placements, eliminations)}."),
    )


# ---------------------------------------------------------------- techniques 1-6


def last_cell(pos: Position, r: int) -> Step | None:
    v = view(pos, r)
    if len(v.open) != 1:
        return None
    i, digit = v.open[0], v.need  # a view of one open cell has the one combination {need}
    if not v.placed:
        reason = f"{label(v.run)} is a single cell"
    else:
        values = [DIGIT[pos.masks[j]] for j in v.placed_cells]
        reason = (
            f"{label(v.run)} has {' + '.join(map(str, values))} placed, and "
            f"{v.run.clue} - {sum(values)} = {digit}"
        )
    if not pos.masks[i] & bit(digit):
        raise Contradiction(
            f"{reason}, but {cell_name(pos.layout.cells[i])} cannot be {digit}", [v.run]
        )
    return make_step(
        pos, Technique.LAST_CELL, {i: pos.masks[i] & ~bit(digit)}, [v.run], v.placed_cells, reason
    )


def combinations(pos: Position, r: int) -> Step | None:
    """Open cells keep the digits of the run's combinations; narrowing a cell to a single
    digit is left to :func:`crossing`, which says which two runs pin it."""
    v = view(pos, r)
    if len(v.open) < 2:
        return None
    removals = {}
    for i in v.open:
        keep = pos.masks[i] & v.allowed
        if not keep:
            raise Contradiction(
                f"{subject_of(v)} {predicate(v)}, which leaves "
                f"{cell_name(pos.layout.cells[i])} no candidate",
                [v.run],
            )
        if keep != pos.masks[i] and not single(keep):
            removals[i] = pos.masks[i] & ~keep
    if not removals:
        return None
    return make_step(
        pos,
        Technique.COMBINATIONS,
        removals,
        [v.run],
        v.placed_cells,
        f"{subject_of(v)} {predicate(v)}",
    )


def crossing(pos: Position, i: int) -> Step | None:
    mask = pos.masks[i]
    if single(mask):
        return None
    views = [view(pos, r) for r in pos.layout.cell_runs[i]]
    keep = mask
    for v in views:
        keep &= v.allowed
    cell = cell_name(pos.layout.cells[i])
    if not single(keep):
        if not keep:
            raise Contradiction(
                f"the runs through {cell} leave it no candidate", [v.run for v in views]
            )
        return None

    def wording(pair):  # what the cell lost earlier, what the second run rules out
        first, second = pair
        return first.allowed & second.allowed & ~mask, first.allowed & ~second.allowed

    first, second = min((views, views[::-1]), key=lambda p: [m.bit_count() for m in wording(p)])
    earlier, excluded = wording((first, second))
    reason = f"{subject_of(first)} {predicate(first)}"
    if excluded:
        reason += f", and {subject_of(second)} cannot hold {listed(digits_of(excluded))}"
    if earlier:
        reason += f", and {cell} had already lost {listed(digits_of(earlier), 'and')}"
    return make_step(
        pos, Technique.CROSSING, {i: mask & ~keep}, [v.run for v in views], [i], reason
    )


def required_digit(pos: Position, r: int) -> Step | None:
    v = view(pos, r)
    if len(v.open) < 2:
        return None
    required = ALL_DIGITS
    for c in v.combos:
        required &= c
    cells = pos.layout.cells
    sole: dict[int, int] = {}
    for d in digits_of(required):
        holders = [i for i in v.open if pos.masks[i] & bit(d)]
        if not holders:
            raise Contradiction(
                f"every combination of {subject_of(v)} needs {d}, but no cell can take it", [v.run]
            )
        if len(holders) == 1:
            if holders[0] in sole:
                raise Contradiction(
                    f"{subject_of(v)} needs both {DIGIT[sole[holders[0]]]} "
                    f"and {d} in {cell_name(cells[holders[0]])}",
                    [v.run],
                )
            sole[holders[0]] = bit(d)
    if not sole:
        return None
    which = "its combination" if len(v.combos) == 1 else "every combination"
    shown = f" ({listed(combo_text(c) for c in v.combos)})" if len(v.combos) <= 3 else ""
    only = "; ".join(f"only {cell_name(cells[i])} can take {DIGIT[b]}" for i, b in sole.items())
    reason = f"In {subject_of(v)}, {which}{shown} contains {listed(digits_of(required), 'and')}"
    return make_step(
        pos,
        Technique.REQUIRED_DIGIT,
        {i: pos.masks[i] & ~b for i, b in sole.items()},
        [v.run],
        v.open,
        f"{reason}; {only}",
    )


def naked_subset(pos: Position, r: int) -> Step | None:
    v = view(pos, r)
    masks, cells = pos.masks, pos.layout.cells
    for size in (2, 3):
        if len(v.open) <= size:
            return None
        best = None
        for group in itertools.combinations(v.open, size):
            union = 0
            for i in group:
                union |= masks[i]
            if union.bit_count() < size:
                raise Contradiction(
                    f"{names(cells[i] for i in group)} in {label(v.run)} need "
                    f"{size} different digits from {listed(digits_of(union))}",
                    [v.run],
                )
            if union.bit_count() > size:
                continue
            removals = {j: masks[j] & union for j in v.open if j not in group and masks[j] & union}
            lost = sum(m.bit_count() for m in removals.values())
            if lost and (best is None or lost > best[0]):
                best = (lost, group, union, removals)
        if best:
            _, group, union, removals = best
            kind = "a naked pair" if size == 2 else "a naked triple"
            reason = (
                f"In {label(v.run)}, {names(cells[i] for i in group)} can only hold "
                f"{listed(digits_of(union), 'and')} between them ({kind})"
            )
            return make_step(pos, Technique.NAKED_SUBSET, removals, [v.run], group, reason)
    return None


def _support(masks: tuple[int, ...], combo: int) -> list[int] | None:
    """Per cell, the digits some arrangement of ``combo`` puts there (None: no arrangement).

    The native engine's exact run check with one combination, not a second search of
    our own: that one was memoised across calls, and under load its cache (8,192 tuples
    of candidates) was rewritten many times a second (load.py), churning memory."""
    return native.exact_support(tuple(m & combo for m in masks), (combo,))


def _why_dead(masks: tuple[int, ...], cells: list[Cell], combo: int) -> str:
    union = 0
    for m in masks:
        union |= m
    if combo & ~union:
        return f"no cell can take {listed(digits_of(combo & ~union), 'or')}"
    for cell, m in zip(cells, masks, strict=True):
        if not m & combo:
            return f"{cell_name(cell)} can take none of its digits"
    return "its digits do not fit the cells' candidates"


def combination_elimination(pos: Position, r: int) -> Step | None:
    """Combinations that cannot be spread over the open cells' candidates are dead; a cell
    keeps the digits that some arrangement of a live combination puts there."""
    v = view(pos, r)
    if len(v.open) < 2:
        return None
    masks = tuple(pos.masks[i] for i in v.open)
    cells = [pos.layout.cells[i] for i in v.open]
    live, dead, support = [], [], [0] * len(masks)
    for c in v.combos:
        s = _support(masks, c)
        if s is None:
            dead.append(c)
            continue
        live.append(c)
        support = [a | b for a, b in zip(support, s, strict=True)]
    if not live:
        raise Contradiction(
            f"no combination of {subject_of(v)} "
            f"({listed(combo_text(c) for c in v.combos)}) fits its cells",
            [v.run],
        )
    removals = {i: m & ~s for i, m, s in zip(v.open, masks, support, strict=True) if m & ~s}
    if not removals:
        return None
    allowed = 0
    for c in live:
        allowed |= c
    parts = [f"{combo_text(c)} is out ({_why_dead(masks, cells, c)})" for c in dead[:4]]
    if len(dead) > 4:
        parts.append(f"{len(dead) - 4} more are out")
    shown = listed(combo_text(c) for c in live) if len(live) <= 4 else ""
    if dead:
        left = shown or f"{len(live)} combinations"
        reason = f"{subject_of(v)}: {', '.join(parts)}, leaving {left}"
    else:
        reason = f"{subject_of(v)} can be {shown or f'any of {len(live)} combinations'}"
    arranged = [  # digits of live combinations that still fit no arrangement
        f"{listed(digits_of(removals[i] & allowed))} in {cell_name(cells[k])}"
        for k, i in enumerate(v.open)
        if removals.get(i, 0) & allowed
    ]
    if arranged:
        more = " (and more)" if len(arranged) > 3 else ""
        them = "it" if len(live) == 1 else "them"
        reason += f", and no arrangement of {them} puts {listed(arranged[:3], 'or')}{more}"
    return make_step(pos, Technique.COMBINATION_ELIMINATION, removals, [v.run], v.open, reason)


RUN, CELL = "run", "cell"  # what a technique looks at, one at a time
# Techniques 1-6 by what they look at (region sums and the trial, elsewhere: the whole).
SCOPES = {
    RUN: (last_cell, combinations, required_digit, naked_subset, combination_elimination),
    CELL: (crossing,),
}
