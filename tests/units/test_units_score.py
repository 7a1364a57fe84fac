"""The difficulty score of the units kinds over a real server: HoDoKu's points of the
chain, the same in Solve and Explain, higher for a harder puzzle (a top1465 one against
an easy 17-clue one), as a Sudoku and as a Jigsaw Sudoku whose regions are the boxes."""

from __future__ import annotations

import pytest
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from support.rpc import text
from units_support import SEVENTEEN
from units_support import TOP
from units_support import lines

BOXES = "\n".join(" ".join(str(1 + r // 3 * 3 + c // 3) for c in range(9)) for r in range(9))
HARD = lines(TOP)[0]  # EXPERT
EASY = lines(SEVENTEEN)[1]  # EASY


def as_kind(line: str, kind: str) -> str:
    if kind == "sudoku":
        return line
    rows = [" ".join("-" if ch in ".0" else ch for ch in line[r * 9 : r * 9 + 9]) for r in range(9)]
    return "9 9\n" + "\n".join(rows) + "\n" + BOXES + "\n"


def explained(stub, content: str) -> service_pb2.Difficulty:
    request = service_pb2.ExplainRequest(puzzle=text(content))
    return stub.Explain(request, timeout=60).difficulty


@pytest.mark.parametrize("kind", ["sudoku", "jigsaw"])
def test_a_harder_puzzle_scores_higher(stub, kind):
    hard, easy = (explained(stub, as_kind(line, kind)) for line in (HARD, EASY))
    assert hard.solved_by_logic and easy.solved_by_logic
    assert easy.grade == service_pb2.GRADE_EASY
    assert hard.grade > easy.grade
    assert hard.score > easy.score > 0


@pytest.mark.parametrize("kind", ["sudoku", "jigsaw"])
def test_solve_gives_the_score_explain_gives(stub, kind):
    content = as_kind(EASY, kind)
    solved = stub.Solve(service_pb2.SolveRequest(puzzle=text(content)), timeout=60)
    assert solved.difficulty.score == explained(stub, content).score > 0
