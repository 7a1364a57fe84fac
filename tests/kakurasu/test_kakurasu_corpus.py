"""Every published Kakurasu puzzle of the corpus: both engines find the published solution,
and only it (one cross-check pass per puzzle, each engine's own answer checked too); the
logical solver explains it to the end with no wrong step and no trial; and a puzzle
spoilt as a transcription slip would spoil it is reported as such, never a crash."""

from __future__ import annotations

import pytest
from kakurasu_support import CORPUS, KAKURASU, corpus, corpus_ids, corpus_puzzle, rule_violations
from numgrid.server import engines, operations
from numgrid.server.core import Budget, PuzzleError, Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds.kakurasu import logic

IDS = corpus_ids()

pytestmark = pytest.mark.slow


def test_the_corpus_is_all_there():
    assert CORPUS.is_file()
    assert len(IDS) == 210


@pytest.mark.parametrize("key", IDS)
def test_both_engines_find_the_published_solution_and_only_it(key, both_results):
    puzzle, published = corpus_puzzle(key)
    rows, cols = (int(n) for n in key.split("_")[1].split("x"))
    assert (puzzle.rows, puzzle.cols) == (rows, cols)
    assert KAKURASU.check(puzzle, None, None) == []
    assert rule_violations(puzzle, published) == []  # the published solution itself holds
    # raises EngineDisagreement if CP-SAT and the native engine answer differently
    answer = engines.find(KAKURASU, puzzle, engine=Engine.CROSS_CHECK, limit=2)
    assert answer.verdict is Verdict.UNIQUE
    assert answer.solutions == (published,)
    ((cpsat, native),) = both_results
    for result in (cpsat, native):
        assert result.complete, result.stats.engine
        assert result.solutions == (published,), result.stats.engine


@pytest.mark.parametrize("key", IDS)
def test_explained_to_the_end_with_no_wrong_step_and_no_trial(key):
    puzzle, published = corpus_puzzle(key)
    explanation = logic.explain(puzzle)
    assert explanation.solved and explanation.final == published
    assert explanation.technique_counts[logic.Technique.TRIAL] == 0
    for step in explanation.steps:
        for (r, c), value in step.placements:
            assert published[r][c] == value, step.explanation


def slipped(problem: str, line: int, index: int, by: int) -> str:
    """The problem text with one clue (of the column clues, line 1, or the row clues,
    line 2) changed ``by``."""
    lines = problem.splitlines()
    tokens = lines[line].split()
    tokens[index] = str(int(tokens[index]) + by)
    lines[line] = " ".join(tokens)
    return "\n".join(lines)


@pytest.mark.parametrize("by", [-1, 1, 2])
def test_a_transcription_slip_is_reported_as_such(by):
    """Each first clue of the corpus's puzzles changed: the checks name the clues that
    cannot hold, or both engines agree the puzzle has no solution (or several): never a
    crash, never a wrong UNIQUE."""
    outcomes = set()
    for key in IDS[::7]:
        text = corpus()[key]["problem"]
        if text.splitlines()[1].split()[0] == "-":
            continue
        spoilt = slipped(text, 1, 0, by)
        try:
            board, _ = operations.read_board(KAKURASU, spoilt, None, 1000)
        except PuzzleError as e:
            outcomes.add(tuple(f.code for f in e.findings))
            continue
        answer = engines.find(
            KAKURASU, board.puzzle, engine=Engine.CROSS_CHECK, limit=2, budget=Budget.seconds(10)
        )
        outcomes.add(answer.verdict)
        if answer.verdict is Verdict.UNIQUE:  # another valid puzzle, with its own solution
            assert rule_violations(board.puzzle, answer.solutions[0]) == []
    assert Verdict.NO_SOLUTION in outcomes
