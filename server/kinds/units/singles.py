"""A first logical solver for the units family: singles, and a trial as the last resort.

The techniques, simplest first (:class:`Technique`, named as numgrid.v1.Technique):

1. ``NAKED_SINGLE`` - a cell with one candidate left holds it; when it is the last open
   cell of a unit the sentence says so (a *full house*).
2. ``HIDDEN_SINGLE`` - a digit with one place left in a unit goes there.
3. ``TRIAL`` - a last resort: assume a candidate of a cell with the fewest; if singles
   (and digits locked where boxes and lines cross) then leave a cell or a unit without
   a digit, or no filling completes the grid, the cell loses that candidate.

Placing a digit removes it from the cell's peers: the rule, not a step. A position is
the candidates of every cell (bits, ``1 << (d - 1)`` for ``d``) and the digits placed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from numgrid.server.chain import (
    WHOLE,
    Contradiction,
    Explanation,
    Grade,
    Ladder,
    Memos,
    Thresholds,
    position_from,
    relevant_steps,
)
from numgrid.server.core import (
    Board,
    Budget,
    Cell,
    Finding,
    Grid,
    PuzzleError,
    Step,
    cell_name,
    value_text,
)

from . import native
from .checks import check_puzzle, validate_board
from .model import Puzzle


class Technique(enum.IntEnum):
    """The techniques, simplest first; the value is the difficulty rank."""

    NAKED_SINGLE = 1  # one candidate left in a cell (a full house: the last of a unit)
    HIDDEN_SINGLE = 2  # a digit with one place left in a unit
    TRIAL = 3  # last resort: an assumption refuted


# EASY: naked singles alone; MEDIUM, HARD: a few hidden singles, then more; EXPERT: more
# still; EXTREME: a trial. A first scale, until the full ladder grades as people do.
THRESHOLDS: Thresholds = {
    Grade.EASY: (Technique.NAKED_SINGLE, {}),
    Grade.MEDIUM: (Technique.HIDDEN_SINGLE, {Technique.HIDDEN_SINGLE: 8}),
    Grade.HARD: (Technique.HIDDEN_SINGLE, {Technique.HIDDEN_SINGLE: 20}),
}

CELL, UNIT = "cell", "unit"


def _digits(mask: int) -> list[int]:
    return [d + 1 for d in range(mask.bit_length()) if mask >> d & 1]


class Position(Memos):
    """Every cell's candidates and the digits placed."""

    def __init__(self, puzzle: Puzzle, masks: list[int], values: list[int]) -> None:
        super().__init__(None, len(Technique) + 1)
        self.puzzle, self.shape = puzzle, puzzle.shape
        self.masks, self.values = masks, values

    @classmethod
    def fresh(cls, puzzle: Puzzle) -> Position:
        n = puzzle.size
        pos = cls(puzzle, [(1 << n) - 1] * (n * n), [0] * (n * n))
        for i, g in enumerate(puzzle.flat_givens):
            if g:
                pos.place(i, g)
        return pos

    def copy(self) -> Position:
        other = Position(self.puzzle, list(self.masks), list(self.values))
        other.budget = self.budget
        return other

    def place(self, i: int, d: int) -> None:
        """Put ``d`` in cell ``i`` and take it from the cell's peers."""
        bit = 1 << (d - 1)
        if not self.masks[i] & bit:
            raise Contradiction(
                f"{cell_name(self.shape.cell(i))} cannot hold {d}", (), (self.shape.cell(i),)
            )
        self.values[i] = d
        self.masks[i] = bit
        for p in self.shape.peers[i]:
            if self.masks[p] & bit:
                if self.values[p]:
                    raise Contradiction(
                        f"{cell_name(self.shape.cell(p))} already holds {d}",
                        (),
                        (self.shape.cell(p),),
                    )
                self.masks[p] &= ~bit

    def apply(self, step: Step) -> None:
        n = self.puzzle.size
        for (r, c), d in step.eliminations:
            self.masks[r * n + c] &= ~(1 << (d - 1))
        for (r, c), d in step.placements:
            self.place(r * n + c, d)
        self._memo = [{} for _ in range(len(Technique) + 1)]

    @property
    def solved(self) -> bool:
        return all(self.values)

    def grid(self) -> Grid:
        n = self.puzzle.size
        return tuple(tuple(self.values[r * n : r * n + n]) for r in range(n))

    def candidates(self) -> dict[Cell, tuple[int, ...]]:
        return {
            self.shape.cell(i): tuple(_digits(m))
            for i, m in enumerate(self.masks)
            if not self.values[i]
        }


