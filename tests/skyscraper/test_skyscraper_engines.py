"""Skyscraper engines: the native backtracker and CP-SAT, each on its own and cross-checked,
on hand-made puzzles, random valid ones (hypothesis) and the exact line filter."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server import cpsat_runner
from numgrid.server import engines
from numgrid.server.core import EMPTY
from numgrid.server.core import Budget
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds.skyscraper import cpsat
from numgrid.server.kinds.skyscraper import native
from numgrid.server.kinds.skyscraper.model import visible
from support.skyscraper import SKYSCRAPER
from support.skyscraper import corpus_puzzle
from support.skyscraper import puzzle
from support.skyscraper import random_puzzle
from support.skyscraper import rule_violations

ENGINES = (Engine.NATIVE, Engine.CPSAT, Engine.CROSS_CHECK)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_unique_puzzle(engine):
    p, solution = corpus_puzzle("02_5x5")
    answer = engines.find(SKYSCRAPER, p, engine=engine, limit=2)
    assert answer.verdict is Verdict.UNIQUE and answer.solutions == (solution,)


@pytest.mark.parametrize("engine", ENGINES)
def test_two_solutions_are_shown_with_where_they_differ(engine):
    answer = engines.find(SKYSCRAPER, puzzle(size=2), engine=engine, limit=2)
    assert answer.verdict is Verdict.MULTIPLE
    assert set(answer.solutions) == {((1, 2), (2, 1)), ((2, 1), (1, 2))}
    assert len(answer.differing) == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_no_solution(engine):
    """Two clues of 1 above neighbouring columns both need the 3 in row 0."""
    answer = engines.find(SKYSCRAPER, puzzle("1 1 -", size=3), engine=engine, limit=2)
    assert answer.verdict is Verdict.NO_SOLUTION and answer.solutions == ()


@pytest.mark.parametrize("engine", (Engine.NATIVE, Engine.CPSAT))
def test_held_entries_and_givens(engine):
    p, solution = corpus_puzzle("15_4x4")
    held = ((solution[0][0], 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4)
    answer = engines.find(SKYSCRAPER, p, engine=engine, limit=2, fixed=held)
    assert answer.solutions == (solution,)
    clash = ((solution[0][1], 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4)
    assert engines.find(SKYSCRAPER, p, engine=engine, fixed=clash).verdict is Verdict.NO_SOLUTION
    given = puzzle(size=2, givens=((2, 0), (0, 0)))
    assert engines.find(SKYSCRAPER, given, engine=engine).solutions == (((2, 1), (1, 2)),)


@pytest.mark.parametrize("search", [native.search, cpsat_runner.search])
def test_an_expired_budget_is_a_timeout(search):
    p, _ = corpus_puzzle("24_8x8")
    budget = Budget.seconds(0)
    if search is native.search:
        result = search(p, limit=2, fixed=None, budget=budget)
    else:
        result = search(SKYSCRAPER, p, limit=2, fixed=None, budget=budget)
    assert result.timed_out and result.verdict() is Verdict.TIMEOUT


@pytest.mark.parametrize("key", ["02_5x5", "15_4x4", "08_4x4", "271_5x5", "11_7x7"])
def test_both_ways_of_writing_the_clues_agree(key):
    p, solution = corpus_puzzle(key)
    for views in (cpsat.TABLES, cpsat.ORDER):

        class Kind:
            @staticmethod
            def cpsat_model(p, fixed, views=views):
                return cpsat.build(p, fixed, views=views)

        result = cpsat_runner.search(Kind, p, limit=2, fixed=None, budget=Budget())
        assert result.solutions == (solution,), views


# ---------------------------------------------------------------- the exact line filter


def brute_support(masks, near, far, height):
    n = len(masks)
    values = [*range(1, height + 1), *[EMPTY] * (n - height)]
    keep = [0] * n
    found = False
    for line in set(itertools.permutations(values)):
        bits = [1 << (height if v == EMPTY else v - 1) for v in line]
        if any(not b & m for b, m in zip(bits, masks, strict=True)):
            continue
        if (near and visible(line) != near) or (far and visible(line[::-1]) != far):
            continue
        found = True
        keep = [k | b for k, b in zip(keep, bits, strict=True)]
    return tuple(keep) if found else None


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_line_filter_keeps_exactly_what_some_arrangement_puts_there(data):
    n = data.draw(st.integers(1, 6))
    height = data.draw(st.integers(max(1, n - 2), n))
    full = (1 << (height + (1 if height < n else 0))) - 1
    masks = tuple(data.draw(st.integers(1, full)) & full or full for _ in range(n))
    near = data.draw(st.integers(0, height))
    far = data.draw(st.integers(0, height))
    assert native.line_support(masks, near, far, height) == brute_support(masks, near, far, height)


# ---------------------------------------------------------------- random valid puzzles


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(3, 6),
    empties=st.integers(0, 2),
    keep=st.sampled_from([0.4, 0.7, 1.0]),
    seed=st.integers(0, 10**6),
)
def test_engines_agree_on_random_valid_puzzles(size, empties, keep, seed):
    """The latin square behind a puzzle is one of its solutions; both engines (cross-
    checked) find it when they answer UNIQUE, and every solution they give holds."""
    p, solution = random_puzzle(size, seed, min(empties, size - 2), keep)
    assert rule_violations(p, solution) == []
    answer = engines.find(SKYSCRAPER, p, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict in (Verdict.UNIQUE, Verdict.MULTIPLE)
    for found in answer.solutions:
        assert rule_violations(p, found) == []
    if answer.verdict is Verdict.UNIQUE:
        assert answer.solutions == (solution,)
