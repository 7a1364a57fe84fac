"""Killer Sudoku's logical solver: the units ladder (:mod:`..units.ladder`: singles,
locked candidates, subsets, fish, wings, chains) with the cages' own techniques in it,
each a sentence with its numbers:

- ``COMBINATIONS``: the sets of different digits that make a cage's sum over its cells,
  kept while its cells' candidates can still hold one (``cage 3 (17: r0c0 and r0c1):
  only 8+9 make 17 in two cells``); a digit no kept set lets its cell take leaves it.
  A one-cell cage holds its sum; a digit placed in a cage leaves its other cells.
- ``REGION_SUM``, the rule of 45: a row, column or box (or two or three rows or columns
  side by side) adds up to 45 (N x (N + 1) / 2 a unit); the cages inside it add up to
  their sums, so its cells outside them (the *innies*) add up to the rest; and the cages
  reaching into it add up to their sums, so their cells outside it (the *outies*) add up
  to the excess. One such cell is placed; two or three get the digits their sum allows.
- ``CAGE_SPLITTING``: where one cage alone reaches into such an area, the rule of 45
  splits it: its cells inside add up to what the area's own cages leave, its cells
  outside to the rest of its sum, each part of different digits.
- ``CAGE_UNIT_OVERLAP``: a digit every set still making a cage's sum holds, whose
  cells that can take it all see some other cells, leaves those; and a unit whose only
  places for a digit lie in one cage makes the cage hold it (its sets without it go).

Unique rectangles are left out: the cages' sums may tell apart what the units alone cannot. The
trial searches with the cages (the units ladder's own knows only the units).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from numgrid.server.chain import WHOLE
from numgrid.server.chain import Explanation
from numgrid.server.chain import Grade
from numgrid.server.chain import Ladder
from numgrid.server.chain import Reason
from numgrid.server.chain import Thresholds
from numgrid.server.chain import listed
from numgrid.server.chain import names
from numgrid.server.chain import words
from numgrid.server.core import Budget
from numgrid.server.core import Step
from numgrid.server.core import value_text
from numgrid.server.kinds import cagesums
from numgrid.server.kinds.units import ladder as units
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.techniques import Contradiction
from numgrid.server.kinds.units.techniques import Plan
from numgrid.server.kinds.units.techniques import Position
from numgrid.server.kinds.units.techniques import bit
from numgrid.server.kinds.units.techniques import digits_of
from numgrid.server.kinds.units.techniques import forget_keys
from numgrid.server.kinds.units.techniques import make_step
from numgrid.server.kinds.units.techniques import members

from . import native as killer_native
from .checks import cells_text
from .model import Puzzle
from .native import cage_rule

__all__ = ["THRESHOLDS", "Technique", "explain", "last_resort", "next_step", "value_text"]


class Technique(enum.IntEnum):
    """The techniques, simplest first; named as ``numgrid.v1.Technique``."""

    FULL_HOUSE = 1
    NAKED_SINGLE = 2
    HIDDEN_SINGLE = 3
    COMBINATIONS = 4  # a cage's sum over its cells: the digit sets that make it
    REGION_SUM = 5  # the rule of 45: innies and outies of rows, columns and boxes
    CAGE_SPLITTING = 6  # the rule of 45 cutting the one cage reaching into an area
    POINTING = 7
    CLAIMING = 8
    CAGE_UNIT_OVERLAP = 9  # a digit a cage must hold, and a unit's digit held by a cage
    NAKED_SUBSET = 10
    HIDDEN_SUBSET = 11
    NAKED_QUAD = 12
    HIDDEN_QUAD = 13
    X_WING = 14
    SWORDFISH = 15
    REMOTE_PAIRS = 16
    TURBOT_FISH = 17
    W_WING = 18
    XY_WING = 19
    XYZ_WING = 20
    SIMPLE_COLOURING = 21
    JELLYFISH = 22
    X_CHAIN = 23
    XY_CHAIN = 24
    AIC = 25
    FORCING_CHAIN = 26
    TRIAL = 27


WEIGHTS: dict[Technique, int] = {
    Technique.COMBINATIONS: 4,
    Technique.REGION_SUM: 20,
    Technique.CAGE_SPLITTING: 30,
    Technique.CAGE_UNIT_OVERLAP: 50,  # as locked candidates
    **{Technique[t.name]: w for t, w in units.WEIGHTS.items() if t.name in Technique.__members__},
}

# The units ladder's levels, with the rule of 45 and cage splitting at EASY: Tatham's Solo
# makes every killer of every tier, Trivial included, so that its solver needs them (its
# killer level KINTERSECT: the units' innies as extra cages, a cage split where they are
# part of one). A killer has no givens, so its chain places every cell and takes about
# 60-70 cage steps: the points' limits sit 200 above the units ladder's (HoDoKu's).
THRESHOLDS: Thresholds = {
    Grade.EASY: (Technique.CAGE_SPLITTING, {}),
    Grade.MEDIUM: (Technique.HIDDEN_SUBSET, {}),
    Grade.HARD: (Technique.SIMPLE_COLOURING, {}),
    Grade.EXPERT: (Technique.FORCING_CHAIN, {}),
}
SCORE_LIMITS: dict[Grade, int] = {grade: limit + 200 for grade, limit in units.SCORE_LIMITS.items()}


# ---------------------------------------------------------------- the position's cages


class KillerPosition(Position):
    """A units position that knows the puzzle's cages and the rule of 45's areas (kept
    through copies). The cage and area findings are memoised per cage and per area, and
    a change of a cell forgets only those that read it."""

    puzzle: Puzzle
    frames: Frames

    def copy(self) -> KillerPosition:
        other = super().copy()
        other.__class__ = KillerPosition
        assert isinstance(other, KillerPosition)
        other.puzzle, other.frames = self.puzzle, self.frames
        return other

    def _forget_extra(self, name: str, found: dict, cells: set[int]) -> None:
        reads = self.frames.reads.get(name)
        if reads is None:
            found.clear()  # a technique whose reads are not known: all of it
        else:
            forget_keys(found, reads, cells)


def _cages(pos: Position) -> Puzzle:
    assert isinstance(pos, KillerPosition)
    return pos.puzzle


def _frames_of(pos: Position) -> Frames:
    assert isinstance(pos, KillerPosition)
    return pos.frames


def _sum_text(combo: int) -> str:
    return "+".join(map(str, digits_of(combo)))


FITS_REMEMBERED = 1 << 13  # cage fits remembered (about 4 MB), the least recently used go


@functools.lru_cache(maxsize=FITS_REMEMBERED)
def _fits(masks: tuple[int, ...], total: int, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The sets of different digits 1..``n`` making ``total`` that cells of candidates
    ``masks`` can still hold, one digit a cell, and per cell the digits such fillings
    put there (the engine's exact narrowing; remembered, as cells of the same candidates
    fit a sum alike in every cage and puzzle)."""
    union = 0
    for m in masks:
        union |= m
    kept: list[int] = []
    allowed = [0] * len(masks)
    for combo in cagesums.combos(total, len(masks), n):
        if combo & ~union:
            continue  # a digit no cell can hold: no filling
        support = killer_native.narrowed(masks, combo)
        if support is not None:
            kept.append(combo)
            allowed = [a | s for a, s in zip(allowed, support, strict=True)]
    return tuple(kept), tuple(allowed)


