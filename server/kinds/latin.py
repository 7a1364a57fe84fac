"""What the latin-square kinds share, as Simon Tatham's puzzles share ``latin.c``: the
lines of an N x N grid, their duplicate checks, a random latin square, the positions and
the latin techniques of the logical solvers.

Vocabulary, named once:

- *line*: a row, a column, or (a diagonal variant) a main diagonal. Each *value*
  appears in a line a fixed number of times, its *quota*: a digit (a height) once; in a
  variant with empty lots (heights 1..H on an N x N grid),
  :data:`~numgrid.server.core.EMPTY` N - H times.
- *mask*: a set of values as bits: bit ``d - 1`` is the digit ``d``, the bit after the
  largest digit is EMPTY.
- *frame*: an N x N grid compiled to indices: cell ``(r, c)`` is ``r * N + c``; lines
  ``0..N-1`` are the rows, then the columns, then the diagonals (index 0 from the
  top-left corner, 1 from the top-right); and its values as bits.
- *position*: what the latin techniques read of a kind's position: ``frame``, ``masks``
  (per cell, its candidates), ``placed`` (per cell, its value, 0 while open) and
  ``techniques``, the kind's technique enum (which names NAKED_SINGLE, HIDDEN_SINGLE,
  NAKED_SUBSET and HIDDEN_SUBSET as the proto does). Placing a value removes it from the
  rest of a line once the line holds its quota (a digit at once): the rule, not a step.
- *contradiction*: a position that no filling completes; raised, never returned.

Every technique returns a :class:`~numgrid.server.core.Step` or None and never changes
the position; every step is implied by the rules and the position alone.
"""

from __future__ import annotations

import enum
import functools
import itertools
import random
from collections import Counter
from collections import defaultdict
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
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
from numgrid.server.core import EMPTY
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import Group
from numgrid.server.core import GroupReport
from numgrid.server.core import GroupType
from numgrid.server.core import PuzzleError
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.kinds.judging import distinct_report
from numgrid.server.kinds.judging import finding
from numgrid.server.kinds.masks import digits_of
from numgrid.server.kinds.masks import single

WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
LARGEST_SUBSET = max(SUBSET_NAMES)
# Open cells of a line up to which its hidden subsets (of two cells or more) are the
# complements of naked ones of at most LARGEST_SUBSET cells, which remove the same
# candidates: a grading that found no naked subset there need not look for hidden ones.
NAKED_ONLY = LARGEST_SUBSET + 2


# ---------------------------------------------------------------- lines


@dataclass(frozen=True)
class Line:
    """A row, a column or a diagonal: each value its quota of times."""

    type: GroupType  # ROW, COLUMN or DIAGONAL
    index: int  # a diagonal's: 0 from the top-left corner, 1 from the top-right
    cells: tuple[Cell, ...]

    clue = None
    clue_cell = None
    operation = ""

    @property
    def name(self) -> str:
        """``row 2``, ``column 0``, ``diagonal r0c4-r4c0``."""
        if self.type is GroupType.DIAGONAL:
            return f"diagonal {cell_name(self.cells[0])}-{cell_name(self.cells[-1])}"
        return f"{self.type.value} {self.index}"


@functools.cache
def lines(n: int, diagonals: bool = False) -> tuple[Line, ...]:
    """The rows, then the columns (then the two main diagonals) of an N x N grid."""
    rows = [Line(GroupType.ROW, r, tuple((r, c) for c in range(n))) for r in range(n)]
    cols = [Line(GroupType.COLUMN, c, tuple((r, c) for r in range(n))) for c in range(n)]
    diags = []
    if diagonals:
        diags = [
            Line(GroupType.DIAGONAL, 0, tuple((k, k) for k in range(n))),
            Line(GroupType.DIAGONAL, 1, tuple((k, n - 1 - k) for k in range(n))),
        ]
    return (*rows, *cols, *diags)


# ---------------------------------------------------------------- random squares


