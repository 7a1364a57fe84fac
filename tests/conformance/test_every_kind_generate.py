"""Every kind's maker: a puzzle made by the library reads back from each of its formats,
UNIQUE for CP-SAT alone with the maker's solution, which keeps the rules (the
independent checker), graded as the whole chain grades it; and the Generate RPC streams
such puzzles, each UNIQUE from its own text and graded as Explain grades it, a seed
making the same puzzle again alone."""

from __future__ import annotations

import pytest
from numgrid.client import NumgridClient
from numgrid.server import generate
from numgrid.server.core import Budget
from numgrid.server.generate import generate_one
from numgrid.server.kinds.base import Spec
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.facts import facts
from support.generate import assert_made_well


@pytest.fixture(scope="module")
def client(server_process):
    with NumgridClient(server_process.target, timeout=120) as c:
        yield c


@pytest.mark.parametrize("seed", [1, 2])
def test_a_made_puzzle_is_unique_in_every_format_and_graded_as_explained(kind, seed):
    rows, cols = facts(kind).size
    made = generate_one(kind, Spec(rows, cols, None), seed, Budget.seconds(60))
    assert facts(kind).rule_violations(made.puzzle, made.solution) == []
    assert_made_well(kind, made)


def test_every_puzzle_is_unique_from_its_own_text_and_graded_as_explain_grades(client, kind):
    rows, cols = facts(kind).size
    kind = kind.name
    made = list(client.generate(kind, rows, cols, count=2, seed=7))
    assert [m.index for m in made] == [0, 1]
    assert [m.seed for m in made] == [7, 8]
    for m in made:
        assert m.kind == kind
        assert m.difficulty.grade is not None and m.difficulty.solved_by_logic
        assert {s.engine for s in m.stats} == {"cpsat", "native"}
        assert m.texts, "every format of the kind"
        for fmt, text in m.texts.items():
            answer = client.check_uniqueness(text, format=fmt, kind=kind, engine="cpsat")
            assert answer.verdict == "UNIQUE", (fmt, text)
            assert answer.solutions[0] == m.solution, fmt
        explained = client.explain(m.texts["json"], kind=kind)
        assert explained.solved
        assert explained.difficulty.grade == m.difficulty.grade
        assert {t: n for t, n in explained.difficulty.counts.items() if n} == {
            t: n for t, n in m.difficulty.counts.items() if n
        }


def test_a_seed_makes_the_same_puzzle_again_alone(client, kind):
    rows, cols = facts(kind).size
    kind = kind.name
    first, second = client.generate(kind, rows, cols, count=2, seed=20)
    again = next(iter(client.generate(kind, rows, cols, count=1, seed=second.seed)))
    assert again.texts == second.texts
    assert again.solution == second.solution
    assert first.texts != second.texts


def test_a_maker_whose_solution_does_not_solve_its_candidate_is_a_bug(kind):
    """The driver holds the maker's solution up to the kind's rules before asking for
    another: a wrong one (here another puzzle's of the same size) is a GenerationBug."""
    ids = corpus_ids(kind.name)
    puzzle, published = corpus_puzzle(kind.name, ids[0])
    wrong = next(
        solution
        for other, solution in (corpus_puzzle(kind.name, key) for key in ids[1:])
        if (other.rows, other.cols) == (puzzle.rows, puzzle.cols) and solution != published
    )
    spec = Spec(puzzle.rows, puzzle.cols, None)
    attempt = generate.Attempt(kind, spec, 1, Budget.seconds(30))
    with pytest.raises(generate.GenerationBug, match="does not solve its own puzzle"):
        attempt.unique(puzzle, wrong)
    assert attempt.unique(puzzle, published) == (puzzle, published)


def test_a_candidate_whose_search_passes_the_node_bound_is_dropped(kind, monkeypatch):
    """A search for a second solution past ``UNIQUE_NODES`` drops the candidate (the next
    one is drawn) instead of repairing it or timing the request out."""
    puzzle = facts(kind).open_puzzle()
    (solution,) = kind.native.search(puzzle, limit=1, budget=Budget.seconds(30)).solutions
    attempt = generate.Attempt(kind, Spec(puzzle.rows, puzzle.cols, None), 1, Budget.seconds(30))
    monkeypatch.setattr(generate, "UNIQUE_NODES", 1)
    assert attempt.unique(puzzle, solution) is None
    assert attempt.repairs == 0


def test_repairs_that_come_back_to_a_puzzle_drop_the_candidate(kind, monkeypatch):
    """A repair that gives back a puzzle made before (here: the candidate itself) goes
    round in a circle: the candidate is dropped at once, not repaired to the limit."""
    puzzle = facts(kind).open_puzzle()
    (solution,) = kind.native.search(puzzle, limit=1, budget=Budget.seconds(30)).solutions
    attempt = generate.Attempt(kind, Spec(puzzle.rows, puzzle.cols, None), 1, Budget.seconds(30))
    monkeypatch.setattr(kind.maker, "repair", lambda puzzle, *_: puzzle)
    assert attempt.unique(puzzle, solution) is None
    assert attempt.repairs == 1


def test_making_a_puzzle_leaves_nothing_waiting_on_its_budget(kind):
    """The driver's per-candidate budgets (a chain's time limit, a cross-check started
    beside the chain) are let go once done: a request's budget does not keep one per
    candidate, nor the CP-SAT solvers they would stop."""
    rows, cols = facts(kind).size
    budget = Budget.seconds(60)
    for seed in (1, 2, 3):
        generate_one(kind, Spec(rows, cols, None), seed, budget)
    assert budget._on_cancel == []
