"""The KenKen maker: generated puzzles unique for CP-SAT alone in every format, graded as
a full explanation grades them, shaped as Keen's, the same for the same seed; the sizes
and grades it refuses, with a sentence; its repairs; and the chain's fast grading
(:class:`.logic.Grading`, what it grades candidates with) against the chain's
explanation."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numgrid.server import generate
from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.generate import generate_one
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.kenken import checks
from numgrid.server.kinds.kenken import formats
from numgrid.server.kinds.kenken import logic
from numgrid.server.kinds.kenken import native
from numgrid.server.kinds.kenken.generator import MAKER
from numgrid.server.kinds.kenken.generator import MAX_CAGE
from numgrid.server.kinds.kenken.generator import _easier
from numgrid.server.kinds.kenken.generator import draw
from numgrid.server.kinds.kenken.generator import latin_square
from numgrid.server.kinds.kenken.generator import style
from numgrid.server.kinds.kenken.logic import Grading
from numgrid.server.kinds.kenken.model import DIVIDE
from numgrid.server.kinds.kenken.model import SUBTRACT
from numgrid.server.kinds.kenken.model import Cage
from numgrid.server.kinds.kenken.model import Puzzle
from support.generate import assert_made_well
from support.generate import maker_examples
from support.kenken import corpus

KENKEN = KINDS["kenken"]
BUDGET = 60.0  # seconds for one puzzle; the ones below take well under one


def made(size: int, grade: Grade | None, seed: int):
    return generate_one(KENKEN, Spec(size, size, grade), seed, Budget.seconds(BUDGET))


def fits(puzzle: Puzzle, grid) -> bool:
    """Is ``grid`` a latin square that gives every cage its target? Worked out here, not
    by the library's checks."""
    n = puzzle.size
    lines = [*grid, *zip(*grid, strict=True)]
    if any(sorted(line) != list(range(1, n + 1)) for line in lines):
        return False
    for cage in puzzle.cages:
        ds = [grid[r][c] for r, c in cage.cells]
        if len(ds) == 1:
            value = ds[0]
        elif cage.operation == "+":
            value = sum(ds)
        elif cage.operation == "x":
            value = math.prod(ds)
        elif cage.operation == "-":
            value = max(ds) - min(ds)
        else:
            value = max(ds) / min(ds)
        if value != cage.target:
            return False
    return True


@pytest.mark.parametrize(
    ("size", "grade", "seed"),
    [
        (4, Grade.EASY, 1),
        (4, Grade.EXTREME, 2),
        (5, Grade.MEDIUM, 3),
        (5, Grade.EXPERT, 4),
        (6, Grade.HARD, 5),
        (6, Grade.EXTREME, 6),
        (9, Grade.MEDIUM, 7),
    ],
)
def test_generated_puzzles_are_unique_in_every_format_and_graded_as_explained(size, grade, seed):
    g = made(size, grade, seed)
    assert g.difficulty.grade is grade
    assert g.puzzle.size == size and fits(g.puzzle, g.solution)
    assert checks.check_puzzle(g.puzzle) == []  # not even a warning
    assert_made_well(KENKEN, g)


def test_cages_are_shaped_as_keen_shapes_them():
    """Keen's rules: - and / on two cells only, cages of a few cells, few single cells
    where the grade is hard."""
    for seed, grade in enumerate((Grade.MEDIUM, Grade.HARD, Grade.EXPERT)):
        puzzle = made(6, grade, 30 + seed).puzzle
        sizes = [len(cage.cells) for cage in puzzle.cages]
        assert max(sizes) <= MAX_CAGE
        assert sizes.count(1) <= 4, sizes
        assert all(len(c.cells) == 2 for c in puzzle.cages if c.operation in (SUBTRACT, DIVIDE))