def _cage_step(pos: Position, k: int) -> Step | None:
    puzzle = _cages(pos)
    p: Plan = pos.plan
    n = p.n
    cage = puzzle.cages[k]
    ids = [r * n + c for r, c in cage.cells]
    masks = [pos.masks[i] for i in ids]
    size = len(ids)
    if size == 1:
        i = ids[0]
        if pos.placed[i]:
            return None
        reason = functools.partial(_one_cell, puzzle, k)
        return make_step(pos, Technique.COMBINATIONS, {}, (), [i], reason, {i: cage.sum})
    kept, allowed = _fits(tuple(masks), cage.sum, n)
    removals = {
        i: m & ~a
        for i, m, a in zip(ids, masks, allowed, strict=True)
        if m & ~a and not pos.placed[i]
    }
    if not kept:
        raise Contradiction(
            f"{puzzle.cage_name(k)}: no digits its cells can still hold make {cage.sum}",
            [],
            list(cage.cells),
        )
    if not removals:
        return None
    reason = functools.partial(_combinations_said, pos, k, kept)
    return make_step(pos, Technique.COMBINATIONS, removals, (), ids, reason)


def _one_cell(puzzle: Puzzle, k: int) -> str:
    return f"{puzzle.cage_name(k)} is one cell: it holds its sum"


