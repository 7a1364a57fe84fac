"""Kakurasu as a CP-SAT model: a BoolVar per cell (true: shaded) in two linear sums, its
row's (weighted by column numbers) and its column's (by row numbers), each equal to the
line's clue; a line without a clue has no sum.

The runner (:mod:`numgrid.server.cpsat_runner`) reads one variable per cell and puts its
value in the grid, so each cell also gets an IntVar worth ``2 * shaded - 1``: 1 shaded,
-1 white, as every grid of the kind has it.
"""

from __future__ import annotations

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.cpsat_runner import LeanModel
from ortools.sat.python import cp_model

from .model import OPEN
from .model import SHADED
from .model import WHITE
from .model import Puzzle


def build(
    puzzle: Puzzle, fixed: Grid | None = None
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    """The model and its cell variables (1 shaded, -1 white), ``fixed`` values held
    (0: free; any other value than 1, -1, 0 makes the model infeasible)."""
    model = LeanModel()
    shaded: dict[Cell, cp_model.IntVar] = {}
    values: dict[Cell, cp_model.IntVar] = {}
    for r, c in puzzle.cells:
        b = shaded[r, c] = model.new_bool_var(f"s{r}_{c}")
        v = values[r, c] = model.new_int_var(WHITE, SHADED, f"r{r}c{c}")
        model.add(v == 2 * b - 1)
        held = fixed[r][c] if fixed is not None else OPEN
        if held == SHADED:
            model.add(b == 1)
        elif held == WHITE:
            model.add(b == 0)
        elif held != OPEN:
            model.add_bool_or([])
    for r, clue in enumerate(puzzle.row_clues):
        if clue is not None:
            model.add(sum((c + 1) * shaded[r, c] for c in range(puzzle.cols)) == clue)
    for c, clue in enumerate(puzzle.column_clues):
        if clue is not None:
            model.add(sum((r + 1) * shaded[r, c] for r in range(puzzle.rows)) == clue)
    return model, values
