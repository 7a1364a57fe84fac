"""Every kind's logical solver: each corpus puzzle (every corpus_step-th, as the kind's
facts say) explained to the end, every step right (its placements the published digits,
its eliminations never one) and said in a sentence; few puzzles need a trial; a hint from
the start is such a step."""

from __future__ import annotations

from support.corpus import corpus_ids, corpus_puzzle
from support.facts import assert_sound, facts, sample


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
