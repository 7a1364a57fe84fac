"""A units grid as a CP-SAT model: a Boolean per cell and digit, one digit per cell, each
digit once per unit (at most once in a cage), the givens and held entries fixed.

A shape's model is built once per thread and reused: a puzzle only rewrites the one
constraint that fixes its digits (docs/performance.md has the measurements).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any
from typing import ClassVar

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import GroupType
from numgrid.server.cpsat_runner import LeanModel
from numgrid.server.cpsat_runner import true_literals
from ortools.sat.python import cp_model
from ortools.sat.python import cp_model_helper

from .shape import Shape

# Shapes' models kept per thread (irregular regions make a shape per puzzle): a 9x9
# model holds 0.16 MB, a 16x16 0.74 MB.
_KEPT = 4
_local = threading.local()


class OneHot(LeanModel):
    """A shape's model: literal ``cell * N + digit - 1`` says the cell holds the digit.
    Its last constraint holds the puzzle's digits (:meth:`fix`)."""

    # A pure SAT model (N^3 Booleans, 729 for 9x9): CP-SAT's presolve, symmetry detection,
    # LP relaxation, probing and inprocessing cost more than the search they would save.
    parameters: ClassVar[Mapping[str, object]] = MappingProxyType(
        {
            "cp_model_presolve": False,
            "symmetry_level": 0,
            "linearization_level": 0,
            "cp_model_probing_level": 0,
            "use_sat_inprocessing": False,
        }
    )

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        n = shape.size
        self.proto.copy_from(_latin(n))
        constraints = self.proto.constraints
        for unit in shape.units:
            if unit.type in (GroupType.ROW, GroupType.COLUMN):
                continue  # in the copy
            for d in range(n):
                literals = [i * n + d for i in unit.cells]
                if shape.fills(unit):
                    constraints.add().exactly_one.literals.extend(literals)
                else:  # a cage: its digits differ, but need not all be there
                    constraints.add().at_most_one.literals.extend(literals)
        self.fixed = constraints.add().bool_and.literals
        self.size = n
        self.cells: dict[Cell, Any] = {shape.cell(i): None for i in range(shape.cells)}

    def fix(self, digits: Sequence[int]) -> None:
        """Holds each cell's nonzero digit (1..N), in place of the last puzzle's."""
        n = self.size
        self.fixed.clear()
        self.fixed.extend([i * n + v - 1 for i, v in enumerate(digits) if v])

    def reader(self, cells: dict[Cell, Any]) -> Callable[[Sequence[int]], tuple[int, ...]]:
        """Each cell's digit, in reading order: one literal per cell is true."""
        n = self.size
        return lambda solution: tuple(k % n + 1 for k in true_literals(solution))


@functools.cache
def _latin(n: int) -> cp_model_helper.CpModelProto:
    """An N x N grid's literals, one digit per cell and each digit once per row and per
    column: copied, a shape's model is only its other units to build (a per-puzzle
    shape's, irregular regions', in a sixth of the time)."""
    proto = cp_model_helper.CpModelProto()
    for _ in range(n * n * n):
        proto.variables.add().domain.extend((0, 1))
    constraints = proto.constraints
    for i in range(n * n):
        constraints.add().exactly_one.literals.extend(range(i * n, i * n + n))
    for d in range(n):
        for r in range(n):
            constraints.add().exactly_one.literals.extend(range(r * n * n + d, (r + 1) * n * n, n))
        for c in range(n):
            constraints.add().exactly_one.literals.extend(range(c * n + d, n * n * n, n * n))
    return proto


def _model(shape: Shape) -> OneHot:
    models: OrderedDict[Shape, OneHot] | None = getattr(_local, "models", None)
    if models is None:
        models = _local.models = OrderedDict()
    model = models.get(shape)
    if model is None:
        model = models[shape] = OneHot(shape)
        if len(models) > _KEPT:
            models.popitem(last=False)
    else:
        models.move_to_end(shape)
    return model


def build(
    shape: Shape, givens: Sequence[int], fixed: Grid | None = None
) -> tuple[cp_model.CpModel, dict[Cell, Any]]:
    """The model and its cells (in reading order): ``givens`` per cell index (0 empty)
    and the nonzero values of ``fixed`` held; a clash or a value out of 1..N is
    infeasible. The model is this thread's for the shape, valid until its next build
    here: solve it before building another (a kind that adds constraints copies it)."""
    n = shape.size
    digits = list(givens)
    if fixed is not None:
        for i, v in enumerate(v for row in fixed for v in row):
            if v:
                if digits[i] and digits[i] != v:
                    return _infeasible(shape)
                digits[i] = v
    if any(not 0 <= v <= n for v in digits):
        return _infeasible(shape)
    model = _model(shape)
    model.fix(digits)
    return model, model.cells


def _infeasible(shape: Shape) -> tuple[cp_model.CpModel, dict[Cell, Any]]:
    model = LeanModel()
    model.add_bool_or([])
    return model, {shape.cell(i): model.new_int_var(0, 0, "") for i in range(shape.cells)}