def _combinations_said(pos: Position, k: int, kept: tuple[int, ...]) -> str:
    """Which sets of digits (``kept``) still make cage ``k``'s sum."""
    puzzle = _cages(pos)
    cage = puzzle.cages[k]
    n = pos.plan.n
    every = cagesums.combos(cage.sum, len(cage.cells), n)
    name, cells_word = puzzle.cage_name(k), cells_text(len(cage.cells))
    made = listed([_sum_text(c) for c in kept], "or")
    if len(kept) == len(every):
        only, verb = ("only ", "makes") if len(kept) == 1 else ("", "make")
        return f"{name}: {only}{made} {verb} {cage.sum} in {cells_word}"
    placed = [pos.placed[r * n + c] for r, c in cage.cells if pos.placed[r * n + c]]
    why = (
        f"with {listed(placed, 'and')} placed"
        if placed and len(kept) == 1
        else "with the candidates its cells have left"
    )
    if len(every) <= 8:
        return (
            f"{name}: of the digits making {cage.sum} in {cells_word} "
            f"({listed([_sum_text(c) for c in every], 'or')}), {why} only {made} fit"
        )
    return f"{name}: {why}, only {made} make {cage.sum} in {cells_word}"


# ---------------------------------------------------------------- the rule of 45


@functools.lru_cache(maxsize=64)
def _regions(p: Plan) -> tuple[tuple[str, int], ...]:
    """The areas the rule of 45 adds up, each with its cells as bits of cell indices:
    each row, column and box, and two or three rows (columns) side by side."""
    n = p.n
    out: list[tuple[str, int]] = []
    for u, unit in enumerate(p.unit_cells):
        if len(unit) == n and p.groups[u].type.value in ("row", "column", "box"):
            out.append((p.name(u), p.unit_sets[u]))
    for lines, word in ((p.rows, "rows"), (p.cols, "columns")):
        for width in (2, 3):
            for start in range(n - width + 1):
                cells = 0
                for u in lines[start : start + width]:
                    cells |= p.unit_sets[u]
                out.append((f"{word} {start}-{start + width - 1}", cells))
    return tuple(out)


def _bounded(pos: Position, ids: list[int], total: int, distinct: bool = False) -> dict[int, int]:
    """The digits each open cell of ``ids`` (adding up to ``total``) cannot hold: below
    what the others' largest leave, above what their smallest leave; different digits
    when the cells all see each other or are ``distinct`` (parts of one cage)."""
    p = pos.plan
    open_ = [i for i in ids if not pos.placed[i]]
    left = total - sum(pos.placed[i] for i in ids if pos.placed[i])
    if not open_:
        return {}
    distinct = distinct or all(j in p.peers[i] for i in open_ for j in open_ if i != j)
    removals = {}
    if distinct and len(open_) <= 4:
        masks = [pos.masks[i] for i in open_]
        _, allowed = _fits(tuple(masks), left, p.n)
        for i, m, a in zip(open_, masks, allowed, strict=True):
            if m & ~a:
                removals[i] = m & ~a
        return removals
    for i in open_:
        others = [pos.masks[j] for j in open_ if j != i]
        low = sum(digits_of(m)[0] for m in others)
        high = sum(digits_of(m)[-1] for m in others)
        gone = sum(bit(d) for d in digits_of(pos.masks[i]) if not low <= left - d <= high)
        if gone:
            removals[i] = gone
    return removals