def latin_square(n: int, rng: random.Random, reshuffle: bool = False) -> Grid:
    """A random N x N latin square of 1..N: each row a random perfect matching of the
    columns to the values they still lack (a latin rectangle always extends, by Hall's
    theorem), found by augmenting paths from the columns in random order. The values
    are tried in one random order per row, or (``reshuffle``) in a fresh random order
    at every column an augmenting path visits."""
    free = [(1 << n) - 1] * n  # per column, the values (as bits) it still lacks
    rows = []
    for _ in range(n):
        holder = [-1] * n  # per value - 1, the column it goes to in this row
        columns = list(range(n))
        rng.shuffle(columns)
        order = None
        if not reshuffle:
            order = list(range(n))
            rng.shuffle(order)
        for c in columns:
            _augment(c, free, holder, [False] * n, rng, order)
        row = [0] * n
        for d, c in enumerate(holder):
            row[c] = d + 1
            free[c] &= ~(1 << d)
        rows.append(tuple(row))
    return tuple(rows)


def _augment(
    c: int,
    free: list[int],
    holder: list[int],
    seen: list[bool],
    rng: random.Random,
    order: list[int] | None,
) -> bool:
    """Kuhn's augmenting path from column ``c`` (values tried in ``order``, or in a
    fresh random order when None)."""
    if order is None:
        tried = [d for d in range(len(holder)) if free[c] >> d & 1]
        rng.shuffle(tried)
    else:
        tried = [d for d in order if free[c] >> d & 1]
    for d in tried:
        if not seen[d]:
            seen[d] = True
            if holder[d] < 0 or _augment(holder[d], free, holder, seen, rng, order):
                holder[d] = c
                return True
    return False


# ---------------------------------------------------------------- puzzles


class Square:
    """What a latin kind's puzzle (a dataclass with an N x N grid of ``size``) has."""

    size: int

    @property
    def rows(self) -> int:
        return self.size

    @property
    def cols(self) -> int:
        return self.size

    @functools.cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.size) for c in range(self.size))

    def empty_grid(self) -> Grid:
        return tuple((0,) * self.size for _ in range(self.size))


class GivenSquare(Square):
    """A latin puzzle with values printed in its grid (``givens``, 0 where none is)."""

    givens: Grid

    def given(self, cell: Cell) -> int:
        return self.givens[cell[0]][cell[1]]

    def filled(self, entries: Grid) -> Grid:
        """The board's values: the givens, and the entries elsewhere."""
        return tuple(
            tuple(g or e for g, e in zip(grow, erow, strict=True))
            for grow, erow in zip(self.givens, entries, strict=True)
        )

    def overwritten(self, entries: Grid) -> list[Finding]:
        """An entry over a given that differs from it, each cell named: the board keeps
        the given, so such an entry would otherwise be lost without a word. ``entries``
        must have the grid's shape."""
        return [
            finding(
                "given_changed",
                f"{cell_name(cell)}: entry {e} over the given {g}",
                [cell],
            )
            for cell in self.cells
            if (g := self.givens[cell[0]][cell[1]]) and (e := entries[cell[0]][cell[1]]) != g and e
        ]

    def entered(self, entries: Grid) -> Grid:
        """The player's own entries: those outside the given cells."""
        return tuple(
            tuple(0 if g else e for g, e in zip(grow, erow, strict=True))
            for grow, erow in zip(self.givens, entries, strict=True)
        )


# ---------------------------------------------------------------- board checks


def duplicates(
    cells: Iterable[Cell], entries: Grid, apart: Callable[[Cell, Cell], bool] | None = None
) -> dict[int, list[Cell]]:
    """Value -> the cells holding it, for values entered more than once (EMPTY aside;
    ``apart`` says which pairs of cells may hold the same value)."""
    by_value: dict[int, list[Cell]] = defaultdict(list)
    for cell in cells:
        value = entries[cell[0]][cell[1]]
        if value and value != EMPTY:
            by_value[value].append(cell)
    out: dict[int, list[Cell]] = {}
    for value, held in by_value.items():
        clash = [
            a for a in held if any(a != b and (apart is None or not apart(a, b)) for b in held)
        ]
        if clash:
            out[value] = clash
    return out


