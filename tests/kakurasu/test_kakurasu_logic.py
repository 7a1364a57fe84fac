"""Kakurasu's logical solver: each technique on a small position with its sentence, the
trial as a last resort, positions from marks and candidates, contradictions, budgets,
grades, hints through the service's operations (in shaded/white words), and the rule
that no step is ever wrong (a corpus sample here; the whole corpus in
``test_kakurasu_corpus`` and ``benchmarks/explain.py --kind kakurasu``)."""

from __future__ import annotations

import pytest
from numgrid.server import operations
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds.kakurasu import formats
from numgrid.server.kinds.kakurasu import logic
from numgrid.server.kinds.kakurasu.logic import Grade
from numgrid.server.kinds.kakurasu.logic import Technique
from numgrid.server.kinds.kakurasu.model import Puzzle
from support.kakurasu import KAKURASU
from support.kakurasu import SMALL
from support.kakurasu import corpus_ids
from support.kakurasu import corpus_puzzle
from support.kakurasu import grid
from support.kakurasu import random_puzzle

PUZZLE, SOLUTION = corpus_puzzle("302_5x5")
# A 6x6 from a random shading: unique, but techniques 1-3 stall; a trial completes it.
HARD = Puzzle(6, 6, (10, 14, 6, 4, 7, 8), (8, 8, 9, 14, 6, 3))


def assert_sound(steps, solution) -> None:
    for step in steps:
        for (r, c), value in step.placements:
            assert solution[r][c] == value, step.explanation
        assert step.eliminations == ()


def only(puzzle: Puzzle, technique: Technique, given=None):
    """The step of one technique from a position (the simplest line's, best first)."""
    return logic.find(logic.position(puzzle, given), technique)


# ---------------------------------------------------------------- techniques


def test_sum_bounds_shades_what_the_line_cannot_miss():
    step = logic.next_step(PUZZLE)
    assert step.technique is Technique.SUM_BOUNDS
    assert step.explanation == (
        "Column 3 (clue 13) needs 13: its open weights 1+2+3+4+5 add up to 15, and without "
        "3, 4 or 5 the rest make less than 13, so r2c3, r3c3 and r4c3 are shaded."
    )
    assert step.placements == (((2, 3), 1), ((3, 3), 1), ((4, 3), 1))
    assert [g.name for g in step.groups] == ["column 3 (clue 13)"]


def test_sum_bounds_leaves_too_heavy_weights_white_and_a_made_clue_white():
    p = Puzzle(1, 5, (3,), (None,) * 5)
    step = only(p, Technique.SUM_BOUNDS)
    assert step.explanation == (
        "Row 0 (clue 3) needs 3: weights 4 and 5 are more than that, so r0c3 and r0c4 stay white."
    )
    step = only(p, Technique.SUM_BOUNDS, grid("..x--"))
    assert step.explanation == "Row 0 (clue 3) is made by r0c2 (3), so r0c0 and r0c1 stay white."


def test_combinations_list_the_ways_to_make_what_is_left():
    p = Puzzle(1, 5, (7,), (None,) * 5)
    assert only(p, Technique.COMBINATIONS) is None  # 7 = 2+5, 3+4 or 1+2+4: nothing agreed
    step = only(p, Technique.COMBINATIONS, grid("...x."))
    assert step.explanation == (
        "Row 0 (clue 7), with r0c3 (4) shaded, needs 3 more: 3 = 1+2 or 3, so r0c4 stays white."
    )
    assert step.cells == ((0, 3),)


def test_combinations_count_many_ways():
    p = Puzzle(1, 9, (37,), (None,) * 9)  # all of 1-9 but 8, 1+7, 2+6, 3+5, 1+2+5, 1+3+4
    step = only(p, Technique.COMBINATIONS)
    assert step.explanation == (
        "Row 0 (clue 37) needs 37: 37 can be made 6 ways, each with 9, so r0c8 is shaded."
    )


def test_crossing_uses_the_white_cells():
    p = Puzzle(1, 5, (7,), (None,) * 5)
    assert only(p, Technique.COMBINATIONS, grid(".-...")) is None  # whites aside: no
    step = only(p, Technique.CROSSING, grid(".-..."))
    assert step.explanation == (
        "Row 0 (clue 7) needs 7, and r0c1 is white: 7 = 3+4 only, so r0c2 and r0c3 are "
        "shaded; r0c0 and r0c4 stay white."
    )
    assert step.cells == ((0, 1),)


def test_a_trial_is_the_last_resort():
    assert not logic.explain(HARD, max_technique=Technique.CROSSING).solved
    explanation = logic.explain(HARD)
    assert explanation.solved and explanation.grade is Grade.EXTREME
    trials = [s for s in explanation.steps if s.technique is Technique.TRIAL]
    assert trials[0].explanation.startswith("Trial (a last resort): if r2c5 were shaded, then ")
    assert trials[0].explanation.endswith("; so r2c5 stays white.")
    (solution,) = KAKURASU.native.search(HARD, limit=2, fixed=None, budget=Budget()).solutions
    assert_sound(explanation.steps, solution)
    stalled = logic.explain(HARD, max_technique=Technique.CROSSING)
    assert logic.last_resort(HARD, stalled.candidates).technique is Technique.TRIAL


