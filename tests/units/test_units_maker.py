"""The units maker's shortcuts agree with what they stand for: a pair of givens goes
exactly when counting two solutions would let it, and a candidate set aside as below
the target is graded below it by the chain; the makers that nudge a puzzle toward a
grade (units and Killer) move it the way asked and keep its solution."""

from __future__ import annotations

import dataclasses
import random

import pytest
from numgrid.server import generate
from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Nudging
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.units import maker
from numgrid.server.kinds.units import native
from support.facts import facts
from support.facts import puzzle_of

# The fewest givens a trial keeps: a count of two solutions of a Jigsaw-X with 12 takes
# 0.5-1.7 s here (the shortcut as long), and a grid's last removals tried all take that.
FEWEST = 14


@pytest.mark.parametrize(("name", "diagonals"), [("sudoku", False), ("jigsaw", True)])
def test_a_pair_goes_exactly_when_two_solutions_are_not_found(name, diagonals):
    kind = KINDS[name]
    rng = random.Random(3)
    checked, filled = {True: 0, False: 0}, 0
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
            if sum(1 for v in trial if v) < FEWEST:
                continue
            found, complete, _ = native.count(t, t.fresh(trial), limit=2)
            counted = complete and len(found) == 1
            assert maker._still_unique(t, trial, pair, full, Budget.seconds(30)) == counted
            checked[counted] += 1
            if counted:
                values = trial
    assert checked[True] >= 20 and checked[False] >= 5, checked  # both answers checked


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


@pytest.mark.parametrize("name", ["sudoku", "jigsaw", "killer"])
def test_a_nudge_keeps_the_solution_and_moves_the_puzzle_the_way_asked(name):
    """Toward easier, a units puzzle gains a given of its solution and a Killer cage is
    cut in two; toward harder, a Killer's two cages become one (a units maker has no
    harder nudge: its givens are already as few as stay unique)."""
    kind = KINDS[name]
    rng = random.Random(5)
    puzzle, solution = kind.maker.candidate(Spec(9, 9, Grade.HARD), rng, 0.0, Budget.seconds(30))
    assert isinstance(kind.maker, Nudging)
    easier = kind.maker.nudge(puzzle, solution, False, rng)
    harder = kind.maker.nudge(puzzle, solution, True, rng)
    if name == "killer":
        assert len(easier.cages) == len(puzzle.cages) + 1
        assert len(harder.cages) == len(puzzle.cages) - 1
        for nudged in (easier, harder):
            assert [f for f in kind.checks.check_puzzle(nudged, None, None) if f.is_error] == []
            assert all(sum(solution[r][c] for r, c in x.cells) == x.sum for x in nudged.cages)
    else:
        assert harder is None
        added = [
            (r, c) for r in range(9) for c in range(9) if easier.givens[r][c] != puzzle.givens[r][c]
        ]
        assert (
            len(added) == 1
            and easier.givens[added[0][0]][added[0][1]] == solution[added[0][0]][added[0][1]]
        )


def test_the_driver_nudges_an_off_grade_candidate_before_drawing_another():
    """Killer MEDIUM is a narrow band: seeds whose first candidate is off grade are made
    from that candidate nudged, not from another draw."""
    made = []
    for seed in range(1, 7):
        attempt = generate.Attempt(
            KINDS["killer"], Spec(9, 9, Grade.MEDIUM), seed, Budget.seconds(60)
        )
        kept, explanation = attempt.run()
        attempt._drop(kept.check)  # its cross-check is not wanted here
        assert explanation.grade == Grade.MEDIUM
        made.append((attempt.attempts, attempt.nudges))
    assert any(nudges for _, nudges in made), made


