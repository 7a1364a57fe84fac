"""The logical solver of units grids: hints, step-by-step explanations, grades and a
difficulty score, as people who solve these grids by hand know them.

The techniques (:class:`Technique`, simplest first, in HoDoKu's solving order; in
:mod:`.techniques`, :mod:`.techniques_wings` and :mod:`.techniques_chains`) run from
singles through locked candidates, subsets, fish, wings, colouring and chains to forcing
chains, and the trial last. Each has its weight in the difficulty score (HoDoKu's points,
:data:`WEIGHTS`) and the level HoDoKu puts it at; the table, with an example sentence of
each, and the evidence against Tatham's Solo tiers are in the grades document in ``docs/``.

Grades follow HoDoKu's rule: the level of the hardest technique used, raised while the
score passes the level's limit (:data:`SCORE_LIMITS`, for 81 cells, scaled by the cells
of other sizes; raised no further than EXPERT: EXTREME means a trial was needed).

API (the position is rebuilt per call; ``puzzle`` has ``.shape`` and ``.givens``, a grid
of digits with 0 for empty, and may say ``.unique``): ``build_ladder(shape, unique)``
(cached); ``next_step``, ``explain`` and ``last_resort`` as every kind's
(:class:`~numgrid.server.chain.Ladder`), each with ``unique=``; ``grade(explanation)`` and
``difficulty(explanation)``. ``unique`` (default: ``puzzle.unique``, else False) says the
puzzle is known to have one solution: only then are unique rectangles looked for.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any
from typing import Protocol

from numgrid.server.chain import WHOLE
from numgrid.server.chain import Explanation
from numgrid.server.chain import Grade
from numgrid.server.chain import Ladder
from numgrid.server.chain import Thresholds
from numgrid.server.chain import relevant_steps
from numgrid.server.chain import touched
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import Severity
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.core import value_text

from . import techniques as t
from . import techniques_chains as chains
from . import techniques_wings as wings
from .shape import Shape
from .techniques import Contradiction
from .techniques import Plan
from .techniques import Position
from .techniques import Technique
from .techniques import bit
from .techniques import plan
from .techniques import single

__all__ = [
    "SCORE_LIMITS",
    "TABLE",
    "THRESHOLDS",
    "WEIGHTS",
    "Contradiction",
    "Position",
    "Technique",
    "build_ladder",
    "difficulty",
    "explain",
    "grade",
    "graded",
    "keys",
    "last_resort",
    "next_step",
    "position",
    "relevant",
    "value_text",  # a value in its sentences
]

CELL, UNIT, DIGIT = "cell", "unit", "digit"

TABLE: dict[Technique, tuple[str, Any]] = {
    Technique.FULL_HOUSE: (UNIT, t.full_house),
    Technique.NAKED_SINGLE: (CELL, t.naked_single),
    Technique.HIDDEN_SINGLE: (UNIT, t.hidden_single),
    Technique.POINTING: (UNIT, t.pointing),
    Technique.CLAIMING: (UNIT, t.claiming),
    Technique.NAKED_SUBSET: (UNIT, t.naked_subset),
    Technique.HIDDEN_SUBSET: (UNIT, t.hidden_subset),
    Technique.NAKED_QUAD: (UNIT, t.naked_quad),
    Technique.HIDDEN_QUAD: (UNIT, t.hidden_quad),
    Technique.X_WING: (DIGIT, t.x_wing),
    Technique.SWORDFISH: (DIGIT, t.swordfish),
    Technique.REMOTE_PAIRS: (WHOLE, wings.remote_pairs),
    Technique.TURBOT_FISH: (DIGIT, chains.turbot_fish),
    Technique.W_WING: (WHOLE, wings.w_wing),
    Technique.XY_WING: (WHOLE, wings.xy_wing),
    Technique.XYZ_WING: (WHOLE, wings.xyz_wing),
    Technique.UNIQUE_RECTANGLE: (WHOLE, wings.unique_rectangle),
    Technique.SIMPLE_COLOURING: (DIGIT, wings.simple_colouring),
    Technique.JELLYFISH: (DIGIT, t.jellyfish),
    Technique.X_CHAIN: (DIGIT, chains.x_chain),
    Technique.XY_CHAIN: (WHOLE, chains.xy_chain),
    Technique.AIC: (WHOLE, chains.aic),
    Technique.FORCING_CHAIN: (WHOLE, chains.forcing_chain),
    Technique.TRIAL: (WHOLE, chains.trial),
}

# HoDoKu's points per step of each technique (its defaults).
WEIGHTS: dict[Technique, int] = {
    Technique.FULL_HOUSE: 4,
    Technique.NAKED_SINGLE: 4,
    Technique.HIDDEN_SINGLE: 14,
    Technique.POINTING: 50,
    Technique.CLAIMING: 50,
    Technique.NAKED_SUBSET: 60,  # 80 for a triple
    Technique.HIDDEN_SUBSET: 70,  # 100 for a triple
    Technique.NAKED_QUAD: 120,
    Technique.HIDDEN_QUAD: 150,
    Technique.X_WING: 140,
    Technique.SWORDFISH: 150,
    Technique.REMOTE_PAIRS: 110,
    Technique.TURBOT_FISH: 120,
    Technique.W_WING: 150,
    Technique.XY_WING: 160,
    Technique.XYZ_WING: 180,
    Technique.UNIQUE_RECTANGLE: 100,
    Technique.SIMPLE_COLOURING: 150,
    Technique.JELLYFISH: 160,
    Technique.X_CHAIN: 260,
    Technique.XY_CHAIN: 260,
    Technique.AIC: 280,
    Technique.FORCING_CHAIN: 500,
    Technique.TRIAL: 10000,
}
TRIPLE_WEIGHTS = {Technique.NAKED_SUBSET: 80, Technique.HIDDEN_SUBSET: 100}

# Per grade: the hardest technique allowed (HoDoKu's levels; no step limits).
THRESHOLDS: Thresholds = {
    Grade.EASY: (Technique.HIDDEN_SINGLE, {}),
    Grade.MEDIUM: (Technique.HIDDEN_SUBSET, {}),
    Grade.HARD: (Technique.SIMPLE_COLOURING, {}),
    Grade.EXPERT: (Technique.FORCING_CHAIN, {}),
}

# The most points a chain of each grade may score before it counts as the next grade
# (HoDoKu's DifficultyLevel limits, for 81 cells: other sizes scale them by their cells).
SCORE_LIMITS: dict[Grade, int] = {Grade.EASY: 800, Grade.MEDIUM: 1000, Grade.HARD: 1600}


class Puzzle(Protocol):
    """What the ladder reads of a puzzle."""

    @property
    def shape(self) -> Shape: ...
    @property
    def givens(self) -> Any: ...  # rows of digits (0: empty), or N * N digits


# ---------------------------------------------------------------- positions


def _finding(code: str, message: str, cells: tuple[Cell, ...] = ()) -> Finding:
    return Finding(code=code, message=message, cells=cells, severity=Severity.ERROR)


def _flat(grid: Any, n: int) -> list[int]:
    """Rows of digits, or N * N digits, as one list."""
    rows = list(grid)
    if len(rows) == n and all(not isinstance(r, int) for r in rows):
        flat = [int(v) for row in rows for v in row]
    else:
        flat = [int(v) for v in rows]
    if len(flat) != n * n:
        raise PuzzleError([_finding("bad_shape", f"entries must be {n}x{n}")])
    return flat


def _check_digits(p: Plan, digits: list[int], findings: list[Finding]) -> None:
    for i, d in enumerate(digits):
        if d and not 1 <= d <= p.n:
            cell = p.coords[i]
            findings.append(
                _finding("bad_digit", f"{cell_name(cell)}: digits are 1-{p.n}", (cell,))
            )
            digits[i] = 0


def _built(p: Plan, digits: list[int], allowed: list[int] | None, unique: bool) -> Position:
    """The position with ``digits`` placed (0: open) and, when ``allowed`` is given, each
    open cell narrowed to it; a cell left with one candidate is placed too. Built on
    plain lists (no memo to forget yet). Raises :class:`PuzzleError` on clashes."""
    findings: list[Finding] = []
    _check_digits(p, digits, findings)
    size = p.n * p.n
    placed = [0] * size
    masks = [p.full] * size
    peers = p.peers

    def clash(text: str, cells: tuple[Cell, ...]) -> None:
        findings.append(_finding("conflict", text, cells))

    def put(i: int, d: int, first: bool) -> None:
        b = bit(d)
        placed[i], masks[i] = d, b
        for j in peers[i]:
            if placed[j] == d:
                if j < i or not first:
                    a, c = p.coords[j], p.coords[i]
                    clash(f"{cell_name(a)} and {cell_name(c)} both hold {d}", (a, c))
            elif masks[j] & b:
                masks[j] &= ~b
                if not masks[j] and not placed[j]:
                    clash(f"{cell_name(p.coords[j])} has no candidate left", (p.coords[j],))

    for i, d in enumerate(digits):
        placed[i] = d
    for i, d in enumerate(digits):
        if d:
            put(i, d, True)
    if allowed is not None and not findings:
        for i in range(size):
            if not placed[i]:
                masks[i] &= allowed[i]
                if not masks[i]:
                    clash(f"{cell_name(p.coords[i])} has no candidate left", (p.coords[i],))
        for i in range(size):
            if not findings and not placed[i] and single(masks[i]):
                put(i, masks[i].bit_length(), False)
    if findings:
        raise PuzzleError(findings)
    return Position(p, masks, placed, unique=unique)


def position(puzzle: Puzzle, given: Any = None, unique: bool = False) -> Position:
    """The position to reason from: the givens, then an entries grid (0 = empty), or
    candidates ``{cell: digits}`` (missing cells: every digit; one candidate places it),
    or a copy of a position. Raises :class:`PuzzleError` on digits that clash."""
    if isinstance(given, Position):
        return given.copy()
    p = plan(puzzle.shape)
    n = p.n
    digits = _flat(puzzle.givens, n)
    findings: list[Finding] = []
    if given is None:
        return _built(p, digits, None, unique)
    if not isinstance(given, Mapping):
        entries = _flat(given, n)
        _check_digits(p, entries, findings)
        for i, d in enumerate(entries):
            if d and digits[i] and d != digits[i]:
                cell = p.coords[i]
                findings.append(
                    _finding("conflict", f"{cell_name(cell)} is given as {digits[i]}", (cell,))
                )
            elif d:
                digits[i] = d
        if findings:
            raise PuzzleError(findings)
        return _built(p, digits, None, unique)
    allowed = [p.full] * (n * n)
    for cell, candidates in given.items():
        if not (
            isinstance(cell, tuple)
            and len(cell) == 2
            and all(isinstance(x, int) and 0 <= x < n for x in cell)
        ):
            findings.append(_finding("not_a_cell", f"{cell!r} is not a cell of the grid"))
            continue
        mask = 0
        if isinstance(candidates, int):
            mask = candidates if 0 < candidates <= p.full else 0
        else:
            for d in candidates:
                mask |= bit(d) if isinstance(d, int) and 1 <= d <= n else -1
        if mask <= 0:
            findings.append(
                _finding("bad_candidates", f"{cell_name(cell)}: candidates are 1-{n}", (cell,))
            )
            continue
        allowed[cell[0] * n + cell[1]] = mask
    if findings:
        raise PuzzleError(findings)
    return _built(p, digits, allowed, unique)


# ---------------------------------------------------------------- the ladder


def relevant(
    chain: list[Step], groups: tuple, cells: tuple[Cell, ...], shape: Shape | None = None
) -> list[Step]:
    """The steps of ``chain`` that the given groups and cells depend on, in order: a
    placement also reaches its peers (its digit leaves them; without the ``shape``, the
    cells of its row and column)."""
    if shape is None:
        return relevant_steps(chain, groups, cells, _reaches)
    return relevant_steps(chain, groups, cells, functools.partial(_reaches_peers, plan(shape)))


def _reaches(step: Step, needed: set[Cell]) -> bool:
    if touched(step) & needed:
        return True
    for (r, c), _ in step.placements:
        for nr, nc in needed:
            if nr == r or nc == c:
                return True
    return False


def _reaches_peers(p: Plan, step: Step, needed: set[Cell]) -> bool:
    if touched(step) & needed:
        return True
    n = p.n
    wanted = 0
    for r, c in needed:
        wanted |= 1 << (r * n + c)
    return any(p.peer_sets[r * n + c] & wanted for (r, c), _ in step.placements)


def keys(pos: Position, scope: str) -> int:
    """How many keys (cells, units, digits) a scope of the table has."""
    p = pos.plan
    if scope == UNIT:
        return len(p.unit_cells)
    return p.n * p.n if scope == CELL else p.n


def lookahead(pos: Position, step: Step, limit: Any) -> Step | None:
    """What a hint that places a digit takes instead of a forcing chain that only
    eliminates: a forcing chain that places one, when there is one (the hint needs a
    forcing chain either way, and each elimination alone would cost a round of every
    technique)."""
    if step.placements or step.technique.name != Technique.FORCING_CHAIN.name:
        return None
    return chains.forcing_chain(pos, placing=True)


@functools.lru_cache(maxsize=64)
def build_ladder(shape: Shape, unique: bool) -> Ladder:
    """The ladder of a shape; ``unique``: the puzzle is known to have one solution."""
    return Ladder(
        techniques=Technique,
        table=TABLE,
        keys=keys,
        position=functools.partial(_position_of, unique=unique),
        thresholds=THRESHOLDS,
        relevant=functools.partial(relevant, shape=shape),
        lookahead=lookahead,
        weigh=step_points,
    )


def _position_of(puzzle: Puzzle, given: Any, unique: bool) -> Position:
    pos = position(puzzle, given, unique)
    pos.unique = unique
    return pos


def _ladder(puzzle: Puzzle, unique: bool | None) -> Ladder:
    if unique is None:
        unique = bool(getattr(puzzle, "unique", False))
    return build_ladder(puzzle.shape, unique)


def next_step(
    puzzle: Puzzle,
    candidates_or_entries: Any = None,
    max_technique: Technique | None = None,
    placements_only: bool = False,
    budget: Budget | None = None,
    unique: bool | None = None,
) -> Step | None:
    """The simplest step from a position (see :meth:`Ladder.next_step`)."""
    return _ladder(puzzle, unique).next_step(
        puzzle, candidates_or_entries, max_technique, placements_only, budget
    )


def last_resort(
    puzzle: Puzzle,
    candidates_or_entries: Any = None,
    budget: Budget | None = None,
    unique: bool | None = None,
) -> Step | None:
    """The trial step from a position (see :meth:`Ladder.last_resort`)."""
    return _ladder(puzzle, unique).last_resort(puzzle, candidates_or_entries, budget)


def explain(
    puzzle: Puzzle,
    entries: Any = None,
    max_technique: Technique | None = None,
    budget: Budget | None = None,
    quiet: bool = False,
    unique: bool | None = None,
) -> Explanation:
    """Every step until the grid is full, the techniques run out or a contradiction;
    graded by :func:`grade` (HoDoKu's rule, the score included). ``quiet``: without the
    sentences."""
    found = _ladder(puzzle, unique).explain(puzzle, entries, max_technique, budget, quiet)
    if found.grade is None:
        return found
    return Explanation(
        steps=found.steps,
        solved=found.solved,
        grade=grade(found),
        technique_counts=found.technique_counts,
        final=found.final,
        contradiction=found.contradiction,
        candidates=found.candidates,
        score=found.score,
    )


def step_points(step: Step) -> int:
    """A step's points: its technique's weight (a triple's for three cells)."""
    technique = Technique(step.technique)
    if technique in TRIPLE_WEIGHTS and len(step.cells) == 3:
        return TRIPLE_WEIGHTS[technique]
    return WEIGHTS[technique]


def difficulty(found: Explanation | Mapping[Any, int]) -> int:
    """The chain's points: the sum of its steps' weights (from technique counts when
    only those are given)."""
    if isinstance(found, Explanation):
        return sum(step_points(step) for step in found.steps)
    return sum(WEIGHTS[Technique(k)] * v for k, v in found.items())


def grade(found: Explanation | Mapping[Any, int], cells: int | None = None) -> Grade:
    """The level of the hardest technique used, raised while the points pass the
    level's limit (no further than EXPERT). The limits are HoDoKu's for 81 cells, scaled
    by the grid's ``cells`` (an explanation's own grid when not given; else 81)."""
    counts = found.technique_counts if isinstance(found, Explanation) else found
    if cells is None:
        final = found.final if isinstance(found, Explanation) else ()
        cells = len(final) ** 2 if final else 81
    used = [Technique(k) for k, v in counts.items() if v]
    return graded(used, THRESHOLDS, difficulty(found) * 81 / cells, SCORE_LIMITS)


def graded(
    used: list[Any], thresholds: Thresholds, points: float, limits: Mapping[Grade, int]
) -> Grade:
    """HoDoKu's rule: the level of the hardest technique ``used`` (a TRIAL: EXTREME),
    raised while the ``points`` (for 81 cells) pass the level's limit."""
    if any(u.name == "TRIAL" for u in used):
        return Grade.EXTREME
    level = Grade.EXPERT
    for g, (hardest, _) in thresholds.items():
        if all(u <= hardest for u in used):
            level = g
            break
    while level in limits and points > limits[level]:
        level = Grade(level + 1)
    return level
