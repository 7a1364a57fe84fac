"""Every published puzzle of every kind's corpus: sound, its published solution keeps the
rules (an independent checker, not the library's), and both engines find that solution
and only it. One cross-check pass per puzzle (both engines, compared), and each engine's
own answer checked too. One test per kind walks its corpus (a test per puzzle cost more
in pytest's bookkeeping than in the checks); a failure names its puzzle."""

from __future__ import annotations

import dataclasses

import pytest
from numgrid.server import engines
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from support.corpus import corpus_ids
from support.corpus import corpus_path
from support.corpus import corpus_puzzle
from support.facts import KINDS
from support.facts import facts

pytestmark = pytest.mark.slow


def test_the_corpus_is_all_there(kind):
    assert corpus_path(kind.name).is_file()
    assert len(corpus_ids(kind.name)) == facts(kind).corpus_size


def test_every_published_puzzle_is_sound_and_of_its_size(kind):
    for key in corpus_ids(kind.name):
        puzzle, published = corpus_puzzle(kind.name, key)
        rows, cols = (int(n) for n in key.split("_")[1].split("x"))
        assert (puzzle.rows, puzzle.cols) == (rows, cols), key
        findings = kind.checks.check_puzzle(puzzle, None, None)
        assert [f for f in findings if f.is_error] == [], key
        assert {f.code for f in findings} <= facts(kind).corpus_warnings, key
        assert facts(kind).rule_violations(puzzle, published) == [], key  # it holds


def test_both_engines_find_every_published_solution_and_only_it(kind, both_results):
    for key in corpus_ids(kind.name):
        puzzle, published = corpus_puzzle(kind.name, key)
        both_results.clear()
        # raises EngineDisagreement if CP-SAT and the native engine answer differently
        answer = engines.find(kind, puzzle, engine=Engine.CROSS_CHECK, limit=2)
        assert answer.verdict is Verdict.UNIQUE, f"{key}, the data: {answer.verdict.value}"
        assert answer.solutions == (published,), key
        assert [s.engine for s in answer.stats] == ["cpsat", "native"], key
        ((cpsat, native),) = both_results
        for result in (cpsat, native):  # each engine on its own: complete, UNIQUE, published
            assert result.complete, (key, result.stats.engine)
            assert result.verdict() is Verdict.UNIQUE, (key, result.stats.engine)
            assert result.solutions == (published,), (key, result.stats.engine)


@pytest.mark.parametrize(
    "kind", [k for k in KINDS if facts(k).unmarked_x], ids=lambda kind: kind.name
)
def test_a_puzzle_published_with_an_unmarked_x_rule_has_several_solutions_without_it(kind):
    for key in sorted(facts(kind).unmarked_x):
        puzzle, published = corpus_puzzle(kind.name, key)
        plain = dataclasses.replace(puzzle, diagonals=False)
        answer = engines.find(kind, plain, engine=Engine.CROSS_CHECK, limit=2)
        assert answer.verdict is Verdict.MULTIPLE, key
        assert facts(kind).rule_violations(plain, published) == [], key  # one of them
