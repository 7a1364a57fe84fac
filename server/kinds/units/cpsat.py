"""A units grid as a CP-SAT model: an IntVar per cell over 1..N, AllDifferent per unit,
the givens and held entries fixed. Kinds add their own constraints (e.g. a cage's sum)
to the model this returns."""

from __future__ import annotations

from collections.abc import Sequence

from numgrid.server.core import Cell, Grid
from numgrid.server.cpsat_runner import LeanModel
from ortools.sat.python import cp_model

from .shape import Shape


def build(
    shape: Shape, givens: Sequence[int], fixed: Grid | None = None
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    """The model and its cell variables: ``givens`` per cell index (0 empty) and the
    nonzero values of ``fixed`` held; a clash or a value out of 1..N is infeasible."""
    n = shape.size
    model = LeanModel()
    held = [v for row in fixed for v in row] if fixed is not None else [0] * shape.cells
    cells: dict[Cell, cp_model.IntVar] = {}
    variables: list[cp_model.IntVar] = []
    for i in range(shape.cells):
        r, c = divmod(i, n)
        lo, hi = 1, n
        for value in (givens[i], held[i]):
            if value:
                lo, hi = max(lo, value), min(hi, value)
        if lo > hi:  # a clash, or out of range: no solution
            model.add_bool_or([])
            lo, hi = 1, n
        var = model.new_int_var(lo, hi, f"r{r}c{c}")
        cells[r, c] = var
        variables.append(var)
    for unit in shape.units:
        model.add_all_different([variables[i] for i in unit.cells])
    return model, cells
