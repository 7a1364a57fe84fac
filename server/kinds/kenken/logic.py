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

They poll the ``budget`` between steps and inside trials and raise
:class:`~numgrid.server.core.SearchTimeout` once it has run out. Malformed puzzles and
entries raise :class:`PuzzleError` (every finding); a position that cannot be completed
raises :class:`Contradiction`. Every step is implied by the rules and the position alone
(never by assuming the solution is unique); ``benchmarks/explain.py --kind kenken``
checks every step of every corpus puzzle against its published solution.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from operator import itemgetter

from numgrid.server.chain import WHOLE
from numgrid.server.chain import Grade
from numgrid.server.chain import Ladder
from numgrid.server.chain import Thresholds
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
from .techniques import Layout
from .techniques import Position
from .techniques import Technique
from .techniques import cage_index
from .techniques import cage_table
from .techniques import layout_of

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
    fixpoint: the rounds it took, and the candidates then (None on a contradiction). A
    fast screen on plain masks (techniques 1-5 reach the same contradictions, step by
    step); live cage layouts are sets of bits (:func:`cage_index`), so big cages cost a
    few ANDs, and each cage state's effect is remembered (:func:`_screen_tables`)."""
    layout = pos.layout
    full, peers, cage_of, cell_lines = layout.full, layout.peers, layout.cage_of, layout.cell_lines
    line_cells = layout.line_cells
    picks, seens = _screen_tables(layout)
    masks = list(pos.masks)
    done = [bool(p) for p in pos.placed]  # singles whose digit left their row and column
    masks[i] = bit(digit)
    changed, rounds = {i}, 0
    while changed:
        rounds += 1
        cells, changed = changed, set()
        for c in cells:
            m = masks[c]
            if not m:
                return rounds, None
            if not done[c] and not m & (m - 1):
                done[c] = True
                for j in peers[c]:
                    if masks[j] & m:
                        masks[j] &= ~m
                        changed.add(j)
        for k in {cage_of[c] for c in cells}:
            now = picks[k](masks)
            seen = seens[k]
            effect = seen.get(now)
            if effect is None:
                if len(seen) > CAGE_SEEN:
                    seen.clear()
                effect = seen[now] = _cage_effect(layout, k, now)
            if effect is UNCHANGED:  # by identity: the one object _cage_effect returns
                continue
            if not effect:
                return rounds, None
            keeps, pointed = effect
            if keeps != now:
                for c, m, keep in zip(layout.cage_cells[k], now, keeps, strict=True):
                    if m != keep:
                        masks[c] = keep
                        changed.add(c)
            for x, required in pointed:
                # digits every live layout puts in line x inside the cage leave the rest
                for c in line_cells[x]:
                    if cage_of[c] != k and masks[c] & required:
                        masks[c] &= ~required
                        changed.add(c)
        for x in {x for c in cells for x in cell_lines[c]}:
            if not line_singles(masks, line_cells[x], full, changed):
                return rounds, None
    return rounds, masks


def _screen_tables(layout) -> tuple[tuple, tuple[dict, ...]]:
    """Per cage: ``masks -> its cells' masks`` (a C-level ``itemgetter``), and what
    :func:`_cage_effect` gave, per tuple of its cells' candidates."""
    return cage_table(layout, "screen", 0, _build_screen_tables)


def _build_screen_tables(layout, _) -> tuple[tuple, tuple[dict, ...]]:
    picks = tuple(
        itemgetter(*ids) if len(ids) > 1 else (lambda masks, c=ids[0]: (masks[c],))
        for ids in layout.cage_cells
    )
    return picks, tuple({} for _ in layout.cage_cells)


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


# Cage states whose effect a fast propagation remembers, per cage. They stay with a kept
# layout after the call: 50_8x8's explanation (every operation hidden) leaves 11,187 of
# them, 2.5 MB, in 3.0 s of CPU; remembering 256 took 3.5 s, 16 took 5.3 s (its 59,362
# effects computed each cost ~40 us). 4,096 (then 11 MB) was no faster.
CAGE_SEEN = 1 << 10


# The effect of a cage state that changes nothing: two in five of 50_8x8's, one object for
# all (and a state that keeps its candidates but points is stored with the key as its
# keeps), so that the states remembered cost their keys and little more.
UNCHANGED = ((), ())


def _cage_effect(layout, k: int, now: tuple[int, ...]):
    """For cage ``k`` with candidates ``now``: the candidates its live layouts keep, and
    per line the digits they all put in it inside the cage; ``()`` when none is live,
    :data:`UNCHANGED` when it keeps them all and points nowhere."""
    index = cage_index(layout, k)
    found = -1
    for j, m in enumerate(now):
        found &= _or_all(index[j], m)
        if not found:
            return ()
    keeps = []
    for m, column in zip(now, index, strict=True):
        keep = 0
        for d in digits_of(m):
            if found & column[d - 1]:
                keep |= 1 << (d - 1)
        keeps.append(keep)
    pointed = []
    for x, _, column in _cage_lines(layout, k):
        required = 0
        for d, where in enumerate(column):
            if where and not found & ~where:
                required |= 1 << d
        if required:
            pointed.append((x, required))
    kept = tuple(keeps)
    if kept == now:
        return (now, tuple(pointed)) if pointed else UNCHANGED
    return kept, tuple(pointed)


def _cage_lines(layout, k: int) -> tuple[tuple[int, frozenset[int], tuple[int, ...]], ...]:
    """Per line of cage ``k``: the line, the cage's cells, and per digit the layouts that
    put it in the line inside the cage (as bits, see :func:`cage_index`)."""
    return cage_table(layout, "lines", k, _lines_of_cage)


def _lines_of_cage(layout, k: int) -> tuple[tuple[int, frozenset[int], tuple[int, ...]], ...]:
    index, cells = cage_index(layout, k), layout.cage_cells[k]
    out = []
    for x in layout.cage_lines[k]:
        at = [j for j, i in enumerate(cells) if x in layout.cell_lines[i]]
        column = tuple(_or_all_of(index[j][d] for j in at) for d in range(layout.size))
        out.append((x, frozenset(cells), column))
    return tuple(out)


def _or_all_of(parts) -> int:
    found = 0
    for part in parts:
        found |= part
    return found


def _or_all(column: tuple[int, ...], mask: int) -> int:
    found = 0
    for d in digits_of(mask):
        found |= column[d - 1]
    return found


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
