"""The units CP-SAT model (a Boolean per cell and digit, kept per shape and thread) finds
what the native engine finds: on box shapes, the X variant, irregular regions and cages,
puzzle after puzzle on one kept model, with entries held, and a clash is infeasible."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from numgrid.server import cpsat_runner
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.kinds.units import cpsat
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.shape import Shape
from numgrid.server.kinds.units.shape import box_shape
from numgrid.server.kinds.units.shape import shape

LABELS_5 = ("55511", "51112", "53332", "43322", "44442")  # the corpus's 6_5x5
REGIONS_5 = tuple(
    tuple((r, c) for r in range(5) for c in range(5) if LABELS_5[r][c] == k) for k in "12345"
)
SHAPES = {
    "4x4": shape(4, box_shape(4)),
    "6x6": shape(6, box_shape(6)),
    "4x4 X": shape(4, box_shape(4), None, True),
    "5x5 regions": shape(5, None, REGIONS_5),
    "4x4 cage": shape(4, box_shape(4), None, False, (((0, 0), (3, 3), (2, 1)),)),
}


class _Kind:
    """Just enough of a kind for the runner: the model of a shape and a flat givens list."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape

    def cpsat_model(self, puzzle: Any, fixed: Grid | None) -> Any:
        return cpsat.build(self.shape, puzzle.givens, fixed)


class _Puzzle:
    def __init__(self, shape: Shape, givens: list[int]) -> None:
        self.rows = self.cols = shape.size
        self.givens = givens


def _cpsat(s: Shape, givens: list[int], limit: int, fixed: Grid | None = None):
    kind: Any = _Kind(s)
    return cpsat_runner.search(
        kind, _Puzzle(s, givens), limit=limit, fixed=fixed, budget=Budget.seconds(30)
    )


def _givens(s: Shape, rng: random.Random) -> list[int]:
    """A solution's digits at a random few cells."""
    (solution,) = native.search_cells(s, [0] * s.cells, limit=1).solutions
    flat = [v for row in solution for v in row]
    keep = set(rng.sample(range(s.cells), rng.randrange(s.cells // 4, s.cells // 2)))
    return [v if i in keep else 0 for i, v in enumerate(flat)]


@pytest.mark.parametrize("name", SHAPES)
def test_every_solution_is_the_native_engines(name):
    s, rng = SHAPES[name], random.Random(name)
    for _ in range(10):  # one kept model, puzzle after puzzle
        givens = _givens(s, rng)
        native_found = native.search_cells(s, givens, limit=10_000)
        found = _cpsat(s, givens, 10_000)
        assert found.complete and native_found.complete
        assert set(found.solutions) == set(native_found.solutions)


def test_the_empty_grid_and_the_cage_count():
    assert len(_cpsat(SHAPES["4x4"], [0] * 16, 1000).solutions) == 288
    caged = _cpsat(SHAPES["4x4 cage"], [0] * 16, 1000)
    assert len(caged.solutions) == len(
        native.search_cells(SHAPES["4x4 cage"], [0] * 16, limit=1000).solutions
    )
    assert 0 < len(caged.solutions) < 288


def test_held_entries_clashes_and_digits_out_of_range():
    s = SHAPES["4x4"]
    held = ((1, 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4)
    assert all(g[0][0] == 1 for g in _cpsat(s, [0] * 16, 1000, held).solutions)
    assert len(_cpsat(s, [0] * 16, 1000, held).solutions) == 288 // 4
    assert _cpsat(s, [2] + [0] * 15, 5, held).solutions == ()  # held over a given
    assert _cpsat(s, [1, 1] + [0] * 14, 5).solutions == ()  # two 1s in a row
    assert _cpsat(s, [5] + [0] * 15, 5).solutions == ()  # out of range
    assert _cpsat(s, [0] * 16, 5, ((0, 0, 0, -1), (0,) * 4, (0,) * 4, (0,) * 4)).solutions == ()
    assert len(_cpsat(s, [0] * 16, 1000).solutions) == 288  # the kept model is whole again


def test_each_thread_keeps_its_own_few_models():
    sizes = (4, 6, 8, 9, 10, 12)
    models = [cpsat.build(shape(n, box_shape(n)), [0] * n * n)[0] for n in sizes]
    assert len(cpsat._local.models) == cpsat._KEPT
    assert cpsat.build(shape(12, box_shape(12)), [0] * 144)[0] is models[-1]
    other: list[Any] = []
    worker = threading.Thread(
        target=lambda: other.append(cpsat.build(shape(12, box_shape(12)), [0] * 144)[0])
    )
    worker.start()
    worker.join()
    assert other[0] is not models[-1]
