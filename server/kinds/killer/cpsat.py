"""Killer Sudoku as a CP-SAT model: digits 1..N, AllDifferent per row, column and box
(and diagonal in Killer-X) and per cage, a linear sum per cage.

The units family's model of the grid (one Boolean per cell and digit, each digit once
per unit, the givens fixed) is this thread's for the shape: it is copied, then each cage
adds its AllDifferent (each digit at most once in it; not for a cage inside one row,
column or box, whose unit says so already) and its sum as ``sum(d * x[cell][d]) ==
sum``.
"""

from __future__ import annotations

from types import MappingProxyType

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.cpsat_runner import LeanModel
from numgrid.server.kinds.units import cpsat
from ortools.sat.python import cp_model

from .model import Puzzle
from .native import givens_with_singles


class KillerModel(cpsat.OneHot):
    """A copy of a grid's one-hot model (its digits fixed) with the cages added.

    Unlike the bare grid's, its sums pay for CP-SAT's presolve (one pass of it) and SAT
    inprocessing: solved with both, generated 9x9 Killers take 0.6x the time
    (docs/performance.md, "Killer's CP-SAT parameters")."""

    parameters = MappingProxyType(
        {
            **cpsat.OneHot.parameters,
            "cp_model_presolve": True,
            "max_presolve_iterations": 1,
            "use_sat_inprocessing": True,
        }
    )

    def __init__(self, base: cpsat.OneHot, puzzle: Puzzle) -> None:
        LeanModel.__init__(self)
        self.proto.copy_from(base.proto)
        self.size, self.cells = base.size, base.cells
        n = puzzle.size
        constraints = self.proto.constraints
        for cage in puzzle.cages:
            inside = [r * n + c for r, c in cage.cells if 0 <= r < n and 0 <= c < n]
            # a cage inside one unit already holds each digit at most once
            if len(inside) > 1 and not puzzle.shape.units_holding(inside):
                for d in range(n):
                    constraints.add().at_most_one.literals.extend(i * n + d for i in inside)
            linear = constraints.add().linear
            for i in inside:
                linear.vars.extend(range(i * n, i * n + n))
                linear.coeffs.extend(range(1, n + 1))
            linear.domain.extend((cage.sum, cage.sum))


def build(
    puzzle: Puzzle, fixed: Grid | None = None
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    givens = givens_with_singles(puzzle, fixed)
    if any(v < 0 for v in givens):
        return cpsat._infeasible(puzzle.shape)
    model, cells = cpsat.build(puzzle.shape, givens, None)
    if not isinstance(model, cpsat.OneHot):
        return model, cells
    return KillerModel(model, puzzle), cells