# ---------------------------------------------------------------- positions


def _from_entries(puzzle: Puzzle, entries: Grid) -> Position:
    errors = [f for f in check_puzzle(puzzle, entries) if f.is_error]
    if errors:
        raise PuzzleError(errors)
    broken = validate_board(Board(puzzle, entries)).findings
    if broken:
        raise PuzzleError(broken)
    pos = Position.fresh(puzzle)
    n = puzzle.size
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            if v and not pos.values[r * n + c]:
                pos.place(r * n + c, v)
    return pos


def _from_candidates(puzzle: Puzzle, candidates: Mapping[Cell, object]) -> Position:
    """``{cell: digits}``; cells left out keep every digit their peers allow."""
    pos = Position.fresh(puzzle)
    n = puzzle.size
    findings = []
    for cell, given in candidates.items():
        r, c = cell if isinstance(cell, tuple) and len(cell) == 2 else (-1, -1)
        if not (0 <= r < n and 0 <= c < n):
            findings.append(Finding("not_a_cell", f"{cell!r} is not a cell of the grid"))
            continue
        digits = set(given) if isinstance(given, (list, tuple, set, frozenset)) else set()
        if not digits or not all(isinstance(d, int) and 1 <= d <= n for d in digits):
            findings.append(
                Finding(
                    "bad_candidates", f"{cell_name((r, c))}: candidates are digits 1-{n}", (cell,)
                )
            )
            continue
        i = r * n + c
        if not pos.values[i]:
            pos.masks[i] &= sum(1 << (d - 1) for d in digits)
    if findings:
        raise PuzzleError(findings)
    return pos


def position(puzzle: Puzzle, given: Any = None) -> Position:
    """The position to reason from: entries, candidates, a position, or None."""
    errors = [f for f in check_puzzle(puzzle) if f.is_error]
    if errors:
        raise PuzzleError(errors)
    made: Position = position_from(
        puzzle, given, Position, _from_entries, _from_candidates, Position.fresh
    )
    return made


# ---------------------------------------------------------------- techniques


def _last_open(pos: Position, i: int) -> int:
    """A unit of cell ``i`` in which it is the only open cell, or -1."""
    for u in pos.shape.cell_units[i]:
        unit = pos.shape.units[u]
        if pos.shape.fills(unit) and all(pos.values[j] or j == i for j in unit.cells):
            return u
    return -1


def naked_single(pos: Position, i: int) -> Step | None:
    if pos.values[i]:
        return None
    mask = pos.masks[i]
    cell = pos.shape.cell(i)
    if not mask:
        raise Contradiction(f"{cell_name(cell)} has no candidate left", (), (cell,))
    if mask & (mask - 1):
        return None
    d = mask.bit_length()
    u = _last_open(pos, i)
    if u >= 0:
        group = pos.shape.groups[u]
        text = (
            f"Full house: {cell_name(cell)} is the last empty cell of {group.name}, "
            f"so {cell_name(cell)} = {d}."
        )
        groups: tuple[Any, ...] = (group,)
    else:
        text = (
            f"Naked single: {cell_name(cell)} sees every other digit in its units, "
            f"so {cell_name(cell)} = {d}."
        )
        groups = tuple(pos.shape.groups[u] for u in pos.shape.cell_units[i])
    return Step(Technique.NAKED_SINGLE, ((cell, d),), (), groups, (cell,), text)


