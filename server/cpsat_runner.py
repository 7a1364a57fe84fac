"""The CP-SAT engine for any kind: the kind builds the model, this runs it.

Kept apart from :mod:`numgrid.server.engines` so OR-Tools (half a second to import) is
loaded only when CP-SAT is used.
"""

from __future__ import annotations

import time

from numgrid.server.core import Budget, Cell, Grid, SearchResult, Stats
from numgrid.server.kinds.base import Kind
from ortools.sat.python import cp_model


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


def search(kind: Kind, puzzle, *, limit: int, fixed: Grid | None, budget: Budget) -> SearchResult:
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