def judge_line(line: Line, entries: Grid, empties: int = 0) -> tuple[GroupReport, list[Finding]]:
    """A line of a board: a digit entered twice, more EMPTY cells than its ``empties``,
    complete or not. ``entries`` holds every value on the board (givens included)."""
    dups = _duplicate_findings(line, entries)
    findings = [f for f, _ in dups]
    at_fault = [cell for _, cells in dups for cell in cells]
    empty = [cell for cell in line.cells if entries[cell[0]][cell[1]] == EMPTY]
    if len(empty) > empties:
        holds = f"only {empties}" if empties else "none"
        findings.append(
            finding(
                "too_many_empty",
                f"{line.name}: {len(empty)} empty cells ({names(empty)}), but a "
                f"{line.type.value} holds {holds}",
                empty,
                line,
            )
        )
        at_fault.extend(empty)
    return distinct_report(line, entries, findings, at_fault)


def _duplicate_findings(line: Line, entries: Grid) -> list[tuple[Finding, list[Cell]]]:
    return [
        (
            finding(
                "duplicate",
                f"{line.name}: {value} appears {len(cells)} times "
                f"({', '.join(cell_name(c) for c in cells)})",
                cells,
                line,
            ),
            cells,
        )
        for value, cells in sorted(duplicates(line.cells, entries).items())
    ]


# ---------------------------------------------------------------- frames


@dataclass(frozen=True, eq=False)
class Frame:
    """An N x N grid's lines as indices, and its values (digits 1..``height``, then
    EMPTY ``empties`` times per line when ``height`` < N) as bits."""

    size: int
    height: int  # the largest digit
    empties: int  # EMPTY cells per line: N - height
    full: int  # the mask of every value
    cells: tuple[Cell, ...]  # cell i is (i // N, i % N)
    lines: tuple[Line, ...]
    line_cells: tuple[tuple[int, ...], ...]
    cell_lines: tuple[tuple[int, ...], ...]  # per cell: its row, its column, its diagonals
    peers: tuple[tuple[int, ...], ...]  # per cell: the other cells of its lines

    def bit(self, value: int) -> int:
        return 1 << self.height if value == EMPTY else 1 << (value - 1)

    def values_of(self, mask: int) -> tuple[int, ...]:
        """The values of a mask: its digits, then EMPTY."""
        ds = digits_of(mask)
        if self.empties and ds and ds[-1] > self.height:
            return (*ds[:-1], EMPTY)
        return ds

    def value_of(self, mask: int) -> int:
        """The value of a one-value mask."""
        d = mask.bit_length()
        return EMPTY if d > self.height else d

    def quota(self, value: int) -> int:
        """How many cells of a line hold ``value``."""
        return self.empties if value == EMPTY else 1


@functools.cache
def frame(n: int, diagonals: bool = False, height: int | None = None) -> Frame:
    height = n if height is None else height
    grid_lines = lines(n, diagonals)
    index = {(r, c): r * n + c for r in range(n) for c in range(n)}
    line_cells = tuple(tuple(index[c] for c in line.cells) for line in grid_lines)
    of: list[list[int]] = [[] for _ in range(n * n)]
    for x, cells in enumerate(line_cells):
        for i in cells:
            of[i].append(x)
    peers = tuple(
        tuple(dict.fromkeys(j for x in of[i] for j in line_cells[x] if j != i))
        for i in range(n * n)
    )
    empties = n - height
    return Frame(
        size=n,
        height=height,
        empties=empties,
        full=(1 << (height + (1 if empties else 0))) - 1,
        cells=tuple(index),
        lines=grid_lines,
        line_cells=line_cells,
        cell_lines=tuple(map(tuple, of)),
        peers=peers,
    )


# ---------------------------------------------------------------- positions


