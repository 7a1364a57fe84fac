"""Kakuro as a CP-SAT model: an IntVar per white cell, AllDifferent and a sum per run.

Each cell's domain is cut to the digits its runs' combinations allow: the static tables
of :mod:`.sums`, nothing propagated (without the cut it is about four times slower).
Uniqueness enumerates and stops at the second solution, on a lean model without
permutation tables, on one worker, with CP-SAT's default parameters: the fastest of the
variants measured (solve, forbid, solve again; tables of runs up to length 2 to 4; other
parameters; two workers). Tables up to length 4 also made CP-SAT 9.15 abort the whole
process on one corpus puzzle once its solution was forbidden. The measurements:
docs/performance.md, "Kakuro's CP-SAT model".
"""

from __future__ import annotations

from functools import cache
from typing import cast

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.cpsat_runner import LeanModel
from numgrid.server.kinds.masks import digits_of
from ortools.sat.python import cp_model

from .model import Puzzle
from .sums import ALL_DIGITS
from .sums import combos


@cache
def _union(clue: int, length: int) -> int:
    """Every digit some combination of ``length`` digits adding up to ``clue`` uses."""
    union = 0
    for combo in combos(clue, length):
        union |= combo
    return union


@cache
def _domain(mask: int) -> cp_model.Domain:
    return cp_model.Domain.from_values(digits_of(mask))


def build(
    puzzle: Puzzle, fixed: Grid | None = None
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    model = LeanModel()
    runs = [run for run in puzzle.runs if run.clue is not None]
    allowed = dict.fromkeys(puzzle.white_cells, ALL_DIGITS)
    for run in runs:
        union = _union(run.clue, len(run.cells))
        for cell in run.cells:
            allowed[cell] &= union
    cells: dict[Cell, cp_model.IntVar] = {}
    for (r, c), mask in allowed.items():
        held = fixed[r][c] if fixed is not None else 0
        # an empty mask (crossing runs share no digit) would make the model invalid,
        # not infeasible: fall back to 1-9 and let the run constraints refute it
        domain = cp_model.Domain(held, held) if held else _domain(mask or ALL_DIGITS)
        cells[r, c] = model.new_int_var_from_domain(domain, f"r{r}c{c}")
    for run in runs:
        variables = [cells[cell] for cell in run.cells]
        model.add_all_different(variables)
        clue = cast(int, run.clue)  # runs with a clue, as picked above
        model.add_linear_constraint(cp_model.LinearExpr.sum(variables), clue, clue)
    return model, cells