@dataclass(frozen=True)
class Innies:
    """What the rule of 45 adds up in an area: the ``cells`` outside the ``cages``
    inside it (``how`` = inside), or the cells outside it of the cages inside it or
    reaching into it (the outies), adding up to ``total``; the cages add up to ``caged``."""

    cells: tuple[int, ...]
    total: int
    cages: tuple[int, ...]
    how: str
    caged: int


@dataclass(frozen=True)
class Split:
    """The one cage ``cage`` reaching into an area, cut by it: its ``inside`` cells add
    up to ``total`` (the area's sum less its ``cages`` inside it, adding up to
    ``caged``), its ``outside`` cells to the rest of its sum."""

    cage: int
    inside: tuple[int, ...]
    outside: tuple[int, ...]
    total: int
    cages: tuple[int, ...]
    caged: int


@dataclass(frozen=True)
class Area:
    """A row, column, box, or rows or columns side by side, and its innies and outies
    (of up to three cells), and the cage it splits (none of these when a cell of the
    grid is in no cage)."""

    name: str
    units_in: int
    area_sum: int
    sums: tuple[Innies, ...]
    split: Split | None = None


@dataclass(frozen=True)
class Frames:
    """The rule of 45's areas of a puzzle, and per technique added on top and per cell,
    the keys (cages, areas) whose findings read that cell."""

    areas: tuple[Area, ...]
    reads: Mapping[str, tuple[tuple[int, ...], ...]]


def _area(puzzle: Puzzle, own: list[int], name: str, area: int, complete: bool) -> Area:
    """``own``, ``area``: each cage's cells and the area's, as bits of cell indices."""
    n = puzzle.size
    units_in = area.bit_count() // n
    area_sum = units_in * n * (n + 1) // 2
    if not complete:
        return Area(name, units_in, area_sum, ())  # the rule needs every cell caged
    inside_list: list[int] = []
    reaching_list: list[int] = []
    for k, cells in enumerate(own):
        if cells & area:
            (reaching_list if cells & ~area else inside_list).append(k)
    inside, reaching = tuple(inside_list), tuple(reaching_list)
    caged_inside = sum(puzzle.cages[k].sum for k in inside)
    found = []
    innies = area
    for k in inside:
        innies &= ~own[k]
    if 0 < innies.bit_count() <= 3:
        found.append(
            Innies(tuple(members(innies)), area_sum - caged_inside, inside, "inside", caged_inside)
        )
    outies = 0
    for k in reaching:
        outies |= own[k] & ~area
    if reaching and 0 < outies.bit_count() <= 3:
        caged = caged_inside + sum(puzzle.cages[k].sum for k in reaching)
        found.append(
            Innies(
                tuple(members(outies)),
                caged - area_sum,
                inside + reaching,
                "inside it or reaching into",
                caged,
            )
        )
    split = None
    if len(reaching) == 1:
        k = reaching[0]
        inner, outer = tuple(members(own[k] & area)), tuple(members(own[k] & ~area))
        split = Split(k, inner, outer, area_sum - caged_inside, inside, caged_inside)
    return Area(name, units_in, area_sum, tuple(found), split)


