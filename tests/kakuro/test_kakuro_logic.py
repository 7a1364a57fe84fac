"""The logical solver: each technique on a position where it is the next step, the region
sum that unlocks a puzzle (seed 001's isolated neck), trial as a last resort, hints,
grades, and the rule that no step is ever wrong (random puzzles; the corpus in
``tests/conformance/``)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import assume
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro import logic
from numgrid.server.kinds.kakuro import native
from numgrid.server.kinds.kakuro.logic import Grade
from numgrid.server.kinds.kakuro.logic import Technique
from numgrid.server.kinds.kakuro.logic_regions import region_sum
from numgrid.server.kinds.kakuro.model import WHITE
from numgrid.server.kinds.kakuro.model import Clue
from numgrid.server.kinds.kakuro.model import Puzzle
from support.kakuro import NECK
from support.kakuro import corpus_puzzle


def puzzle(text: str) -> Puzzle:
    return formats.read_janko(text).puzzle


def solutions_within(p: Puzzle, candidates=None) -> list:
    """Every solution of ``p`` (small puzzles) that the candidates allow."""
    found = native.search(p, limit=100, budget=Budget.seconds(5))
    assert found.complete and len(found.solutions) < 100
    return [
        s
        for s in found.solutions
        if all(s[r][c] in digits for (r, c), digits in (candidates or {}).items())
    ]


def assert_sound(steps, solutions) -> None:
    """Every placement holds in every solution; no elimination removes a solution's digit."""
    assert solutions
    for step in steps:
        for s in solutions:
            for (r, c), d in step.placements:
                assert s[r][c] == d, step.explanation
            for (r, c), d in step.eliminations:
                assert s[r][c] != d, step.explanation


def sound_step(p: Puzzle, candidates=None):
    """The next step from ``candidates`` (by default the empty grid's), sound in every
    solution they allow."""
    step = logic.next_step(p, candidates)
    assert_sound([step], solutions_within(p, candidates))
    return step


# Across 16 = 7+9 over Down 17 = 8+9 and Down 8: one solution, 9 7 / 8 1.
SMALL = "3 3\n- 17, 8,\n,16 0 0\n,9 0 0\n"


# ---------------------------------------------------------------- one test per technique


def test_techniques_are_ranked_simplest_first():
    assert [t.name for t in Technique] == [
        "LAST_CELL",
        "COMBINATIONS",
        "CROSSING",
        "REQUIRED_DIGIT",
        "NAKED_SUBSET",
        "COMBINATION_ELIMINATION",
        "REGION_SUM",
        "TRIAL",
    ]
    assert list(Technique) == sorted(Technique)


def test_last_cell():
    p = puzzle(SMALL)
    entries = [[0, 0, 0], [0, 9, 0], [0, 0, 0]]
    step = logic.next_step(p, entries)
    assert step.technique is Technique.LAST_CELL
    assert step.placements == (((1, 2), 7),)
    assert step.eliminations == ()
    assert "Across 16" in step.explanation and "16 - 9 = 7" in step.explanation
    assert step.explanation.endswith("so r1c2 = 7.")
    assert_sound([step], solutions_within(p))


def test_combinations_is_the_first_step_on_an_empty_grid():
    p = puzzle(SMALL)
    step = sound_step(p)
    assert step.technique is Technique.COMBINATIONS
    assert step.placements == ()
    assert set(step.eliminations) == {
        (cell, d) for cell in ((1, 1), (1, 2)) for d in (1, 2, 3, 4, 5, 6, 8)
    }
    assert [run.name for run in step.groups] == ["across 16 at r1c0"]
    assert step.explanation.startswith("Across 16 at r1c0 in two cells can only be 7+9")


def test_crossing():
    p = puzzle(SMALL)
    candidates = {(1, 1): {7, 9}, (1, 2): {7, 9}, (2, 1): {8, 9}, (2, 2): {1, 2, 3, 5, 6, 7}}
    step = sound_step(p, candidates)
    assert step.technique is Technique.CROSSING
    assert step.placements == (((1, 1), 9),)
    assert step.explanation == (
        "Across 16 at r1c0 in two cells can only be 7+9, and Down 17 at r0c1 in two cells "
        "cannot hold 7, so r1c1 = 9."
    )
    assert {run.name for run in step.groups} == {"across 16 at r1c0", "down 17 at r0c1"}


