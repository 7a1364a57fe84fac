"""The logical Skyscraper solver: each technique's step and sentence, positions, trials,
and grades against Tatham's tiers (the chain over the whole corpus, every step checked
against the published solution, is in ``tests/conformance/``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server.chain import Contradiction
from numgrid.server.core import EMPTY
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.latin import latin_square
from numgrid.server.kinds.skyscraper import formats
from numgrid.server.kinds.skyscraper import logic
from numgrid.server.kinds.skyscraper import techniques
from numgrid.server.kinds.skyscraper.logic import Grade
from numgrid.server.kinds.skyscraper.logic import Technique
from numgrid.server.kinds.skyscraper.model import SIDES
from numgrid.server.kinds.skyscraper.model import Puzzle
from numgrid.server.kinds.skyscraper.model import visible
from numgrid.server.kinds.skyscraper.techniques import layout_of
from support.facts import assert_sound
from support.skyscraper import corpus_puzzle
from support.skyscraper import puzzle
from support.skyscraper import towers_ids


def first(key: str, technique: Technique, words: str = ""):
    """The first step of ``technique`` (whose sentence holds ``words``) in the chain of
    corpus puzzle ``key``, checked against its solution."""
    p, solution = corpus_puzzle(key)
    for step in logic.explain(p).steps:
        assert_sound([step], solution)
        if step.technique is technique and words in step.explanation:
            return step
    raise AssertionError(f"no {technique.name} step in {key}")


# ---------------------------------------------------------------- each technique


def test_edge_clue_of_one():
    step = first("02_5x5", Technique.EDGE_CLUE)
    assert step.explanation == (
        "Clue 1 above column 0 sees only the tallest tower (5), which stands first, so r0c0 = 5."
    )
    assert [g.name for g in step.groups] == ["clue 1 above column 0"]


def test_edge_clue_seen_nearly_all():
    step = first("02_5x5", Technique.EDGE_CLUE, "seen already")
    assert step.explanation == (
        "Clue 2 above column 3: 5 is seen already (r4c3), so the one other tower seen "
        "stands at r0c3, taller than r1c3, r2c3 and r3c3, so r0c3 = 4."
    )


def test_edge_clue_of_n_and_with_empty_lots():
    step = first("10_7x7", Technique.EDGE_CLUE, "every tower")
    assert step.placements == tuple(((1, c), c + 1) for c in range(7))
    step = first("15_4x4", Technique.EDGE_CLUE)
    assert step.explanation == (
        "Clue 1 above column 2 sees only the tallest tower (3): the first lot holds it or "
        "stays empty, so r0c2 loses 1 and 2."
    )


def test_clue_pair():
    step = first("03_6x6", Technique.CLUE_PAIR)
    assert step.explanation == (
        "Clues 3 and 4 at the ends of row 1 add up to 7: every tower is seen from one end, "
        "2 before the tallest, which stands 3rd from the left, so r1c2 = 6."
    )


def test_visibility_bounds_leave_hidden_towers_out():
    step = first("02_5x5", Technique.VISIBILITY_BOUNDS)
    assert step.explanation == (
        "Clue 3 left of row 1: 3 towers must be seen, so 5 cannot stand in the first two "
        "cells and 4 not in the first cell: r1c0 loses 4; r1c1 loses 5."
    )
    step = first("02_5x5", Technique.VISIBILITY_BOUNDS, "hidden")
    assert "(4 is hidden behind 5)" in step.explanation


def test_sequences_list_the_arrangements_or_say_what_none_puts():
    step = first("03_6x6", Technique.SEQUENCES, "can only be")
    assert step.explanation.startswith(
        "Column 3 (clues 2 above and 2 below), given its cells' candidates, can only be "
        "4 3 1 6 2 5 or 4 3 2 6 1 5 (top to bottom)"
    )
    step = first("02_5x5", Technique.SEQUENCES)
    assert step.explanation == (
        "No arrangement of column 2 (clues 2 above and 2 below) that fits its cells' "
        "candidates puts 4 in r2c2 or 3 in r4c2, so r4c2 = 4; r2c2 loses 4."
    )


def test_the_latin_techniques_with_empty_lots():
    step = first("16_6x6", Technique.HIDDEN_SINGLE, "empty")
    assert step.explanation == "In row 0, only r0c3 can be empty, so r0c3 = empty."
    step = first("23_5x5", Technique.NAKED_SUBSET, "empty")
    assert "can only hold 4 and its empty cell between them (a naked pair)" in step.explanation
    assert ((0, 0), EMPTY) in step.eliminations


def test_a_diagonal_is_a_line():
    p, solution = corpus_puzzle("08_4x4")
    explanation = logic.explain(p)
    assert explanation.solved and explanation.final == solution
    assert any(g.name.startswith("diagonal") for step in explanation.steps for g in step.groups)


def test_trial_is_a_last_resort_and_sound():
    step = first("04_7x7", Technique.TRIAL)
    assert step.explanation.startswith("Trial (a last resort): if r")
    assert "; so " in step.explanation


def test_the_two_level_trial_is_sound_where_it_applies():
    """No puzzle measured needed it (one level always found a contradiction); where a
    trial applies at all, its two-level form eliminates only what no solution has."""
    p, solution = corpus_puzzle("04_7x7")
    stalled = logic.explain(p, max_technique=Technique.SEQUENCES)
    assert not stalled.solved
    pos = logic.position(p, stalled.candidates)
    i, value, text, _, _ = logic._two_level(pos)
    r, c = pos.frame.cells[i]
    assert solution[r][c] != value and text


# ---------------------------------------------------------------- positions and the API


def test_entries_and_givens_are_placed():
    p, solution = corpus_puzzle("06_4x4")  # one given, r3c0 = 2
    pos = logic.position(p)
    assert pos.placed[12] == 2
    entered = ((solution[0][0], 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4)
    explanation = logic.explain(p, entered)
    assert explanation.solved and explanation.final == solution


def test_candidates_may_hold_empty_lots():
    p, solution = corpus_puzzle("15_4x4")
    pos = logic.position(p, {(0, 0): (EMPTY,), (0, 1): (1, 2)})
    assert pos.placed[0] == EMPTY and pos.candidates()[0, 1] == (1, 2)
    assert logic.explain(p, pos).final == solution
    with pytest.raises(PuzzleError, match="candidates must be 1-3 or -1"):
        logic.position(p, {(0, 0): (4,)})
    with pytest.raises(PuzzleError, match="r0c1 has no candidate left"):
        logic.position(p, {(0, 0): (EMPTY,), (0, 1): (EMPTY,)})


def test_entries_that_break_a_rule_are_refused():
    p, _ = corpus_puzzle("02_5x5")
    with pytest.raises(PuzzleError) as caught:
        logic.explain(p, ((4, 5, 0, 0, 0), *((0,) * 5,) * 4))
    assert caught.value.findings[0].code == "view_impossible"


def test_entries_with_no_completion_end_in_a_contradiction():
    p, _ = corpus_puzzle("02_5x5")
    explanation = logic.explain(p, ((5, 1, 0, 0, 0), *((0,) * 5,) * 4))
    assert not explanation.solved and explanation.grade is None
    assert explanation.contradiction


def test_a_hint_that_places_summarises_its_chain():
    p, solution = corpus_puzzle("15_4x4")
    step = logic.next_step(p, None, Technique.SEQUENCES, True)
    ((r, c), value), *_ = step.placements
    assert solution[r][c] == value
    assert_sound([step, *step.chain], solution)


def test_last_resort_offers_a_trial():
    p, solution = corpus_puzzle("04_7x7")
    stalled = logic.explain(p, max_technique=Technique.SEQUENCES)
    step = logic.last_resort(p, stalled.candidates)
    assert step.technique is Technique.TRIAL
    assert_sound([step], solution)


def test_the_budget_stops_the_chain():
    p, _ = corpus_puzzle("04_7x7")
    with pytest.raises(SearchTimeout):
        logic.explain(p, budget=Budget.seconds(0))


def test_a_puzzle_with_several_solutions_stalls_without_a_wrong_step():
    explanation = logic.explain(puzzle(size=3))
    assert not explanation.solved and explanation.grade is None


# ---------------------------------------------------------------- grades


@pytest.mark.parametrize(("params", "game_id"), towers_ids())
def test_grades_grow_with_tathams_tiers(params, game_id):
    """Easy -> EASY; Hard -> MEDIUM to EXPERT (sizes from 5; a 4x4 Hard can be easy);
    Extreme and Unreasonable -> mostly EXTREME (Towers needs forcing chains there, which
    only a trial stands for here; 1 in 40 generated Extreme was HARD)."""
    explanation = logic.explain(formats.read(game_id, "tatham").puzzle)
    assert explanation.solved
    tier, size = params[-1], int(params[0])
    allowed = {
        "e": {Grade.EASY},
        "h": {Grade.MEDIUM, Grade.HARD, Grade.EXPERT} | ({Grade.EASY} if size < 5 else set()),
        "x": {Grade.HARD, Grade.EXPERT, Grade.EXTREME},
        "u": {Grade.EXPERT, Grade.EXTREME},
    }[tier]
    assert explanation.grade in allowed


# ---------------------------------------------------------------- the whole corpus


def test_a_grid_without_clues_stalls_after_a_few_hundred_propagations(monkeypatch):
    """A 9x9 without clues has many solutions: no assumption is refuted at one level or
    two. Each one a solution holds is skipped, so the two-level trial gives up after a
    few hundred propagations (every value of every cell against every other's took
    61,000, 30 s)."""
    calls = []
    real = logic._closure

    def counted(*args):
        calls.append(args[2:])
        return real(*args)

    monkeypatch.setattr(logic, "_closure", counted)
    empty = "9 9 9\n" + "\n".join(" ".join("-" * 9) for _ in range(4 + 9)) + "\n"
    found = logic.explain(formats.read(empty).puzzle, None, max(Technique), budget=None)
    assert not found.solved and not found.steps
    assert len(calls) < 2_000


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_what_a_view_or_clue_pair_does_not_find_stays_unfound_as_candidates_go(rng):
    """The position keeps an edge clue's, a visibility bound's and a clue pair's finding
    of nothing until a value is placed in its view or line (``KEPT_UNTIL_PLACED``): from
    any candidates, losing some (nothing placed) never lets one of them find a step or
    a contradiction it did not."""
    n = rng.randrange(3, 7)
    height = n if rng.random() < 0.7 else n - 1
    grid = [[v if v <= height else EMPTY for v in row] for row in latin_square(n, rng)]
    clues = {
        side.value: tuple(
            visible(grid[r][c] for r, c in side.cells(i, n)) if rng.random() < 0.6 else 0
            for i in range(n)
        )
        for side in SIDES
    }
    layout = layout_of(Puzzle(n, height, rng.random() < 0.2, givens=((0,) * n,) * n, **clues))
    frame = layout.frame
    placed = [v if rng.random() < 0.3 else 0 for row in grid for v in row]
    masks = [
        frame.bit(v) if placed[i] else rng.randrange(frame.full + 1) | frame.bit(v)
        for i, v in enumerate(v for row in grid for v in row)
    ]
    fewer = [
        m if placed[i] or rng.random() < 0.5 else (m & rng.randrange(frame.full + 1)) or m
        for i, m in enumerate(masks)
    ]
    scopes = [(techniques.edge_clue, len(layout.views))]
    scopes += [(techniques.visibility_bounds, len(layout.views))]
    scopes += [(techniques.clue_pair, len(frame.lines))]
    for technique, keys in scopes:
        for key in range(keys):
            try:
                before = technique(techniques.Position(layout, masks, placed), key)
            except Contradiction:
                continue
            if before is None:
                assert technique(techniques.Position(layout, fewer, placed), key) is None