class LatinPosition(Memos):
    """What a latin kind's position holds: per cell of its layout's ``frame`` the
    candidates (``masks``) and the value placed (0 while open), what each technique
    found (:class:`~numgrid.server.chain.Memos`, a slot per technique of the kind's
    ``techniques``) and the assumptions its trial's screen refuted (still refuted later,
    as candidates only shrink). Techniques memoise their findings per group or cell;
    changing a cell forgets those it could change (:meth:`_forget_cell`, the kind's), so
    a chain of steps only re-examines what changed. The expensive techniques
    :meth:`poll` the position's ``budget``. A kind says what placing a value does
    (:meth:`place`) and what else its position holds (:meth:`_more`)."""

    techniques: type[enum.IntEnum]  # the kind's, as the latin techniques step with them
    refuted: list[Any]  # the kind's assumptions, as tuples

    def __init__(
        self,
        layout: Any,
        masks: Iterable[int],
        placed: Iterable[int] | None = None,
        budget: Budget | None = None,
    ):
        super().__init__(budget, len(self.techniques) + 1)
        self.layout = layout
        self.frame: Frame = layout.frame
        self.masks = list(masks)
        self.placed = list(placed) if placed is not None else [0] * len(self.masks)
        self.refuted = []
        self._more()

    def _more(self) -> None:
        """What a kind's position holds besides (nothing here)."""

    @classmethod
    def placing_singles(cls, layout: Any, masks: list[int]) -> Any:
        """The position of these candidates, each cell left one placed (its value leaves
        its lines); :class:`~numgrid.server.core.PuzzleError` when they clash."""
        pos = cls(layout, masks)
        try:
            for i, mask in enumerate(masks):
                if single(mask):
                    pos.place(i, pos.frame.value_of(mask))
        except Contradiction as why:
            raise PuzzleError([finding("conflicting_candidates", why.reason, why.cells)]) from None
        return pos

    def copy(self) -> Any:
        other = type(self)(self.layout, self.masks, self.placed, self.budget)
        self.copy_memos(other)
        other.refuted = list(self.refuted)
        return other

    @property
    def solved(self) -> bool:
        return all(self.placed)

    def candidates(self) -> dict[Cell, tuple[int, ...]]:
        values_of = self.frame.values_of
        return {cell: values_of(m) for cell, m in zip(self.frame.cells, self.masks, strict=True)}

    def grid(self) -> Grid:
        """Placed values, ``0`` for open cells."""
        n = self.frame.size
        return tuple(tuple(self.placed[r * n : r * n + n]) for r in range(n))

    def apply(self, step: Step) -> None:
        """Make the step's placements (each with what the rules then remove) and
        eliminations."""
        n = self.frame.size
        for (r, c), value in step.placements:
            self.place(r * n + c, value)
        for (r, c), value in step.eliminations:
            i = r * n + c
            self.set(i, self.masks[i] & ~self.frame.bit(value))

    def place(self, i: int, value: int) -> None:
        raise NotImplementedError

    def set(self, i: int, mask: int) -> None:
        """Cell ``i`` keeps the candidates of ``mask``."""
        if mask == self.masks[i]:
            return
        if not mask:
            cell = self.frame.cells[i]
            raise Contradiction(f"{cell_name(cell)} has no candidate left", self._lines(i), [cell])
        self.masks[i] = mask
        self._forget_cell(i)

    def _lines(self, i: int) -> list[Line]:
        return [self.frame.lines[x] for x in self.frame.cell_lines[i]]

    def _forget_cell(self, i: int) -> None:
        raise NotImplementedError


# ---------------------------------------------------------------- steps


def make_step(
    pos: LatinPosition,
    technique: enum.IntEnum,
    removals: Mapping[int, int],
    groups: Iterable[Group],
    cells: Iterable[int],
    reason: Reason,
    joiner: str = ", so ",
    place: dict[int, int] | None = None,
) -> Step:
    """A step removing ``removals[i]`` (a mask) from open cell ``i`` and placing
    ``place[i]`` (a value); cells left with one value are placed. A ``reason`` given as
    a function is called only when the step is said (never for a quiet position)."""
    frame = pos.frame
    placed = dict(place) if place else {}
    eliminations: list[tuple[Cell, int]] = []
    for i in sorted(removals):
        mask = pos.masks[i]
        left = mask & ~removals[i]
        if not left:
            raise Contradiction(
                f"{capital(words(reason))}, which leaves {cell_name(frame.cells[i])} no candidate",
                groups,
                [frame.cells[i]],
            )
        if single(left):
            placed[i] = frame.value_of(left)
        else:
            eliminations.extend((frame.cells[i], v) for v in frame.values_of(mask & removals[i]))
    placements = [(frame.cells[i], placed[i]) for i in sorted(placed)]
    return Step(
        technique,
        tuple(placements),
        tuple(eliminations),
        tuple(groups),
        tuple(frame.cells[i] for i in cells),
        said(
            pos,
            lambda: f"{capital(words(reason))}{joiner}{outcome(placements, eliminations)}.",
        ),
    )


