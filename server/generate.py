"""Generate: unique puzzles of a kind, size and grade, reproducible from a seed.

The kind's :class:`~numgrid.server.kinds.base.Maker` knows shapes: it draws a candidate
(a puzzle and a solution of it) and repairs one where a second solution differs. This
module knows the rest, the same for every kind:

1. **unique**: the native engine looks for two solutions; while it finds two, the maker
   repairs the puzzle where the second differs from the candidate's solution (the chain
   is spent on unique puzzles only: on one with two solutions it can only stall);
2. **graded**: the kind's chain explains it with the techniques the target grade allows.
   A puzzle graded off target, or needing more than the target allows, moves the
   *pressure* the maker leans on for its next candidate (harder clues, bigger cages,
   ...), and a maker that can (:class:`~numgrid.server.kinds.base.Nudging`) first moves
   that very puzzle toward the grade a few times (a cage merged or split, a given
   added): the grade is steered, not only measured;
3. **cross-checked**: both engines must find that one solution and no other. The first
   candidate's check starts once it is unique, beside the chain grading it (most easy
   targets keep it); once one was off grade, a candidate's check starts only when it is
   kept (a check begun beside a chain whose candidate then goes costs the chain's
   thread GIL time and the machine CPU: docs/generate.md has the figures). Each of
   these is a bug and raises: CP-SAT answering otherwise, a chain finding a unique
   puzzle contradictory, a maker's solution that does not solve its own puzzle.

Every random choice comes from ``random.Random(seed)``, so a seed gives the same puzzle
(only a candidate whose chain runs past :data:`CANDIDATE_SECONDS` is dropped for time).
Puzzle *i* of a request with seed *S* has seed *S + i*: it is reproduced alone.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from numgrid.server import engines
from numgrid.server.chain import Explanation
from numgrid.server.chain import Grade
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchResult
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Stats
from numgrid.server.core import Verdict
from numgrid.server.kinds.base import Kind
from numgrid.server.kinds.base import Nudging
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.making import second_solution
from numgrid.server.operations import Difficulty
from numgrid.server.operations import difficulty_of

MAX_COUNT = 10_000  # puzzles in one request
MAX_SEED = 2**63 - 1
MAX_REPAIRS = 200  # repairs of one candidate before it is dropped
NUDGES = 4  # an off-grade candidate's moves toward the grade (by a Nudging maker)
CANDIDATE_SECONDS = 10.0  # a candidate's chain (a trial may be slow) before it is dropped
# A candidate whose search for a second solution takes more nodes is dropped, not
# repaired (a count, not a time: a seed makes the same puzzle on any machine). Nearly
# every maker's search takes far fewer; the few past it can run to tens of thousands
# (docs/generate.md has the counts).
UNIQUE_NODES = 2_000
PRESSURE_STEP = 0.25  # how far one candidate graded off target moves the pressure


class GenerationBug(RuntimeError):
    """The chain and the engines disagree on a generated puzzle: never hidden."""


@dataclass(frozen=True)
class Generated:
    """One puzzle made: proven unique by both engines, graded by the kind's chain."""

    puzzle: Any
    solution: Grid
    difficulty: Difficulty
    seed: int  # generating with this seed and count 1 gives this puzzle again
    attempts: int  # candidates drawn
    repairs: int  # repairs made, over all candidates
    seconds: float
    stats: tuple[Stats, ...]  # the cross-check's: CP-SAT, native


@dataclass(frozen=True)
class _Check:
    """A cross-check under way."""

    finish: Callable[[], tuple[SearchResult, SearchResult]]  # waits for both answers
    budget: Budget  # cancelled when its candidate is not kept


@dataclass(frozen=True)
class _Candidate:
    """A candidate made unique and explained, its cross-check maybe under way beside."""

    puzzle: Any
    solution: Grid
    explanation: Explanation | None
    check: _Check | None


def problems(kind: Kind[Any], spec: Spec, count: int) -> list[tuple[str, str]]:
    """Why a request cannot be served: (field, sentence) each; empty when it can."""
    found = []
    if not 1 <= count <= MAX_COUNT:
        found.append(("count", f"count must be 1 to {MAX_COUNT}, not {count}"))
    if spec.grade is not None and spec.grade not in Grade:
        found.append(("grade", f"unknown grade {spec.grade}"))
    if not 0.0 <= spec.density < 1.0:
        found.append(("density", f"density is a share of the cells, 0 to 1, not {spec.density:g}"))
    said = {field for field, _ in found}  # one sentence per field is enough
    return found + [(field, text) for field, text in kind.maker.problems(spec) if field not in said]