def hidden_single(pos: Position, u: int) -> Step | None:
    unit = pos.shape.units[u]
    if not pos.shape.fills(unit):
        return None  # a cage need not hold every digit
    group = pos.shape.groups[u]
    placed = 0
    for j in unit.cells:
        if pos.values[j]:
            placed |= 1 << (pos.values[j] - 1)
    for d in range(1, pos.puzzle.size + 1):
        bit = 1 << (d - 1)
        if placed & bit:
            continue
        places = [j for j in unit.cells if not pos.values[j] and pos.masks[j] & bit]
        if not places:
            raise Contradiction(f"{group.name} has no place left for {d}", (group,), group.cells)
        if len(places) == 1:
            cell = pos.shape.cell(places[0])
            if pos.masks[places[0]] == bit:
                continue  # a naked single, found as such
            text = (
                f"Hidden single: in {group.name}, {d} fits only {cell_name(cell)}, "
                f"so {cell_name(cell)} = {d}."
            )
            return Step(Technique.HIDDEN_SINGLE, ((cell, d),), (), (group,), (cell,), text)
    return None


def _bits(pos: Position, t: native.Tables) -> int:
    """The position as the native engine's integer."""
    out = 0
    for i, mask in enumerate(pos.masks):
        for d in _digits(mask):
            out |= t.bit(d, i)
    return out


def trial(pos: Position) -> Step | None:
    """A candidate of a cell with the fewest that singles (and locked digits) refute, or
    failing that one that no filling completes."""
    t = native.tables(pos.shape)
    base = _bits(pos, t)
    open_cells = sorted(
        (i for i, v in enumerate(pos.values) if not v), key=lambda i: pos.masks[i].bit_count()
    )
    for deep in (False, True):
        for i in open_cells:
            pos.poll()
            cell = pos.shape.cell(i)
            for d in _digits(pos.masks[i]):
                assumed = (base & ~t.cell(i)) | t.bit(d, i)
                if not deep:
                    if native.settle(t, assumed, 0) is not None:
                        continue
                    why = (
                        "singles (and digits locked where boxes and lines cross) then leave "
                        "a cell or a unit without a digit"
                    )
                else:
                    budget = pos.budget if pos.budget is not None else Budget()
                    found, _, _ = native.count(t, assumed, limit=1, budget=budget)
                    if found:
                        continue
                    why = "no filling of the grid completes it (a search from there finds none)"
                text = (
                    f"Trial (a last resort): if {cell_name(cell)} were {d}, {why}; "
                    f"so {cell_name(cell)} is not {d}."
                )
                return Step(Technique.TRIAL, (), ((cell, d),), (), (cell,), text)
    return None


def _keys(pos: Position, scope: str) -> int:
    return len(pos.masks) if scope == CELL else len(pos.shape.units)


def _depends(step: Step, needed: set[Cell]) -> bool:
    return any(c in needed for c, _ in step.placements) or any(
        c in needed for c, _ in step.eliminations
    )


def relevant(chain: list[Step], groups: tuple[Any, ...], cells: tuple[Cell, ...]) -> list[Step]:
    """The steps a step's groups and cells depend on (a placement reaches its peers)."""
    return relevant_steps(chain, groups, cells, _depends)


LADDER = Ladder(
    techniques=Technique,
    table={
        Technique.NAKED_SINGLE: (CELL, naked_single),
        Technique.HIDDEN_SINGLE: (UNIT, hidden_single),
        Technique.TRIAL: (WHOLE, trial),
    },
    keys=_keys,
    position=position,
    thresholds=THRESHOLDS,
    relevant=relevant,
    say=value_text,
)


def next_step(
    puzzle: Puzzle,
    candidates_or_entries: Any = None,
    max_technique: Any = None,
    placements_only: bool = False,
    /,
    budget: Budget | None = None,
) -> Step | None:
    return LADDER.next_step(puzzle, candidates_or_entries, max_technique, placements_only, budget)


def explain(
    puzzle: Puzzle, entries: Any = None, max_technique: Any = None, /, budget: Budget | None = None
) -> Explanation:
    return LADDER.explain(puzzle, entries, max_technique, budget)


def last_resort(
    puzzle: Puzzle, candidates_or_entries: Any = None, /, budget: Budget | None = None
) -> Step | None:
    return LADDER.last_resort(puzzle, candidates_or_entries, budget)


__all__ = ["LADDER", "THRESHOLDS", "Technique", "explain", "last_resort", "next_step"]