def test_required_digit_is_a_hidden_single():
    p = puzzle("3 4\n- 9, 9, 11,\n,23 0 0 0\n,6 0 0 0\n")
    candidates = {
        (1, 1): {6, 8},
        (1, 2): {6, 8},
        (1, 3): {6, 8, 9},
        (2, 1): {1, 2, 3},
        (2, 2): {1, 2, 3},
        (2, 3): {2, 3},
    }
    step = sound_step(p, candidates)
    assert step.technique is Technique.REQUIRED_DIGIT
    assert step.placements == (((1, 3), 9),)
    assert "(6+8+9) contains 6, 8 and 9; only r1c3 can take 9" in step.explanation


def test_naked_pair():
    p = puzzle("3 4\n- 9, 7, 10,\n,10 0 0 0\n,16 0 0 0\n")
    candidates = {
        (1, 1): {1, 2},
        (1, 2): {1, 2},
        (1, 3): {1, 2, 4, 7},
        (2, 1): {7, 8},
        (2, 2): {3, 4, 5, 6},
        (2, 3): {3, 6, 8, 9},
    }
    step = sound_step(p, candidates)
    assert step.technique is Technique.NAKED_SUBSET
    assert step.placements == ()
    assert step.eliminations == (((1, 3), 1), ((1, 3), 2))
    assert step.cells == ((1, 1), (1, 2))
    assert "r1c1 and r1c2 can only hold 1 and 2 between them (a naked pair)" in step.explanation


def test_combination_elimination():
    p = puzzle("3 4\n- 8, 10, 11,\n,10 0 0 0\n,19 0 0 0\n")
    candidates = {
        (1, 1): {1, 2, 6},
        (1, 2): {1, 4, 6},
        (1, 3): {2, 5, 6, 7},
        (2, 1): {5, 6, 7},
        (2, 2): {7, 8, 9},
        (2, 3): {4, 5, 6},
    }
    step = sound_step(p, candidates)
    assert step.technique is Technique.COMBINATION_ELIMINATION
    assert step.placements == (((1, 2), 1), ((2, 2), 9))
    assert step.explanation.startswith(
        "Down 10 at r0c2 in two cells: 2+8 is out (no cell can take 2), 3+7 is out "
        "(no cell can take 3), 4+6 is out (r2c2 can take none of its digits), leaving 1+9"
    )
    # Eliminations only: a combination with a digit no cell can take, and digits of live
    # combinations that no arrangement of them can put in a cell.
    candidates = {
        (1, 1): {1, 2, 5, 7},
        (1, 2): {2, 6},
        (1, 3): {3, 7},
        (2, 1): {6, 7},
        (2, 2): {3, 4, 8},
        (2, 3): {4, 6, 8, 9},
    }
    step = sound_step(p, candidates)
    assert step.technique is Technique.COMBINATION_ELIMINATION
    assert step.placements == ()
    assert step.eliminations == (((1, 1), 2), ((1, 1), 7))
    assert step.explanation == (
        "Across 10 at r1c0 in three cells: 1+4+5 is out (no cell can take 4), leaving "
        "1+2+7, 1+3+6 or 2+3+5, and no arrangement of them puts 2 or 7 in r1c1, "
        "so r1c1 loses 2 and 7."
    )


# ---------------------------------------------------------------- region sums (seed 001)

# Seed 001, Figure 1: a block isolated from the grid but for the neck r4c5, whose across
# run (28) belongs to the block and whose down run leaves it. Its clues are the figure's:
# across 4, 3, 19, 28 and down 19, 21, 3, 4, so the neck is 54 - 47 = 7.
FIGURE_1 = """9 9
- 19, 21, - - - - - -
,4 0 0 - - - - - -
,3 0 0 3, 4, - - - -
,19 0 0 0 0 11, - - -
,28 0 0 0 0 0 17, - -
- - - - ,10 0 0 10, 24,
- - - - ,27 0 0 0 0
- - - - - - ,8 0 0
- - - - - - ,10 0 0
"""


def test_region_sum_of_seed_001_figure_1():
    p = puzzle(FIGURE_1)
    step = region_sum(logic.position(p))
    assert step.technique is Technique.REGION_SUM
    assert step.placements == (((4, 5), 7),)
    assert "the across clues 4 + 3 + 19 + 28 = 54" in step.explanation
    assert "the down clues 19 + 21 + 3 + 4 = 47" in step.explanation
    assert "54 - 47 = 7, so r4c5 = 7." in step.explanation
    assert len(step.cells) == 12 and len(step.groups) == 8  # the block, not the rest
    assert_sound([step], solutions_within(p))


