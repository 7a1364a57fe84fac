"""Every published puzzle of the corpus: sound, and solved by both engines to the published
solution, uniquely. One cross-check pass per puzzle (both engines, compared)."""

from __future__ import annotations

import pytest
from helpers import CORPUS, KAKURO, corpus, errors, rule_violations
from numgrid.server import engines
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro.checks import check_puzzle

IDS = sorted(corpus(), key=lambda key: int(key.split("_")[0]))

pytestmark = pytest.mark.slow


def test_the_corpus_is_all_there():
    assert (CORPUS / "kakuro.json").is_file()
    assert len(IDS) == 749


@pytest.mark.parametrize("key", IDS)
def test_corpus_puzzle_has_no_structural_errors(key):
    b = formats.read(corpus()[key]["problem"])
    assert not b.has_entries
    assert errors(check_puzzle(b.puzzle, b.entries)) == []
    rows, cols = (int(n) for n in key.split("_")[1].split("x"))
    assert (b.puzzle.rows, b.puzzle.cols) == (rows, cols)


@pytest.mark.parametrize("key", IDS)
def test_both_engines_find_the_published_solution_and_only_it(key, both_results):
    puzzle = formats.read(corpus()[key]["problem"]).puzzle
    published = formats.read_solution(corpus()[key]["solution"])
    assert rule_violations(puzzle, published) == []  # the published solution itself holds
    # raises EngineDisagreement if CP-SAT and the native engine answer differently
    answer = engines.find(KAKURO, puzzle, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict is Verdict.UNIQUE
    assert answer.solutions == (published,)
    assert [s.engine for s in answer.stats] == ["cpsat", "native"]
    ((cpsat, native),) = both_results
    for result in (cpsat, native):  # each engine on its own: complete, UNIQUE, published
        assert result.complete, result.stats.engine
        assert result.verdict() is Verdict.UNIQUE, result.stats.engine
        assert result.solutions == (published,), result.stats.engine
