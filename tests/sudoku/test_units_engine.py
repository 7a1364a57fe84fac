"""The units engine's functions written out per shape agree with the loops they stand
for, on random positions of every box shape, the X variant and irregular regions; and
cages constrain as they should."""

from __future__ import annotations

import random

import pytest
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.shape import box_shape
from numgrid.server.kinds.units.shape import shape


def _loop_hidden(t: native.Tables, pos: int) -> int:
    regions = tuple((t.digits, offs, pattern) for offs, pattern in t.regions)
    return native._looped_folds((*t.classes, *regions))(pos)


# Four irregular regions of a 4x4 grid.
REGIONS_4 = (
    ((0, 0), (0, 1), (1, 0), (2, 0)),
    ((0, 2), (0, 3), (1, 1), (1, 2)),
    ((1, 3), (2, 2), (2, 3), (3, 3)),
    ((2, 1), (3, 0), (3, 1), (3, 2)),
)


@pytest.mark.parametrize(
    "n, diagonals, regions",
    [
        (4, False, None),
        (6, False, None),
        (9, False, None),
        (9, True, None),
        (16, False, None),
        (4, True, REGIONS_4),
    ],
)
def test_written_folds_agree_with_the_loops(n, diagonals, regions):
    boxes = box_shape(n) if regions is None else None
    t = native.tables(shape(n, boxes, regions, diagonals))
    assert (t.written_locked is None) == (regions is not None)
    rng = random.Random(n)
    for _ in range(300):
        pos = t.full
        for _ in range(rng.randrange(n * n)):
            i, d = rng.randrange(n * n), rng.randrange(1, n + 1)
            pos &= ~t.bit(d, i)
        assert t.hidden(pos) == _loop_hidden(t, pos)
        if t.written_locked is not None:
            assert t.written_locked(pos) == native.locked_candidates(t, pos)


def test_cages_are_peers_but_need_not_hold_every_digit():
    """A cage of fewer than N cells (a Killer's) makes its digits differ and nothing
    more: the engine finds exactly the fillings of the plain grid that keep it so."""
    cage = ((0, 0), (3, 3), (2, 1))
    plain = native.search_cells(shape(4, (2, 2)), [0] * 16, limit=1000).solutions
    caged = native.search_cells(shape(4, (2, 2), None, False, (cage,)), [0] * 16, limit=1000)
    expected = {s for s in plain if len({s[r][c] for r, c in cage}) == 3}
    assert set(caged.solutions) == expected and len(expected) < len(plain)
    assert caged.complete