def test_region_sum_unlocks_a_puzzle():
    p = puzzle(NECK)
    (solution,) = solutions_within(p)
    stalled = logic.explain(p, max_technique=Technique.COMBINATION_ELIMINATION)
    assert not stalled.solved and stalled.grade is None
    assert stalled.final[4][5] == 0  # the neck is still open
    assert logic.next_step(p, stalled.candidates, Technique.COMBINATION_ELIMINATION) is None

    step = logic.next_step(p, stalled.candidates)
    assert step.technique is Technique.REGION_SUM
    assert step.placements == (((4, 5), 8),)
    assert "the across clues 5 + 6 + 14 + 33 = 58" in step.explanation
    assert "the down clues 10 + 24 + 9 + 7 = 50" in step.explanation
    assert "58 - 50 = 8" in step.explanation

    done = logic.explain(p, max_technique=Technique.REGION_SUM)
    assert done.solved and done.final == solution
    assert done.technique_counts[Technique.REGION_SUM] == 1
    assert done.grade is Grade.EXPERT
    assert_sound(done.steps, [solution])


def test_region_sum_with_two_cells_left_out():
    p, solution = corpus_puzzle("380_14x14")
    explanation = logic.explain(p)
    (step,) = [s for s in explanation.steps if s.technique is Technique.REGION_SUM]
    assert "r10c6 + r11c6 = 30 - 22 = 8" in step.explanation
    assert step.placements == (((10, 6), 7), ((11, 6), 1))
    assert explanation.solved
    assert_sound(explanation.steps, [solution])


# ---------------------------------------------------------------- trial, the last resort


def test_trial_is_a_last_resort():
    p, solution = corpus_puzzle("226_14x24")
    without = logic.explain(p, max_technique=Technique.REGION_SUM)
    assert not without.solved
    explanation = logic.explain(p)
    trials = [s for s in explanation.steps if s.technique is Technique.TRIAL]
    assert trials and explanation.solved
    assert explanation.grade is Grade.EXTREME
    for step in trials:
        assert step.explanation.startswith("Trial (a last resort): if ")
        assert len(step.placements) + len(step.eliminations) == 1 or step.placements
    assert_sound(explanation.steps, [solution])


# ---------------------------------------------------------------- positions and hints


def test_entries_are_checked_then_placed():
    p = puzzle(SMALL)
    with pytest.raises(PuzzleError) as broken:
        logic.position(p, [[0, 0, 0], [0, 7, 0], [0, 0, 0]])  # 17 would need 10 below
    assert broken.value.findings[0].code == "entries_impossible"
    with pytest.raises(PuzzleError) as repeated:
        logic.position(p, [[0, 0, 0], [0, 8, 8], [0, 0, 0]])
    assert repeated.value.findings[0].code == "duplicate"
    pos = logic.position(p, [[0, 0, 0], [0, 9, 0], [0, 0, 0]])
    assert pos.candidates()[(1, 1)] == (9,)
    assert pos.candidates()[(1, 2)] == tuple(range(1, 10))


def test_wrong_entries_end_in_a_contradiction():
    p = puzzle(SMALL)
    entries = [[0, 0, 0], [0, 0, 0], [0, 0, 2]]  # rule-abiding, but not the solution
    explanation = logic.explain(p, entries)
    assert not explanation.solved and explanation.grade is None
    assert explanation.contradiction == "Down 17 at r0c1 would need 10 in its last cell"
    assert logic.next_step(p, entries, placements_only=True).placements  # a step first
    with pytest.raises(logic.Contradiction, match="leaves r1c1 no candidate"):
        logic.next_step(p, {(1, 1): {1, 2}, (1, 2): {1, 2}})  # 16 from 1 and 2


def test_placements_only_summarises_the_chain():
    p = puzzle(SMALL)
    step = logic.next_step(p, placements_only=True)
    assert step.placements == (((1, 1), 9),)
    assert step.technique is Technique.CROSSING
    assert "so r1c1 = 9." in step.explanation
    assert_sound([step, *step.chain], solutions_within(p))


