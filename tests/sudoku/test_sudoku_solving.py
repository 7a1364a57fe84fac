"""Sudoku through both engines, the logical chain and the maker; detection that never
guesses between kinds."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.engines import Engine
from numgrid.server.engines import find
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.base import Spec
from support.sudoku import SGT_SOLO
from support.sudoku import assert_solo_ids_round_trip

SUDOKU = KINDS["sudoku"]
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def lines(name: str, count: int) -> list[str]:
    text = (CORPUS / name).read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")][:count]


@pytest.mark.parametrize("name", ["sudoku-top1465.txt", "sudoku-17clue-sample.txt"])
def test_both_engines_agree_on_benchmark_puzzles(name):
    for line in lines(name, 5):
        puzzle = SUDOKU.formats.read(line, None, None).puzzle
        answer = find(SUDOKU, puzzle, engine=Engine.CROSS_CHECK, budget=Budget.seconds(60))
        assert answer.verdict.value == "UNIQUE"


def test_the_x_variant_narrows_a_puzzle_to_one_solution():
    line = "1..." + "." * 12  # 4x4: many solutions plain, fewer as X
    plain = SUDOKU.formats.read(line, None, None).puzzle
    assert SUDOKU.native.search(plain, limit=2).verdict().value == "MULTIPLE"
    x = type(plain)(plain.size, plain.boxes, plain.regions, True, plain.givens)
    for solution in SUDOKU.native.search(x, limit=50).solutions:
        assert len({solution[k][k] for k in range(4)}) == 4
        assert len({solution[k][3 - k] for k in range(4)}) == 4


def test_explain_completes_with_singles_and_trials():
    puzzle = SUDOKU.formats.read(lines("sudoku-top1465.txt", 1)[0], None, None).puzzle
    explanation = SUDOKU.logic.explain(puzzle)
    assert explanation.solved
    solution = SUDOKU.native.search(puzzle, limit=1).solutions[0]
    assert explanation.final == solution
    step = SUDOKU.logic.next_step(puzzle)
    assert step is not None and step.explanation.endswith(".")


def test_the_maker_makes_unique_puzzles_by_seed():
    spec = Spec(6, 6, None)
    one = SUDOKU.maker.candidate(spec, random.Random(7), 0.0, Budget.seconds(30))
    two = SUDOKU.maker.candidate(spec, random.Random(7), 0.0, Budget.seconds(30))
    assert one == two
    puzzle, solution = one
    assert SUDOKU.native.search(puzzle, limit=2).solutions == (solution,)
    assert SUDOKU.maker.problems(Spec(7, 7, None))


def test_killer_texts_are_never_read_as_another_kind():
    data = json.loads((CORPUS / "killer-sudoku.json").read_text())["data"]
    for entry in list(data.values())[:20]:
        with pytest.raises(PuzzleError, match="Killer Sudoku"):
            detect_format(entry["problem"])


@pytest.mark.skipif(SGT_SOLO is None, reason="sgt-solo is not installed")
@pytest.mark.parametrize("params", ["3x3di", "2x3", "3x3xdi", "2x2"])
def test_solo_ids_round_trip_through_sgt_solo(params):
    assert_solo_ids_round_trip(SUDOKU, params)
