"""What a units position keeps between steps: each technique's memo (forgotten lazily,
from a log of the changes, when next asked), the open cells, each unit's placed digits
and each digit's places. After any run of steps, placements and copies (as a trial
makes them), a memo hands back what a fresh look finds, and the kept sets are the
grid's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from numgrid.server.chain import Contradiction
from numgrid.server.kinds.killer import logic as killer_logic
from numgrid.server.kinds.units import ladder as units_ladder
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.shape import shape
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from units_support import lines
from units_support import puzzle

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def _ladders():
    killer = [corpus_puzzle("killer", key)[0] for key in corpus_ids("killer")[:60:20]]
    plain = [puzzle(line) for line in lines(CORPUS / "sudoku-top1465.txt")[:300:100]]
    return [("killer", killer_logic._ladder(p), p) for p in killer] + [
        ("sudoku", units_ladder._ladder(p, None), p) for p in plain
    ]


def _walk(ladder, start, rng: random.Random, steps: int):
    """Positions along a random run: steps applied, copies made, and (as a trial does)
    a digit placed outside a step, in a copy."""
    live = [start]
    for _ in range(steps):
        pos = rng.choice(live)
        if pos.solved:
            continue
        try:
            step = ladder.first_step(pos, ladder.trial)
            if rng.random() < 0.2:
                pos = pos.copy()
                live.append(pos)
                i = rng.choice([i for i, v in enumerate(pos.placed) if not v])
                ds = [d + 1 for d in range(pos.plan.n) if pos.masks[i] >> d & 1]
                pos.place(i, rng.choice(ds))
            elif step is not None:
                pos.apply(step)
        except Contradiction:
            live.remove(pos) if pos in live and len(live) > 1 else None
            continue
        yield pos


def _seen(step):
    """A step as a memo keeps it, but for its words: a naked single's reason reads the
    units of its cell, which a memo does not forget for it."""
    return None if step is None else (step.technique, step.placements, step.eliminations)


@pytest.mark.parametrize(("name", "ladder", "puzzle"), _ladders())
def test_a_memo_hands_back_what_a_fresh_look_finds(name, ladder, puzzle):
    rng = random.Random(name)
    for pos in _walk(ladder, ladder._start(puzzle, None, None), rng, 120):
        for technique, (_, function) in ladder.table.items():
            for key, kept in list(pos.memo(technique).items()):
                if not isinstance(key, int):
                    continue  # a whole position's finding, or what a technique keeps
                try:
                    fresh = function(pos, key)
                except Contradiction:
                    continue
                assert _seen(kept) == _seen(fresh), (technique.name, key)


@pytest.mark.parametrize(("name", "ladder", "puzzle"), _ladders())
def test_the_open_cells_and_placed_digits_kept_are_the_grids(name, ladder, puzzle):
    rng = random.Random(name)
    for pos in _walk(ladder, ladder._start(puzzle, None, None), rng, 120):
        placed, masks, p = pos.placed, pos.masks, pos.plan
        assert pos.open == sum(1 << i for i, v in enumerate(placed) if not v)
        for u, cells in enumerate(p.unit_cells):
            assert pos.held[u] == sum(1 << (placed[i] - 1) for i in cells if placed[i])
        for d in range(1, p.n + 1):
            where = sum(1 << i for i, m in enumerate(masks) if not placed[i] and m >> (d - 1) & 1)
            assert pos.where[d] == where


@pytest.mark.parametrize(("n", "box"), [(4, (2, 2)), (9, (3, 3)), (16, (4, 4))])
def test_undecided_marks_the_cells_with_two_candidates_or_more(n, box):
    tables = native.tables(shape(n, box))
    rng = random.Random(n)
    for _ in range(500):
        masks = [
            rng.choice([0, 1 << rng.randrange(n), rng.randrange(1, 1 << n)]) for _ in range(n * n)
        ]
        want = sum(1 << (i * tables.width + tables.n) for i, m in enumerate(masks) if m & (m - 1))
        assert tables.undecided(tables.position(masks)) == want