@functools.lru_cache(maxsize=64)
def frames(puzzle: Puzzle, p: Plan) -> Frames:
    """The puzzle's areas and what reads each cell (remembered: a player's hints ask
    of one puzzle again and again)."""
    n = p.n
    complete = len(puzzle.cage_at) == n * n
    own = [sum(1 << (r * n + c) for r, c in cage.cells) for cage in puzzle.cages]
    areas = tuple(_area(puzzle, own, name, area, complete) for name, area in _regions(p))
    cage_reads: list[list[int]] = [[] for _ in range(n * n)]
    for k, cage in enumerate(puzzle.cages):
        for r, c in cage.cells:
            cage_reads[r * n + c].append(k)
    area_reads: list[list[int]] = [[] for _ in range(n * n)]
    split_reads: list[list[int]] = [[] for _ in range(n * n)]
    for k, area in enumerate(areas):
        for i in sorted({i for innies in area.sums for i in innies.cells}):
            area_reads[i].append(k)
        if area.split is not None:
            for i in area.split.inside + area.split.outside:
                split_reads[i].append(k)
    overlap_reads: list[list[int]] = [[] for _ in range(n * n)]
    for k, cells in enumerate(own):
        seen = cells  # the cage's cells and every cell that sees one of them
        for i in members(cells):
            seen |= p.peer_sets[i]
        for i in members(seen):
            overlap_reads[i].append(k)
    return Frames(
        areas,
        {
            Technique.COMBINATIONS.name: tuple(map(tuple, cage_reads)),
            Technique.REGION_SUM.name: tuple(map(tuple, area_reads)),
            Technique.CAGE_SPLITTING.name: tuple(map(tuple, split_reads)),
            Technique.CAGE_UNIT_OVERLAP.name: tuple(map(tuple, overlap_reads)),
        },
    )


def _holds(area: Area, n: int) -> str:
    """What an area holds, in words: ``the digits 1 to 9``, ``2 x the digits 1 to 9``."""
    return (
        f"the digits 1 to {n}" if area.units_in == 1 else f"{area.units_in} x the digits 1 to {n}"
    )


def _placeable(pos: Position, i: int, digit: int, sentence: Reason) -> None:
    """A sum that leaves cell ``i`` a digit it cannot hold is a contradiction."""
    if not 1 <= digit <= pos.plan.n or not pos.masks[i] & bit(digit):
        raise Contradiction(
            f"{words(sentence)}, which {pos.plan.cell(i)} cannot hold", [], [pos.plan.coords[i]]
        )


def _innies_said(p: Plan, area: Area, innies: Innies) -> str:
    """The rule of 45 in an area: what its innies (or outies) add up to."""
    name, area_sum = area.name, area.area_sum
    cells, total, how, caged = innies.cells, innies.total, innies.how, innies.caged
    cage_names = listed([f"cage {k + 1}" for k in sorted(innies.cages)], "and") or "none"
    head = (
        f"Rule of 45: {name} holds {_holds(area, p.n)}, "
        f"adding up to {area_sum}; the cages {how} it ({cage_names}) add up to {caged}"
    )
    what = names(p.coords[i] for i in cells)
    difference = f"{area_sum} - {caged}" if how == "inside" else f"{caged} - {area_sum}"
    theirs = "their only cell" if len(cells) == 1 else "their cells"
    rest = f"the rest of {name}" if how == "inside" else f"{theirs} outside {name}"
    if len(cells) == 1:  # the placement says the digit
        return f"{head}, so {what}, {rest}, holds {difference}"
    return f"{head}, so {what}, {rest}, add up to {difference} = {total}"


def _region_step(pos: Position, key: int) -> Step | None:
    """The best rule-of-45 step of one area: its innies or its outies."""
    p = pos.plan
    area = _frames_of(pos).areas[key]
    best: Step | None = None
    for innies in area.sums:
        cells, total = innies.cells, innies.total
        if all(pos.placed[i] for i in cells):
            continue
        sentence = functools.partial(_innies_said, p, area, innies)
        if len(cells) == 1:
            i = cells[0]
            _placeable(pos, i, total, sentence)
            step = make_step(pos, Technique.REGION_SUM, {}, (), cells, sentence, {i: total})
        else:
            removals = _bounded(pos, list(cells), total)
            if not removals:
                continue
            step = make_step(pos, Technique.REGION_SUM, removals, (), cells, sentence)
        best = _better(best, step)
    return best


