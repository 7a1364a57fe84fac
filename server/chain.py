"""The logical chain every kind shares: the loop around a kind's techniques.

A kind owns its vocabulary and its deductions (a *position* of candidates, technique
functions that return a :class:`~numgrid.server.core.Step`); what is the same for every
kind lives here, once:

- the best step of one technique, and the simplest step of all (techniques tried in
  their order, simplest first);
- a hint that places a digit: eliminations applied silently until a step places one,
  then one step standing for the chain, its sentence summarising what it depends on;
- the explanation from a position to the end, the grade of a chain and its score (the
  sum of its steps' weights: the kind's, or :func:`rank_weight`);
- the words every step is written with (``listed``, ``outcome``).

A kind describes itself to the chain as a :class:`Ladder`. Its position has ``budget``,
``poll()``, ``apply(step)``, ``memo(technique)``, ``solved``, ``grid()`` and
``candidates()``; a position that cannot be completed raises :class:`Contradiction`.

A *quiet* chain (``explain(..., quiet=True)``, what the generator grades with) takes
the same steps without their sentences: a quiet position's techniques leave a step's
explanation empty (:func:`said`), so a grade costs the deductions alone. A maker that
needs only the grade may also take the steps in *bulk* (``bulk=True``): every step of a
technique the grade does not count at once (:meth:`Ladder.every`).
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from operator import itemgetter
from typing import Any
from typing import Protocol
from typing import TypeVar

from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Step
from numgrid.server.core import cell_name
from numgrid.server.core import value_text

WHOLE = "whole"  # the scope of a technique that looks at the whole position at once


class Grade(enum.IntEnum):
    """Named as numgrid.v1.Grade; each kind sets its own limits (its THRESHOLDS)."""

    EASY = 1
    MEDIUM = 2
    HARD = 3
    EXPERT = 4
    EXTREME = 5  # a trial was needed


# Per grade: the hardest technique allowed and the most steps allowed of some techniques.
Thresholds = Mapping[Grade, tuple[enum.IntEnum, Mapping[enum.IntEnum, int]]]


@dataclass(frozen=True)
class Explanation:
    steps: tuple[Step, ...]
    solved: bool  # the chain completed the grid
    grade: Grade | None  # None when the chain stalled or met a contradiction
    technique_counts: dict[enum.IntEnum, int]  # {technique: steps}, every technique of the kind
    final: Grid = ()  # the placed digits where the chain stopped
    contradiction: str = ""  # why the position cannot be completed, if it cannot
    candidates: dict[Cell, tuple[int, ...]] = field(default_factory=dict)  # where it stopped
    score: int = 0  # the sum of its steps' weights (:attr:`Ladder.weigh`): higher is harder


# ---------------------------------------------------------------- positions


class Contradiction(Exception):
    """The position has no completion; ``reason`` says why, with the groups (lines,
    cages, runs) and cells that show it. Raised by a kind's techniques, never returned."""

    def __init__(self, reason: str, groups: Iterable[Any] = (), cells: Iterable[Cell] = ()):
        super().__init__(reason)
        self.reason, self.groups, self.cells = reason, tuple(groups), tuple(cells)


class Memos:
    """What every kind's position shares besides its candidates: the budget the chain
    and the expensive techniques poll, and one memo per technique (the kind forgets
    entries when the cells they read change)."""

    quiet = False  # steps without sentences (see :func:`said`); copies stay so

    def __init__(self, budget: Budget | None, slots: int):
        self.budget = budget
        self._memo: list[dict[Any, Any]] = [{} for _ in range(slots)]

    def poll(self) -> None:
        """Raise :class:`SearchTimeout` if the budget has run out (or was cancelled)."""
        if self.budget is not None and self.budget.expired():
            raise SearchTimeout("the logical solver ran out of time")

    def memo(self, slot: int) -> dict[Any, Any]:
        return self._memo[slot]

    def copy_memos(self, other: Memos) -> None:
        other._memo = [dict(found) for found in self._memo]
        other.quiet = self.quiet


# Why a step holds: the words, or a function that writes them, called only when the step
# is said (a quiet position's steps, and those a chain passes over, need none). Such a
# function reads the position as it is when called: a kind's make_step calls it at once.
Reason = str | Callable[[], str]


