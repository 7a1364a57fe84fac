"""Kakuro as a CP-SAT model: an IntVar per white cell, AllDifferent and a sum per run.

Each cell's domain is cut to the digits its runs' combinations allow: the static tables
of :mod:`.sums`, nothing propagated. Measured on uniqueness (limit 2) over the 749 corpus
puzzles, parse excluded: CPU seconds, every variant run on each puzzle in turn, best of
3 rounds, on 2 cores busy with other jobs (so read the ratios, not the seconds)::

    search; runs as permutation tables up to length; model      total  ratio
    solve, forbid it, solve again; 3; CpModel (the old one)    6.16 s   1.00
      the same, but no tables                                  5.12 s   0.83
      the same, tables up to 2                                 6.25 s   1.02
      the same, tables up to 4 (with symmetry_level=0, below)  5.44 s   0.88
    enumerate, stop at the 2nd; 3; CpModel                     3.74 s   0.61
      the same, tables up to 2                                 3.71 s   0.60
      the same, no tables                                      3.26 s   0.53
      the same, no tables, LeanModel (this module)             2.85 s   0.46
      that, through ``engines.cpsat_search``                   3.03 s   0.49

On top of the last (another run, 2 rounds, 3.00 s): ``symmetry_level=0``,
``linearization_level=0``, ``cp_model_probing_level=1``, ``max_presolve_iterations=1``
within 2%; ``search_branching=FIXED_SEARCH`` +5%; ``cp_model_probing_level=0`` +43%;
``cp_model_presolve=False`` +70%: the defaults stay. Solve only (limit 1): enumerating
3.01 s, a plain solve 3.28 s. In runs of their own: without the domain cut, 4.2 times
slower; two workers from 400 cells up no faster than one (wall time, solve and forbid),
and when enumerating they report a solution twice (258_20x32, 260_20x32 "MULTIPLE").

CP-SAT 9.15 aborts the whole process (``Check failed: context_->VarToConstraints(var)
.empty()``) on 870_10x12 with tables up to length 4 once its solution is forbidden;
``symmetry_level=0`` avoids it. One more reason for no tables.
"""

from __future__ import annotations

from functools import cache

from numgrid.server.core import Cell, Grid
from ortools.sat.python import cp_model

from .model import Puzzle
from .sums import ALL_DIGITS, combos, digits_of


class LeanModel(cp_model.CpModel):
    """A CpModel without the ~100 deprecated CamelCase aliases ``CpModel.__init__``
    binds to every instance: 0.1 ms each, and a reference cycle only the GC frees."""

    def _add_pre_pep8_methods(self) -> None:
        pass


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
        model.add_linear_constraint(cp_model.LinearExpr.sum(variables), run.clue, run.clue)
    return model, cells
