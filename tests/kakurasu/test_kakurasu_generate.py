"""The Kakurasu maker: generated puzzles unique for CP-SAT alone in every format, graded as
a full explanation grades them, the same for the same seed; the sizes and grades it
refuses, with a sentence; its repairs; and its quiet grading against the chain's."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.generate import generate_one
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.kakurasu import formats
from numgrid.server.kinds.kakurasu import generator
from numgrid.server.kinds.kakurasu import logic
from numgrid.server.kinds.kakurasu import native
from numgrid.server.kinds.kakurasu.generator import MAKER
from numgrid.server.kinds.kakurasu.model import SHADED
from numgrid.server.kinds.kakurasu.model import Puzzle
from support.generate import assert_made_well
from support.generate import maker_examples
from support.kakurasu import corpus

KAKURASU = KINDS["kakurasu"]
BUDGET = 60.0  # seconds for one puzzle; the ones below take well under one


def made(rows: int, cols: int, grade: Grade | None, seed: int):
    return generate_one(KAKURASU, Spec(rows, cols, grade), seed, Budget.seconds(BUDGET))


def fits(puzzle: Puzzle, grid) -> bool:
    """Does ``grid`` make every clue given? Added up here, not by the library's checks."""
    for r, clue in enumerate(puzzle.row_clues):
        if clue is not None and clue != sum(c + 1 for c, v in enumerate(grid[r]) if v == SHADED):
            return False
    for c, clue in enumerate(puzzle.column_clues):
        if clue is not None and clue != sum(
            r + 1 for r, row in enumerate(grid) if row[c] == SHADED
        ):
            return False
    return True


@pytest.mark.parametrize(
    ("rows", "cols", "grade", "seed"),
    [
        (5, 5, Grade.EASY, 1),
        (5, 5, Grade.EXTREME, 2),
        (6, 6, Grade.HARD, 3),
        (7, 7, Grade.MEDIUM, 4),
        (8, 8, Grade.EXPERT, 5),
        (5, 8, Grade.MEDIUM, 6),
    ],
)
def test_generated_puzzles_are_unique_in_every_format_and_graded_as_explained(
    rows, cols, grade, seed
):
    g = made(rows, cols, grade, seed)
    assert g.difficulty.grade is grade and g.difficulty.solved_by_logic
    assert (g.puzzle.rows, g.puzzle.cols) == (rows, cols) and fits(g.puzzle, g.solution)
    missing = sum(clue is None for clue in (*g.puzzle.row_clues, *g.puzzle.column_clues))
    assert missing <= generator.omissions(rows + cols)
    assert_made_well(KAKURASU, g)


def test_the_same_seed_makes_the_same_puzzle():
    first, again = made(7, 7, Grade.HARD, 11), made(7, 7, Grade.HARD, 11)
    assert (first.puzzle, first.solution) == (again.puzzle, again.solution)
    assert made(7, 7, Grade.HARD, 12).puzzle != first.puzzle
    spec = Spec(6, 6, Grade.EXTREME)
    one = MAKER.candidate(spec, random.Random(3), 0.0, Budget())
    assert one == MAKER.candidate(spec, random.Random(3), 0.0, Budget())


def test_easy_puzzles_give_every_clue_and_any_grade_is_one_made_fast():
    g = made(8, 8, Grade.EASY, 9)
    assert None not in (*g.puzzle.row_clues, *g.puzzle.column_clues)
    assert made(6, 6, None, 21).difficulty.grade in (Grade.EASY, Grade.MEDIUM, Grade.HARD)


def test_sizes_and_grades_it_cannot_make_are_refused_with_a_sentence():
    assert MAKER.problems(Spec(9, 9, Grade.EXPERT)) == []
    assert MAKER.problems(Spec(16, 16, None)) == []
    assert dict(MAKER.problems(Spec(2, 5, Grade.EASY))) == {
        "rows": "a Kakurasu is made 3 to 16 rows, not 2"
    }
    assert dict(MAKER.problems(Spec(5, 17, None))) == {
        "cols": "a Kakurasu is made 3 to 16 columns, not 17"
    }
    assert dict(MAKER.problems(Spec(4, 4, Grade.MEDIUM))) == {
        "grade": "no 4x4 Kakurasu is MEDIUM: EASY ones can be made"
    }
    assert set(dict(MAKER.problems(Spec(5, 5, Grade.EXPERT)))) == {"grade"}
    assert MAKER.problems(Spec(5, 5, Grade.EXTREME)) == []