def spoken(values: Iterable[int], empties: int = 1, last: str = "and") -> str:
    """Values in a sentence: ``1, 3 and 4``; EMPTY as ``its empty cell`` (or ``its two
    empty cells``) after the digits."""
    values = list(values)
    said = [str(v) for v in values if v != EMPTY]
    if EMPTY in values:
        said.append("its empty cell" if empties == 1 else f"its {WORDS[empties]} empty cells")
    return listed(said, last)


# ---------------------------------------------------------------- what a line needs


def needs(pos: LatinPosition, x: int) -> dict[int, int]:
    """Per value line ``x`` still lacks (digits in order, then EMPTY): how many more
    cells of it must hold it."""
    frame, placed = pos.frame, pos.placed
    held = empty = 0
    for i in frame.line_cells[x]:
        value = placed[i]
        if value == EMPTY:
            empty += 1
        elif value:
            held |= 1 << (value - 1)
    wanted = dict.fromkeys(digits_of(((1 << frame.height) - 1) & ~held), 1)
    if empty < frame.empties:
        wanted[EMPTY] = frame.empties - empty
    return wanted


def holders(pos: LatinPosition, x: int) -> dict[int, tuple[int, list[int]]]:
    """Per value line ``x`` still lacks: (how many more, the open cells that can take
    it). Contradiction when a value has fewer places than it needs."""
    frame, masks, placed = pos.frame, pos.masks, pos.placed
    line = frame.lines[x]
    cells = [i for i in frame.line_cells[x] if not placed[i]]
    out: dict[int, tuple[int, list[int]]] = {}
    for value, need in needs(pos, x).items():
        b = frame.bit(value)
        places = [i for i in cells if masks[i] & b]
        if len(places) < need:
            if value != EMPTY:
                raise Contradiction(f"no cell of {line.name} can take {value}", [line], line.cells)
            raise Contradiction(
                f"{line.name} needs {need} more empty cells, but only "
                f"{len(places)} of its open cells can be empty",
                [line],
                line.cells,
            )
        out[value] = (need, places)
    return out


# ---------------------------------------------------------------- singles


def naked_single(pos: LatinPosition, i: int) -> Step | None:
    """A cell with one candidate left: its lines hold the others (or it lost them)."""
    mask = pos.masks[i]
    if pos.placed[i] or not single(mask):
        return None
    frame = pos.frame
    groups = [frame.lines[x] for x in frame.cell_lines[i]]
    technique = pos.techniques["NAKED_SINGLE"]
    place = {i: frame.value_of(mask)}
    return make_step(
        pos, technique, {}, groups, [i], lambda: _naked_single_reason(pos, i), place=place
    )


def _naked_single_reason(pos: LatinPosition, i: int) -> str:
    """Why cell ``i`` has one candidate: the values its lines hold, and those it lost."""
    frame = pos.frame
    others = frame.full & ~pos.masks[i]
    holds: list[str] = []
    told = 0
    for x in frame.cell_lines[i]:
        counts = Counter(pos.placed[j] for j in frame.line_cells[x] if pos.placed[j])
        full_here = 0
        for value, count in counts.items():
            if count >= frame.quota(value):
                full_here |= frame.bit(value)
        full_here &= others & ~told
        told |= full_here
        if full_here:
            shown = spoken(frame.values_of(full_here), frame.empties)
            holds.append(f"{frame.lines[x].name} holds {shown}")
    lost = others & ~told
    cell = cell_name(frame.cells[i])
    parts = [listed(holds, "and")] if holds else []
    if lost:
        gone = listed([str(v) if v != EMPTY else "empty" for v in frame.values_of(lost)], "and")
        parts.append(f"{cell} had already lost {gone}")
    return ", and ".join(parts) if parts else f"{cell} has one candidate left"


def lone_digits(cells: Iterable[int], masks: Sequence[int], full: int) -> int | None:
    """In a line of digits only (``cells``, its candidates in ``masks``, ``full`` every
    digit): the digits with one place left, as a mask; None when a digit has none."""
    once = twice = 0
    for i in cells:
        m = masks[i]
        twice |= once & m
        once |= m
    return once & ~twice if once == full else None


