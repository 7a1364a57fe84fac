"""KenKen as a CP-SAT model: an IntVar per cell (1..N), AllDifferent per row and column,
a sum cage of three cells or more as a linear equality, every other cage as a table of its
layouts (:func:`.arith.layouts`, which also covers a cage whose operation is not given).

Measured on uniqueness (limit 2) over the 322 corpus puzzles through
``cpsat_runner.search``, parse excluded: CPU seconds, every variant run 3 times on each
puzzle in turn, best of 3 per puzzle, on 2 cores busy with other jobs (read the ratios)::

    cages written as                                             total   max puzzle
    TABLES: every cage a table                                  3.68 s   1.92 s 419_9x9
    ARITHMETIC: + sum, x multiplication equality, - abs of the
      difference, / an ordered pair (a = t*b or b = t*a);
      tables only for cages with no operation given            2.19 s   0.90 s 50_8x8
    + and x of 3 cells or more arithmetic, the rest tables      1.96 s   0.88 s 50_8x8
    SUMS (this module): + of 3 cells or more linear, the rest
      tables                                                    1.74 s   0.97 s 50_8x8
      the same, + from 4 cells                                  1.73 s   0.95 s 50_8x8

The 21 puzzles with hidden operations take 1.2 s of every variant (their cages are
tables in all of them). TABLES loses on 419_9x9 alone: its 7-cell ``34+`` has 83,824
layouts (half a second to list, and a huge table for CP-SAT); without that puzzle it is
level with SUMS. Pick another variant with ``build(..., cages=...)`` to measure again.
"""

from __future__ import annotations

from numgrid.server.core import Cell, Grid
from ortools.sat.python import cp_model

from . import arith
from .model import ADD, DIVIDE, MULTIPLY, SUBTRACT, Puzzle

TABLES, ARITHMETIC, SUMS = "tables", "arithmetic", "sums"
SUM_CELLS = 3  # with SUMS, sum cages from this many cells are linear equalities


class LeanModel(cp_model.CpModel):
    """A CpModel without the ~100 deprecated CamelCase aliases ``CpModel.__init__``
    binds to every instance (as for Kakuro)."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def _arithmetic(model: cp_model.CpModel, cage, variables, size: int) -> bool:
    """The cage as arithmetic constraints; False when its operation has none here (no
    operation given on several cells, or ``-``/``/`` not on two cells)."""
    op, target = cage.operation, cage.target
    if op == ADD:
        model.add(cp_model.LinearExpr.sum(variables) == target)
    elif op == MULTIPLY and len(variables) > 1:
        model.add_multiplication_equality(target, variables)
    elif op == SUBTRACT and len(variables) == 2:
        a, b = variables
        diff = model.new_int_var(-size, size, "")
        model.add(diff == a - b)
        model.add_abs_equality(target, diff)
    elif op == DIVIDE and len(variables) == 2:
        a, b = variables
        first = model.new_bool_var("")
        model.add(a == target * b).only_enforce_if(first)
        model.add(b == target * a).only_enforce_if(~first)
    else:
        return False
    return True


def build(
    puzzle: Puzzle, fixed: Grid | None = None, *, cages: str = SUMS
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    """The model and its cell variables, ``fixed`` digits held (0 = free). ``cages``
    says how cages are written: ``SUMS`` (the fastest measured), ``TABLES`` or
    ``ARITHMETIC`` (see the module's docstring)."""
    n = puzzle.size
    model = LeanModel()
    cells: dict[Cell, cp_model.IntVar] = {}
    for r, c in puzzle.cells:
        held = fixed[r][c] if fixed is not None else 0
        if held and not 1 <= held <= n:
            # out of range: infeasible (a domain outside 1..N would not be wrong enough)
            model.add_bool_or([])
            held = 0
        cells[r, c] = model.new_int_var(held or 1, held or n, f"r{r}c{c}")
    for line in puzzle.lines:
        model.add_all_different([cells[cell] for cell in line.cells])
    for cage in puzzle.cages:
        variables = [cells[cell] for cell in cage.cells]
        if cages == ARITHMETIC and _arithmetic(model, cage, variables, n):
            continue
        if cages == SUMS and cage.operation == ADD and len(variables) >= SUM_CELLS:
            model.add(cp_model.LinearExpr.sum(variables) == cage.target)
            continue
        model.add_allowed_assignments(variables, arith.layouts(cage, n))
    return model, cells