def test_random_4x4_sudokus_are_all_easy_as_the_maker_says():
    """The claim behind Sudoku's REACHABLE (every 4x4 Sudoku is EASY; proved over all of
    them by ``benchmarks/reachable.py --every-4x4-sudoku``), checked on random minimal
    ones: givens taken away one by one in random order while the puzzle stays unique."""
    kind = KINDS["sudoku"]
    assert kind.maker.problems(Spec(4, 4, Grade.MEDIUM)) == [
        ("grade", "no 4x4 Sudoku is MEDIUM: EASY ones can be made")
    ]
    rng = random.Random(4)
    for _ in range(60):
        blank = kind.maker._blank(4, rng, rng.random() < 0.3)
        solution = None
        while solution is None:  # a few random digits may admit no grid: drawn again
            solution = maker._solution(blank, rng, Budget.seconds(30))
        t = native.tables(blank.shape)
        values = [v for row in solution for v in row]
        for i in rng.sample(range(16), 16):
            trial = [*values[:i], 0, *values[i + 1 :]]
            if len(native.count(t, t.fresh(trial), limit=2)[0]) == 1:
                values = trial
        givens = tuple(tuple(values[r * 4 : r * 4 + 4]) for r in range(4))
        puzzle = dataclasses.replace(blank, givens=givens)
        explained = kind.logic.explain(puzzle, None, kind.logic.Technique["TRIAL"])
        assert explained.grade is Grade.EASY, givens


KILLER_X = "no 4x4 Killer Sudoku (X variant) is {}: EASY, MEDIUM, HARD ones can be made"


@pytest.mark.parametrize(
    ("name", "grade", "refused", "x_refused"),
    [
        (
            "sudoku",
            Grade.MEDIUM,
            "no 4x4 Sudoku is MEDIUM: EASY ones can be made",
            "no 4x4 Sudoku (X variant) is MEDIUM: EASY ones can be made",  # every one is EASY
        ),
        ("jigsaw", Grade.MEDIUM, None, None),
        # the X variant of a Jigsaw reaches HARD and EXPERT: not refused
        ("jigsaw", Grade.HARD, "no 4x4 Jigsaw Sudoku is HARD: EASY, MEDIUM ones can be made", None),
        ("killer", Grade.HARD, None, None),
        ("killer", Grade.EXPERT, None, KILLER_X.format("EXPERT")),
        (
            "killer",
            Grade.EXTREME,
            "no 4x4 Killer Sudoku is EXTREME: EASY, MEDIUM, HARD, EXPERT ones can be made",
            KILLER_X.format("EXTREME"),
        ),
    ],
)
def test_a_grade_measured_out_of_reach_at_4x4_is_refused_and_the_rest_are_not(
    name, grade, refused, x_refused
):
    problems = KINDS[name].maker.problems(Spec(4, 4, grade))
    assert problems == ([("grade", refused)] if refused else [])
    assert KINDS[name].maker.problems(Spec(6, 6, grade)) == []
    x_variant = KINDS[name].maker.problems(Spec(4, 4, grade, diagonals=True))
    assert x_variant == ([("grade", x_refused)] if x_refused else [])
    assert KINDS[name].maker.problems(Spec(6, 6, grade, diagonals=True)) == []


@pytest.mark.parametrize("name", ["sudoku", "jigsaw", "killer"])
def test_a_repair_that_leaves_no_solution_is_a_bug(name):
    """The driver holds a repaired puzzle to the rules too: a repair that gives a
    clashing given (no solution at all, so no second one either) is a GenerationBug,
    not a puzzle made unique."""
    kind = KINDS[name]
    puzzle = puzzle_of(kind, facts(kind).two_solutions)
    first, _ = kind.native.search(puzzle, limit=2).solutions
    givens = [list(row) for row in puzzle.givens]
    givens[0][0] = givens[0][1] = 1

    class ClashingRepair:
        def repair(self, *_):
            return dataclasses.replace(puzzle, givens=tuple(map(tuple, givens)))

    attempt = generate.Attempt(
        dataclasses.replace(kind, maker=ClashingRepair()),
        Spec(puzzle.rows, puzzle.cols, None),
        1,
        Budget.seconds(30),
    )
    with pytest.raises(generate.GenerationBug, match="does not solve its own puzzle"):
        attempt.unique(puzzle, first)
