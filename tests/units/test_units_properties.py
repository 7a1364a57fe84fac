"""Property: from any position consistent with a corpus puzzle's solution (some of its
digits placed, some wrong candidates removed), the best step of each technique alone,
and the hint that places a digit, agree with the solution."""

from __future__ import annotations

from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.ladder import Technique
from units_support import TOP
from units_support import lines
from units_support import puzzle
from units_support import solution
from units_support import wrong

SAMPLE = [lines(TOP)[k] for k in range(0, 1465, 97)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(SAMPLE) - 1),
    revealed=st.sets(st.integers(0, 80), max_size=30),
    removed=st.sets(st.tuples(st.integers(0, 80), st.integers(1, 9)), max_size=60),
    technique=st.sampled_from(list(Technique)),
)
def test_steps_from_consistent_positions_agree_with_the_solution(
    which: int, revealed: set[int], removed: set[tuple[int, int]], technique: Technique
) -> None:
    p = puzzle(SAMPLE[which])
    sol = solution(p)
    candidates: dict[tuple[int, int], tuple[int, ...]] = {}
    for i in range(81):
        r, c = divmod(i, 9)
        if i in revealed or p.givens[i]:
            candidates[(r, c)] = (sol[i],)
        else:
            candidates[(r, c)] = tuple(
                d for d in range(1, 10) if d == sol[i] or (i, d) not in removed
            )
    pos = ladder.position(p, candidates, unique=True)
    step = ladder.build_ladder(p.shape, True).find(pos, technique)
    if step is not None:
        assert not wrong(step, sol, 9)
        assert step.placements or step.eliminations
    hint = ladder.next_step(p, candidates, placements_only=True)
    assert hint is not None and hint.placements
    assert not wrong(hint, sol, 9)
    for earlier in hint.chain:
        assert not wrong(earlier, sol, 9)