def _split_step(pos: Position, key: int) -> Step | None:
    """Cage splitting in one area: the cage it cuts, each part narrowed by its sum."""
    puzzle = _cages(pos)
    p = pos.plan
    area = _frames_of(pos).areas[key]
    split = area.split
    if split is None:
        return None
    cage = puzzle.cages[split.cage]
    parts = ((split.inside, split.total), (split.outside, cage.sum - split.total))
    if all(pos.placed[i] for cells, _ in parts for i in cells):
        return None
    removals: dict[int, int] = {}
    place: dict[int, int] = {}
    for cells, total in parts:
        if len(cells) == 1:
            i = cells[0]
            if not pos.placed[i]:
                place[i] = total
        else:
            removals.update(_bounded(pos, list(cells), total, distinct=True))
    if not removals and not place:
        return None

    def sentence() -> str:
        inside_names = listed([f"cage {k + 1}" for k in split.cages], "and") or "no cage"
        outside = cage.sum - split.total
        return (
            f"Cage splitting: {area.name} holds {_holds(area, p.n)}, adding up to "
            f"{area.area_sum}; the cages inside it ({inside_names}) add up to {split.caged}, "
            f"so the part of {puzzle.cage_name(split.cage)} inside it, "
            f"{names(p.coords[i] for i in split.inside)}, adds up to {area.area_sum} - "
            f"{split.caged} = {split.total}, and its part outside, "
            f"{names(p.coords[i] for i in split.outside)}, to {cage.sum} - {split.total} = "
            f"{outside}"
        )

    for i, digit in place.items():
        _placeable(pos, i, digit, sentence)
    both = [*split.inside, *split.outside]
    return make_step(pos, Technique.CAGE_SPLITTING, removals, (), both, sentence, place)


def _kept(pos: Position, k: int) -> tuple[list[int], tuple[int, ...]]:
    """A cage's cells (indices) and the sets of digits still making its sum over them."""
    puzzle = _cages(pos)
    n = pos.plan.n
    cage = puzzle.cages[k]
    ids = [r * n + c for r, c in cage.cells]
    kept, _ = _fits(tuple(pos.masks[i] for i in ids), cage.sum, n)
    return ids, kept


def _overlap_step(pos: Position, k: int) -> Step | None:
    """Cage-unit overlap at one cage, both ways: the step that removes the most."""
    puzzle = _cages(pos)
    p = pos.plan
    cage = puzzle.cages[k]
    if len(cage.cells) < 2:
        return None
    ids, kept = _kept(pos, k)
    if not kept:
        return None  # a cage no set makes is the combinations' contradiction
    own = 0  # the cage's open cells, as bits
    placed = 0  # the digits placed in it
    for i in ids:
        if pos.placed[i]:
            placed |= bit(pos.placed[i])
        else:
            own |= 1 << i
    if not own:
        return None
    where = pos.where  # per digit, the open cells that can take it
    best: Step | None = None
    # a digit every set still making the sum holds leaves what sees all its cells here
    for d in digits_of(functools.reduce(lambda a, b: a & b, kept) & ~placed):
        holders = where[d] & own
        seen = where[d] & ~own
        for i in members(holders):
            seen &= p.peer_sets[i]
        if not holders or not seen:
            continue
        cells = tuple(members(holders))
        reason = functools.partial(_must_hold, pos, k, d, kept, cells)
        removals = {j: bit(d) for j in members(seen)}
        best = _better(
            best, make_step(pos, Technique.CAGE_UNIT_OVERLAP, removals, (), cells, reason)
        )
    # a unit whose places for a digit all lie in the cage: the cage holds it
    possible = 0
    for combo in kept:
        possible |= combo
    open_ = tuple(members(own))
    units_met = sorted({u for i in open_ for u in p.cell_units[i]})
    for d in digits_of(possible & ~placed):
        if all(combo & bit(d) for combo in kept):
            continue  # the cage holds it already
        places = where[d]
        for u in units_met:
            inside = places & p.unit_sets[u]
            if not inside or inside & ~own:
                continue
            with_d = [c for c in kept if c & bit(d)]
            allowed = functools.reduce(lambda a, b: a | b, with_d)
            removals = {i: pos.masks[i] & ~allowed for i in open_ if pos.masks[i] & ~allowed}
            if not removals:
                break
            reason = functools.partial(_held_by, pos, k, d, u, inside, with_d)
            step = make_step(pos, Technique.CAGE_UNIT_OVERLAP, removals, (u,), open_, reason)
            best = _better(best, step)
            break
    return best


