"""The position the units ladder reasons on, and its simplest techniques: singles,
locked candidates, naked and hidden subsets, and fish.

Vocabulary (see :mod:`.shape` for units, cells and candidates):

- *plan*: a shape compiled for the techniques: per unit its cells as a list and as a
  *cell set* (an int, bit ``i`` for cell ``i``), per cell its units and peers (also as a
  cell set), the rows and the columns in order.
- *position*: per cell its candidates (``masks``) and its digit once placed (``placed``,
  0 while open); per digit the cell set of the open cells that can still take it
  (``where``); the cell set of the open cells (``open``) and per unit the digits placed
  in it (``held``, a mask). Placing a digit removes it from the cell's peers: the rule,
  not a step.
- *conjugate pair*: a digit with exactly two places left in a unit: one of them holds it.

Every technique takes the position (and a key: a cell, a unit or a digit), returns a
:class:`~numgrid.server.core.Step` or None, and never changes the position; every step
is implied by the rules and the position alone (unique rectangles, found only when the
puzzle is known to have one solution, add that fact). A position that cannot be
completed raises :class:`Contradiction`.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from numgrid.server.chain import Contradiction
from numgrid.server.chain import Memos
from numgrid.server.chain import Reason
from numgrid.server.chain import capital
from numgrid.server.chain import listed
from numgrid.server.chain import names
from numgrid.server.chain import outcome
from numgrid.server.chain import said
from numgrid.server.chain import words
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import GroupType
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digits_of
from numgrid.server.kinds.masks import single

from .shape import Shape
from .shape import UnitGroup

__all__ = ["Contradiction", "Plan", "Position", "Technique", "bit", "digits_of", "single"]

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
BOXLIKE = (GroupType.BOX, GroupType.REGION)


class Technique(enum.IntEnum):
    """The techniques, simplest first (the order the ladder tries them in, and the
    difficulty rank); named as ``numgrid.v1.Technique``."""

    FULL_HOUSE = 1  # the last open cell of a unit
    NAKED_SINGLE = 2  # a cell with one candidate left
    HIDDEN_SINGLE = 3  # a digit with one place left in a unit
    POINTING = 4  # a box's places for a digit all in one line: not elsewhere in the line
    CLAIMING = 5  # a line's places for a digit all in one box: not elsewhere in the box
    NAKED_SUBSET = 6  # two or three cells of a unit holding as many digits between them
    HIDDEN_SUBSET = 7  # two or three digits of a unit with as many places between them
    NAKED_QUAD = 8  # four cells of a unit holding four digits between them
    HIDDEN_QUAD = 9  # four digits of a unit with four places between them
    X_WING = 10  # a digit in two lines confined to two cross lines
    SWORDFISH = 11  # three lines, three cross lines
    REMOTE_PAIRS = 12  # a chain of cells holding the same two digits
    TURBOT_FISH = 13  # three links on one digit: two conjugate pairs joined at one end
    W_WING = 14  # two cells holding the same two digits, joined by a conjugate pair
    XY_WING = 15  # a two-digit cell and two two-digit pincers
    XYZ_WING = 16  # a three-digit cell and two two-digit pincers
    UNIQUE_RECTANGLE = 17  # four cells that would let two digits swap (one solution known)
    SIMPLE_COLOURING = 18  # a digit's conjugate pairs coloured in two colours
    JELLYFISH = 19  # four lines, four cross lines
    X_CHAIN = 20  # alternating strong and weak links on one digit
    XY_CHAIN = 21  # a chain of two-digit cells
    AIC = 22  # an alternating inference chain over any candidates
    FORCING_CHAIN = 23  # every candidate of a cell (place of a digit in a unit) agrees
    TRIAL = 24  # last resort: an assumption that ends in a contradiction


# ---------------------------------------------------------------- plans


@dataclass(frozen=True, eq=False)
class Plan:
    """A shape compiled to lists and cell sets for the techniques."""

    shape: Shape
    n: int
    full: int  # the mask of every digit
    coords: tuple[Cell, ...]  # cell i as (r, c)
    unit_cells: tuple[tuple[int, ...], ...]
    unit_sets: tuple[int, ...]  # per unit, its cells as a cell set
    groups: tuple[UnitGroup, ...]  # per unit, as steps name it
    boxlike: tuple[bool, ...]  # per unit: a box or a region
    cell_units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    peer_sets: tuple[int, ...]
    rows: tuple[int, ...]  # the unit index of row r, in order
    cols: tuple[int, ...]  # the unit index of column c, in order
    # per cell: the boxes (regions) that meet one of its units, and the other units that
    # meet one of its boxes: the locked candidates whose findings a change there can alter
    box_watch: tuple[tuple[int, ...], ...]
    line_watch: tuple[tuple[int, ...], ...]

    def name(self, u: int) -> str:
        return self.groups[u].name

    def cell(self, i: int) -> str:
        return cell_name(self.coords[i])

    def cells(self, ids: Iterable[int]) -> str:
        """``r0c1, r0c2 and r4c4``."""
        return names(self.coords[i] for i in ids)

    @functools.cached_property
    def cell_reads(self) -> dict[Slot, tuple[tuple[int, ...], ...]]:
        """Per memo of findings by cell or unit, per cell: the keys whose findings read
        it (a naked single its own cell; the unit techniques its units; the locked
        candidates the boxes and lines around it)."""
        reads: dict[Slot, tuple[tuple[int, ...], ...]] = {
            int(Technique.NAKED_SINGLE): tuple((i,) for i in range(self.n * self.n)),
            int(Technique.POINTING): self.box_watch,
            int(Technique.CLAIMING): self.line_watch,
        }
        reads.update(dict.fromkeys(map(int, UNIT_SLOTS), self.cell_units))
        return reads


@functools.lru_cache(maxsize=64)
def plan(shape: Shape) -> Plan:
    """The plan of a shape (cached: shapes are frozen and hashable)."""
    n = shape.size
    unit_cells = tuple(unit.cells for unit in shape.units)
    unit_sets = tuple(sum(1 << i for i in cells) for cells in unit_cells)
    boxlike = tuple(unit.type in BOXLIKE for unit in shape.units)
    rows = tuple(u for u, unit in enumerate(shape.units) if unit.type is GroupType.ROW)
    cols = tuple(u for u, unit in enumerate(shape.units) if unit.type is GroupType.COLUMN)
    meets = [
        {v for v, vs in enumerate(unit_sets) if vs & unit_sets[u]} for u in range(len(unit_sets))
    ]
    box_watch, line_watch = [], []
    for i in range(n * n):
        mine = shape.cell_units[i]
        box_watch.append(tuple(sorted({v for u in mine for v in meets[u] if boxlike[v]})))
        line_watch.append(
            tuple(sorted({v for u in mine if boxlike[u] for v in meets[u] if not boxlike[v]}))
            + tuple(u for u in mine if not boxlike[u])
        )
    return Plan(
        shape=shape,
        n=n,
        full=(1 << n) - 1,
        coords=tuple(divmod(i, n) for i in range(n * n)),
        unit_cells=unit_cells,
        unit_sets=unit_sets,
        groups=shape.groups,
        boxlike=boxlike,
        cell_units=shape.cell_units,
        peers=shape.peers,
        peer_sets=tuple(sum(1 << j for j in ps) for ps in shape.peers),
        rows=rows,
        cols=cols,
        box_watch=tuple(box_watch),
        line_watch=tuple(tuple(dict.fromkeys(w)) for w in line_watch),
    )


def members(cells: int) -> Iterator[int]:
    """The cells of a cell set, in index order."""
    while cells:
        low = cells & -cells
        yield low.bit_length() - 1
        cells ^= low


# ---------------------------------------------------------------- positions

# memo slots beyond the techniques'
CELLS_SLOT = len(Technique) + 1
UNIT_SLOTS = (
    Technique.FULL_HOUSE,
    Technique.HIDDEN_SINGLE,
    Technique.NAKED_SUBSET,
    Technique.HIDDEN_SUBSET,
    Technique.NAKED_QUAD,
    Technique.HIDDEN_QUAD,
)
DIGIT_SLOTS = (
    Technique.X_WING,
    Technique.SWORDFISH,
    Technique.JELLYFISH,
    Technique.TURBOT_FISH,
    Technique.SIMPLE_COLOURING,
    Technique.X_CHAIN,
)
SLOTS = {t.name: int(t) for t in Technique}
WHOLE_SLOTS = (
    Technique.UNIQUE_RECTANGLE,
    Technique.REMOTE_PAIRS,
    Technique.W_WING,
    Technique.XY_WING,
    Technique.XYZ_WING,
    Technique.XY_CHAIN,
    Technique.AIC,
    Technique.FORCING_CHAIN,
    Technique.TRIAL,
)

Slot = int | str  # a memo: this ladder's by number, a technique added on top by its name


@functools.lru_cache(maxsize=None, typed=True)
def slot_of(technique: int) -> Slot:
    """The memo of a technique (or of a slot given as a number): this ladder's by its
    name, one another ladder adds on top by its own. Typed: members of two enums, equal
    as numbers, differ."""
    name = getattr(technique, "name", None)
    if name is None:
        return technique
    return SLOTS.get(name, name)


class Position(Memos):
    """Candidates and placed digits of every cell, and what each technique found there.

    Techniques memoise their findings per cell, unit or digit. A change is noted, and a
    memo, when next asked, forgets what the changes since can alter (the findings of the
    cells' units, of the locked candidates around them, of the digits they lost; all of
    a whole-grid technique's): a chain of steps re-examines only what changed, and a
    technique not asked pays nothing.

    ``techniques`` is the enum steps are named from (by name): a ladder that adds
    techniques on top sets its own, which names these too."""

    techniques: type[enum.IntEnum] = Technique

    def __init__(
        self,
        plan: Plan,
        masks: Iterable[int],
        placed: Iterable[int] | None = None,
        unique: bool = False,
        budget: Budget | None = None,
    ):
        super().__init__(budget, CELLS_SLOT + 1)
        self.plan = plan
        self.masks = list(masks)
        self.placed = list(placed) if placed is not None else [0] * len(self.masks)
        self.unique = unique  # the puzzle is known to have one solution
        self.extra: dict[str, dict] = {}  # memos of techniques added on top, by name
        self._changed: list[tuple[int, int]] | None = None  # within apply: to note
        self._log: list[tuple[set[int], int]] = []  # the changes: (cells, digits lost)
        self._seen: dict[Slot, int] = {}  # per memo: how many changes it has forgotten
        self.where = [0] * (plan.n + 1)  # per digit: the open cells that can take it
        self.open = 0  # the cells not placed, as a cell set
        for i, m in enumerate(self.masks):
            if not self.placed[i]:
                self.open |= 1 << i
                for d in digits_of(m):
                    self.where[d] |= 1 << i
        self.held = [0] * len(plan.unit_cells)  # per unit: the digits placed in it
        for u, cells in enumerate(plan.unit_cells):
            for i in cells:
                if self.placed[i]:
                    self.held[u] |= bit(self.placed[i])

    def memo(self, technique: int) -> dict:
        """The memo of a technique (:func:`slot_of`), having forgotten what the changes
        since it was last asked can alter. It holds only until the position next
        changes: ask again after a change (a dict kept across one may hold stale
        findings)."""
        slot = slot_of(technique)
        found = self.extra.setdefault(slot, {}) if isinstance(slot, str) else self._memo[slot]
        seen = self._seen.get(slot, 0)
        if seen < len(self._log):
            if found:
                self._forget(slot, found, self._log[seen:])
            self._seen[slot] = len(self._log)
        return found

    def _forget(self, slot: Slot, found: dict, changes: list[tuple[set[int], int]]) -> None:
        """Forget in one memo what the ``changes`` can alter: the keys that read their
        cells, or the digits they lost, or (a whole-grid technique) everything."""
        cells = changes[0][0] if len(changes) == 1 else set().union(*[c for c, _ in changes])
        lost = 0
        for _, digits in changes:
            lost |= digits
        if isinstance(slot, str):
            self._forget_extra(slot, found, cells)
        elif (reads := self.plan.cell_reads.get(slot)) is not None:
            forget_keys(found, reads, cells)
        elif slot in DIGIT_SLOTS:  # keyed by digit - 1
            for d in digits_of(lost):
                found.pop(d - 1, None)
        elif slot == CELLS_SLOT:  # keyed by digit
            for d in digits_of(lost):
                found.pop(d, None)
        else:
            found.clear()

    def _forget_extra(self, name: str, found: dict, cells: set[int]) -> None:
        """Forget what a technique added on top found: all of it, as it may read any
        cell (a ladder that knows what each of its keys reads forgets less)."""
        found.clear()

    def copy(self) -> Position:
        other = Position.__new__(Position)
        Memos.__init__(other, self.budget, CELLS_SLOT + 1)
        self.copy_memos(other)
        other.extra = {name: dict(found) for name, found in self.extra.items()}
        other._changed = None
        other._log, other._seen = list(self._log), dict(self._seen)
        other.plan, other.unique, other.techniques = self.plan, self.unique, self.techniques
        other.masks, other.placed, other.where = (
            list(self.masks),
            list(self.placed),
            list(self.where),
        )
        other.open, other.held = self.open, list(self.held)
        return other

    @property
    def solved(self) -> bool:
        return all(self.placed)

    def candidates(self) -> dict[Cell, tuple[int, ...]]:
        return {cell: digits_of(m) for cell, m in zip(self.plan.coords, self.masks, strict=True)}

    def grid(self) -> tuple[tuple[int, ...], ...]:
        """Placed digits, 0 for open cells."""
        n = self.plan.n
        return tuple(tuple(self.placed[r * n : r * n + n]) for r in range(n))

    def open_cells(self, u: int) -> list[int]:
        placed = self.placed
        return [i for i in self.plan.unit_cells[u] if not placed[i]]

    def apply(self, step: Step) -> None:
        """Make the step's placements (each removing its digit from its peers) and
        eliminations; what they change is forgotten once, at the end."""
        n = self.plan.n
        self._changed = []
        try:
            for (r, c), digit in step.placements:
                self.place(r * n + c, digit)
            for (r, c), digit in step.eliminations:
                i = r * n + c
                self.set(i, self.masks[i] & ~bit(digit))
        finally:
            changed, self._changed = self._changed, None
            self._note(changed)

    def place(self, i: int, digit: int) -> None:
        """Place ``digit`` in cell ``i``; it leaves the cell's peers."""
        if self.placed[i] == digit:
            return
        if self.placed[i] or not self.masks[i] & bit(digit):
            raise Contradiction(
                f"{self.plan.cell(i)} cannot be {digit}", self._groups(i), [self.plan.coords[i]]
            )
        self.set(i, bit(digit))
        self.placed[i] = digit
        self.where[digit] &= ~(1 << i)
        self.open &= ~(1 << i)
        b = bit(digit)
        for u in self.plan.cell_units[i]:
            self.held[u] |= b
        self._lost(i, b)  # the digit's places changed too
        masks = self.masks
        for j in self.plan.peers[i]:
            if masks[j] & b:
                self.set(j, masks[j] & ~b)

    def set(self, i: int, mask: int) -> None:
        """Narrow cell ``i``'s candidates to ``mask``."""
        old = self.masks[i]
        if mask == old:
            return
        if not mask:
            raise Contradiction(
                f"{self.plan.cell(i)} has no candidate left", self._groups(i), [self.plan.coords[i]]
            )
        self.masks[i] = mask
        lost = old & ~mask
        off = ~(1 << i)
        for d in digits_of(lost):
            self.where[d] &= off
        self._lost(i, lost)

    def _groups(self, i: int) -> list[UnitGroup]:
        return [self.plan.groups[u] for u in self.plan.cell_units[i]]

    def _lost(self, i: int, lost: int) -> None:
        """Note that cell ``i`` lost the digits ``lost`` (within :meth:`apply`, the
        step's changes are noted as one)."""
        if self._changed is not None:
            self._changed.append((i, lost))
        else:
            self._note([(i, lost)])

    def _note(self, changed: list[tuple[int, int]]) -> None:
        """Note the changes ``(cell, digits it lost)`` for the memos to forget."""
        if changed:
            lost = 0
            for _, digits in changed:
                lost |= digits
            self._log.append(({i for i, _ in changed}, lost))


def forget_keys(found: dict, reads: Sequence[tuple[int, ...]], cells: Iterable[int]) -> None:
    """Forget, in a memo, the keys ``reads[i]`` (those whose findings read cell ``i``)
    of each of ``cells``."""
    for i in cells:
        for key in reads[i]:
            found.pop(key, None)


# ---------------------------------------------------------------- steps


def make_step(
    pos: Position,
    technique: enum.IntEnum,  # a units technique, or one a ladder on top adds
    removals: dict[int, int],
    units: Iterable[int],
    cells: Iterable[int],
    reason: Reason,
    place: dict[int, int] | None = None,
    joiner: str = ", so ",
) -> Step:
    """A step removing ``removals[i]`` (a mask) from open cell ``i`` and placing
    ``place[i]`` (a digit). A cell left with no candidate is a contradiction; one left
    with one candidate keeps it as an elimination (a naked single places it next)."""
    plan = pos.plan
    coords, groups = plan.coords, plan.groups
    eliminations: list[tuple[Cell, int]] = []
    for i in sorted(removals):
        mask = pos.masks[i]
        gone = mask & removals[i]
        if not gone:
            continue
        if not mask & ~gone:
            raise Contradiction(
                f"{capital(words(reason))}, which leaves {plan.cell(i)} no candidate",
                [groups[u] for u in units],
                [coords[i]],
            )
        cell = coords[i]
        eliminations += [(cell, d) for d in digits_of(gone)]
    placements = [(coords[i], d) for i, d in sorted(place.items())] if place else []
    return Step(
        named_in(pos.techniques, technique),
        tuple(placements),
        tuple(eliminations),
        tuple([groups[u] for u in dict.fromkeys(units)]),
        tuple([coords[i] for i in dict.fromkeys(cells)]),
        said(pos, lambda: f"{capital(words(reason))}{joiner}{outcome(placements, eliminations)}."),
    )


@functools.lru_cache(maxsize=None, typed=True)
def named_in(techniques: type[enum.IntEnum], technique: enum.IntEnum) -> enum.IntEnum:
    """``technique``'s namesake in ``techniques`` (a ladder on top names the units
    techniques with its own enum). Typed: members of two enums, equal as numbers, differ."""
    return techniques[technique.name]


def digits_said(mask: int, last: str = "and") -> str:
    """The digits of a mask in a sentence: ``1, 3 and 4``."""
    return listed(digits_of(mask), last)


def sees_all(pos: Position, cells: Iterable[int]) -> int:
    """The cells (a cell set) that are peers of every one of ``cells``."""
    found = -1
    for i in cells:
        found &= pos.plan.peer_sets[i]
    return found if found != -1 else 0


def removals_of(pos: Position, targets: int, digits: int) -> dict[int, int]:
    """Per open cell of the cell set ``targets``: the ``digits`` it still has (the
    cells come from the digits' places, ``where``, not from a walk over ``targets``)."""
    holding = 0
    for d in digits_of(digits):
        holding |= pos.where[d]
    masks = pos.masks
    return {j: masks[j] & digits for j in members(targets & holding)}


# ---------------------------------------------------------------- singles


def full_house(pos: Position, u: int) -> Step | None:
    """The one open cell of a unit takes the one digit the unit lacks."""
    open_ = pos.plan.unit_sets[u] & pos.open
    if not open_ or open_ & (open_ - 1):
        return None
    i = open_.bit_length() - 1
    lacks = pos.plan.full & ~pos.held[u]
    name = pos.plan.name(u)
    if not single(lacks) or not pos.masks[i] & lacks:
        raise Contradiction(
            f"{name} lacks {digits_said(lacks)} but has one open cell, {pos.plan.cell(i)}",
            [pos.plan.groups[u]],
            [pos.plan.coords[i]],
        )
    d = lacks.bit_length()

    def reason() -> str:
        return f"{name} has one open cell left, {pos.plan.cell(i)}, and lacks only {d}"

    return make_step(pos, Technique.FULL_HOUSE, {}, [u], [i], reason, place={i: d})


def naked_single(pos: Position, i: int) -> Step | None:
    """A cell with one candidate left: its units hold the others (or it lost them)."""
    mask = pos.masks[i]
    if pos.placed[i] or not single(mask):
        return None
    units = pos.plan.cell_units[i]
    reason = functools.partial(_one_left, pos, i)
    return make_step(pos, Technique.NAKED_SINGLE, {}, units, [i], reason, {i: mask.bit_length()})


def _one_left(pos: Position, i: int) -> str:
    """Why cell ``i`` has one candidate left: what its units hold, what it had lost."""
    plan = pos.plan
    others = plan.full & ~pos.masks[i]
    holds, told = [], 0
    for u in plan.cell_units[i]:
        here = pos.held[u] & others & ~told
        told |= here
        if here:
            holds.append(f"{plan.name(u)} holds {digits_said(here)}")
    lost = others & ~told
    cell = plan.cell(i)
    parts = [listed(holds, "and")] if holds else []
    if lost:
        parts.append(f"{cell} had already lost {digits_said(lost)}")
    return ", and ".join(parts) if parts else f"{cell} has one candidate left"


def hidden_single(pos: Position, u: int) -> Step | None:
    """A digit with one place left in a unit goes there."""
    plan, where = pos.plan, pos.where
    unit_set = plan.unit_sets[u]
    for d in digits_of(plan.full & ~pos.held[u]):
        places = where[d] & unit_set
        if places & (places - 1):
            continue
        if not places:
            raise Contradiction(
                f"no cell of {plan.name(u)} can take {d}", [plan.groups[u]], plan.groups[u].cells
            )
        i = places.bit_length() - 1
        if single(pos.masks[i]):
            continue  # a naked single (or a full house) says it more simply
        reason = functools.partial(_only_place, plan, u, i, d)
        return make_step(pos, Technique.HIDDEN_SINGLE, {}, [u], [i], reason, place={i: d})
    return None


def _only_place(plan: Plan, u: int, i: int, d: int) -> str:
    return f"in {plan.name(u)}, only {plan.cell(i)} can take {d}"


# ---------------------------------------------------------------- locked candidates


def _locked(pos: Position, u: int, technique: Technique) -> Step | None:
    """A digit whose places in unit ``u`` all lie in another unit ``v``: ``v``'s other
    cells lose it (one of those places holds it)."""
    plan = pos.plan
    unit_set = plan.unit_sets[u]
    best: tuple[int, int, int, dict[int, int]] | None = None
    for d in range(1, plan.n + 1):
        places = pos.where[d] & unit_set
        if not places or not places & (places - 1):
            continue
        first = places.bit_length() - 1
        for v in plan.cell_units[first]:
            if v == u or places & ~plan.unit_sets[v]:
                continue
            extra = pos.where[d] & plan.unit_sets[v] & ~unit_set
            if extra:
                removals = dict.fromkeys(members(extra), bit(d))
                if best is None or len(removals) > len(best[3]):
                    best = (d, v, places, removals)
    if best is None:
        return None
    d, v, places, removals = best
    cells = list(members(places))

    def reason() -> str:
        both = "both" if len(cells) == 2 else "all"
        word = "pointing" if technique is Technique.POINTING else "claiming"
        return (
            f"in {plan.name(u)}, {d} can only go in {plan.cells(cells)}, {both} in "
            f"{plan.name(v)} ({word})"
        )

    return make_step(pos, technique, removals, [u, v], cells, reason)


def pointing(pos: Position, u: int) -> Step | None:
    """Locked candidates from a box or region into a line."""
    return _locked(pos, u, Technique.POINTING) if pos.plan.boxlike[u] else None


def claiming(pos: Position, u: int) -> Step | None:
    """Locked candidates from a line into a box or region (or another line)."""
    return None if pos.plan.boxlike[u] else _locked(pos, u, Technique.CLAIMING)


# ---------------------------------------------------------------- subsets


def _tight(items: list[int], masks: Any, size: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every ``size`` of ``items`` whose masks cover at most ``size`` bits, with their
    union (fewer bits than ``size`` is a contradiction for the caller to name)."""
    for group in itertools.combinations(items, size):
        union = 0
        for x in group:
            union |= masks[x]
        if union.bit_count() <= size:
            yield group, union


def _better(best: tuple[Any, ...] | None, removals: dict[int, int], *found: Any) -> Any:
    """``(removals, *found)`` if it removes more candidates than ``best`` (the first of
    equals kept), else ``best``."""
    lost = sum(m.bit_count() for m in removals.values())
    if lost and (best is None or lost > sum(m.bit_count() for m in best[0].values())):
        return (removals, *found)
    return best


def _naked(pos: Position, u: int, sizes: tuple[int, ...], technique: Technique) -> Step | None:
    """``k`` cells of a unit whose candidates are ``k`` digits between them: those digits
    go in them and leave the unit's other cells."""
    plan, masks = pos.plan, pos.masks
    open_ = pos.open_cells(u)
    for size in sizes:
        if len(open_) <= size:
            return None
        small = [i for i in open_ if masks[i].bit_count() <= size]
        best = None
        for group, union in _tight(small, masks, size):
            if union.bit_count() < size:
                raise Contradiction(
                    f"{plan.cells(group)} in {plan.name(u)} need {size} different digits "
                    f"from {digits_said(union, 'or')}",
                    [plan.groups[u]],
                    [plan.coords[i] for i in group],
                )
            removals = {j: masks[j] & union for j in open_ if j not in group and masks[j] & union}
            best = _better(best, removals, group, union)
        if best:
            removals, group, union = best
            reason = functools.partial(_naked_said, plan, u, group, union)
            return make_step(pos, technique, removals, [u], group, reason)
    return None


def _naked_said(plan: Plan, u: int, group: tuple[int, ...], union: int) -> str:
    return (
        f"in {plan.name(u)}, {plan.cells(group)} can only hold {digits_said(union)} "
        f"between them (a naked {SUBSET_NAMES[len(group)]})"
    )


def _hidden(pos: Position, u: int, sizes: tuple[int, ...], technique: Technique) -> Step | None:
    """``k`` digits of a unit with ``k`` places between them: those cells hold nothing
    else."""
    plan, masks = pos.plan, pos.masks
    unit_set = plan.unit_sets[u]
    lacks = plan.full & ~pos.held[u]
    places = {d: pos.where[d] & unit_set for d in digits_of(lacks)}
    open_count = (unit_set & pos.open).bit_count()
    for size in sizes:
        if open_count <= size + 1:  # a hidden subset of the rest is a naked one
            return None
        some = [d for d, p in places.items() if 2 <= p.bit_count() <= size]
        best = None
        for group, where in _tight(some, places, size):
            keep = sum(bit(d) for d in group)
            cells = list(members(where))
            if where.bit_count() < size:
                raise Contradiction(
                    f"in {plan.name(u)}, {listed(group, 'and')} have only "
                    f"{plan.cells(cells)} to go in",
                    [plan.groups[u]],
                    [plan.coords[i] for i in cells],
                )
            removals = {i: masks[i] & ~keep for i in cells if masks[i] & ~keep}
            best = _better(best, removals, group, cells)
        if best:
            removals, group, cells = best
            reason = functools.partial(_hidden_said, plan, u, group, cells)
            return make_step(pos, technique, removals, [u], cells, reason)
    return None


def _hidden_said(plan: Plan, u: int, group: tuple[int, ...], cells: list[int]) -> str:
    return (
        f"in {plan.name(u)}, {listed(group, 'and')} can only go in "
        f"{plan.cells(cells)} (a hidden {SUBSET_NAMES[len(group)]})"
    )


def naked_subset(pos: Position, u: int) -> Step | None:
    """A naked pair or triple."""
    return _naked(pos, u, (2, 3), Technique.NAKED_SUBSET)


def hidden_subset(pos: Position, u: int) -> Step | None:
    """A hidden pair or triple."""
    return _hidden(pos, u, (2, 3), Technique.HIDDEN_SUBSET)


def naked_quad(pos: Position, u: int) -> Step | None:
    return _naked(pos, u, (4,), Technique.NAKED_QUAD)


def hidden_quad(pos: Position, u: int) -> Step | None:
    return _hidden(pos, u, (4,), Technique.HIDDEN_QUAD)


# ---------------------------------------------------------------- fish


def line_places(pos: Position, d: int, base: tuple[int, ...], n: int, by_row: bool) -> list[int]:
    """Per line of ``base`` (the rows, or the columns): the cross indices where digit
    ``d`` can go, as a mask: column numbers, or row numbers when ``by_row``."""
    where = pos.where[d]
    out = []
    for u in base:
        found = 0
        for i in members(where & pos.plan.unit_sets[u]):
            found |= 1 << (i // n if by_row else i % n)
        out.append(found)
    return out


def _fish(pos: Position, k: int, size: int, technique: Technique) -> Step | None:
    """Digit ``k + 1`` confined, in ``size`` rows (columns), to ``size`` columns (rows):
    those columns' other cells lose it."""
    d = k + 1
    plan = pos.plan
    n = plan.n
    if pos.where[d].bit_count() < 2 * size:
        return None
    best = None
    for base, cover, by_row in ((plan.rows, plan.cols, False), (plan.cols, plan.rows, True)):
        spots = line_places(pos, d, base, n, by_row)
        lines = [x for x, s in enumerate(spots) if 2 <= s.bit_count() <= size]
        if len(lines) < size:
            continue
        for group in itertools.combinations(lines, size):
            union = 0
            for x in group:
                union |= spots[x]
            if union.bit_count() != size:
                continue
            inside = 0
            for x in group:
                inside |= plan.unit_sets[base[x]]
            covers = [cover[y] for y in range(n) if union >> y & 1]
            outside = 0
            for v in covers:
                outside |= plan.unit_sets[v]
            extra = pos.where[d] & outside & ~inside
            if extra and (best is None or extra.bit_count() > best[0].bit_count()):
                best = (extra, [base[x] for x in group], covers, pos.where[d] & inside)
    if best is None:
        return None
    extra, bases, covers, body = best

    def reason() -> str:
        kind_of = "rows" if plan.shape.units[bases[0]].type is GroupType.ROW else "columns"
        cross = "columns" if kind_of == "rows" else "rows"
        base_ids = listed((plan.shape.units[u].index for u in bases), "and")
        cover_ids = listed((plan.shape.units[v].index for v in covers), "and")
        return (
            f"in {kind_of} {base_ids}, {d} can only go in {cross} {cover_ids} "
            f"({plan.cells(members(body))}: {'an' if size == 2 else 'a'} {FISH_NAMES[size]})"
        )

    removals = dict.fromkeys(members(extra), bit(d))
    return make_step(pos, technique, removals, [*bases, *covers], members(body), reason)


def x_wing(pos: Position, k: int) -> Step | None:
    return _fish(pos, k, 2, Technique.X_WING)


def swordfish(pos: Position, k: int) -> Step | None:
    return _fish(pos, k, 3, Technique.SWORDFISH)


def jellyfish(pos: Position, k: int) -> Step | None:
    return _fish(pos, k, 4, Technique.JELLYFISH)
