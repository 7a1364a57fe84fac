"""The committed Tatham Towers IDs, solved by both engines uniquely (one cross-check pass
each, and each engine's own answer checked too), and a defect in the corpus's data
reported as such. (Every corpus puzzle is solved in ``tests/conformance/``.)"""

from __future__ import annotations

import pytest
from numgrid.server import engines
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds.skyscraper import formats
from support.skyscraper import SKYSCRAPER
from support.skyscraper import corpus
from support.skyscraper import rule_violations
from support.skyscraper import towers_ids

pytestmark = pytest.mark.slow


def check_unique(puzzle, published, both_results) -> None:
    """Both engines, compared, then each on its own: complete, UNIQUE, the published grid."""
    # raises EngineDisagreement if CP-SAT and the native engine answer differently
    answer = engines.find(SKYSCRAPER, puzzle, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict is Verdict.UNIQUE, f"the data: {answer.verdict.value}"
    assert answer.solutions == (published,)
    ((cpsat, native),) = both_results
    for result in (cpsat, native):
        assert result.complete, result.stats.engine
        assert result.verdict() is Verdict.UNIQUE, result.stats.engine
        assert result.solutions == (published,), result.stats.engine


@pytest.mark.parametrize(("params", "game_id"), towers_ids())
def test_tatham_towers_ids_are_unique(params, game_id, both_results):
    puzzle = formats.read(game_id, "tatham").puzzle
    solution = engines.find(SKYSCRAPER, puzzle, engine=Engine.NATIVE).solutions[0]
    assert rule_violations(puzzle, solution) == []
    both_results.clear()
    check_unique(puzzle, solution, both_results)


def test_a_transcription_defect_is_reported_as_such():
    """A clue changed in the data: the engines agree there is no solution (or several);
    nothing crashes, and the answer says which."""
    problem = corpus()["02_5x5"]["problem"].replace("1 3 2 2 3", "2 3 2 2 3", 1)
    broken = formats.read(problem, "janko").puzzle
    answer = engines.find(SKYSCRAPER, broken, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict in (Verdict.NO_SOLUTION, Verdict.MULTIPLE)
    dropped = formats.read(problem.replace("2 3 2 2 3", "- 3 2 2 3", 1), "janko").puzzle
    assert engines.find(SKYSCRAPER, dropped, engine=Engine.CROSS_CHECK).verdict in (
        Verdict.UNIQUE,
        Verdict.MULTIPLE,
    )
