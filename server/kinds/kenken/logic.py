"""Logical KenKen solving: hints, step-by-step explanations and difficulty grades.

The solver keeps the candidates of every cell and applies named techniques, simplest
first (:class:`Technique`, defined with the techniques in :mod:`.techniques`): a
one-cell cage, cage combinations, naked and hidden singles, cage/line interactions,
naked and hidden subsets, the line totals (a line adds up to N(N+1)/2 and multiplies to
N!), then a trial, one or two levels deep, as the last resort. Placing a digit removes
it from the rest of its row and column at once (the rule, not a technique). Each
technique, with an example sentence, and the grade limits (:data:`THRESHOLDS`) are in
docs/hints.md, "KenKen".

API (plain functions; the position is rebuilt per call, nothing is shared):

- ``next_step(puzzle, candidates_or_entries=None, max_technique=TRIAL,
  placements_only=False, budget=None) -> Step | None``: the simplest step from a position.
- ``explain(puzzle, entries=None, max_technique=TRIAL, budget=None) -> Explanation``:
  every step until the grid is full or the techniques run out, with ``.solved``,
  ``.grade``, ``.technique_counts`` (and where the chain stopped: ``.final``,
  ``.candidates``, ``.contradiction``).
- ``last_resort(puzzle, candidates_or_entries=None, budget=None) -> Step | None``: the
  trial step from a position, whatever simpler techniques could still do there.
- ``grade(counts_or_explanation) -> Grade``; ``position(puzzle, given) -> Position``: an
  entries grid (0 = empty, checked first), candidates (``{cell: digits}``) or a Position.
- ``Grading(puzzle).grade(limit, exact)``: the chain's grade, fast and quiet, for a
  maker: the same deductions scheduled by work lists (see :class:`Grading`).

They poll the ``budget`` between steps and inside trials and raise
:class:`~numgrid.server.core.SearchTimeout` once it has run out. Malformed puzzles and
entries raise :class:`PuzzleError` (every finding); a position that cannot be completed
raises :class:`Contradiction`. Every step is implied by the rules and the position alone
(never by assuming the solution is unique); ``benchmarks/explain.py --kind kenken``
checks every step of every corpus puzzle against its published solution.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from collections.abc import Mapping
from enum import IntEnum
from typing import cast

from numgrid.server.chain import WHOLE
from numgrid.server.chain import Contradiction
from numgrid.server.chain import Grade
from numgrid.server.chain import Ladder
from numgrid.server.chain import Thresholds
from numgrid.server.chain import best
from numgrid.server.chain import open_cells
from numgrid.server.chain import reader
from numgrid.server.chain import relevant_steps
from numgrid.server.chain import technique_table
from numgrid.server.chain import touched
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.core import value_text as value_text  # a value in its sentences
from numgrid.server.kinds.judging import candidate_masks
from numgrid.server.kinds.judging import finding
from numgrid.server.kinds.judging import judge_entries
from numgrid.server.kinds.latin import NAKED_ONLY
from numgrid.server.kinds.latin import lone_digits
from numgrid.server.kinds.latin import make_step
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digits_of
from numgrid.server.kinds.masks import single

from . import native
from .checks import check_puzzle
from .checks import validate_board
from .model import Puzzle
from .techniques import CAGE
from .techniques import CELL
from .techniques import LINE
from .techniques import SCOPES
from .techniques import UNCHANGED
from .techniques import Layout
from .techniques import Position
from .techniques import Technique
from .techniques import cage_line
from .techniques import compiled
from .techniques import hidden_subset
from .techniques import layout_of
from .techniques import line_totals
from .techniques import naked_subset

# Per grade: the hardest technique allowed and the most steps allowed of some techniques.
THRESHOLDS: Thresholds = {
    Grade.EASY: (Technique.HIDDEN_SINGLE, {}),
    Grade.MEDIUM: (Technique.CAGE_LINE, {Technique.CAGE_LINE: 4}),
    Grade.HARD: (Technique.HIDDEN_SUBSET, {}),
    Grade.EXPERT: (Technique.LINE_TOTALS, {}),
}


# ---------------------------------------------------------------- positions


def _from_entries(puzzle: Puzzle, entries: Grid) -> Position:
    """Entries checked as a board is (digits 1..N, no repeat in a line, no cage broken or
    impossible to complete), then placed."""
    layout = layout_of(puzzle)
    n = layout.size
    judge_entries(Board(puzzle, entries), validate_board, check_puzzle, (n, n))
    pos = Position(layout, [layout.full] * (n * n))
    for i, (r, c) in enumerate(layout.cells):
        if entries[r][c]:
            pos.place(i, entries[r][c])  # checked above: no conflict can arise
    return pos


def _from_candidates(puzzle: Puzzle, candidates: Mapping[Cell, int | Iterable[int]]) -> Position:
    """``{cell: digits}`` (an iterable of digits, or a mask); missing cells: all digits.
    A cell with one candidate is placed, and its digit leaves its row and column."""
    layout = layout_of(puzzle)
    n = layout.size
    index = {cell: i for i, cell in enumerate(layout.cells)}

    def outside(cell: object) -> Finding:
        return finding("not_a_cell", f"{cell!r} is not a cell of the grid")

    masks = candidate_masks(candidates, index, [layout.full] * (n * n), n, outside, f"1-{n}")
    return Position.placing_singles(layout, masks)


position = reader(Position, _from_entries, _from_candidates)


# ---------------------------------------------------------------- 9. trial, and the chain

TRIAL_SCREEN = 4  # failing assumptions (found by fast propagation) replayed step by step
TRIAL_STEPS = 400  # steps of techniques 1-5 a replayed assumption may take
TRIAL_UP_TO = Technique.CAGE_LINE
TWO_LEVEL_PASSES = ((2, 2), (3, 3), (4, 16))  # candidates of the second cell, per pass
TWO_LEVEL_BATCH = 8  # refuted assumptions a two-level scan keeps for later trials


def relevant(chain: list[Step], groups: tuple, cells: tuple[Cell, ...]) -> list[Step]:
    """The steps of ``chain`` that the given groups and cells depend on, in order. A
    placement also touches its row and column (its digit leaves them)."""
    return relevant_steps(chain, groups, cells, _reaches)


def _reaches(step: Step, needed: set[Cell]) -> bool:
    if touched(step) & needed:
        return True
    lines = {r for (r, _), _ in step.placements}, {c for (_, c), _ in step.placements}
    return any(r in lines[0] or c in lines[1] for r, c in needed)


def closure(pos: Position | Candidates, i: int, digit: int) -> tuple[int, list[int] | None]:
    """Assume ``cell i = digit`` and carry singles, cage combinations and cage lines to a
    fixpoint (:func:`settle`): the rounds it took, and the candidates then (None on a
    contradiction). A fast screen on plain masks (techniques 1-5 reach the same
    contradictions, step by step)."""
    masks = list(pos.masks)
    placed = list(pos.placed)
    masks[i] = bit(digit)
    rounds = settle(pos.layout, masks, placed, {i}, True)
    return abs(rounds), masks if rounds > 0 else None


def settle(
    layout: Layout, masks: list[int], placed: list[int], changed: set[int], lines: bool
) -> int:
    """Techniques 1-4 on plain masks, in place, to a fixpoint from the cells ``changed``:
    a cell left one candidate is placed (``placed``; its digit leaves its row and
    column), a cage's cells keep what its live layouts give them (a one-cell cage its
    target), a digit with one place in a line goes there; with ``lines``, cage lines
    too (a digit every live layout puts in a line leaves the rest of it). Each cage
    state's effect is its kind's, remembered (:meth:`.techniques.CageKind.effect`).
    The rounds it took, negative when it met a contradiction."""
    full, peers, cage_of, cell_lines = layout.full, layout.peers, layout.cage_of, layout.cell_lines
    line_cells, pickers, kinds = layout.line_cells, layout.pickers, layout.kinds
    rounds = 0
    while changed:
        rounds += 1
        cells, changed = changed, set()
        for c in cells:
            m = masks[c]
            if not m:
                return -rounds
            if not placed[c] and not m & (m - 1):
                placed[c] = m.bit_length()
                for j in peers[c]:
                    if masks[j] & m:
                        masks[j] &= ~m
                        changed.add(j)
        for k in {cage_of[c] for c in cells}:
            now = pickers[k](masks)
            effect = kinds[k].effect(now)
            if effect is UNCHANGED:  # by identity
                continue
            if not effect:
                return -rounds
            keeps, required = effect
            if keeps != now:
                for c, m, keep in zip(layout.cage_cells[k], now, keeps, strict=True):
                    if m != keep:
                        masks[c] = keep
                        changed.add(c)
            if lines and required:
                for x, digits in zip(layout.cage_lines[k], required, strict=True):
                    if digits:
                        for c in line_cells[x]:
                            if cage_of[c] != k and masks[c] & digits:
                                masks[c] &= ~digits
                                changed.add(c)
        for x in {x for c in cells for x in cell_lines[c]}:
            if not line_singles(masks, line_cells[x], full, changed):
                return -rounds
    return rounds


def line_singles(masks: list[int], ids, full: int, changed: set[int]) -> bool:
    """A line's hidden singles on plain masks, in place: a digit with one place left in
    cells ``ids`` goes there (the cell joins ``changed``). False on a contradiction: a
    digit with no place, or one cell the only place of two digits."""
    sole = lone_digits(ids, masks, full)
    if sole is None:
        return False
    if sole:
        for c in ids:
            m = masks[c] & sole
            if m and masks[c] != m:
                if m & (m - 1):
                    return False
                masks[c] = m
                changed.add(c)
    return True


def _propagate(pos: Position, i: int, digit: int) -> int:
    """The rounds a fast propagation (:func:`closure`) takes to refute ``cell i = digit``;
    0 when it does not."""
    rounds, masks = closure(pos, i, digit)
    return 0 if masks is not None else rounds


def _screen(pos: Position) -> list[tuple[int, int, int]]:
    """Assumptions ``(depth, cell, digit)`` that fast propagation refutes: cells with
    fewest candidates first, until ``TRIAL_SCREEN`` are found (fewer if there are not so
    many).

    Candidates only shrink along a chain, and what propagation refutes stays refuted
    with fewer candidates, so the refutations found by earlier trials (``pos.refuted``)
    still valid are used first; the screen runs again when none is left."""
    masks, placed = pos.masks, pos.placed
    known = [(depth, i, d) for depth, i, d in pos.refuted if not placed[i] and masks[i] & bit(d)]
    if not known:
        seen = {(i, d) for _, i, d in known}
        witness = _witness(pos)
        for i in open_cells(masks, placed):
            pos.poll()
            for d in digits_of(masks[i]):
                if witness[i] == bit(d) or (i, d) in seen:
                    continue
                if depth := _propagate(pos, i, d):
                    known.append((depth, i, d))
            if len(known) >= TRIAL_SCREEN:
                break
    pos.refuted = known
    return sorted(known)


def _witness(pos: Position) -> list[int]:
    """Per cell, the digit (as a bit) that one solution agreeing with every candidate
    puts there; all 0 when none is known. No sound propagation refutes a digit that a
    solution holds, so a trial need not test these: the screens find what they found
    without them, in half the time (50_8x8's explanation). Found by the native engine
    from the placed digits, then kept: steps keep every solution's digits."""
    known = pos.witness
    if known is not None and (
        not any(known) or all(w & m for w, m in zip(known, pos.masks, strict=True))
    ):
        return known  # all 0: none was found, and it is not looked for again
    found = native.search(pos.layout.puzzle, limit=1, fixed=pos.grid(), budget=pos.budget)
    witness = [0] * len(pos.masks)
    if found.solutions:
        bits = [bit(v) for row in found.solutions[0] for v in row]
        if all(b & m for b, m in zip(bits, pos.masks, strict=True)):
            witness = bits
    pos.witness = witness
    return witness


def trial(pos: Position) -> Step | None:
    """Assume one candidate, follow techniques 1-5; a contradiction eliminates it.

    Assumptions are screened by a fast propagation (:func:`_screen`, cells with fewest
    candidates first); of the first few it refutes, the one with the shortest chain is
    explained. When the screen refutes none, a two-level trial (:func:`_two_level`)."""
    layout = pos.layout
    screened = ((i, d) for _, i, d in _screen(pos))
    best = LADDER.shortest_refutation(pos, screened, TRIAL_UP_TO, TRIAL_STEPS)
    if best is None:
        deeper = _two_level(pos)
        if deeper is None:
            return None
        i, d, text, cells, groups = deeper
        cell = cell_name(layout.cells[i])
        reason = f"Trial (a last resort): if {cell} were {d}, {text}"
        named = [i, *cells_of(layout, cells)]
        return make_step(pos, Technique.TRIAL, {i: bit(d)}, groups, named, reason, "; so ")
    i, d, chain, found = best
    cell = cell_name(layout.cells[i])
    then = LADDER.then(chain, found.groups, found.cells)
    reason = f"Trial (a last resort): if {cell} were {d}, {then}{found.reason}"
    return make_step(pos, Technique.TRIAL, {i: bit(d)}, found.groups, [i], reason, "; so ")


class Candidates:
    """Candidates whose singles have left their lines (as after a fast propagation), as
    :func:`closure` reads a position."""

    def __init__(self, layout: Layout, masks: list[int]):
        self.layout, self.masks = layout, masks
        self.placed = [single(m) for m in masks]  # singles have left their lines already


def _two_level(pos: Position) -> tuple[int, int, str, list[Cell], tuple] | None:
    """An assumption that leaves some cell no candidate that survives a second one.

    Cells with fewest candidates first: ``cell i = d`` is propagated fast, then every
    candidate of each cell ``x`` with two candidates (in later passes: three, then any)
    from there; when all fail, ``i = d`` is replayed with techniques 1-5, and from there
    each candidate of ``x``; if all reach a contradiction, ``d`` goes. A pass that finds
    some keeps up to ``TWO_LEVEL_BATCH`` (``pos.refuted2``): with fewer candidates they
    stay refuted, and later trials use them before scanning again."""
    masks = pos.masks
    known = [(i, d, x) for i, d, x in pos.refuted2 if not pos.placed[i] and masks[i] & bit(d)]
    if not known:
        known = _scan_two(pos)
    while known:
        i, d, x = known.pop(0)
        pos.refuted2 = known
        found = _explain_two(pos, i, d, x)
        if found is not None:
            return found
    return None


def _scan_two(pos: Position) -> list[tuple[int, int, int]]:
    layout, masks = pos.layout, pos.masks
    cells = open_cells(masks, pos.placed)
    found: list[tuple[int, int, int]] = []
    witness = _witness(pos)
    for low, high in TWO_LEVEL_PASSES:
        for i in cells:
            for d in digits_of(masks[i]):
                if witness[i] == bit(d):
                    continue
                pos.poll()
                _, after = closure(pos, i, d)
                if after is None:
                    continue
                state = Candidates(layout, after)
                for x, m in enumerate(after):
                    if low <= m.bit_count() <= high and all(
                        closure(state, x, b)[1] is None for b in digits_of(m)
                    ):
                        found.append((i, d, x))
                        break
                if len(found) >= TWO_LEVEL_BATCH:
                    return found
        if found:
            return found
    return found


def _explain_two(
    pos: Position, i: int, d: int, x: int
) -> tuple[int, int, str, list[Cell], tuple] | None:
    """The sentence of a two-level trial, or None if techniques 1-5 do not reach it."""
    told = LADDER.two_level(pos, i, d, x, TRIAL_UP_TO, TRIAL_STEPS, digits_of)
    if told is None:
        return None
    text, found = told
    if found is not None:  # one level after all
        return i, d, text, list(found.cells), found.groups
    layout = pos.layout
    return i, d, text, [layout.cells[x]], tuple(layout.lines[k] for k in layout.cell_lines[x])


def cells_of(layout, cells) -> list[int]:
    n = layout.size
    return [r * n + c for r, c in cells]


TECHNIQUES = technique_table(Technique, {**SCOPES, WHOLE: (trial,)})


def _keys(pos: Position, scope: str) -> int:
    layout = pos.layout
    return {CAGE: len(layout.cages), LINE: len(layout.lines), CELL: len(layout.cells)}[scope]


LADDER = Ladder(Technique, TECHNIQUES, _keys, position, THRESHOLDS, relevant)
find, first_step, last_resort = LADDER.find, LADDER.first_step, LADDER.last_resort
next_step, explain, grade = LADDER.next_step, LADDER.explain, LADDER.grade


# ---------------------------------------------------------------- a maker's grading


def ceiling(grade: Grade) -> Technique:
    """The hardest technique a chain for ``grade`` may use (a trial for EXTREME)."""
    return cast(Technique, THRESHOLDS[grade][0]) if grade in THRESHOLDS else Technique.TRIAL


class Grading:
    """The chain's grade of a puzzle, quiet and fast, for a maker that grades many
    candidates: the chain's own deductions, scheduled by work lists rather than step by
    step, on a quiet position of a well-formed puzzle (not checked).

    Techniques 1-4 run to their fixpoint (:func:`settle`: the chain's, whatever the
    order), then one cage-line step as the chain takes it (the best of
    :func:`.techniques.cage_line`), counted; when none is left, the subsets of every
    line, then the line totals (the chain's technique functions), then the candidates of
    the first open cell that the trial's screen (:func:`closure`) refutes. Once the
    cage-line steps no longer count (a subset was used, or the grading need not be
    exact), cage lines run in bulk in :func:`settle`. The grade is :meth:`Ladder.grade`
    of the steps counted: the chain's, but where the screen refutes nothing the chain
    may still find a two-level trial (and grade EXTREME where this stalls). A puzzle it
    completes is unique: every deduction is implied by the clues."""

    def __init__(self, puzzle: Puzzle):
        layout = compiled(puzzle)
        self.pos = Position(layout, [layout.full] * len(layout.cells))
        self.pos.quiet = True
        self.changed = set(range(len(layout.cells)))  # cells changed since the last settle
        self.counts: Counter[IntEnum] = Counter()  # steps taken, per technique
        self.lines = False  # cage lines in bulk
        # per line, its candidates when it last gave no subset
        self.seen: dict[int, tuple[int, ...]] = {}
        self.stages = (
            (Technique.CAGE_LINE, self._cage_line),
            (Technique.HIDDEN_SUBSET, self._subsets),
            (Technique.LINE_TOTALS, self._totals),
            (Technique.TRIAL, self._trial),
        )

    @property
    def stalled(self) -> list[Cell]:
        """The cells left open where the last grading stopped."""
        pos = self.pos
        return [cell for cell, digit in zip(pos.layout.cells, pos.placed, strict=True) if not digit]

    def grade(self, limit: Grade = Grade.EXTREME, exact: bool = True) -> Grade | None:
        """The chain's grade, or None when it is above ``limit`` (or the chain would
        stall). Not ``exact``: a grade below EXPERT may be any of them, faster. A later
        call with a harder limit goes on from where this one stopped."""
        pos, top = self.pos, ceiling(limit)
        most = THRESHOLDS[limit][1] if limit in THRESHOLDS else {}
        if not exact and top >= Technique.CAGE_LINE:
            self._bulk()
        try:
            while True:
                if settle(pos.layout, pos.masks, pos.placed, self.changed, self.lines) < 0:
                    return None
                self.changed = set()
                if pos.solved:
                    return LADDER.grade(self.counts)
                for technique, stage in self.stages:
                    if technique > top:
                        return None
                    if stage():
                        break
                else:
                    return None
                if any(self.counts[t] > n for t, n in most.items()):
                    return None
                if not self.lines and max(self.counts) >= Technique.NAKED_SUBSET:
                    self._bulk()
        except Contradiction:
            return None

    def _bulk(self) -> None:
        """From now on, cage lines in bulk (by :func:`settle`), from every open cell."""
        self.lines = True
        self.changed.update(i for i, digit in enumerate(self.pos.placed) if not digit)

    def _take(self, step: Step | None) -> bool:
        """Apply a step of the chain's (its placements as single candidates, which
        :func:`settle` places), counted."""
        if step is None:
            return False
        masks, n = self.pos.masks, self.pos.layout.size
        for (r, c), digit in step.placements:
            masks[r * n + c] &= bit(digit)
            self.changed.add(r * n + c)
        for (r, c), digit in step.eliminations:
            masks[r * n + c] &= ~bit(digit)
            self.changed.add(r * n + c)
        self.counts[step.technique] += 1
        return True

    def _cage_line(self) -> bool:
        """The cage-line step the chain takes (none in bulk: :func:`settle` took them)."""
        if self.lines:
            return False
        pos = self.pos
        return self._take(best(cage_line(pos, k) for k in range(len(pos.layout.cages))))

    def _subsets(self) -> bool:
        """A naked or hidden subset of each line that has one (a line unchanged since it
        had none is not looked at again). In a line of at most :data:`NAKED_ONLY` open
        cells, a hidden subset's other cells are a naked subset of at most four cells,
        which removes the same candidates: only naked ones are looked for there."""
        pos, found = self.pos, False
        for x, cells in enumerate(pos.layout.line_cells):
            now = tuple([pos.masks[i] for i in cells])
            if self.seen.get(x) != now:
                step = naked_subset(pos, x)
                if step is None and sum(not pos.placed[i] for i in cells) > NAKED_ONLY:
                    step = hidden_subset(pos, x)
                if self._take(step):
                    found = True
                else:
                    self.seen[x] = now
        return found

    def _totals(self) -> bool:
        """A line-totals step of each line that has one."""
        found = False
        for x in range(len(self.pos.layout.lines)):
            found = self._take(line_totals(self.pos, x)) or found
        return found

    def _trial(self) -> bool:
        """The candidates of the first open cell (fewest candidates first) that the
        trial's screen refutes, removed (the chain's trial removes one a step)."""
        pos = self.pos
        for i in open_cells(pos.masks, pos.placed):
            refuted = 0
            for d in digits_of(pos.masks[i]):
                if closure(pos, i, d)[1] is None:
                    refuted |= bit(d)
            if refuted:
                pos.masks[i] &= ~refuted
                self.changed.add(i)
                self.counts[Technique.TRIAL] += 1
                return True
        return False