def words(reason: Reason) -> str:
    """The words of a reason."""
    return reason if isinstance(reason, str) else reason()


def said(pos: Any, sentence: Callable[[], str]) -> str:
    """A step's sentence, ``sentence()``; nothing for a quiet position (a maker grading
    candidates reads what steps do, never what they say)."""
    return "" if pos.quiet else sentence()


# ---------------------------------------------------------------- words


def position_from(
    puzzle: Any,
    given: Any,
    position_type: type[Any],
    from_entries: Callable[[Any, Grid], Any],
    from_candidates: Callable[[Any, Mapping[Any, Any]], Any],
    empty: Callable[[Any], Any] | None = None,
) -> Any:
    """The position a kind's logical solver reasons from, whatever form the caller gave:
    a copy of a ``position_type``, ``empty(puzzle)`` for None (by default: the
    position of ``puzzle.empty_grid()``), ``from_candidates(puzzle, given)`` of a mapping
    ``{cell: values}``, or ``from_entries(puzzle, given)`` of an entries grid (rows as
    tuples). A kind's functions raise :class:`~numgrid.server.core.PuzzleError`."""
    if isinstance(given, position_type):
        return given.copy()
    if given is None:
        if empty is not None:
            return empty(puzzle)
        return from_entries(puzzle, puzzle.empty_grid())
    if isinstance(given, Mapping):
        return from_candidates(puzzle, given)
    return from_entries(puzzle, tuple(tuple(row) for row in given))


def reader(
    position_type: type[Any],
    from_entries: Callable[[Any, Grid], Any],
    from_candidates: Callable[[Any, Mapping[Any, Any]], Any],
    empty: Callable[[Any], Any] | None = None,
) -> Callable[..., Any]:
    """A kind's ``position(puzzle, given=None)``: :func:`position_from` with its readers."""

    def position(puzzle: Any, given: Any = None) -> Any:
        """The position to reason from: an entries grid, candidates (``{cell: values}``),
        a position, or None (no entries). Raises
        :class:`~numgrid.server.core.PuzzleError` with every problem found."""
        return position_from(puzzle, given, position_type, from_entries, from_candidates, empty)

    return position


StepFinder = Callable[..., Step | None]  # (position) for the WHOLE scope, else (position, key)


def technique_table(
    techniques: type[enum.IntEnum], scopes: Mapping[str, Iterable[StepFinder]]
) -> dict[enum.IntEnum, tuple[str, StepFinder]]:
    """A :class:`Ladder`'s table from each scope's technique functions, each named as
    its technique (``naked_single`` finds NAKED_SINGLE steps); every technique has one."""
    table = {
        techniques[function.__name__.upper()]: (scope, function)
        for scope, functions in scopes.items()
        for function in functions
    }
    missing = [t.name for t in techniques if t not in table]
    if missing:
        raise ValueError(f"no function for {', '.join(missing)}")
    return table


def open_cells(masks: Sequence[int], placed: Sequence[int] | None = None) -> list[int]:
    """The cells with more than one candidate (and none placed), fewest first: where a
    trial looks for an assumption to refute."""
    return sorted(
        (
            i
            for i, m in enumerate(masks)
            if (placed is None or not placed[i]) and (not m or m & (m - 1))
        ),
        key=lambda i: (masks[i].bit_count(), i),
    )


def touched(step: Step) -> set[Cell]:
    """The cells a step places a value in or removes one from."""
    return {c for c, _ in step.placements} | {c for c, _ in step.eliminations}


def _touches(step: Step, needed: set[Cell]) -> bool:
    return bool(touched(step) & needed)


class _Grouped(Protocol):
    """What :func:`relevant_steps` reads of a group (a kind's own group class)."""

    @property
    def cells(self) -> tuple[Cell, ...]: ...


