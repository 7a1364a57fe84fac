"""KenKen as a CP-SAT model: an IntVar per cell (1..N), AllDifferent per row and column,
a sum cage of three cells or more as a linear equality, every other cage as a table of its
layouts (:func:`.arith.layouts`, which also covers a cage whose operation is not given);
a cage with too many layouts to list (:class:`.arith.TooManyLayouts`) as arithmetic
(:func:`_too_many`: its sum, and its product by each prime's exponents).

Of the ways of writing cages measured (every cage a table; arithmetic constraints for
every operation; arithmetic for ``+`` and ``x`` of three cells or more; linear sums
alone), linear sums with tables for the rest was the fastest over the corpus; tables for
every cage lose on one puzzle alone, whose 7-cell ``34+`` has 83,824 layouts. Pick
another variant with ``build(..., cages=...)`` to measure again. The measurements:
docs/performance.md, "KenKen's CP-SAT model".
"""

from __future__ import annotations

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.cpsat_runner import LeanModel
from ortools.sat.python import cp_model

from . import arith
from .model import ADD
from .model import DIVIDE
from .model import MULTIPLY
from .model import SUBTRACT
from .model import Puzzle

TABLES, ARITHMETIC, SUMS = "tables", "arithmetic", "sums"
SUM_CELLS = 3  # with SUMS, sum cages from this many cells are linear equalities


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
        try:
            model.add_allowed_assignments(variables, arith.layouts(cage, n))
        except arith.TooManyLayouts:
            _too_many(model, cage, variables, n)
    return model, cells


def _too_many(model: cp_model.CpModel, cage, variables, size: int) -> None:
    """A cage of many cells as arithmetic: its sum, or its product, or (no operation
    given) either. A product of many digits overflows any integer variable, so it is
    written by its primes: for each prime up to ``size``, the exponents of the cells'
    digits add up to the target's (a target with a larger prime has no layout)."""
    ways = []
    for op in arith.operations_of(cage.operation, len(variables)):
        chosen = model.new_bool_var("")
        ways.append(chosen)
        if op == ADD:
            model.add(cp_model.LinearExpr.sum(variables) == cage.target).only_enforce_if(chosen)
            continue
        rest = cage.target
        for p in (p for p in range(2, size + 1) if all(p % q for q in range(2, p))):
            power = 0
            while rest % p == 0:
                rest, power = rest // p, power + 1
            exponents = []
            for v in variables:
                e = model.new_int_var(0, size.bit_length(), "")
                model.add_element(v, [0, *(_exponent(d, p) for d in range(1, size + 1))], e)
                exponents.append(e)
            model.add(cp_model.LinearExpr.sum(exponents) == power).only_enforce_if(chosen)
        if rest != 1:
            model.add_bool_or([~chosen])
    model.add_bool_or(ways)


def _exponent(d: int, p: int) -> int:
    """How many times the prime ``p`` divides ``d``."""
    e = 0
    while d % p == 0:
        d, e = d // p, e + 1
    return e