def _two_solutions(rows: int, cols: int, seed: int, left_out: int):
    """A random shading's puzzle, ``left_out`` clues not given, that has another solution
    too: (puzzle, the shading, the other)."""
    rng = random.Random(seed)
    while True:
        grid = tuple(map(tuple, generator.shading(rows, cols, 0.4, rng)))
        clues = generator.clues_of(grid)
        for x in rng.sample(range(len(clues)), left_out):
            clues[x] = None
        puzzle = generator._puzzle(rows, clues)
        found = native.search(puzzle, limit=2).solutions
        if len(found) == 2:
            return puzzle, grid, next(s for s in found if s != grid)


@pytest.mark.parametrize(("left_out", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_a_repair_gives_back_a_clue_that_rules_the_other_solution_out(left_out, seed):
    puzzle, grid, other = _two_solutions(6, 6, seed, left_out)
    assert fits(puzzle, grid) and fits(puzzle, other)
    repaired = MAKER.repair(puzzle, grid, other, random.Random(seed))
    before = (*puzzle.row_clues, *puzzle.column_clues)
    after = (*repaired.row_clues, *repaired.column_clues)
    changed = [x for x, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert len(changed) == 1 and before[changed[0]] is None
    assert fits(repaired, grid) and not fits(repaired, other)


def test_a_repair_of_a_puzzle_with_every_clue_is_none():
    puzzle, grid, other = _two_solutions(6, 6, 4, 0)
    assert MAKER.repair(puzzle, grid, other, random.Random(0)) is None


def test_the_quiet_chain_grades_the_corpus_as_the_chain_does():
    """The maker grades with the chain told quietly, in bulk (:func:`generator.verdict`):
    on every published puzzle, the same grade, the same crossing steps, no sentences."""
    published = corpus()
    for key in sorted(published)[::3]:
        puzzle = formats.read_janko(published[key]["problem"]).puzzle
        clues = [*puzzle.row_clues, *puzzle.column_clues]
        quiet = logic.explain(puzzle, None, logic.Technique.CROSSING, quiet=True, bulk=True)
        chain = logic.explain(puzzle, None, logic.Technique.CROSSING)
        assert generator.verdict(clues, puzzle.rows).grade == chain.grade, key
        assert (quiet.grade, quiet.solved) == (chain.grade, chain.solved), key
        crossings = logic.Technique.CROSSING
        assert quiet.technique_counts[crossings] == chain.technique_counts[crossings], key
        assert not any(step.explanation for step in quiet.steps), key


def test_a_verdict_stops_past_the_crossing_steps_allowed():
    """With a limit, the verdict stops before the crossing step past it, where the chain
    then stood (its open cells), as a grade over the limit."""
    published = corpus()
    seen = 0
    for key in sorted(published)[::3]:
        puzzle = formats.read_janko(published[key]["problem"]).puzzle
        clues = [*puzzle.row_clues, *puzzle.column_clues]
        chain = logic.explain(puzzle, None, logic.Technique.CROSSING)
        crossings = chain.technique_counts[logic.Technique.CROSSING]
        if not chain.solved or crossings < 2:
            continue
        graded = generator.verdict(clues, puzzle.rows, limit=crossings - 1)
        assert (graded.grade, graded.crossings) == (None, crossings - 1), key
        assert graded.stalled, key
        seen += 1
    assert seen


def test_a_one_level_trial_is_what_the_chain_needs_for_extreme():
    """Puzzles the chain without a trial cannot complete: :func:`trial_solves` (the
    chain with its trial, told quietly) completes exactly those the chain completes."""
    rng = random.Random(5)
    checked = 0
    while checked < 40:
        grid = generator.shading(9, 9, 0.45, rng)
        clues = generator.clues_of(grid)
        if generator.verdict(clues, 9).grade is not None:
            continue
        puzzle = generator._puzzle(9, clues)
        ours = generator.trial_solves(puzzle, Budget())
        chain = KAKURASU.logic.explain(puzzle, None, logic.Technique.TRIAL, budget=None).solved
        assert ours == chain, puzzle
        checked += 1


@maker_examples
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(5, 8),
    cols=st.integers(5, 8),
    grade=st.sampled_from([None, Grade.EASY, Grade.EXTREME]),
)
def test_any_seed_makes_a_unique_puzzle_of_the_grade_asked(seed, rows, cols, grade):
    if MAKER.problems(Spec(rows, cols, grade)):
        return
    g = made(rows, cols, grade, seed)
    assert fits(g.puzzle, g.solution)
    assert native.search(g.puzzle, limit=2).solutions == (g.solution,)
    assert grade is None or g.difficulty.grade is grade
