"""Every kind's two engines under a budget: a search that cannot finish stops at its
deadline with the solutions it found (each one keeps the rules), an expired budget
returns at once, and a cancel stops a running search promptly."""

from __future__ import annotations

import threading
import time

import pytest
from numgrid.server import engines
from numgrid.server.core import Budget
from numgrid.server.core import Verdict
from numgrid.server.kinds import load_engines
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.facts import facts
from support.facts import puzzle_of

SEARCHES = {"native": engines.native_search, "cpsat": engines.cpsat_search}
BOTH = pytest.mark.parametrize("engine", SEARCHES)
MANY = 10**9


@pytest.fixture(scope="module", autouse=True)
def loaded() -> None:
    """OR-Tools imported before any budget starts (half a second, under load more)."""
    load_engines()


def timed(kind, engine: str, budget: Budget):
    """The kind's open puzzle searched for ever more solutions: the result, the seconds."""
    start = time.monotonic()
    puzzle = facts(kind).open_puzzle()
    result = SEARCHES[engine](kind, puzzle, limit=MANY, fixed=None, budget=budget)
    return result, time.monotonic() - start


@BOTH
def test_a_budget_stops_a_search_that_cannot_finish(kind, engine):
    result, seconds = timed(kind, engine, Budget.seconds(1))
    assert seconds < 3.0 and not result.complete
    assert result.verdict() is Verdict.MULTIPLE  # it found some on the way
    for solution in result.solutions[:5]:
        assert facts(kind).rule_violations(facts(kind).open_puzzle(), solution) == []


@BOTH
def test_an_expired_budget_returns_at_once(kind, engine):
    result, seconds = timed(kind, engine, Budget.seconds(0))
    assert seconds < 1.0 and not result.complete
    assert result.verdict() in (Verdict.TIMEOUT, Verdict.MULTIPLE)


@BOTH
def test_a_cancel_before_the_search_is_a_timeout(kind, engine):
    budget = Budget()
    budget.cancel()
    result, _ = timed(kind, engine, budget)
    assert result.timed_out and result.verdict() in (Verdict.TIMEOUT, Verdict.MULTIPLE)


@BOTH
def test_cancel_stops_a_search_promptly(kind, engine):
    budget = Budget()
    out = []
    worker = threading.Thread(target=lambda: out.append(timed(kind, engine, budget)[0]))
    worker.start()
    time.sleep(0.2)
    cancelled = time.monotonic()
    budget.cancel()
    worker.join(5)
    assert not worker.is_alive()
    assert time.monotonic() - cancelled < 1.0
    assert not out[0].complete


@BOTH
def test_limit_one_finds_one_and_limit_two_both(kind, engine):
    puzzle = puzzle_of(kind, facts(kind).two_solutions)
    one = SEARCHES[engine](kind, puzzle, limit=1, fixed=None, budget=Budget.seconds(30))
    assert one.complete and len(one.solutions) == 1
    both = SEARCHES[engine](kind, puzzle, limit=2, fixed=None, budget=Budget.seconds(30))
    assert both.verdict() is Verdict.MULTIPLE
    first, second = both.solutions
    assert first != second
    for solution in both.solutions:
        assert facts(kind).rule_violations(puzzle, solution) == []


def test_a_node_bound_stops_the_native_search_incomplete(kind):
    """How a maker bounds a search for a second solution by work, not time (the same
    answer on any machine): past ``most_nodes`` the search stops, incomplete, with the
    nodes it took; within it, the answer is whole."""
    stopped = kind.native.search(
        facts(kind).open_puzzle(), limit=MANY, budget=Budget.seconds(30), most_nodes=20
    )
    assert not stopped.complete and stopped.stats.nodes <= 20
    none = kind.native.search(facts(kind).open_puzzle(), limit=MANY, most_nodes=0)
    assert not none.complete and none.stats.nodes == 0
    puzzle = puzzle_of(kind, facts(kind).two_solutions)
    both = kind.native.search(puzzle, limit=2, budget=Budget.seconds(30), most_nodes=10**6)
    assert both.complete and both.verdict() is Verdict.MULTIPLE


def test_a_known_solution_is_left_out_and_the_other_found(kind):
    """How a maker asks for a second solution: ``other_than`` leaves the known one out,
    and the search ends complete once it has found the rest (none, for a unique one)."""
    puzzle = puzzle_of(kind, facts(kind).two_solutions)
    budget = Budget.seconds(30)
    first, second = kind.native.search(puzzle, limit=2, budget=budget).solutions
    for known, other in ((first, second), (second, first)):
        rest = kind.native.search(puzzle, limit=2, budget=budget, other_than=known)
        assert rest.complete and rest.solutions == (other,)
        one = kind.native.search(puzzle, limit=1, budget=budget, other_than=known)
        assert one.complete and one.solutions == (other,)
    unique, published = corpus_puzzle(kind.name, corpus_ids(kind.name)[0])
    alone = kind.native.search(unique, limit=1, budget=budget, other_than=published)
    assert alone.complete and alone.solutions == ()


def test_a_grid_that_is_no_solution_as_the_known_one_changes_nothing(kind):
    """``other_than`` with empty or out-of-range values (no solution can equal it): the
    search answers as without it, and stops."""
    puzzle = puzzle_of(kind, facts(kind).two_solutions)
    both = kind.native.search(puzzle, limit=2, budget=Budget.seconds(30)).solutions
    for value in (0, -1, 99):
        grid = tuple((value,) * puzzle.cols for _ in range(puzzle.rows))
        found = kind.native.search(puzzle, limit=2, budget=Budget.seconds(5), other_than=grid)
        assert found.complete and found.solutions == both, value