def sole_places(
    cells: Sequence[int], masks: Sequence[int], full: int
) -> list[tuple[int, int]] | None:
    """In a line of digits only: each digit with one place left (:func:`lone_digits`)
    in a cell that holds others too, as (cell, bit), smallest digit first; None when a
    digit has no place at all."""
    lone = lone_digits(cells, masks, full)
    if lone is None:
        return None
    found = []
    while lone:
        b = lone & -lone
        lone ^= b
        for i in cells:
            if masks[i] & b:
                if masks[i] != b:
                    found.append((i, b))
                break
    return found


def hidden_single(pos: LatinPosition, x: int) -> Step | None:
    """A digit with one place left in a line goes there (:func:`sole_places`); so do the
    empty cells a line still needs when it has as many places for them."""
    frame = pos.frame
    told = _quota_singles(pos, x) if frame.empties else _digit_singles(pos, x)
    if not told:
        return None
    line = frame.lines[x]
    sole: dict[int, int] = {}
    for value, _, places in told:
        for i in places:
            if i in sole:
                both = spoken([sole[i], value])
                raise Contradiction(
                    f"in {line.name}, only {cell_name(frame.cells[i])} can take {both}",
                    [line],
                    [frame.cells[i]],
                )
            sole[i] = value

    def reason() -> str:
        said = []
        for value, need, places in told:
            where = names(frame.cells[i] for i in places)
            if value != EMPTY:
                said.append(f"only {where} can take {value}")
            elif need == 1:
                said.append(f"only {where} can be empty")
            else:
                said.append(f"only {where} can be empty, and it needs {WORDS[need]} empty cells")
        return f"in {line.name}, {' and '.join(said)}"

    return make_step(
        pos,
        pos.techniques["HIDDEN_SINGLE"],
        {},
        [line],
        [i for i in frame.line_cells[x] if not pos.placed[i]],
        reason,
        place=sole,
    )


def _digit_singles(pos: LatinPosition, x: int) -> list[tuple[int, int, list[int]]]:
    """In line ``x`` of digits only: (digit, 1, [its one place]) per hidden single."""
    frame = pos.frame
    found = sole_places(frame.line_cells[x], pos.masks, frame.full)
    if found is None:
        holders(pos, x)  # says which digit has no place
    return [(b.bit_length(), 1, [i]) for i, b in found or ()]


def _quota_singles(pos: LatinPosition, x: int) -> list[tuple[int, int, list[int]]]:
    """In line ``x`` with empty lots: (value, how many more, its places) per value with
    as many places left as it needs, not all of them decided already."""
    return [
        (value, need, places)
        for value, (need, places) in holders(pos, x).items()
        if len(places) == need and not all(single(pos.masks[i]) for i in places)
    ]


# ---------------------------------------------------------------- subsets


def _places_counted(pos: LatinPosition, x: int) -> tuple[int, int, int, int]:
    """In line ``x`` of digits only: the digits it lacks, and those with at least one,
    at least two and more than :data:`LARGEST_SUBSET` (four) places among its open
    cells, as masks (counted in bit-sliced form, one OR chain a cell)."""
    masks, placed = pos.masks, pos.placed
    held = one = two = three = four = five = 0
    for i in pos.frame.line_cells[x]:
        if placed[i]:
            held |= 1 << (placed[i] - 1)
            continue
        m = masks[i]
        five |= four & m
        four |= three & m
        three |= two & m
        two |= one & m
        one |= m
    return pos.frame.full & ~held, one, two, five


def _capacity(frame: Frame, wanted: dict[int, int], mask: int) -> int:
    """How many cells the values of ``mask`` (an open cell's: its line lacks them all)
    can still fill in a line: one each, EMPTY as many as the line still needs (a frame
    with empties only)."""
    lot = frame.bit(EMPTY)
    if not mask & lot:
        return mask.bit_count()
    return (mask ^ lot).bit_count() + wanted.get(EMPTY, 0)


