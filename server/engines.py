"""The two engines behind one interface, and the cross-check that compares them.

An engine answers one question: "give me up to ``limit`` distinct solutions of this
puzzle (with these entries held fixed) within this budget". Solve is ``limit=1``;
uniqueness is ``limit=2``. Engines never special-case a puzzle kind: the kind builds
the CP-SAT model and runs its native search.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from concurrent.futures import wait
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchResult
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Stats
from numgrid.server.core import Verdict
from numgrid.server.core import call_budget
from numgrid.server.core import differing_cells
from numgrid.server.kinds.base import Kind

P = TypeVar("P")  # a kind's puzzle class


class Engine(enum.Enum):
    AUTO = "auto"
    CPSAT = "cpsat"
    NATIVE = "native"
    CROSS_CHECK = "cross-check"


class EngineDisagreement(RuntimeError):
    """The two engines gave different answers: a bug in one of them, never hidden."""

    def __init__(self, cpsat: SearchResult, native: SearchResult) -> None:
        self.cpsat, self.native = cpsat, native
        super().__init__(
            f"engines disagree: CP-SAT says {cpsat.verdict().value} with "
            f"{len(cpsat.solutions)} solution(s) {list(cpsat.solutions)}, native says "
            f"{native.verdict().value} with {len(native.solutions)} solution(s) "
            f"{list(native.solutions)}"
        )


def _within(engine: str, budget: Budget, search: Callable[[], SearchResult]) -> SearchResult:
    """``search()`` with ``budget`` as the call's (:func:`~numgrid.server.core.poll_call`)
    for the tables an engine builds before it searches (a large cage's layouts): out of
    time there, the engine timed out."""
    start = time.perf_counter()
    try:
        with call_budget(budget):
            return search()
    except SearchTimeout:
        return SearchResult.out_of_time(engine, start)


def cpsat_search(
    kind: Kind[P], puzzle: P, *, limit: int, fixed: Grid | None, budget: Budget
) -> SearchResult:
    """CP-SAT; imported on first use (OR-Tools costs half a second to import)."""
    from numgrid.server import cpsat_runner

    search = partial(cpsat_runner.search, kind, puzzle, limit=limit, fixed=fixed, budget=budget)
    return _within("cpsat", budget, search)


def native_search(
    kind: Kind[P], puzzle: P, *, limit: int, fixed: Grid | None, budget: Budget
) -> SearchResult:
    search = partial(kind.native.search, puzzle, limit=limit, fixed=fixed, budget=budget)
    return _within("native", budget, search)


def _same_answer(a: SearchResult, b: SearchResult, limit: int) -> bool:
    if a.timed_out or b.timed_out:
        return True  # a timeout is not an answer; nothing to compare
    if a.verdict() is not b.verdict():
        return False
    if len(a.solutions) < limit:  # both searched everything, so found the same solutions
        return set(a.solutions) == set(b.solutions)
    return True  # both stopped at `limit` solutions; they may differ in which


_CROSS_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="cross-check")


def start_cross_check(
    kind: Kind[P], puzzle: P, *, limit: int, fixed: Grid | None, budget: Budget
) -> Callable[[], tuple[SearchResult, SearchResult]]:
    """Start CP-SAT on ``puzzle`` in the background (it releases the GIL) and return
    what finishes the cross-check: the native engine, then the comparison. Cancel
    ``budget`` to stop a check no longer wanted."""
    cp_future = _CROSS_POOL.submit(
        cpsat_search, kind, puzzle, limit=limit, fixed=fixed, budget=budget
    )

    def finish() -> tuple[SearchResult, SearchResult]:
        native = native_search(kind, puzzle, limit=limit, fixed=fixed, budget=budget)
        cpsat = cp_future.result()
        if not _same_answer(cpsat, native, limit):
            raise EngineDisagreement(cpsat, native)
        return cpsat, native

    return finish


def cross_check(
    kind: Kind[P], puzzle: P, *, limit: int, fixed: Grid | None, budget: Budget
) -> tuple[SearchResult, SearchResult]:
    """Run both engines (CP-SAT releases the GIL, so they overlap) and compare."""
    return start_cross_check(kind, puzzle, limit=limit, fixed=fixed, budget=budget)()


AUTO_HEAD_START = 0.1  # seconds; the slowest corpus puzzle takes the native engine 33 ms
_RACE_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="auto")


def auto_search(
    kind: Kind[P], puzzle: P, *, limit: int, fixed: Grid | None, budget: Budget
) -> tuple[SearchResult, ...]:
    """Native first; if it has no answer within a head start, CP-SAT races it and the
    first complete answer wins, the other is cancelled. Native decides every measured
    corpus puzzle in milliseconds, but some open grids take it far longer to refute
    than CP-SAT. Returns the winner first, then the loser (if CP-SAT was started)."""
    native_budget = budget.child()
    native_future = _RACE_POOL.submit(
        native_search, kind, puzzle, limit=limit, fixed=fixed, budget=native_budget
    )
    try:
        won = native_future.result(timeout=AUTO_HEAD_START)
        budget.release(native_budget)
        return (won,)
    except FuturesTimeout:
        pass
    cpsat_budget = budget.child()
    cpsat_future = _RACE_POOL.submit(
        cpsat_search, kind, puzzle, limit=limit, fixed=fixed, budget=cpsat_budget
    )
    racers = {native_future: native_budget, cpsat_future: cpsat_budget}
    pending = set(racers)
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        winners = [f for f in done if f.result().complete]
        if winners or not pending:
            winner = winners[0] if winners else next(iter(done))
            for future, child in racers.items():
                if future is not winner:
                    child.cancel()
            loser = next(f for f in racers if f is not winner)
            results = winner.result(), loser.result()
            for child in racers.values():
                budget.release(child)
            return results
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Answer:
    """What the service reports: the verdict, the solutions, where two differ, statistics.

    With ``limit=1`` (solve) a found solution reads as UNIQUE: only "found" is meant.
    """

    verdict: Verdict
    solutions: tuple[Grid, ...]
    differing: tuple[Cell, ...]
    stats: tuple[Stats, ...]


def find(
    kind: Kind[P],
    puzzle: P,
    *,
    engine: Engine = Engine.AUTO,
    limit: int = 2,
    fixed: Grid | None = None,
    budget: Budget | None = None,
) -> Answer:
    """Search with the chosen engine; ``limit=2`` is the uniqueness question."""
    budget = budget or Budget()
    stats: tuple[Stats, ...]
    if engine is Engine.CROSS_CHECK:
        cpsat, native = cross_check(kind, puzzle, limit=limit, fixed=fixed, budget=budget)
        # Report the engine that finished (both agree when both did); when neither did,
        # the one that found more: two solutions found answer MULTIPLE either way.
        primary = max((native, cpsat), key=lambda r: (r.complete, len(r.solutions)))
        stats = (cpsat.stats, native.stats)
    elif engine is Engine.CPSAT or engine is Engine.NATIVE:
        search = cpsat_search if engine is Engine.CPSAT else native_search
        primary = search(kind, puzzle, limit=limit, fixed=fixed, budget=budget)
        stats = (primary.stats,)
    else:
        results = auto_search(kind, puzzle, limit=limit, fixed=fixed, budget=budget)
        primary = results[0]
        stats = tuple(r.stats for r in results)
    sols = primary.solutions
    differing = differing_cells(sols[0], sols[1]) if len(sols) >= 2 else ()
    return Answer(primary.verdict(), sols, differing, stats)