# ---------------------------------------------------------------- positions


def test_a_position_from_marks_and_from_candidates():
    marks = grid("---x. ....x ..... ..... .....")
    from_marks = logic.position(PUZZLE, marks)
    candidates = {(0, 3): (1,), (0, 0): (-1,), (1, 1): (1, -1)}
    from_candidates = logic.position(PUZZLE, candidates)
    assert from_marks.grid()[0] == (-1, -1, -1, 1, 0)
    assert from_candidates.grid()[0] == (-1, 0, 0, 1, 0)
    assert from_candidates.candidates()[1, 1] == (-1, 1)
    explanation = logic.explain(PUZZLE, marks)
    assert explanation.solved and explanation.final == SOLUTION


def test_marks_that_break_a_rule_are_refused():
    with pytest.raises(PuzzleError) as caught:
        logic.explain(PUZZLE, grid("x---x ..... ..... ..... ....."))
    assert [f.code for f in caught.value.findings] == ["line_over"]
    with pytest.raises(PuzzleError):
        logic.position(PUZZLE, {(0, 0): (2,)})


def test_marks_with_no_completion_end_in_a_contradiction():
    # r0c3 white: row 0 (clue 4) must then be 1+3, and the rest cannot follow
    explanation = logic.explain(PUZZLE, grid("...-. ..... ..... ..... ....."))
    assert not explanation.solved and explanation.grade is None
    assert explanation.contradiction


def test_a_line_no_way_can_make_is_a_contradiction_named_with_its_cells():
    p = Puzzle(1, 5, (7,), (None,) * 5)
    with pytest.raises(logic.Contradiction) as caught:  # open weights 1, 4, 5
        only(p, Technique.CROSSING, {(0, 1): (-1,), (0, 2): (-1,)})
    assert caught.value.reason == (
        "row 0 (clue 7) cannot be made: every way takes one of r0c1 and r0c2, which are white"
    )
    with pytest.raises(logic.Contradiction) as caught:  # 1 shaded leaves 1: no weight 1
        only(Puzzle(1, 3, (2,), (None,) * 3), Technique.COMBINATIONS, {(0, 0): (1,)})
    assert caught.value.reason == (
        "row 0 (clue 2), with r0c0 (1) shaded, cannot be made from the rest of its weights"
    )


def test_an_expired_budget_times_out():
    with pytest.raises(SearchTimeout):
        logic.explain(HARD, budget=Budget.seconds(0))


# ---------------------------------------------------------------- no wrong step


@pytest.mark.parametrize("key", corpus_ids()[::20])
def test_corpus_sample_explained_with_no_wrong_step(key):
    p, solution = corpus_puzzle(key)
    explanation = logic.explain(p)
    assert explanation.solved and explanation.final == solution
    assert_sound(explanation.steps, solution)


@pytest.mark.parametrize("seed", range(12))
def test_random_puzzles_no_wrong_step(seed):
    """On a puzzle with several solutions no step may exclude any of them: every step is
    checked against each solution the native engine finds (up to 50)."""
    p, _ = random_puzzle(5, 6, seed)
    solutions = KAKURASU.native.search(p, limit=50, fixed=None, budget=Budget()).solutions
    steps = logic.explain(p).steps
    for solution in solutions:
        assert_sound(steps, solution)


# ---------------------------------------------------------------- hints (operations)


def board(marks: str | None = None) -> Board:
    b = formats.read(SMALL)
    return b if marks is None else Board(b.puzzle, grid(marks))


def test_a_hint_is_a_step_in_words():
    hint = operations.hint(KAKURASU, board(), engine=Engine.NATIVE, budget=Budget())
    assert hint.kind == "STEP" and hint.verdict is Verdict.UNIQUE
    assert hint.placements == (((2, 3), 1), ((3, 3), 1), ((4, 3), 1))
    same = operations.hint(
        KAKURASU, board(), engine=Engine.NATIVE, budget=Budget(), placements_only=True
    )
    assert same.explanation == hint.explanation


def test_a_wrong_mark_is_a_mistake_in_words():
    hint = operations.hint(
        KAKURASU, board("x.... ..... ..... ..... ....."), engine=Engine.NATIVE, budget=Budget()
    )
    assert hint.kind == "MISTAKE" and hint.cells == ((0, 0),)
    assert hint.findings[0].message == (
        "r0c0: shaded is not what the puzzle's unique solution has there"
    )


def test_a_stuck_hint_reveals_a_cell_in_words():
    b = Board(HARD, logic.explain(HARD, max_technique=Technique.CROSSING).final)
    hint = operations.hint(
        KAKURASU, b, engine=Engine.NATIVE, budget=Budget(), max_technique=Technique.CROSSING
    )
    assert hint.kind == "NO_STEP"
    assert hint.step is not None and hint.step.technique is Technique.TRIAL
    assert "Or reveal: r2c5 is white, taken from the puzzle's unique solution" in (hint.explanation)


def test_a_solved_board():
    hint = operations.hint(KAKURASU, Board(PUZZLE, SOLUTION), engine=Engine.NATIVE, budget=Budget())
    assert hint.kind == "SOLVED"