def test_placements_only_from_a_mid_solve_position():
    p, solution = corpus_puzzle("375_12x12")
    steps = logic.explain(p).steps
    entries = [list(row) for row in p.empty_grid()]
    for s in steps[: len(steps) // 2]:
        for (r, c), d in s.placements:
            entries[r][c] = d
    step = logic.next_step(p, entries, placements_only=True)
    assert step.placements
    assert_sound([step, *step.chain], [solution])
    pos = logic.position(p, entries)
    pos.apply(step)  # the eliminations on the way and the placement, in one go
    assert all(solution[r][c] in digits for (r, c), digits in pos.candidates().items())
    assert logic.next_step(p, solution) is None  # nothing left to do on a full grid


def test_a_small_puzzle_is_easy():
    # (the grades of technique counts: tests/conformance/test_every_kind_logic.py)
    assert logic.explain(puzzle(SMALL)).grade is Grade.EASY


# ---------------------------------------------------------------- never a wrong step


def _runs_of_two(white: set) -> set:
    """Drop cells left without an across or a down run of two, until none is."""
    white = set(white)
    while True:
        lonely = {
            (r, c)
            for r, c in white
            if not ({(r, c - 1), (r, c + 1)} & white and {(r - 1, c), (r + 1, c)} & white)
        }
        if not lonely:
            return white
        white -= lonely


def _clued(rows: int, cols: int, digits: dict) -> Puzzle:
    """The puzzle whose white cells are ``digits`` and whose clues are their run sums."""

    def run_sum(r: int, c: int, dr: int, dc: int) -> int | None:
        total, r, c = 0, r + dr, c + dc
        while (r, c) in digits:
            total, r, c = total + digits[(r, c)], r + dr, c + dc
        return total or None

    return Puzzle(
        tuple(
            tuple(
                WHITE if (r, c) in digits else Clue(run_sum(r, c, 1, 0), run_sum(r, c, 0, 1))
                for c in range(cols)
            )
            for r in range(rows)
        )
    )


def _fill(cells: list, digits: dict, rng) -> dict | None:
    """Digits for ``cells`` (in order), distinct within every run, or None."""
    if not cells:
        return digits
    (r, c), rest = cells[0], cells[1:]
    used = set()
    for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        rr, cc = r + dr, c + dc
        while (rr, cc) in digits or (rr, cc) in cells:
            used.add(digits.get((rr, cc)))
            rr, cc = rr + dr, cc + dc
    for d in rng.sample(range(1, 10), 9):
        if d not in used and (done := _fill(rest, {**digits, (r, c): d}, rng)) is not None:
            return done
    return None


@st.composite
def small_puzzles(draw):
    """A random grid of white cells (every run 2+ cells) filled with distinct digits per
    run, the clues its sums. Half of them are made (mostly) unique: while there are two
    solutions, a cell where they differ turns black (the one that loses fewest cells,
    up to 8 times); the others keep their size and usually have several solutions."""
    rows, cols = draw(st.integers(4, 8)), draw(st.integers(4, 8))
    white = _runs_of_two(
        {(r, c) for r in range(1, rows) for c in range(1, cols) if draw(st.integers(0, 3))}
    )
    assume(len(white) >= 6)
    rng = draw(st.randoms(use_true_random=False))
    digits = _fill(sorted(white), {}, rng)
    assume(digits is not None)
    for _ in range(8 if draw(st.booleans()) else 0):
        p = _clued(rows, cols, digits)
        found = native.search(p, limit=2, budget=Budget.seconds(1)).solutions
        if len(found) < 2:
            break
        first, second = found
        differ = [cell for cell in digits if first[cell[0]][cell[1]] != second[cell[0]][cell[1]]]
        kept = max((_runs_of_two(set(digits) - {cell}) for cell in sorted(differ)), key=len)
        digits = {cell: digits[cell] for cell in kept}
    assume(digits)  # (a white cell always comes with three others)
    return _clued(rows, cols, digits)


@pytest.mark.slow
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(small_puzzles())
def test_random_puzzles_never_a_wrong_step(p):
    """Every step holds in every solution (all of them, up to 50)."""
    found = native.search(p, limit=50, budget=Budget.seconds(2))
    assume(found.complete and len(found.solutions) < 50)
    explanation = logic.explain(p)
    assert not explanation.contradiction
    assert_sound(explanation.steps, list(found.solutions))
    if len(found.solutions) == 1:
        assert not explanation.solved or explanation.final == found.solutions[0]