def relevant_steps(
    chain: list[Step],
    groups: Iterable[_Grouped],
    cells: Iterable[Cell],
    depends: Callable[[Step, set[Cell]], bool] = _touches,
) -> list[Step]:
    """The steps of ``chain`` that the given groups and cells depend on, in order: from
    the last, a step is kept when ``depends(step, needed)`` (by default: it touched a
    needed cell), and then its own cells and groups are needed too. A kind whose
    placements reach further (a digit leaves its row and column) says so in ``depends``."""
    needed = set(cells)
    for group in groups:
        needed.update(group.cells)
    kept: list[Step] = []
    for step in reversed(chain):
        if depends(step, needed):
            kept.append(step)
            needed.update(step.cells)
            for group in step.groups:
                needed.update(group.cells)
    return kept[::-1]


def listed(items: Iterable[object], last: str = "or") -> str:
    """``1, 2 or 3``."""
    words = [str(x) for x in items]
    if not words:
        return ""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def capital(text: str) -> str:
    """Upper-case the first letter, unless the text starts with a cell name (``r2c3``)."""
    return text if text[:1] == "r" and text[1:2].isdigit() else text[:1].upper() + text[1:]


def names(cells: Iterable[Cell], most: int | None = None) -> str:
    """``r0c1, r2c2 and r3c0``; past ``most`` cells, the first ``most`` and how many more
    (a message about a broken puzzle stays a sentence)."""
    shown = list(cells)
    if most is not None and len(shown) > most:
        return f"{', '.join(map(cell_name, shown[:most]))} and {len(shown) - most} more"
    return listed(map(cell_name, shown), "and")


def outcome(
    placements: Iterable[tuple[Cell, int]],
    eliminations: Iterable[tuple[Cell, int]],
    say: Callable[[int], str] = value_text,
) -> str:
    """What a step does: ``r1c2 = 7; r1c3 and r1c4 lose 8 and 9`` (``say``: how a value
    reads, the kind's ``value_text``)."""
    parts = [f"{cell_name(cell)} = {say(d)}" for cell, d in placements]
    lost: dict[Cell, list[int]] = {}
    for cell, d in eliminations:
        lost.setdefault(cell, []).append(d)
    by_digits: dict[tuple[int, ...], list[Cell]] = {}
    for cell, ds in lost.items():
        by_digits.setdefault(tuple(ds), []).append(cell)
    for values, cells in by_digits.items():
        verb = "loses" if len(cells) == 1 else "lose"
        parts.append(f"{names(cells)} {verb} {listed(map(say, values), 'and')}")
    return "; ".join(parts)


def then(used: list[Step], say: Callable[[int], str] = value_text) -> str:
    """``then r1c2 = 4 and r3c3 = 1, and `` for the steps a conclusion depends on
    (nothing when none)."""
    return f"then {chain_summary(used, say=say)}, and " if used else ""


def chain_summary(chain: list[Step], limit: int = 4, say: Callable[[int], str] = value_text) -> str:
    """The placements of a chain (``r0c1 = 4, r2c2 = 1 and 3 more``), or how many
    eliminations it made."""
    placed = [f"{cell_name(c)} = {say(d)}" for step in chain for c, d in step.placements]
    if not placed:
        count = sum(len(step.eliminations) for step in chain)
        return f"{count} elimination{'s' if count != 1 else ''}"
    if len(placed) <= limit:
        return listed(placed, "and")
    return f"{', '.join(placed[:limit])} and {len(placed) - limit} more"


# ---------------------------------------------------------------- the ladder

TRIAL_WEIGHT = 10_000  # a trial's weight in a score (as HoDoKu's)


def rank_weight(step: Step) -> int:
    """A step's weight in a score when its kind gives none: 10 * 2^(rank - 1) for a
    technique of rank (its enum value, simplest 1), :data:`TRIAL_WEIGHT` for the trial."""
    if step.technique.name == "TRIAL":
        return TRIAL_WEIGHT
    return 10 << (int(step.technique) - 1)


Ranked = TypeVar("Ranked")


def most_telling(found: Iterable[tuple[tuple[int, int], Ranked]]) -> Ranked | None:
    """Of the steps one technique finds (each after its rank: the cells it places, the
    candidates it removes besides), the first of those that place most, then remove
    most: the one the chain takes."""
    top = max(found, key=itemgetter(0), default=None)  # max keeps the first of equals
    return None if top is None else top[1]