def _must_hold(pos: Position, k: int, d: int, kept: tuple[int, ...], cells: tuple[int, ...]) -> str:
    """Cage ``k`` holds ``d`` (every set still making its sum does), in ``cells`` alone."""
    puzzle, p = _cages(pos), pos.plan
    common = p.shape.units_holding(cells)
    shared = listed([p.name(u) for u in sorted(common)], "and")
    place = f", all in {shared}" if common and len(cells) > 1 else ""
    return (
        f"{puzzle.cage_name(k)} must hold {d} (every set of digits still making "
        f"{puzzle.cages[k].sum} does: {listed([_sum_text(c) for c in kept], 'or')}), and only "
        f"{names(p.coords[i] for i in cells)} can take it{place}"
    )


def _held_by(pos: Position, k: int, d: int, u: int, inside: int, with_d: list[int]) -> str:
    """Unit ``u``'s places for ``d`` (the cell set ``inside``) all lie in cage ``k``."""
    puzzle, p = _cages(pos), pos.plan
    only = names(p.coords[i] for i in members(inside))
    return (
        f"{p.name(u)} can take {d} only in {only}, "
        f"cells of {puzzle.cage_name(k)}: so the cage holds {d}, and of the sets making "
        f"{puzzle.cages[k].sum} only {listed([_sum_text(c) for c in with_d], 'or')} do"
    )


def _better(best: Step | None, step: Step) -> Step:
    """The step that places more, then removes more (the first of equals)."""
    if best is None or (len(step.placements), len(step.eliminations)) > (
        len(best.placements),
        len(best.eliminations),
    ):
        return step
    return best


# ---------------------------------------------------------------- the trial


def trial(pos: Position) -> Step | None:
    """A candidate no filling of the grid with the cages completes (the native engine
    searches): the cell with fewest candidates first."""
    puzzle = _cages(pos)
    p = pos.plan
    t = native.tables(puzzle.shape)
    rule = cage_rule(puzzle.shape, puzzle.cages)

    def fits(masks: list[int]) -> bool:
        found, _, _ = native.count(t, t.position(masks), limit=1, budget=pos.budget, extra=rule)
        return bool(found)

    order = sorted(
        (i for i, m in enumerate(pos.masks) if not pos.placed[i] and m & (m - 1)),
        key=lambda i: (pos.masks[i].bit_count(), i),
    )
    for i in order:
        pos.poll()
        for d in digits_of(pos.masks[i]):
            after = list(pos.masks)
            after[i] = bit(d)
            if not fits(after):
                reason = (
                    f"Trial (a last resort): if {p.cell(i)} were {d}, no filling of the grid "
                    "would fit the cages (a search through every choice finds none)"
                )
                return make_step(pos, Technique.TRIAL, {i: bit(d)}, (), [i], reason, joiner="; so ")
    return None


# ---------------------------------------------------------------- the ladder

CAGE, AREA = "cage", "area"  # what a cage technique looks at (or the units' scopes)

