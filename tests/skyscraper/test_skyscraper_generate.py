"""The Skyscraper maker: generated puzzles unique for CP-SAT alone in every format, graded
as a full explanation grades them, the same for the same seed; the sizes and grades it
refuses, with a sentence; and its repairs (its fast grading against the chain:
test_skyscraper_grading.py)."""

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
from numgrid.server.kinds.skyscraper import generator
from numgrid.server.kinds.skyscraper import native
from numgrid.server.kinds.skyscraper.generator import MAKER
from numgrid.server.kinds.skyscraper.generator import clues_of
from numgrid.server.kinds.skyscraper.generator import latin_square
from numgrid.server.kinds.skyscraper.model import SIDES
from numgrid.server.kinds.skyscraper.model import Puzzle
from numgrid.server.kinds.skyscraper.model import visible
from support.generate import assert_made_well
from support.generate import maker_examples

SKYSCRAPER = KINDS["skyscraper"]
BUDGET = 60.0  # seconds for one puzzle; the ones below take well under one


def made(size: int, grade: Grade | None, seed: int):
    return generate_one(SKYSCRAPER, Spec(size, size, grade), seed, Budget.seconds(BUDGET))


def fits(puzzle: Puzzle, grid) -> bool:
    """Does ``grid`` (a latin square) show every clue and hold every given? Counted here,
    not by the library's checks."""
    n = puzzle.size
    for side in SIDES:
        for i, clue in enumerate(puzzle.clues(side)):
            seen = visible(grid[r][c] for r, c in side.cells(i, n))
            if clue and seen != clue:
                return False
    return all(
        not g or g == v
        for grow, vrow in zip(puzzle.givens, grid, strict=True)
        for g, v in zip(grow, vrow, strict=True)
    )


@pytest.mark.parametrize(
    ("size", "grade", "seed"),
    [
        (4, Grade.EASY, 1),
        (4, Grade.HARD, 2),
        (5, Grade.MEDIUM, 3),
        (5, Grade.EXTREME, 4),
        (6, Grade.HARD, 5),
        (6, Grade.EXPERT, 6),
    ],
)
def test_generated_puzzles_are_unique_in_every_format_and_graded_as_explained(size, grade, seed):
    g = made(size, grade, seed)
    assert g.difficulty.grade is grade and g.difficulty.solved_by_logic
    assert g.puzzle.height == size and not g.puzzle.diagonals  # the plain puzzle
    assert fits(g.puzzle, g.solution)
    assert_made_well(SKYSCRAPER, g)


def test_the_same_seed_makes_the_same_puzzle():
    first, again = made(5, Grade.HARD, 11), made(5, Grade.HARD, 11)
    assert (first.puzzle, first.solution) == (again.puzzle, again.solution)
    assert made(5, Grade.HARD, 12).puzzle != first.puzzle
    rng_a, rng_b = random.Random(3), random.Random(3)
    spec = Spec(6, 6, Grade.EXTREME)
    assert MAKER.candidate(spec, rng_a, 0.0, Budget()) == MAKER.candidate(
        spec, rng_b, 0.0, Budget()
    )


def test_any_grade_is_one_made_fast():
    g = made(5, None, 21)
    assert g.difficulty.grade in (Grade.EASY, Grade.MEDIUM, Grade.HARD)


def test_easy_puzzles_keep_every_clue_as_towers_does():
    g = made(6, Grade.EASY, 8)
    assert all(g.puzzle.clues(side)[i] for side in SIDES for i in range(6))


def test_sizes_and_grades_it_cannot_make_are_refused_with_a_sentence():
    assert MAKER.problems(Spec(5, 5, Grade.EXPERT)) == []
    assert MAKER.problems(Spec(9, 9, None)) == []
    found = dict(MAKER.problems(Spec(4, 5, Grade.EASY)))
    assert found == {"cols": "a Skyscraper is square: 4x5 is not"}
    assert dict(MAKER.problems(Spec(2, 2, None))) == {
        "rows": "a Skyscraper is 3 to 9 cells wide, not 2"
    }
    assert "rows" in dict(MAKER.problems(Spec(10, 10, Grade.EASY)))
    assert dict(MAKER.problems(Spec(3, 3, Grade.EXTREME))) == {
        "grade": "no 3x3 Skyscraper is EXTREME: EASY, MEDIUM, HARD ones can be made"
    }
    assert set(dict(MAKER.problems(Spec(4, 4, Grade.EXPERT)))) == {"grade"}
    assert MAKER.problems(Spec(4, 4, Grade.EXTREME)) == []


def _two_solutions(n: int, seed: int, keep: float):
    """A puzzle of a random square's clues (a share ``keep`` of them) that has another
    solution too: (puzzle, the square, the other)."""
    rng = random.Random(seed)
    while True:
        square = latin_square(n, rng)
        clues = [c if rng.random() < keep else 0 for c in clues_of(square)]
        puzzle = generator._puzzle(n, clues, [0] * (n * n))
        found = native.search(puzzle, limit=2).solutions
        if len(found) == 2:
            return puzzle, square, next(s for s in found if s != square)


@pytest.mark.parametrize(("keep", "seed"), [(0.3, 1), (0.5, 2), (1.0, 3)])
def test_a_repair_rules_the_other_solution_out_and_keeps_the_solution(keep, seed):
    puzzle, square, other = _two_solutions(6, seed, keep)
    assert fits(puzzle, square) and fits(puzzle, other)
    repaired = MAKER.repair(puzzle, square, other, random.Random(seed))
    assert fits(repaired, square) and not fits(repaired, other)
    clues = [c for side in SIDES for c in puzzle.clues(side)]
    now = [c for side in SIDES for c in repaired.clues(side)]
    added = [v for v, (a, b) in enumerate(zip(clues, now, strict=True)) if a != b]
    gained = sum(1 for row in repaired.givens for v in row if v) - sum(
        1 for row in puzzle.givens for v in row if v
    )
    if all(clues):  # every clue is there already: a differing cell is given
        assert (added, gained) == ([], 1)
    else:
        assert len(added) == 1 and gained == 0 and not clues[added[0]]


def test_the_latin_squares_are_latin_and_vary():
    rng = random.Random(0)
    squares = {latin_square(7, rng) for _ in range(20)}
    assert len(squares) == 20
    for square in squares:
        for line in (*square, *zip(*square, strict=True)):
            assert sorted(line) == list(range(1, 8))


@maker_examples
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(3, 5),
    grade=st.sampled_from([None, Grade.EASY, Grade.MEDIUM]),
)
def test_any_seed_makes_a_unique_puzzle_of_the_grade_asked(seed, size, grade):
    g = made(size, grade, seed)
    assert fits(g.puzzle, g.solution)
    assert native.search(g.puzzle, limit=2).solutions == (g.solution,)
    assert grade is None or g.difficulty.grade is grade
