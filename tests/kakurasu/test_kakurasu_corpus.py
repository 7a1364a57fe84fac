"""A Kakurasu of the corpus spoilt as a transcription slip would spoil it is reported as
such, never a crash. (Every corpus puzzle, solved by both engines and explained with no
wrong step and no trial, is in ``tests/conformance/``.)"""

from __future__ import annotations

import pytest
from numgrid.server import engines
from numgrid.server import operations
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from support.kakurasu import KAKURASU
from support.kakurasu import corpus
from support.kakurasu import corpus_ids
from support.kakurasu import rule_violations

IDS = corpus_ids()

pytestmark = pytest.mark.slow


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