def tight_groups(
    sets: Sequence[int], sizes: Iterable[int], measure: Callable[[int], int] = int.bit_count
) -> Iterator[tuple[int, tuple[int, ...], int]]:
    """Per size of ``sizes`` in turn, the groups of that many ``sets`` (their indices,
    in itertools.combinations' order) whose union measures no more than the size, as
    (size, group, union): as many sets as their union measures hold it between them
    (cells' candidates: a naked subset; values' places: a hidden one), a smaller union
    is a contradiction. ``measure``: how many cells a union fills (by default, how many
    members it has); only sets that measure no more than the size alone can be in
    such a group."""
    alone = [measure(members) for members in sets]
    for size in sizes:
        small = [k for k, m in enumerate(alone) if m <= size]
        for group in itertools.combinations(small, size):
            union = 0
            for k in group:
                union |= sets[k]
            if measure(union) <= size:
                yield size, group, union


def places_of(cells: Iterable[int], masks: Sequence[int], values: int) -> list[int]:
    """Per digit of ``values`` (a mask; smallest first): the cells of ``cells`` whose
    candidates hold it, as bits of their indices."""
    out = []
    while values:
        b = values & -values
        values ^= b
        out.append(sum(1 << i for i in cells if masks[i] & b))
    return out


def naked_subset(pos: LatinPosition, x: int) -> Step | None:
    """Two to four cells of a line whose candidates can fill no more cells than they
    are (:func:`tight_groups`): those values go in them, and leave the rest of the
    line; the largest removal of the smallest size is told."""
    frame = pos.frame
    masks = pos.masks
    open_ = [i for i in frame.line_cells[x] if not pos.placed[i]]
    if len(open_) <= 2 or (
        not frame.empties and sum(masks[i].bit_count() <= LARGEST_SUBSET for i in open_) < 2
    ):
        return None  # no two cells that could be among a subset
    line = frame.lines[x]
    wanted = needs(pos, x)
    measure: Callable[[int], int] = int.bit_count
    if frame.empties:
        measure = functools.partial(_capacity, frame, wanted)
    own = [masks[i] for i in open_]
    sizes = range(2, min(LARGEST_SUBSET, len(open_) - 1) + 1)
    for size, groups in itertools.groupby(tight_groups(own, sizes, measure), itemgetter(0)):
        found = []
        for _, members, union in groups:
            group = tuple(open_[k] for k in members)
            if measure(union) < size:
                shown = spoken(frame.values_of(union), wanted.get(EMPTY, 0), "or")
                kind = "different digits" if not frame.bit(EMPTY) & union else "values"
                raise Contradiction(
                    f"{names(frame.cells[i] for i in group)} in {line.name} need "
                    f"{size} {kind} from {shown}",
                    [line],
                    [frame.cells[i] for i in group],
                )
            removals = {j: masks[j] & union for j in open_ if j not in group and masks[j] & union}
            words = functools.partial(_naked_words, frame, line, group, union, wanted)
            found.append((removals, group, words))
        step = _most_removing(pos, "NAKED_SUBSET", line, found)
        if step:
            return step
    return None


def _most_removing(
    pos: LatinPosition,
    technique: str,
    line: Line,
    found: Sequence[tuple[dict[int, int], Sequence[int], Callable[[], str]]],
) -> Step | None:
    """The step of the subset that removes most (the first of equals) of ``found``,
    each (its removals, its cells, its sentence); None when none removes anything."""
    chosen, most = None, 0
    for told in found:
        lost = sum(m.bit_count() for m in told[0].values())
        if lost > most:
            chosen, most = told, lost
    if chosen is None:
        return None
    removals, cells, words = chosen
    return make_step(pos, pos.techniques[technique], removals, [line], cells, words)


def hidden_subset(pos: LatinPosition, x: int) -> Step | None:
    """Two to four values of a line with no more places between them than they need:
    those cells hold nothing else; the largest removal of the smallest size is told.
    Digits: the places of two to four digits that are as many cells
    (:func:`tight_groups`); with empty lots, :func:`_quota_groups`."""
    frame = pos.frame
    if frame.empties:
        found = holders(pos, x)
        return _hidden_step(pos, x, _quota_groups(found), found.get(EMPTY, (0,))[0])
    if not _few_places(pos, x):
        return None
    return _hidden_step(pos, x, _digit_groups(pos, x), 0)


HiddenGroups = Iterator[Iterator[tuple[tuple[int, ...], list[int], int]]]