def best(steps: Iterable[Step | None]) -> Step | None:
    """The step the chain takes of some steps of one technique (None: not found),
    by :func:`most_telling`."""
    return most_telling(
        [((len(s.placements), len(s.eliminations)), s) for s in steps if s is not None]
    )


@dataclass(frozen=True)
class Ladder:
    """A kind's techniques, and the chain built from them."""

    techniques: type[enum.IntEnum]  # simplest first; the one named TRIAL is the last resort
    # technique -> (scope, function); keyed by the kind's own IntEnum (a Mapping's key
    # type is invariant)
    table: Mapping[Any, tuple[str, StepFinder]]
    keys: Callable[[Any, str], int]  # how many keys (cells, groups) a scope has
    position: Callable[[Any, Any], Any]  # (puzzle, entries | candidates | None) -> position
    thresholds: Thresholds
    # The steps of a chain the given groups and cells depend on, in order (what a step
    # touches is the kind's: a placement in a latin square also clears its row and column).
    relevant: Callable[[list[Step], tuple[Any, ...], tuple[Cell, ...]], list[Step]]
    # (position, step, max technique) -> the step a placements-only hint takes instead
    # (e.g. the crossing a combinations step would lead to), or None.
    lookahead: Callable[[Any, Step, Any], Step | None] | None = None  # Any: the kind's enum
    # How a cell's value reads in a sentence (the kind's ``value_text``).
    say: Callable[[int], str] = value_text
    # A step's weight in the chain's score (:attr:`Explanation.score`).
    weigh: Callable[[Step], int] = rank_weight

    @property
    def trial(self) -> enum.IntEnum:
        return self.techniques["TRIAL"]

    @functools.cached_property
    def _rungs(self) -> tuple[tuple[enum.IntEnum, str, StepFinder], ...]:
        """The techniques in order, each with its scope and function."""
        return tuple((t, *self.table[t]) for t in self.techniques)

    def find(self, pos: Any, technique: enum.IntEnum) -> Step | None:
        """The best step of one technique (see :meth:`_best`)."""
        return self._best(pos, technique, *self.table[technique])

    def _best(
        self, pos: Any, technique: enum.IntEnum, scope: str, function: StepFinder
    ) -> Step | None:
        """The best step of one technique: most placements, then most eliminations, then
        the first in the kind's order. Findings are memoised in the position, which
        forgets them when a cell they read changes."""
        memo = pos.memo(technique)
        if scope == WHOLE:
            if None not in memo:
                memo[None] = function(pos)
            whole: Step | None = memo[None]
            return whole
        keys = range(self.keys(pos, scope))
        for key in keys:
            if key not in memo:
                pos.poll()  # a large grid has thousands of keys: the budget is checked at each
                memo[key] = function(pos, key)
        if not any(memo.values()):  # the usual case: nothing found
            return None
        return best(map(memo.__getitem__, keys))

    @functools.cached_property
    def counted(self) -> frozenset[enum.IntEnum]:
        """The techniques whose steps a grade counts (the thresholds' limits), and the
        trial."""
        limited = {t for _, limits in self.thresholds.values() for t in limits}
        return frozenset({*limited, self.trial})

    def every(self, pos: Any, technique: enum.IntEnum) -> list[Step]:
        """Every step of one technique that :meth:`find` saw in the position (after it
        chose the best). A chain in bulk takes them all at once when the grade does not
        count them: the techniques below the next one reach the same fixpoint whatever
        the order, so the same techniques are needed, and the counted ones are taken
        one at a time from the same positions."""
        return [step for step in pos.memo(technique).values() if step is not None]

    def first_step(self, pos: Any, max_technique: enum.IntEnum | None = None) -> Step | None:
        """The simplest step available: the techniques in order, the first that finds one."""
        for technique, scope, function in self._rungs:
            if max_technique is not None and technique > max_technique:
                break
            step = self._best(pos, technique, scope, function)
            if step is not None:
                return step
        return None

    def follow(
        self, pos: Any, i: int, value: int, up_to: enum.IntEnum, steps: int
    ) -> tuple[list[Step], Contradiction | None, Any]:
        """Assume ``cell i = value`` (``pos.place``) in a copy of ``pos`` and follow the
        techniques up to ``up_to`` for at most ``steps`` steps: the chain, the
        contradiction it reached (or None), and the position then."""
        assumed = pos.copy()
        chain: list[Step] = []
        try:
            assumed.place(i, value)
            for _ in range(steps):
                assumed.poll()
                step = self.first_step(assumed, up_to)
                if step is None:
                    break
                assumed.apply(step)
                chain.append(step)
        except Contradiction as found:
            return chain, found, assumed
        return chain, None, assumed

    def shortest_refutation(
        self, pos: Any, assumptions: Iterable[tuple[int, int]], up_to: enum.IntEnum, steps: int
    ) -> tuple[int, int, list[Step], Contradiction] | None:
        """Of the assumptions ``(cell, value)``, the one whose chain (techniques up to
        ``up_to``, at most ``steps`` steps) reaches a contradiction soonest, the first
        of equals: ``(cell, value, chain, contradiction)``, or None."""
        best: tuple[int, int, list[Step], Contradiction] | None = None
        for i, value in assumptions:
            limit = len(best[2]) if best else steps
            chain, found, _ = self.follow(pos, i, value, up_to, limit)
            if found is not None and (best is None or len(chain) < len(best[2])):
                best = (i, value, chain, found)
        return best

    def then(self, chain: list[Step], groups: tuple[Any, ...], cells: Iterable[Cell]) -> str:
        """``then ..., and `` for the steps of ``chain`` that lead to what ``groups``
        and ``cells`` show (nothing when none)."""
        return then(self.relevant(chain, groups, tuple(cells)), self.say)

    def two_level(
        self,
        pos: Any,
        i: int,
        value: int,
        x: int,
        up_to: enum.IntEnum,
        steps: int,
        values_of: Callable[[int], Iterable[int]],
    ) -> tuple[str, Contradiction | None] | None:
        """The sentence of a two-level trial: ``cell i = value`` followed (techniques up
        to ``up_to``, at most ``steps`` steps), then each value left to cell ``x``
        (``values_of`` its mask) followed from there. ``(text, contradiction)`` when the
        first level already fails, ``(text, None)`` when every value of ``x`` fails;
        None when the techniques do not reach it."""
        chain, found, assumed = self.follow(pos, i, value, up_to, steps)
        if found is not None:  # one level after all
            return f"{self.then(chain, found.groups, found.cells)}{found.reason}", found
        if assumed.placed[x]:
            return None
        branches = []
        for b in values_of(assumed.masks[x]):
            sub, why, _ = self.follow(assumed, x, b, up_to, steps)
            if why is None:
                return None
            branches.append(f"{self.say(b)} ({self.then(sub, why.groups, why.cells)}{why.reason})")
        cell = pos.frame.cells[x]
        text = f"{self.then(chain, (), [cell])}{cell_name(cell)} could be neither "
        return text + " nor ".join(branches), None

    def summarised(self, chain: list[Step]) -> Step:
        """One step standing for a chain that ends in a placement."""
        last = chain[-1]
        if len(chain) == 1:
            return last
        used = self.relevant(chain[:-1], last.groups, last.cells)
        if not used:
            text = last.explanation
        elif len(used) <= 2:
            text = " ".join(step.explanation for step in used) + " " + last.explanation
        else:
            kinds = Counter(step.technique.name.lower().replace("_", " ") for step in used)
            how = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in kinds.items())
            summary = chain_summary(used, say=self.say)
            text = f"After {len(used)} steps ({how}; {summary}): {last.explanation}"
        return Step(
            technique=max(step.technique for step in (*used, last)),
            placements=last.placements,
            eliminations=tuple(e for step in chain for e in step.eliminations),
            groups=last.groups,
            cells=last.cells,
            explanation=text,
            chain=tuple(chain[:-1]),
        )

    def _start(self, puzzle: Any, given: object, budget: Budget | None) -> Any:
        pos = self.position(puzzle, given)
        pos.budget = budget
        pos.poll()
        return pos

    def next_step(
        self,
        puzzle: Any,
        candidates_or_entries: object = None,
        max_technique: enum.IntEnum | None = None,
        placements_only: bool = False,
        budget: Budget | None = None,
    ) -> Step | None:
        """The simplest step from a position, or None when the grid is full or the
        techniques up to ``max_technique`` (None: all) find nothing.

        With ``placements_only``, eliminations are applied silently until a step places
        a digit; the step returned carries that placement, every elimination made on the
        way (so applying it reproduces the state), the chain in ``.chain``, the hardest
        technique used, and an explanation that summarises the steps the placement
        depends on. Raises the kind's contradiction when the position cannot be
        completed, and :class:`~numgrid.server.core.SearchTimeout` past the ``budget``.
        """
        limit = self.trial if max_technique is None else max_technique
        pos = self._start(puzzle, candidates_or_entries, budget)
        if not placements_only:
            return self.first_step(pos, limit)
        chain: list[Step] = []
        while (step := self.first_step(pos, limit)) is not None:
            pos.poll()
            if self.lookahead is not None:
                step = self.lookahead(pos, step, limit) or step
            chain.append(step)
            if step.placements:
                return self.summarised(chain)
            pos.apply(step)
        return None

    def last_resort(
        self, puzzle: Any, candidates_or_entries: object = None, budget: Budget | None = None
    ) -> Step | None:
        """The trial step from a position, or None when no short trial ends in a
        contradiction. Simpler techniques are not tried first: a hint offers this when
        the techniques it may use are stuck (``explain(..., max_technique)`` gives the
        position where they stall, in ``.candidates``)."""
        return self.find(self._start(puzzle, candidates_or_entries, budget), self.trial)

    def grade(self, counts: Mapping[enum.IntEnum, int] | Explanation) -> Grade:
        """The grade of a chain that completed the grid, from its technique counts."""
        if isinstance(counts, Explanation):
            counts = counts.technique_counts
        used = [t for t, n in counts.items() if n]
        if self.trial in used:
            return Grade.EXTREME
        for level, (hardest, limits) in self.thresholds.items():
            if all(t <= hardest for t in used) and all(
                counts.get(t, 0) <= n for t, n in limits.items()
            ):
                return level
        return Grade.EXPERT

    def explain(
        self,
        puzzle: Any,
        entries: object = None,
        max_technique: enum.IntEnum | None = None,
        budget: Budget | None = None,
        quiet: bool = False,
        most: Mapping[enum.IntEnum, int] | None = None,
        bulk: bool = False,
    ) -> Explanation:
        """Every step from ``entries`` (an empty grid by default) until the grid is full,
        the techniques run out, or a contradiction shows the entries cannot be completed.
        Raises :class:`~numgrid.server.core.SearchTimeout` past the ``budget``.

        ``quiet``: the steps without their sentences (the same steps, counts, score and
        grade). ``bulk``: every step of a technique the grade does not count
        (:attr:`counted`) taken at once (fewer steps, another score; the same grade for
        a kind graded by its thresholds alone, not by points).
        ``most``: per technique the grade counts, the most steps taken; the chain stops
        (unsolved) before a step that would take one more (a maker's early verdict: over
        a grade's limit)."""
        limit = self.trial if max_technique is None else max_technique
        pos = self._start(puzzle, entries, budget)
        pos.quiet = quiet
        steps: list[Step] = []
        counts: Counter[enum.IntEnum] = Counter()
        contradiction = ""
        try:
            while (step := self.first_step(pos, limit)) is not None:
                if most is not None and counts[step.technique] >= most.get(step.technique, 1 << 30):
                    break
                pos.poll()
                taken = [step]
                if bulk and step.technique not in self.counted:
                    taken = self.every(pos, step.technique)
                for each in taken:
                    pos.apply(each)
                steps.extend(taken)
                counts[step.technique] += len(taken)
        except Contradiction as why:
            contradiction = why.reason
        solved = pos.solved and not contradiction
        return Explanation(
            steps=tuple(steps),
            solved=solved,
            grade=self.grade(counts) if solved else None,
            technique_counts={t: counts.get(t, 0) for t in self.techniques},
            final=pos.grid(),
            contradiction=contradiction,
            candidates=pos.candidates(),
            score=sum(map(self.weigh, steps)),
        )
