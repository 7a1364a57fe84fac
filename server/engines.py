"""The two engines behind one interface, and the cross-check that compares them.

An engine answers one question: "give me up to ``limit`` distinct solutions of this
puzzle (with these entries held fixed) within this budget". Solve is ``limit=1``;
uniqueness is ``limit=2``. Engines never special-case a puzzle kind: the kind builds
the CP-SAT model and runs its native search.
"""

from __future__ import annotations

import enum
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from numgrid.server.core import Budget, Cell, Grid, SearchResult, Stats, Verdict, differing_cells
from numgrid.server.kinds.base import Kind
from ortools.sat.python import cp_model


class Engine(enum.Enum):
    AUTO = "auto"
    CPSAT = "cpsat"
    NATIVE = "native"
    CROSS_CHECK = "cross-check"


class EngineDisagreement(RuntimeError):
    """The two engines gave different answers: a bug in one of them, never hidden."""

    def __init__(self, cpsat: SearchResult, native: SearchResult):
        self.cpsat, self.native = cpsat, native
        super().__init__(
            f"engines disagree: CP-SAT says {cpsat.verdict().value} with "
            f"{len(cpsat.solutions)} solution(s) {list(cpsat.solutions)}, native says "
            f"{native.verdict().value} with {len(native.solutions)} solution(s) "
            f"{list(native.solutions)}"
        )


def _grid(shape: tuple[int, int], values: dict[Cell, int]) -> Grid:
    rows, cols = shape
    return tuple(tuple(values.get((r, c), 0) for c in range(cols)) for r in range(rows))


class _Collector(cp_model.CpSolverSolutionCallback):
    """Keeps the distinct solutions CP-SAT enumerates; stops the search at ``limit``, or
    when the budget runs out (a cancel that came before the solve began is not lost)."""

    def __init__(self, indices: list[int], limit: int, budget: Budget):
        super().__init__()
        self.indices, self.limit, self.budget = indices, limit, budget
        # keyed by the cells' values: auxiliary variables could tell one grid apart twice
        self.found: dict[tuple[int, ...], None] = {}

    def on_solution_callback(self) -> None:
        if len(self.found) < self.limit:
            solution = self.response_proto.solution
            self.found[tuple(solution[i] for i in self.indices)] = None
        if len(self.found) >= self.limit or self.budget.expired():
            self.stop_search()


def cpsat_search(
    kind: Kind, puzzle, *, limit: int, fixed: Grid | None, budget: Budget
) -> SearchResult:
    """One solve that enumerates solutions and stops at the ``limit``-th.

    Measured on the corpus, this beats solving, forbidding the solution and solving
    again (see :mod:`numgrid.server.kinds.kakuro.cpsat`).
    """
    start = time.perf_counter()
    model, cells = kind.cpsat_model(puzzle, fixed)
    collector = _Collector([v.index for v in cells.values()], limit, budget)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # with more, enumeration reports a solution twice
    # CP-SAT's own SIGINT handler aborts the process when the solve runs outside the
    # main thread (std::bad_function_call); the budget stops it instead.
    solver.parameters.catch_sigint_signal = False
    remaining = budget.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 0.001)
    budget.on_cancel(solver.stop_search)
    status, branches = cp_model.UNKNOWN, 0
    if limit > 0 and not budget.expired():
        status = solver.solve(model, collector)
        branches = solver.num_branches
    if status == cp_model.MODEL_INVALID:  # a bug in the model, not a timeout
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    shape = (puzzle.rows, puzzle.cols)
    solutions = tuple(
        _grid(shape, dict(zip(cells, found, strict=True))) for found in collector.found
    )
    # OPTIMAL or INFEASIBLE: all enumerated. FEASIBLE: stopped at the limit, or by the
    # time limit or a cancel. UNKNOWN: stopped before the first solution, or never run.
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or len(solutions) >= limit
    stats = Stats("cpsat", time.perf_counter() - start, branches)
    return SearchResult(solutions, complete, stats)


def native_search(
    kind: Kind, puzzle, *, limit: int, fixed: Grid | None, budget: Budget
) -> SearchResult:
    return kind.native_search(puzzle, limit=limit, fixed=fixed, budget=budget)


def _same_answer(a: SearchResult, b: SearchResult, limit: int) -> bool:
    if a.timed_out or b.timed_out:
        return True  # a timeout is not an answer; nothing to compare
    if a.verdict() is not b.verdict():
        return False
    if len(a.solutions) < limit:  # both searched everything, so found the same solutions
        return set(a.solutions) == set(b.solutions)
    return True  # both stopped at `limit` solutions; they may differ in which


_CROSS_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="cross-check")


def cross_check(
    kind: Kind, puzzle, *, limit: int, fixed: Grid | None, budget: Budget
) -> tuple[SearchResult, SearchResult]:
    """Run both engines (CP-SAT releases the GIL, so they overlap) and compare."""
    cp_future = _CROSS_POOL.submit(
        cpsat_search, kind, puzzle, limit=limit, fixed=fixed, budget=budget
    )
    native = native_search(kind, puzzle, limit=limit, fixed=fixed, budget=budget)
    cpsat = cp_future.result()
    if not _same_answer(cpsat, native, limit):
        raise EngineDisagreement(cpsat, native)
    return cpsat, native


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
    kind: Kind,
    puzzle,
    *,
    engine: Engine = Engine.AUTO,
    limit: int = 2,
    fixed: Grid | None = None,
    budget: Budget | None = None,
) -> Answer:
    """Search with the chosen engine; ``limit=2`` is the uniqueness question."""
    budget = budget or Budget()
    if engine is Engine.CROSS_CHECK:
        cpsat, native = cross_check(kind, puzzle, limit=limit, fixed=fixed, budget=budget)
        # Report the engine that finished; both agree when both finished.
        primary = native if native.complete else cpsat
        stats = (cpsat.stats, native.stats)
    else:
        search = cpsat_search if engine is Engine.CPSAT else native_search
        primary = search(kind, puzzle, limit=limit, fixed=fixed, budget=budget)
        stats = (primary.stats,)
    sols = primary.solutions
    differing = differing_cells(sols[0], sols[1]) if len(sols) >= 2 else ()
    return Answer(primary.verdict(), sols, differing, stats)