def ceiling(kind: Kind[Any], grade: Grade | None) -> enum.IntEnum:
    """The hardest technique a chain for ``grade`` may use: the trial for EXTREME and for
    any grade, the one just short of it for a grade past the kind's thresholds."""
    trial = kind.logic.Technique["TRIAL"]
    if grade is None or grade == Grade.EXTREME:
        return trial
    if grade in kind.logic.THRESHOLDS:
        hardest: enum.IntEnum = kind.logic.THRESHOLDS[grade][0]
        return hardest
    return kind.logic.Technique(trial - 1)


class Attempt:
    """One seed's candidates, repairs and pressure, until one puzzle is accepted
    (:meth:`unique` is also how ``benchmarks/reachable.py`` makes its draws unique)."""

    def __init__(self, kind: Kind[Any], spec: Spec, seed: int, budget: Budget) -> None:
        self.kind, self.spec, self.budget = kind, spec, budget
        self.rng = random.Random(seed)
        self.pressure = 0.0
        self.attempts = self.repairs = self.nudges = 0

    def _steer(self, harder: bool) -> None:
        step = PRESSURE_STEP if harder else -PRESSURE_STEP
        self.pressure = max(-1.0, min(1.0, self.pressure + step))

    def unique(self, puzzle: Any, solution: Grid) -> tuple[Any, Grid] | None:
        """(puzzle, solution) repaired until the native engine finds no solution other
        than the maker's; None when the maker cannot repair it, its repairs come back to
        a puzzle they made before, or a search passes :data:`UNIQUE_NODES`. The maker's
        solution is held up to the kind's rules first and once repaired (a
        GenerationBug if it breaks one); the cross-check of the finished puzzle proves
        it the only one."""
        self._solves(puzzle, solution)
        seen = {puzzle}
        for repairs in range(MAX_REPAIRS + 1):
            settled, other = second_solution(
                self.kind.native, puzzle, solution, self.budget, UNIQUE_NODES
            )
            if not settled:
                return None  # past UNIQUE_NODES: the next candidate
            if other is None:
                if repairs:
                    self._solves(puzzle, solution)  # the repairs kept it a solution
                return puzzle, solution
            repaired = self.kind.maker.repair(puzzle, solution, other, self.rng)
            if repaired is None:
                return None
            # (puzzle, solution): a maker whose clues are its fill's sums changed both
            puzzle, solution = repaired if isinstance(repaired, tuple) else (repaired, solution)
            self.repairs += 1
            if puzzle in seen:
                return None  # the repairs go round in a circle: the next candidate
            seen.add(puzzle)
        return None

    def _solves(self, puzzle: Any, solution: Grid) -> None:
        """Raises GenerationBug unless the maker's solution keeps the kind's rules."""
        if not self.kind.checks.validate_board(Board(puzzle, solution), None).solved:
            raise GenerationBug(f"the maker's solution {solution} does not solve its own puzzle")

    def _explained(self, puzzle: Any, limit: enum.IntEnum) -> Explanation | None:
        budget = self.budget.child(CANDIDATE_SECONDS)
        try:
            return self.kind.logic.explain(puzzle, None, limit, budget=budget, quiet=True)
        except SearchTimeout:
            if self.budget.expired():
                raise
            return None  # this candidate's chain is too slow: the next one
        finally:
            self.budget.release(budget)

    def _judged(self, explanation: Explanation | None) -> Explanation | None:
        """The explanation if it completes the grid at the target grade; else None, with
        the pressure moved toward the target."""
        if explanation is None:
            return None
        if not explanation.solved:
            if explanation.contradiction:
                raise GenerationBug(
                    f"the chain finds a puzzle with a solution contradictory: "
                    f"{explanation.contradiction}"
                )
            self._steer(harder=False)  # it needs more than the target allows
            return None
        target, grade = self.spec.grade, explanation.grade
        if target is None or grade == target:
            return explanation
        assert grade is not None  # a chain that completed the grid has graded it
        self._steer(harder=grade < target)
        return None

    def _graded(self, puzzle: Any, solution: Grid, beside: bool) -> _Candidate | None:
        """The candidate made unique and explained with the techniques the target
        allows, its cross-check started beside the chain when ``beside``; None when it
        cannot be made unique. Unique first: a candidate with a second solution is
        repaired before the chain, which costs several native searches, is spent on it
        (and a trial on a puzzle with two solutions can search long)."""
        made = self.unique(puzzle, solution)
        if made is None:
            return None
        puzzle, solution = made
        check = self._check(puzzle) if beside else None
        try:
            explanation = self._explained(puzzle, ceiling(self.kind, self.spec.grade))
        except BaseException:
            self._drop(check)
            raise
        return _Candidate(puzzle, solution, explanation, check)

    def _check(self, puzzle: Any) -> _Check:
        """Both engines started on ``puzzle`` (CP-SAT in a thread of its own)."""
        budget = self.budget.child()
        finish = engines.start_cross_check(self.kind, puzzle, limit=2, fixed=None, budget=budget)
        return _Check(finish, budget)

    def _drop(self, check: _Check | None) -> None:
        """Stop a cross-check (if started and still running), and let it go."""
        if check is not None:
            check.budget.cancel()
            self.budget.release(check.budget)

    def _toward(self, explanation: Explanation | None) -> bool | None:
        """Whether an off-grade candidate needs a harder puzzle (True) or an easier one
        (False: graded too hard, or needing more than the target allows); None when
        that is not known."""
        target = self.spec.grade
        if explanation is None or explanation.contradiction or target is None:
            return None
        if not explanation.solved:
            return False
        assert explanation.grade is not None  # a chain that completed the grid has graded it
        return explanation.grade < target

    def run(self) -> tuple[_Candidate, Explanation]:
        """The first candidate kept (its cross-check started), and its explanation."""
        maker = self.kind.maker
        missed = False  # a candidate was off grade: later ones are checked once kept
        while True:
            if self.budget.expired():
                raise SearchTimeout()
            self.attempts += 1
            puzzle, solution = maker.candidate(self.spec, self.rng, self.pressure, self.budget)
            for nudges in range(NUDGES + 1):
                graded = self._graded(puzzle, solution, beside=not missed)
                if graded is None:
                    break
                judged = None
                try:
                    judged = self._judged(graded.explanation)
                finally:
                    if judged is None:  # not kept: its cross-check stops
                        self._drop(graded.check)
                if judged is not None:
                    check = graded.check or self._check(graded.puzzle)
                    return dataclasses.replace(graded, check=check), judged
                missed = True
                harder = self._toward(graded.explanation)
                if harder is None or nudges == NUDGES or not isinstance(maker, Nudging):
                    break
                nudged = maker.nudge(graded.puzzle, graded.solution, harder, self.rng)
                if nudged is None:
                    break
                puzzle, solution = nudged, graded.solution
                self.nudges += 1