def test_the_same_seed_makes_the_same_puzzle():
    first, again = made(5, Grade.HARD, 11), made(5, Grade.HARD, 11)
    assert (first.puzzle, first.solution) == (again.puzzle, again.solution)
    assert made(5, Grade.HARD, 12).puzzle != first.puzzle
    spec = Spec(6, 6, Grade.EXTREME)
    a = MAKER.candidate(spec, random.Random(3), 0.0, Budget())
    assert a == MAKER.candidate(spec, random.Random(3), 0.0, Budget())


def test_any_grade_is_one_made_fast():
    g = made(6, None, 21)
    assert g.difficulty.grade in (Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXPERT)


def test_sizes_and_grades_it_cannot_make_are_refused_with_a_sentence():
    assert MAKER.problems(Spec(6, 6, Grade.EXTREME)) == []
    assert MAKER.problems(Spec(9, 9, None)) == []
    assert MAKER.problems(Spec(4, 4, Grade.EXTREME)) == []
    assert dict(MAKER.problems(Spec(4, 5, Grade.EASY))) == {
        "cols": "a KenKen is square: 4x5 is not"
    }
    assert dict(MAKER.problems(Spec(2, 2, None))) == {
        "rows": "a KenKen is 3 to 9 cells wide, not 2"
    }
    assert dict(MAKER.problems(Spec(12, 12, Grade.EASY))) == {
        "rows": "a KenKen is 3 to 9 cells wide, not 12"
    }
    assert MAKER.problems(Spec(3, 3, Grade.MEDIUM)) == []
    assert dict(MAKER.problems(Spec(3, 3, Grade.HARD))) == {
        "grade": "no 3x3 KenKen is HARD: EASY, MEDIUM ones can be made"
    }
    assert set(dict(MAKER.problems(Spec(3, 3, Grade.EXTREME)))) == {"grade"}
    # the driver passes them on with its own
    assert ("rows", "a KenKen is 3 to 9 cells wide, not 10") in generate.problems(
        KENKEN, Spec(10, 10, None), 1
    )


# A 4x4 whose clues leave it open: a latin square in horizontal dominoes, all sums.
SQUARE = ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))


def _dominoes(square) -> Puzzle:
    n = len(square)
    cages = [
        Cage(square[r][c] + square[r][c + 1], "+", ((r, c), (r, c + 1)))
        for r in range(n)
        for c in range(0, n, 2)
    ]
    return Puzzle(n, tuple(cages))


@pytest.mark.parametrize("seed", range(6))
def test_a_repair_rules_the_other_solution_out_and_keeps_the_solution(seed):
    puzzle = _dominoes(SQUARE)
    found = native.search(puzzle, limit=2).solutions
    assert len(found) == 2 and SQUARE in found  # the hand-made puzzle is not unique
    other = next(s for s in found if s != SQUARE)
    assert fits(puzzle, other)
    repaired = MAKER.repair(puzzle, SQUARE, other, random.Random(seed))
    assert fits(repaired, SQUARE) and not fits(repaired, other)
    assert [f for f in checks.check_puzzle(repaired) if f.is_error] == []


@pytest.mark.parametrize("seed", range(3))
def test_repairs_end_in_a_unique_puzzle(seed):
    """Repairs one after another, each ruling its other solution out, make it unique."""
    rng = random.Random(seed)
    square = latin_square(6, rng)
    puzzle = _dominoes(square)
    for _ in range(60):
        found = native.search(puzzle, limit=2).solutions
        if len(found) == 1:
            break
        other = next(s for s in found if s != square)
        puzzle = MAKER.repair(puzzle, square, other, rng)
        assert fits(puzzle, square) and not fits(puzzle, other)
    assert native.search(puzzle, limit=2).solutions == (square,)


def test_the_latin_squares_are_latin_and_vary():
    rng = random.Random(0)
    squares = {latin_square(7, rng) for _ in range(20)}
    assert len(squares) == 20
    for square in squares:
        for line in (*square, *zip(*square, strict=True)):
            assert sorted(line) == list(range(1, 8))


