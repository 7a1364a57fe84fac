"""The units maker's shortcuts agree with what they stand for: a pair of givens goes
exactly when counting two solutions would let it, and a candidate set aside as below
the target is graded below it by the chain."""

from __future__ import annotations

import random

import pytest
from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.units import maker
from numgrid.server.kinds.units import native


@pytest.mark.parametrize(("name", "diagonals"), [("sudoku", False), ("jigsaw", True)])
def test_a_pair_goes_exactly_when_two_solutions_are_not_found(name, diagonals):
    kind = KINDS[name]
    rng = random.Random(3)
    checked = filled = 0
    while filled < 2:  # random regions with diagonals often have no grid: drawn again
        blank = kind.maker._blank(9, rng, diagonals)
        solution = maker._solution(blank, rng, Budget.seconds(30))
        if solution is None:
            continue
        filled += 1
        t = native.tables(blank.shape)
        values = [v for row in solution for v in row]
        full = list(values)
        pairs = sorted({tuple(sorted((i, 80 - i))) for i in range(81)})
        rng.shuffle(pairs)
        for pair in pairs:
            trial = list(values)
            for i in pair:
                trial[i] = 0
            found, complete, _ = native.count(t, t.fresh(trial), limit=2)
            counted = complete and len(found) == 1
            assert maker._still_unique(t, trial, pair, full, Budget.seconds(30)) == counted
            checked += 1
            if counted:
                values = trial
    assert checked >= 2 * 41


@pytest.mark.parametrize("name", ["sudoku", "jigsaw"])
def test_a_candidate_set_aside_as_below_the_target_is_graded_below_it(name):
    kind = KINDS[name]
    rng = random.Random(5)
    seen = 0
    for _ in range(12):
        blank = kind.maker._blank(9, rng, False)
        solution = maker._solution(blank, rng, Budget.seconds(30))
        if solution is None:
            continue
        spec = Spec(9, 9, Grade.HARD)
        puzzle = kind.maker._emptied(spec, blank, solution, rng, 1.0, Budget.seconds(30))
        for grade in (Grade.MEDIUM, Grade.HARD):
            if maker._below(puzzle, grade):
                seen += 1
                explained = kind.logic.explain(puzzle, None, max(kind.logic.Technique))
                assert explained.grade is not None and explained.grade < grade
    assert seen
