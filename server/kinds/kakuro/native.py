"""The native Kakuro engine: bitmask candidates, sum-combination tables, propagation
to a fixpoint, smallest-domain-first branching. No solver library.

Each white cell has a 9-bit *candidates* mask. A run keeps only the combinations of
its (clue, length) that agree with its cells; each cell keeps only digits some live
combination allows, minus digits already placed elsewhere in the run; a digit every
live combination needs and only one cell can take is placed there (hidden single).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Unpack
from typing import cast

from numgrid.server.core import Ask
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchKeywords
from numgrid.server.core import SearchResult
from numgrid.server.core import SearchTimeout
from numgrid.server.core import smallest_domain
from numgrid.server.kinds.branching import Branch
from numgrid.server.kinds.branching import depth_first

from .model import ACROSS
from .model import Puzzle
from .sums import ALL_DIGITS
from .sums import combos

POLL_EXACT = 32  # exact run checks between budget polls inside one propagation
_DIGIT_OF = {1 << (d - 1): d for d in range(1, 10)}


@dataclass(frozen=True)
class Compiled:
    """A puzzle flattened to indices: cells 0..n-1, runs 0..m-1."""

    cells: tuple[tuple[int, int], ...]
    run_cells: tuple[tuple[int, ...], ...]
    run_combos: tuple[tuple[int, ...], ...]
    cell_runs: tuple[tuple[int, ...], ...]
    shape: tuple[int, int]
    clues: tuple[int, ...]
    across: tuple[bool, ...]

    @classmethod
    def of(cls, puzzle: Puzzle) -> Compiled:
        cells = puzzle.white_cells
        index = {cell: i for i, cell in enumerate(cells)}
        clued = [run for run in puzzle.runs if run.clue is not None]  # (so the casts below)
        cell_runs: list[list[int]] = [[] for _ in cells]
        for r, run in enumerate(clued):
            for cell in run.cells:
                cell_runs[index[cell]].append(r)
        return cls(
            cells=cells,
            run_cells=tuple(tuple(index[c] for c in run.cells) for run in clued),
            run_combos=tuple(combos(cast(int, run.clue), len(run.cells)) for run in clued),
            cell_runs=tuple(tuple(rs) for rs in cell_runs),
            shape=(puzzle.rows, puzzle.cols),
            clues=tuple(cast(int, run.clue) for run in clued),
            across=tuple(run.direction == ACROSS for run in clued),
        )

    def initial(self, fixed: Grid | None) -> list[int]:
        """Candidates before search: every digit, or the held entry."""
        cand = [ALL_DIGITS] * len(self.cells)
        if fixed is not None:
            for i, (r, c) in enumerate(self.cells):
                if fixed[r][c]:
                    cand[i] = 1 << (fixed[r][c] - 1)
        return cand

    def totals_agree(self) -> bool:
        """In each connected block of white cells, every cell is in one across and one
        down run, so the across clues and the down clues must add up to the same total
        (the cells' sum). Random clues usually fail this; search would take ages."""
        parent = list(range(len(self.run_cells)))

        def root(r: int) -> int:
            while parent[r] != r:
                parent[r] = parent[parent[r]]
                r = parent[r]
            return r

        for runs in self.cell_runs:
            for other in runs[1:]:
                parent[root(other)] = root(runs[0])
        balance: dict[int, int] = {}
        for r, (clue, across) in enumerate(zip(self.clues, self.across, strict=True)):
            balance[root(r)] = balance.get(root(r), 0) + (clue if across else -clue)
        whole = {root(runs[0]) for runs in self.cell_runs if len(runs) == 2}
        partial = {root(runs[0]) for runs in self.cell_runs if len(runs) != 2 and runs}
        return all(balance[b] == 0 for b in whole - partial)

    def to_grid(self, cand: list[int]) -> Grid:
        rows, cols = self.shape
        grid = [[0] * cols for _ in range(rows)]
        for (r, c), mask in zip(self.cells, cand, strict=True):
            grid[r][c] = _DIGIT_OF[mask]
        return tuple(tuple(row) for row in grid)


def exact_support(masks: Sequence[int], run_combos: tuple[int, ...]) -> list[int] | None:
    """Exact run consistency: keep a digit in a cell only if some assignment of the whole
    run (distinct digits, one of its combinations) puts it there."""
    layers = [{0}]
    for m in masks:
        step = set()
        for used in layers[-1]:
            free = m & ~used
            while free:
                digit = free & -free
                free ^= digit
                step.add(used | digit)
        layers.append(step)
    good = layers[-1].intersection(run_combos)
    if not good:
        return None
    support = [0] * len(masks)
    for k in range(len(masks) - 1, -1, -1):
        m, keep, earlier = masks[k], 0, set()
        for used in layers[k]:
            free = m & ~used
            while free:
                digit = free & -free
                free ^= digit
                if used | digit in good:
                    keep |= digit
                    earlier.add(used)
        support[k] = keep
        good = earlier
    return support


def narrow(masks: Sequence[int], run_combos: tuple[int, ...]) -> list[int] | None:
    """The cheap rules: live combinations, placed digits, hidden singles."""
    placed = union = 0
    for m in masks:
        union |= m
        if not m & (m - 1):
            if placed & m or not m:
                return None
            placed |= m
    allowed, required = 0, ALL_DIGITS
    for combo in run_combos:
        if combo & placed != placed or combo & ~union:
            continue
        for m in masks:
            if not m & combo:
                break
        else:
            allowed |= combo
            required &= combo
    if not allowed:
        return None
    new = [m & allowed if not m & (m - 1) else m & allowed & ~placed for m in masks]
    hidden = required & ~placed
    while hidden:
        digit = hidden & -hidden
        hidden ^= digit
        holders = [j for j, m in enumerate(new) if m & digit]
        if not holders:
            return None
        if len(holders) == 1:
            new[holders[0]] = digit
    return new


def propagate(
    compiled: Compiled, cand: list[int], pending: set[int], budget: Budget | None = None
) -> bool:
    """Narrow ``cand`` in place until nothing changes; False on a contradiction.

    The cheap rules run to a fixpoint first; the exact (costlier) run check then takes
    one run at a time, and whatever it changes goes back through the cheap rules. With a
    ``budget``, it is polled every :data:`POLL_EXACT` exact checks (SearchTimeout): the
    first propagation of a 30x30 grid takes a quarter of a second.
    """
    return fixpoint(compiled, cand, pending, compiled.run_combos, narrow, exact, budget)


def exact(masks: tuple[int, ...], run_combos: tuple[int, ...]):
    """The exact run check, needless once every cell is placed (the cheap rules saw it)."""
    if all(not m & (m - 1) for m in masks):
        return masks
    return exact_support(masks, run_combos)


def fixpoint(
    compiled: Compiled,
    cand: list[int],
    pending: set[int],
    keys,
    first,
    second=None,
    budget: Budget | None = None,
) -> bool:
    """Narrow ``cand`` in place by run rules until nothing changes; False on a
    contradiction. A rule takes a run's masks (a tuple) and its key (``keys[r]``: its
    combinations here, its clue in a generator's memoised rules) and gives the new masks
    or None. ``first`` runs to a fixpoint before ``second`` (if any) takes one run."""
    run_cells, cell_runs = compiled.run_cells, compiled.cell_runs
    later = set(pending) if second else set()
    checks = 0
    while pending or later:
        if pending:
            r, rule = pending.pop(), first
        else:
            r, rule = later.pop(), second
            checks += 1
            if budget is not None and not checks % POLL_EXACT and budget.expired():
                raise SearchTimeout
        cells = run_cells[r]
        masks = tuple([cand[i] for i in cells])
        new = rule(masks, keys[r])
        if new is None:
            return False
        if new == masks:
            continue
        for j, m in enumerate(new):
            if m != masks[j]:
                if not m:
                    return False
                i = cells[j]
                cand[i] = m
                pending.update(cell_runs[i])
                if second:
                    later.update(cell_runs[i])
    return True


def search(puzzle: Puzzle, /, **keywords: Unpack[SearchKeywords]) -> SearchResult:
    """Find up to ``limit`` solutions (honouring ``fixed`` entries) within ``budget``
    and ``most_nodes``, but ``other_than`` (a solution known already).

    Depth-first with an explicit stack of branch points (parent candidates, cell, digits
    not yet tried), so depth is bounded by memory, not by Python's recursion limit.
    """
    limit, fixed, budget, other_than, most_nodes = Ask(**keywords)
    start = time.perf_counter()
    budget = budget or Budget()
    compiled = Compiled.of(puzzle)
    run_cells = compiled.run_cells
    solutions: list[Grid] = []
    branches: list[Branch] = []
    nodes = 0

    def visit(cand: list[int], cell: int) -> None:
        """The root (``cell`` -1, every run due) or the child that decided ``cell``."""
        nonlocal nodes
        nodes += 1
        if budget.expired():  # every node: one node of a large grid can take 10 ms
            raise SearchTimeout
        pending = set(compiled.cell_runs[cell]) if cell >= 0 else set(range(len(run_cells)))
        if not propagate(compiled, cand, pending, budget):
            return
        cell = smallest_domain(cand)
        if cell < 0:
            solutions.append(compiled.to_grid(cand))
        else:
            branches.append((cand, cell, cand[cell]))

    def root() -> None:
        if compiled.totals_agree():
            visit(compiled.initial(fixed), -1)

    return depth_first(
        root,
        visit,
        branches,
        solutions,
        limit,
        start,
        lambda: nodes,
        other_than=other_than,
        most_nodes=most_nodes,
    )
