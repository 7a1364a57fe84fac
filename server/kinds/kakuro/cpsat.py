"""Kakuro as a CP-SAT model: an IntVar per white cell, AllDifferent and a sum per run.

What makes it faster, measured on the corpus (``benchmarks/engines.py``): each cell's
domain is cut to the digits its two runs' combinations allow, and short runs get a
table of their allowed permutations instead of a bare sum.
"""

from __future__ import annotations

from itertools import permutations

from numgrid.server.core import Cell, Grid
from ortools.sat.python import cp_model

from .model import Puzzle
from .sums import ALL_DIGITS, combos, digits_of

TABLE_MAX_LENGTH = 3  # runs up to this length are modelled as tables of permutations


def build(
    puzzle: Puzzle, fixed: Grid | None = None
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    model = cp_model.CpModel()
    runs = [run for run in puzzle.runs if run.clue is not None]
    allowed = dict.fromkeys(puzzle.white_cells, ALL_DIGITS)
    for run in runs:
        union = 0
        for combo in combos(run.clue, len(run.cells)):
            union |= combo
        for cell in run.cells:
            allowed[cell] &= union
    cells: dict[Cell, cp_model.IntVar] = {}
    for (r, c), mask in allowed.items():
        held = fixed[r][c] if fixed is not None else 0
        values = [held] if held else list(digits_of(mask))
        cells[r, c] = model.new_int_var_from_domain(
            cp_model.Domain.from_values(values), f"r{r}c{c}"
        )
    for run in runs:
        variables = [cells[cell] for cell in run.cells]
        if len(variables) <= TABLE_MAX_LENGTH:
            rows = [
                perm
                for combo in combos(run.clue, len(variables))
                for perm in permutations(digits_of(combo))
            ]
            model.add_allowed_assignments(variables, rows)
        else:
            model.add_all_different(variables)
            model.add(sum(variables) == run.clue)
    return model, cells