def generate_one(kind: Kind[Any], spec: Spec, seed: int, budget: Budget) -> Generated:
    """One unique puzzle of ``spec`` from ``seed``. Raises SearchTimeout past ``budget``,
    EngineDisagreement or GenerationBug on a bug (loudly, with both answers)."""
    start = time.perf_counter()
    attempt = Attempt(kind, spec, seed, budget)
    kept, explanation = attempt.run()
    puzzle, solution = kept.puzzle, kept.solution
    try:
        assert kept.check is not None  # run() starts the kept candidate's
        cpsat, native = kept.check.finish()
    finally:
        attempt._drop(kept.check)  # done, or failed with CP-SAT still running
    if cpsat.timed_out or native.timed_out:
        raise SearchTimeout()
    if cpsat.verdict() is not Verdict.UNIQUE or cpsat.solutions[0] != solution:
        raise GenerationBug(
            f"the chain solved a puzzle to {solution}, but both engines say "
            f"{cpsat.verdict().value} with {list(cpsat.solutions)}"
        )
    return Generated(
        puzzle,
        solution,
        difficulty_of(explanation),
        seed,
        attempt.attempts,
        attempt.repairs,
        time.perf_counter() - start,
        (cpsat.stats, native.stats),
    )


def new_seed() -> int:
    """A seed for a request that gave none (reported with each puzzle)."""
    return random.SystemRandom().randrange(2**32)


__all__ = [
    "CANDIDATE_SECONDS",
    "MAX_COUNT",
    "Generated",
    "GenerationBug",
    "ceiling",
    "generate_one",
    "new_seed",
    "problems",
]