TABLE: dict[Technique, tuple[str, Any]] = {
    Technique.COMBINATIONS: (CAGE, _cage_step),
    Technique.REGION_SUM: (AREA, _region_step),
    Technique.CAGE_SPLITTING: (AREA, _split_step),
    Technique.CAGE_UNIT_OVERLAP: (CAGE, _overlap_step),
    Technique.TRIAL: (WHOLE, trial),
    **{
        Technique[t.name]: entry
        for t, entry in units.TABLE.items()
        if t.name in Technique.__members__ and t.name != "TRIAL"
    },
}
TABLE = {t: TABLE[t] for t in Technique}


def _position(puzzle: Puzzle, given: Any) -> KillerPosition:
    pos = units.position(puzzle, given, False)
    pos.__class__ = KillerPosition
    assert isinstance(pos, KillerPosition)
    pos.puzzle = puzzle
    pos.frames = frames(puzzle, pos.plan)
    pos.techniques = Technique
    return pos


def keys(pos: Position, scope: str) -> int:
    """How many keys (cages, areas, or the units' cells, units, digits) a scope has."""
    if scope == CAGE:
        return len(_cages(pos).cages)
    if scope == AREA:
        return len(_frames_of(pos).areas)
    return units.keys(pos, scope)


def _ladder(puzzle: Puzzle) -> Ladder:
    shape = puzzle.shape
    return _ladders(shape)


@functools.lru_cache(maxsize=16)
def _ladders(shape: Any) -> Ladder:
    return Ladder(
        techniques=Technique,
        table=TABLE,
        keys=keys,
        position=_position,
        thresholds=THRESHOLDS,
        relevant=functools.partial(units.relevant, shape=shape),
        lookahead=None,
        weigh=step_points,
    )


def next_step(
    puzzle: Puzzle,
    candidates_or_entries: Any = None,
    max_technique: Technique | None = None,
    placements_only: bool = False,
    budget: Budget | None = None,
) -> Step | None:
    """The simplest step from a position (see :meth:`Ladder.next_step`)."""
    return _ladder(puzzle).next_step(
        puzzle, candidates_or_entries, max_technique, placements_only, budget
    )


def last_resort(
    puzzle: Puzzle, candidates_or_entries: Any = None, budget: Budget | None = None
) -> Step | None:
    """The trial step from a position."""
    return _ladder(puzzle).last_resort(puzzle, candidates_or_entries, budget)


def step_points(step: Step) -> int:
    """A step's points in the chain's score: its technique's weight (HoDoKu's for the
    units techniques; a cage combination as a single, the rule of 45 20)."""
    return WEIGHTS[Technique(step.technique)]


def difficulty(found: Explanation | Mapping[Any, int]) -> int:
    """The chain's points: the sum of its steps' weights."""
    if isinstance(found, Explanation):
        return sum(map(step_points, found.steps))
    return sum(WEIGHTS[Technique(k)] * v for k, v in found.items())


def grade(found: Explanation, cells: int) -> Grade:
    """The level of the hardest technique used, raised while the points pass the level's
    limit (HoDoKu's rule, as the units ladder grades)."""
    used = [Technique(k) for k, v in found.technique_counts.items() if v]
    return units.graded(used, THRESHOLDS, difficulty(found) * 81 / cells, SCORE_LIMITS)


def explain(
    puzzle: Puzzle,
    entries: Any = None,
    max_technique: Technique | None = None,
    budget: Budget | None = None,
    quiet: bool = False,
) -> Explanation:
    """Every step until the grid is full, the techniques run out or a contradiction
    (``quiet``: without the sentences)."""
    found = _ladder(puzzle).explain(puzzle, entries, max_technique, budget, quiet)
    if found.grade is None:
        return found
    return Explanation(
        steps=found.steps,
        solved=found.solved,
        grade=grade(found, puzzle.size * puzzle.size),
        technique_counts=found.technique_counts,
        final=found.final,
        contradiction=found.contradiction,
        candidates=found.candidates,
        score=found.score,
    )
