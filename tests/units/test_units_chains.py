"""Following singles from an assumption (forcing chains, the trial): the chain's own
propagation, and the native engine's singles that screen forcing chains, reach the same
outcome on every shape."""

from __future__ import annotations

import random

import pytest
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.shape import box_shape
from numgrid.server.kinds.units.shape import shape
from numgrid.server.kinds.units.techniques import Position
from numgrid.server.kinds.units.techniques import plan
from numgrid.server.kinds.units.techniques_chains import _singles_screen
from numgrid.server.kinds.units.techniques_chains import propagate

JIGSAW_4 = (
    ((0, 0), (0, 1), (1, 0), (2, 0)),
    ((0, 2), (0, 3), (1, 1), (1, 2)),
    ((1, 3), (2, 2), (2, 3), (3, 3)),
    ((2, 1), (3, 0), (3, 1), (3, 2)),
)
SHAPES = {
    **{f"{n}x{n}{' X' * x}": shape(n, box_shape(n), None, x) for n in (4, 6, 9) for x in (0, 1)},
    "4x4 jigsaw": shape(4, None, JIGSAW_4, False),
    "4x4 jigsaw X": shape(4, None, JIGSAW_4, True),
    "16x16": shape(16, (4, 4), None, False),
}


def test_singles_fail_where_a_cell_is_the_only_place_of_two_digits_it_alone_holds():
    masks = [0b1111] * 16
    masks[0] = 0b0011  # r0c0: 1 or 2, and nowhere else in column 0 can take either
    masks[4] = masks[8] = masks[12] = 0b1100
    p = plan(shape(4, (2, 2), None, False))
    _, why = propagate(Position(p, masks), list(masks), {0})
    assert why == "in column 0, only r0c0 can take 1 and 2"


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_native_singles_reach_what_propagation_does(name):
    """From random positions that hold no single of their own, every assumption of a
    cell's candidate: both fail, or both leave the same candidates everywhere."""
    sh = SHAPES[name]
    t, p, n = native.tables(sh), plan(sh), sh.size
    rng = random.Random(name)
    width, compared = t.width, 0
    for _ in range(100 if n < 9 else 40 if n < 16 else 6):
        start = t.full
        for i in range(n * n):
            for d in range(1, n + 1):
                if rng.random() < rng.random() * 0.5:
                    start &= ~t.bit(d, i)
        settled = native.settle(t, start, 0)
        if settled is None:
            continue
        base, done = settled
        masks = [(base >> (i * width)) & t.digits for i in range(n * n)]
        placed = [m.bit_length() if done >> (i * width + n) & 1 else 0 for i, m in enumerate(masks)]
        if any(not placed[i] and not m & (m - 1) for i, m in enumerate(masks)):
            continue
        pos = Position(p, masks, placed)
        assert _singles_screen(pos) is not None
        for i, m in enumerate(masks):
            for d in range(1, n + 1) if not placed[i] else ():
                if not m >> (d - 1) & 1:
                    continue
                after = list(masks)
                after[i] = 1 << (d - 1)
                _, why = propagate(pos, after, {i})
                at = i * width
                mine = native.settle(
                    t, (base & ~(t.digits << at)) | 1 << (at + d - 1), done, locked=False
                )
                assert (why is None) == (mine is not None), (i, d, why)
                if mine is not None:
                    assert [(mine[0] >> (k * width)) & t.digits for k in range(n * n)] == after
                compared += 1
    assert compared > 100