def test_the_fast_grading_grades_the_corpus_as_the_chain_does():
    """The fast grading stands for the chain while candidates are edited: on published
    puzzles (some with operations hidden), the same grade (None where the chain stalls)."""
    checked = 0
    published = corpus()
    for key in sorted(published, key=lambda key: int(key.split("_")[0])):
        puzzle = formats.read_janko(published[key]["problem"]).puzzle
        if puzzle.size > 6:
            continue
        chain = logic.explain(puzzle, None, logic.Technique.TRIAL, quiet=True)
        assert Grading(puzzle).grade() == (chain.grade if chain.solved else None), key
        checked += 1
        if checked == 60:
            break
    assert checked == 60


# The grades of the 150 draws below, as the chain gives them: a deduction changed in the
# chain and the fast grading alike (they share it) changes these.
DRAWN_GRADES = {
    None: 101,
    Grade.EASY: 18,
    Grade.MEDIUM: 11,
    Grade.HARD: 7,
    Grade.EXPERT: 4,
    Grade.EXTREME: 9,
}


def test_the_fast_grading_grades_draws_as_the_chain_does():
    """Draws of every size and style, unedited, unique or not: the grade of the fast
    grading is the chain's, and where it stalls below a limit, the chain's techniques up
    to that limit's leave the same cells open, each still holding its digit of the
    solution."""
    rng = random.Random(5)
    grades = dict.fromkeys(DRAWN_GRADES, 0)
    for _ in range(150):
        n = rng.choice((4, 5, 6, 7, 8, 9))
        puzzle, solution = draw(n, style(n, rng.choice(list(Grade)), rng.uniform(-1, 1)), rng)
        chain = logic.explain(puzzle, None, logic.Technique.TRIAL, quiet=True)
        got = chain.grade if chain.solved else None
        assert Grading(puzzle).grade() == got
        grades[got] += 1
        grading = Grading(puzzle)
        if grading.grade(Grade.EASY) is None:
            easy = logic.explain(puzzle, None, logic.Technique.HIDDEN_SINGLE, quiet=True)
            assert grading.stalled == [cell for cell, ds in easy.candidates.items() if len(ds) > 1]
            masks = grading.pos.masks
            assert all(masks[r * n + c] >> (solution[r][c] - 1) & 1 for r, c in grading.stalled)
    assert grades == DRAWN_GRADES


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


def test_a_bulk_grading_tells_expert_and_extreme_apart_as_the_exact_one():
    """Not exact (cage lines in bulk from the start): the same answer from EXPERT up, and
    a grade below EXPERT where the exact one is."""
    rng = random.Random(11)
    for _ in range(120):
        n = rng.choice((5, 6, 7, 8, 9))
        puzzle, _ = draw(n, style(n, rng.choice(list(Grade)), rng.uniform(-1, 1)), rng)
        exact = Grading(puzzle).grade(Grade.EXPERT)
        bulk = Grading(puzzle).grade(Grade.EXPERT, exact=False)
        if exact is None or exact == Grade.EXPERT:
            assert bulk == exact
        else:
            assert bulk is not None and bulk < Grade.EXPERT


def test_a_cut_keeps_a_unique_puzzle_unique():
    """An easier edit that cuts a cage gives clues that imply the old ones: no solution
    the old puzzle did not have."""
    rng = random.Random(4)
    cuts = 0
    while cuts < 20:
        puzzle, solution = draw(6, style(6, Grade.EXPERT, 0.0), rng)
        grading = Grading(puzzle)
        if grading.grade(Grade.EASY) is not None:
            continue
        edited, cut = _easier(puzzle, solution, grading.stalled, rng)
        if edited is None or not cut:
            continue
        for other in native.search(edited, limit=20).solutions:
            assert fits(puzzle, other)
        assert fits(edited, solution)
        cuts += 1