def _digit_groups(pos: LatinPosition, x: int) -> HiddenGroups:
    """Per size (two to four) while a subset of the rest would not be a naked one: the
    groups of digits of line ``x`` with no more places than digits, as (digits, their
    places, how many they need)."""
    frame, masks, placed = pos.frame, pos.masks, pos.placed
    open_ = [i for i in frame.line_cells[x] if not placed[i]]
    lacking = frame.full
    for i in frame.line_cells[x]:
        if placed[i]:
            lacking &= ~frame.bit(placed[i])
    places = places_of(open_, masks, lacking)
    if not all(places):
        holders(pos, x)  # says which digit has no place
    values = [d for d, p in zip(digits_of(lacking), places, strict=True) if p & (p - 1)]
    sets = [p for p in places if p & (p - 1)]
    sizes = range(2, min(LARGEST_SUBSET, len(open_) - 2) + 1)  # past: a naked one's rest
    for _, groups in itertools.groupby(tight_groups(sets, sizes), itemgetter(0)):
        yield (
            (tuple(values[k] for k in members), [i for i in open_ if union >> i & 1], size)
            for size, members, union in groups
        )


def _quota_groups(found: dict[int, tuple[int, list[int]]]) -> HiddenGroups:
    """As :func:`_digit_groups` in a line with empty lots (``found``: its
    :func:`holders`), the empty lot counted as many times as the line still needs it.
    Only values with no more places alone than such a group can need can be among it."""
    values = [v for v, (need, places) in found.items() if len(places) > need]
    open_count = sum(need for need, _ in found.values())
    most = max((need for need, _ in found.values()), default=1)
    for size in (2, 3, 4):
        if open_count <= size + 1:  # a hidden subset of the rest is a naked one
            return
        room = min(size - 1 + most, LARGEST_SUBSET)  # the most places a group can need
        yield (
            (group, places, need)
            for group in itertools.combinations(
                [v for v in values if len(found[v][1]) <= room], size
            )
            if (need := sum(found[v][0] for v in group)) + 1 < open_count
            and need <= LARGEST_SUBSET
            and len(places := sorted({i for v in group for i in found[v][1]})) <= need
        )


def _hidden_step(pos: LatinPosition, x: int, sized: HiddenGroups, empties: int) -> Step | None:
    """The step of the groups of the smallest size that remove anything (``sized``:
    per size, (values, their places, how many they need)), the first of those removing
    most; a group with fewer places than it needs is a contradiction."""
    frame, masks = pos.frame, pos.masks
    line = frame.lines[x]
    for groups in sized:
        found = []
        for group, places, need in groups:
            if len(places) < need:
                raise Contradiction(
                    f"in {line.name}, {spoken(group, empties)} have only "
                    f"{names(frame.cells[i] for i in places)} to go in",
                    [line],
                    [frame.cells[i] for i in places],
                )
            keep = sum(frame.bit(v) for v in group)
            removals = {i: masks[i] & ~keep for i in places if masks[i] & ~keep}
            words = functools.partial(_hidden_words, frame, line, group, places, empties)
            found.append((removals, places, words))
        step = _most_removing(pos, "HIDDEN_SUBSET", line, found)
        if step:
            return step
    return None


def _naked_words(
    frame: Frame, line: Line, group: tuple[int, ...], union: int, wanted: dict[int, int]
) -> str:
    return (
        f"in {line.name}, {names(frame.cells[i] for i in group)} can only hold "
        f"{spoken(frame.values_of(union), wanted.get(EMPTY, 0))} between them "
        f"(a naked {SUBSET_NAMES[len(group)]})"
    )


def _hidden_words(
    frame: Frame, line: Line, group: tuple[int, ...], places: list[int], empties: int
) -> str:
    return (
        f"in {line.name}, {spoken(group, empties)} can only go in "
        f"{names(frame.cells[i] for i in places)} (a hidden {SUBSET_NAMES[len(places)]})"
    )


def _few_places(pos: LatinPosition, x: int) -> bool:
    """In line ``x`` of digits only: might it hold a hidden subset (two digits it lacks
    with two to :data:`LARGEST_SUBSET` places each, of more than three it lacks), or a
    digit with no place (which :func:`holders` tells as a contradiction)? A quick look
    before the full one."""
    lacking, one, two, more = _places_counted(pos, x)
    if lacking & ~one:
        return True
    return lacking.bit_count() > 3 and (lacking & two & ~more).bit_count() >= 2
