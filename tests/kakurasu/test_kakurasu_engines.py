"""Kakurasu's two engines (native and CP-SAT) and their cross-check: verdicts with 1 and
-1 in every solution, held marks, the native engine's line
revisions, and a property over random valid puzzles (both engines agree, and every
solution keeps every clue)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server import engines
from numgrid.server.core import Budget
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds.kakurasu import native
from numgrid.server.kinds.kakurasu.model import Puzzle
from numgrid.server.kinds.kakurasu.sums import options
from numgrid.server.kinds.kakurasu.sums import sizes
from support.engines import searches
from support.kakurasu import KAKURASU
from support.kakurasu import corpus_puzzle
from support.kakurasu import grid
from support.kakurasu import puzzle_of
from support.kakurasu import rule_violations

run_native, run_cpsat, BOTH = searches(KAKURASU)

FULL = Puzzle(2, 2, (3, 3), (3, 3))  # every clue 1 + 2: all shaded
DIAGONAL = Puzzle(2, 2, (1, 2), (1, 2))  # r0c0 and r1c1
NO_WAY = Puzzle(2, 2, (3, 0), (1, 2))  # row 0 shades both cells, column 1 only r1c1
# every clue 3 (= 3 or 1+2): the one 3x3 puzzle with exactly two solutions
TWO_WAYS = Puzzle(3, 3, (3, 3, 3), (3, 3, 3))
A, B = grid("--x --x xx-"), grid("xx- xx- --x")


# ---------------------------------------------------------------- verdicts


@BOTH
def test_a_corpus_puzzle_is_unique_with_the_published_solution(search):
    p, published = corpus_puzzle("302_5x5")
    result = search(p)
    assert result.complete and result.verdict() is Verdict.UNIQUE
    assert result.solutions == (published,)
    assert set(v for row in result.solutions[0] for v in row) == {1, -1}


@BOTH
def test_small_puzzles_with_one_solution(search):
    assert search(FULL).solutions == (grid("xx xx"),)
    assert search(DIAGONAL).solutions == (grid("x- -x"),)


@BOTH
def test_no_solution(search):
    result = search(NO_WAY)
    assert result.complete and result.verdict() is Verdict.NO_SOLUTION


@BOTH
def test_two_solutions_are_found_and_keep_the_clues(search):
    result = search(TWO_WAYS)
    assert result.verdict() is Verdict.MULTIPLE
    assert set(result.solutions) == {A, B}
    for solution in result.solutions:
        assert rule_violations(TWO_WAYS, solution) == []


@BOTH
def test_lines_without_clues_take_any_shading(search):
    p = Puzzle(2, 2, (None, None), (None, 2))  # column 1 shades r1c1 alone
    result = search(p, limit=100)
    assert result.complete and len(result.solutions) == 4  # column 0: any of 4
    assert all(s[1][1] == 1 and s[0][1] == -1 for s in result.solutions)


@BOTH
def test_a_transposed_puzzle_has_the_transposed_solution(search):
    p, published = corpus_puzzle("303_6x6")
    result = search(p.transposed())
    assert result.verdict() is Verdict.UNIQUE
    assert result.solutions == (tuple(zip(*published, strict=True)),)


# ---------------------------------------------------------------- held marks


@BOTH
def test_held_marks_are_kept(search):
    result = search(TWO_WAYS, fixed=grid("..x ... ..."))
    assert result.verdict() is Verdict.UNIQUE and result.solutions == (A,)


@BOTH
@pytest.mark.parametrize(
    ("fixed", "agrees"),
    [
        ("---x. ....x ..... ..... .....", True),
        ("x.... ..... ..... ..... .....", False),  # r0c0 is white in the solution
        ("...-. ..... ..... ..... .....", False),  # r0c3 is shaded in it
    ],
)
def test_held_marks_of_the_solution_or_against_it(search, fixed, agrees):
    p, published = corpus_puzzle("302_5x5")
    result = search(p, fixed=grid(fixed))
    assert result.complete
    assert result.solutions == ((published,) if agrees else ())


@BOTH
def test_a_held_value_other_than_1_minus_1_0_has_no_solution(search):
    result = search(FULL, fixed=((2, 0), (0, 0)))
    assert result.complete and result.verdict() is Verdict.NO_SOLUTION


def test_cross_check_agrees_and_reports_both_engines():
    answer = engines.find(KAKURASU, TWO_WAYS, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict is Verdict.MULTIPLE
    assert len(answer.differing) == 9
    assert [s.engine for s in answer.stats] == ["cpsat", "native"]


# ---------------------------------------------------------------- the native engine's parts


def test_options_are_every_set_of_weights_making_the_clue():
    assert sorted(options(5, 7)) == sorted([0b10010, 0b01100, 0b01011])  # 2+5, 3+4, 1+2+4
    assert options(5, 16) == () and options(5, -1) == ()
    assert options(3, 0) == (0,)
    assert sizes(5, 7) == {2, 3}
    assert all(options(n, t) for n in range(1, 12) for t in range(n * (n + 1) // 2 + 1))


def test_a_revision_is_exact_for_one_line():
    # row of 5 (clue 7) with r.c1 (weight 2) white: 3+4 only
    must, may, live = native.revise(5, 7, 0, 0b00010)
    assert (must, may, live) == (0b01100, 0b01100, 1)
    assert native.revise(5, 7, 0b00001, 0b00010) is None  # 1 shaded and 2 white: no way


def test_the_corpus_needs_no_search():
    p, _ = corpus_puzzle("544_8x8")
    assert run_native(p).stats.nodes == 1


# ---------------------------------------------------------------- random puzzles


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 7),
    cols=st.integers(1, 7),
    data=st.data(),
)
def test_random_valid_puzzles_engines_agree_and_keep_every_clue(rows, cols, data):
    shading = tuple(
        tuple(data.draw(st.sampled_from((1, -1))) for _ in range(cols)) for _ in range(rows)
    )
    full = puzzle_of(shading)
    hidden_rows = data.draw(st.sets(st.integers(0, rows - 1), max_size=1))
    p = Puzzle(
        rows,
        cols,
        tuple(None if r in hidden_rows else clue for r, clue in enumerate(full.row_clues)),
        full.column_clues,
    )
    # raises EngineDisagreement if CP-SAT and the native engine answer differently
    answer = engines.find(KAKURASU, p, engine=Engine.CROSS_CHECK, limit=2, budget=Budget(None))
    assert answer.verdict in (Verdict.UNIQUE, Verdict.MULTIPLE)  # the shading is one
    for solution in answer.solutions:
        assert rule_violations(p, solution) == []
    if answer.verdict is Verdict.UNIQUE:
        assert answer.solutions == (shading,)
