"""The CP-SAT engine for any kind: the kind builds the model, this runs it.

Kept apart from :mod:`numgrid.server.engines` so OR-Tools (half a second to import) is
loaded only when CP-SAT is used.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any
from typing import ClassVar

from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import SearchResult
from numgrid.server.core import Stats
from numgrid.server.kinds.base import Kind
from ortools.sat.python import cp_model


class LeanModel(cp_model.CpModel):
    """A CpModel without the ~100 deprecated CamelCase aliases ``CpModel.__init__``
    binds to every instance: 0.1 ms each, and a reference cycle only the GC frees. Every
    kind's model is one."""

    # solver parameters this model is solved with, on top of the runner's own
    parameters: ClassVar[Mapping[str, object]] = MappingProxyType({})

    def _add_pre_pep8_methods(self) -> None:
        pass

    def reader(self, cells: dict[Cell, Any]) -> Callable[[Sequence[int]], tuple[int, ...]]:
        """Reads the cells' values, in the order of ``cells``, from a solution; here
        each cell is an IntVar."""
        indices = [v.index for v in cells.values()]
        return lambda solution: tuple(solution[i] for i in indices)


def true_literals(solution: Sequence[int]) -> list[int]:
    """The indices of a solution's nonzero values. CP-SAT's list is read one value at a
    time at about 0.5 us each (0.4 ms for a 9x9 grid's 729 Booleans): its text, ``[0, 1,
    ...]``, is read instead when every value is one character (0.06 ms)."""
    text = str(solution)
    if len(text) == 3 * len(solution):
        return [m.start() for m in re.finditer("[^0]", text[1::3])]
    return [k for k, v in enumerate(solution) if v]


# Solves at once in this process: one per core. More are no faster (a solve runs on one
# thread, without the GIL), but each holds its model and search state, and what several
# free at once the allocator keeps: solving the 60 largest corpus puzzles 8 at a time left a
# process 33 MB larger, creeping for four rounds; 2 at a time 11 MB, flat from the first,
# in the same time (benchmarks/load.py shows it on the server's RSS).
SOLVES_AT_ONCE = (
    len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
)
_solving = threading.BoundedSemaphore(SOLVES_AT_ONCE or 1)
_WAIT_STEP = 0.05  # seconds: how often a waiting solve looks at its budget
LARGE_MODEL = 5_000  # cells: past this, presolve does not probe (see _search)
# Seconds per cell a solve takes, whatever its limit, to load its model and to let it go
# (a 140x140 grid, 15,876 cells: about 0.6-0.9 s and 0.25 s on the 2-core machine).
LOAD_SECONDS_PER_CELL = 60e-6
RELEASE_SECONDS_PER_CELL = 25e-6


@contextmanager
def _turn(budget: Budget) -> Iterator[bool]:
    """A turn to solve, waited for within ``budget``: yields False if it ran out first."""
    while not budget.expired():
        remaining = budget.remaining()
        step = _WAIT_STEP if remaining is None else max(0.0, min(_WAIT_STEP, remaining))
        if _solving.acquire(timeout=step):
            try:
                yield True
            finally:
                _solving.release()
            return
    yield False


def _grid(shape: tuple[int, int], values: dict[Cell, int]) -> Grid:
    rows, cols = shape
    return tuple(tuple(values.get((r, c), 0) for c in range(cols)) for r in range(rows))


class _Collector(cp_model.CpSolverSolutionCallback):
    """Keeps the distinct solutions CP-SAT enumerates; stops the search at ``limit``, or
    when the budget runs out (a cancel that came before the solve began is not lost)."""

    def __init__(
        self, read: Callable[[Sequence[int]], tuple[int, ...]], limit: int, budget: Budget
    ) -> None:
        super().__init__()
        self.read, self.limit, self.budget = read, limit, budget
        # keyed by the cells' values: auxiliary variables could tell one grid apart twice
        self.found: dict[tuple[int, ...], None] = {}

    def on_solution_callback(self) -> None:
        if len(self.found) < self.limit:
            self.found[self.read(self.response_proto.solution)] = None
        if len(self.found) >= self.limit or self.budget.expired():
            self.stop_search()


def search(
    kind: Kind[Any], puzzle: Any, *, limit: int, fixed: Grid | None, budget: Budget
) -> SearchResult:
    """One solve that enumerates solutions and stops at the ``limit``-th.

    Measured on the corpus, this beats solving, forbidding the solution and solving
    again (docs/performance.md).
    """
    start = time.perf_counter()
    with _turn(budget) as turn:
        if not turn:
            return SearchResult.out_of_time("cpsat", start)
        return _search(kind, puzzle, limit, fixed, budget, start)


def _search(
    kind: Kind[Any], puzzle: Any, limit: int, fixed: Grid | None, budget: Budget, start: float
) -> SearchResult:
    model, cells = kind.cpsat_model(puzzle, fixed)
    collector = _Collector(model.reader(cells), limit, budget)
    solver = cp_model.CpSolver()
    for name, value in model.parameters.items():
        setattr(solver.parameters, name, value)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # with more, enumeration reports a solution twice
    # CP-SAT's own SIGINT handler aborts the process when the solve runs outside the
    # main thread (std::bad_function_call); the budget stops it instead.
    solver.parameters.catch_sigint_signal = False
    if len(cells) > LARGE_MODEL:
        # Presolve's probing runs to its end past the time limit: on a 140x140 grid
        # (15,876 cells) 0.5 s of it, the solve ending 0.7 s past its limit.
        solver.parameters.cp_model_probing_level = 0
    remaining = budget.remaining()
    if remaining is not None:
        # Loading the model and letting it go take time the limit does not cut short,
        # about in proportion to the cells: a solve that could not load in the time
        # left is not started, and one that does stops early enough to let go in time.
        if remaining < len(cells) * LOAD_SECONDS_PER_CELL:
            return SearchResult.out_of_time("cpsat", start)
        limit_seconds = remaining - len(cells) * RELEASE_SECONDS_PER_CELL
        solver.parameters.max_time_in_seconds = max(limit_seconds, 0.001)
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
