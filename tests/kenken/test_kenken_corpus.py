"""Every published KenKen puzzle of the corpus, solved by both engines to the published
solution, uniquely: one cross-check pass per puzzle (both engines, compared), and each
engine's own answer checked too."""

from __future__ import annotations

import pytest
from kenken_support import CORPUS, corpus_ids, corpus_puzzle, kenken_kind, rule_violations
from numgrid.server import engines
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine

KENKEN = kenken_kind()
IDS = corpus_ids()

pytestmark = pytest.mark.slow


def test_the_corpus_is_all_there():
    assert CORPUS.is_file()
    assert len(IDS) == 322


@pytest.mark.parametrize("key", IDS)
def test_both_engines_find_the_published_solution_and_only_it(key, both_results):
    puzzle, published = corpus_puzzle(key)
    n = int(key.split("_")[1].split("x")[0])
    assert puzzle.size == n
    assert rule_violations(puzzle, published) == []  # the published solution itself holds
    # raises EngineDisagreement if CP-SAT and the native engine answer differently
    answer = engines.find(KENKEN, puzzle, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict is Verdict.UNIQUE
    assert answer.solutions == (published,)
    assert [s.engine for s in answer.stats] == ["cpsat", "native"]
    ((cpsat, native),) = both_results
    for result in (cpsat, native):  # each engine on its own: complete, UNIQUE, published
        assert result.complete, result.stats.engine
        assert result.verdict() is Verdict.UNIQUE, result.stats.engine
        assert result.solutions == (published,), result.stats.engine
