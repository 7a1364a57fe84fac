"""Every kind's logical solver: each corpus puzzle (every corpus_step-th, as the kind's
facts say) explained to the end, every step right (its placements the published digits,
its eliminations never one) and said in a sentence; few puzzles need a trial; a hint from
the start is such a step."""

from __future__ import annotations

import importlib

import pytest
from numgrid.server.chain import Grade
from numgrid.server.kinds import KINDS
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.facts import assert_sound
from support.facts import facts
from support.facts import sample

# Per kind and grade, technique counts (by name; every other technique 0) that its ladder
# gives that grade, from its thresholds: just within a grade's limits, or a step past the
# grade below.
GRADES = {
    "kakuro": {
        Grade.EASY: [{"COMBINATIONS": 40, "CROSSING": 9}],
        Grade.MEDIUM: [{"REQUIRED_DIGIT": 4}, {"COMBINATION_ELIMINATION": 3}],
        Grade.HARD: [{"COMBINATION_ELIMINATION": 4}, {"NAKED_SUBSET": 3}],
        Grade.EXPERT: [{"COMBINATION_ELIMINATION": 13}, {"REGION_SUM": 1}],
        Grade.EXTREME: [{"TRIAL": 1}],
    },
    "kenken": {
        Grade.EASY: [{"COMBINATIONS": 9, "HIDDEN_SINGLE": 20}],
        Grade.MEDIUM: [{"CAGE_LINE": 4}],
        Grade.HARD: [{"CAGE_LINE": 5}, {"HIDDEN_SUBSET": 1}],
        Grade.EXPERT: [{"LINE_TOTALS": 1}],
        Grade.EXTREME: [{"TRIAL": 1}],
    },
    "skyscraper": {
        Grade.EASY: [{"VISIBILITY_BOUNDS": 9}],
        Grade.MEDIUM: [{"SEQUENCES": 2}],
        Grade.HARD: [{"SEQUENCES": 8}],
        Grade.EXPERT: [{"SEQUENCES": 9}],
        Grade.EXTREME: [{"TRIAL": 1}],
    },
    "kakurasu": {
        Grade.EASY: [{"SUM_BOUNDS": 20}, {"SUM_BOUNDS": 20, "COMBINATIONS": 4}],
        Grade.MEDIUM: [{"CROSSING": 3}],
        Grade.HARD: [{"CROSSING": 8}],
        Grade.EXPERT: [{"CROSSING": 9}],
        Grade.EXTREME: [{"CROSSING": 1, "TRIAL": 1}],
    },
}


@pytest.mark.parametrize(
    ("name", "used", "grade"),
    [
        (name, used, grade)
        for name, grades in GRADES.items()
        for grade, cases in grades.items()
        for used in cases
    ],
)
def test_technique_counts_are_graded_by_the_kinds_thresholds(name, used, grade):
    techniques = KINDS[name].logic.Technique
    counts = dict.fromkeys(techniques, 0) | {techniques[t]: n for t, n in used.items()}
    logic = importlib.import_module(f"numgrid.server.kinds.{name}.logic")
    assert logic.grade(counts) is grade


@pytest.mark.slow
def test_every_corpus_puzzle_is_explained_with_every_step_right(kind):
    trial = kind.logic.Technique["TRIAL"]
    trials = {}
    for key in corpus_ids(kind.name)[:: facts(kind).corpus_step]:
        puzzle, solution = corpus_puzzle(kind.name, key)
        explanation = kind.logic.explain(puzzle, None, max(kind.logic.Technique), budget=None)
        assert explanation.solved and explanation.final == solution, key
        assert_sound(explanation.steps, solution)
        trials[key] = explanation.technique_counts[trial] > 0
    facts(kind).trials(trials)


def test_a_quiet_explanation_takes_the_same_steps_without_their_sentences(kind):
    """What the generator and Solve's grade use: ``quiet`` changes the words, never the
    steps, their counts, the score or the grade."""
    for key in corpus_ids(kind.name)[:: facts(kind).corpus_step * 8]:
        puzzle, _ = corpus_puzzle(kind.name, key)
        top = max(kind.logic.Technique)
        told = kind.logic.explain(puzzle, None, top, budget=None)
        quiet = kind.logic.explain(puzzle, None, top, budget=None, quiet=True)
        assert [(s.technique, s.placements, s.eliminations) for s in quiet.steps] == [
            (s.technique, s.placements, s.eliminations) for s in told.steps
        ], key
        assert (quiet.technique_counts, quiet.score, quiet.grade, quiet.final) == (
            told.technique_counts,
            told.score,
            told.grade,
            told.final,
        ), key
        assert all(step.explanation for step in told.steps), key
        assert not any(step.explanation for step in quiet.steps), key


def test_a_hint_from_the_start_is_a_right_step(kind):
    board, solution = sample(kind)
    step = kind.logic.next_step(board.puzzle, None, max(kind.logic.Technique), False, budget=None)
    assert step is not None and (step.placements or step.eliminations)
    assert step.technique in kind.logic.Technique
    assert step.groups or step.cells
    assert_sound([step], solution)
    placing = kind.logic.next_step(board.puzzle, None, max(kind.logic.Technique), True, budget=None)
    assert placing.placements, placing.explanation
    assert_sound([placing, *placing.chain], solution)


def test_the_sample_is_explained_to_its_published_solution(kind):
    board, solution = sample(kind)
    explanation = kind.logic.explain(board.puzzle, None, max(kind.logic.Technique), budget=None)
    assert explanation.solved and explanation.final == solution
    assert explanation.grade is not None
    assert_sound(explanation.steps, solution)
