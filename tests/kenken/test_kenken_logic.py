"""KenKen's logical solver: each technique on a small hand-made position with its sentence,
trial as a last resort, hints with ``placements_only``, entries checked first, budgets,
grades, and the rule that no step is ever wrong (the whole corpus in
``tests/conformance/`` and ``benchmarks/explain.py --kind kenken``)."""

from __future__ import annotations

import time

import pytest
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.kenken import formats
from numgrid.server.kinds.kenken import logic
from numgrid.server.kinds.kenken import techniques
from numgrid.server.kinds.kenken.logic import Grade
from numgrid.server.kinds.kenken.logic import Technique
from numgrid.server.kinds.kenken.model import Cage
from numgrid.server.kinds.kenken.model import Puzzle
from support.facts import assert_sound
from support.kenken import corpus


def assert_step(step, technique: Technique, explanation: str) -> None:
    """``step`` is one of ``technique`` and says ``explanation``."""
    assert step.technique is technique
    assert step.explanation == explanation


def corpus_puzzle(name: str):
    item = corpus()[name]
    return formats.read_janko(item["problem"]).puzzle, formats.read_solution(item["solution"])


def filled(n: int, *cages: Cage) -> Puzzle:
    """A size-n puzzle of the given cages, every other cell a one-cell cage holding 1:
    enough for a technique looked at directly (solvable or not)."""
    used = {cell for cage in cages for cell in cage.cells}
    rest = [Cage(1, "", ((r, c),)) for r in range(n) for c in range(n) if (r, c) not in used]
    return Puzzle(n, tuple(sorted((*cages, *rest), key=lambda cage: cage.cells[0])))


def cage_index(p: Puzzle, cell) -> int:
    return next(k for k, cage in enumerate(p.cages) if cage.cells[0] == cell)


# ---------------------------------------------------------------- one test per technique


def test_techniques_are_ranked_simplest_first():
    assert [t.name for t in Technique] == [
        "SINGLE_CELL_CAGE",
        "COMBINATIONS",
        "NAKED_SINGLE",
        "HIDDEN_SINGLE",
        "CAGE_LINE",
        "NAKED_SUBSET",
        "HIDDEN_SUBSET",
        "LINE_TOTALS",
        "TRIAL",
    ]
    assert list(Technique) == sorted(Technique)
    assert [g.value for g in Grade] == [1, 2, 3, 4, 5]


def test_single_cell_cage_is_the_first_step():
    p, _ = corpus_puzzle("02_4x4")
    step = logic.next_step(p)
    assert step.technique is Technique.SINGLE_CELL_CAGE
    assert step.placements == (((0, 0), 3),)
    assert step.explanation == "Cage 3 at r0c0 is a single cell, so r0c0 = 3."
    assert [g.name for g in step.groups] == ["cage 3 at r0c0"]


def test_combinations():
    p = filled(6, Cage(12, "x", ((0, 0), (0, 1), (1, 0))))
    step = techniques.combinations(logic.position(p), cage_index(p, (0, 0)))
    assert_step(
        step,
        Technique.COMBINATIONS,
        "Cage 12x at r0c0 in three cells can only be 1·2·6, 1·3·4 or 2·2·3, "
        "so r0c0, r0c1 and r1c0 lose 5.",
    )
    assert set(step.eliminations) == {((0, 0), 5), ((0, 1), 5), ((1, 0), 5)}


def test_combinations_keep_what_the_arrangement_allows():
    # 3- on 4x4 in a row: 4-1 only once r0c0 has lost 1 and 4 is gone from r0c1.
    p = filled(4, Cage(3, "-", ((0, 0), (0, 1))))
    pos = logic.position(p, {(0, 0): (2, 3, 4), (0, 1): (1, 2, 3)})
    step = techniques.combinations(pos, cage_index(p, (0, 0)))
    assert step.placements == (((0, 0), 4), ((0, 1), 1))
    assert step.explanation == (
        "Cage 3- at r0c0 in two cells, given its cells' candidates, can only be 4-1, "
        "so r0c0 = 4; r0c1 = 1."
    )
    # 16x in an L on 4x4 (02_4x4 with r0c0 = 3): the two equal digits cannot share a line
    p, _ = corpus_puzzle("02_4x4")
    pos = logic.position(p, ((3, 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4))
    step = techniques.combinations(pos, cage_index(p, (0, 1)))
    assert step.explanation == (
        "Cage 16x at r0c1 in three cells, given its cells' candidates, can only be 1·4·4 or "
        "2·2·4, and no layout puts 1 in r0c1, 2 in r0c2 or 1 in r1c2, so r0c1 loses 1; "
        "r0c2 loses 2; r1c2 loses 1 and 3."
    )


def test_naked_single_names_what_the_row_and_column_hold():
    p = filled(4)
    pos = logic.position(p, {(0, 0): (1,), (0, 1): (2,), (0, 2): (3,), (1, 3): (1, 4)})
    assert pos.masks[3] == 0b1000 and not pos.placed[3]  # left with 4 by the line rule
    step = techniques.naked_single(pos, 3)
    assert step.technique is Technique.NAKED_SINGLE
    assert step.placements == (((0, 3), 4),)
    assert step.explanation == "Row 0 holds 1, 2 and 3, so r0c3 = 4."
    pos = logic.position(p, {(0, 0): (1,), (0, 3): (2, 3), (2, 3): (3,)})
    step = techniques.naked_single(pos, 3)
    assert step.explanation == (
        "Row 0 holds 1 and column 3 holds 3, and r0c3 had already lost 4, so r0c3 = 2."
    )
    assert [g.name for g in step.groups] == ["row 0", "column 3"]


def test_hidden_single():
    p = filled(4)
    pos = logic.position(p, {(0, 0): (1, 2), (0, 1): (1, 2, 3), (0, 2): (3, 4), (0, 3): (1, 3)})
    step = techniques.hidden_single(pos, 0)
    assert step.technique is Technique.HIDDEN_SINGLE
    assert step.placements == (((0, 2), 4),)
    assert step.explanation == "In row 0, only r0c2 can take 4, so r0c2 = 4."


def test_cage_line():
    p = filled(4, Cage(3, "+", ((0, 0), (0, 1))), Cage(7, "+", ((0, 2), (1, 2))))
    step = techniques.cage_line(logic.position(p), cage_index(p, (0, 0)))
    assert_step(
        step,
        Technique.CAGE_LINE,
        "Every layout left of cage 3+ at r0c0 (1+2) puts 1 and 2 in row 0 inside the cage, "
        "so r0c2 and r0c3 lose 1 and 2.",
    )


def test_naked_pair():
    p = filled(4)
    pos = logic.position(
        p, {(0, 0): (1, 2), (0, 1): (1, 2), (0, 2): (1, 2, 3, 4), (0, 3): (1, 3, 4)}
    )
    step = techniques.naked_subset(pos, 0)
    assert_step(
        step,
        Technique.NAKED_SUBSET,
        "In row 0, r0c0 and r0c1 can only hold 1 and 2 between them (a naked pair), "
        "so r0c2 loses 1 and 2; r0c3 loses 1.",
    )


def test_hidden_pair():
    p = filled(5)
    candidates = {
        (0, 0): (1, 4, 5),
        (0, 1): (2, 4, 5),
        (0, 2): (1, 2, 3),
        (0, 3): (1, 2, 3),
        (0, 4): (1, 2, 3),
    }
    step = techniques.hidden_subset(logic.position(p, candidates), 0)
    assert_step(
        step,
        Technique.HIDDEN_SUBSET,
        "In row 0, 4 and 5 can only go in r0c0 and r0c1 (a hidden pair), "
        "so r0c0 loses 1; r0c1 loses 2.",
    )


def test_line_totals_sum_and_product():
    p = filled(
        4,
        Cage(3, "+", ((0, 0), (0, 1))),
        Cage(7, "+", ((0, 2), (1, 2))),
        Cage(5, "+", ((0, 3), (1, 3))),
    )
    step = techniques.line_totals(logic.position(p), 0)
    assert_step(
        step,
        Technique.LINE_TOTALS,
        "Row 0 adds up to 10; cage 3+ at r0c0 gives 3, so r0c2 + r0c3 = 7: "
        "r0c2 and r0c3 lose 1 and 2.",
    )
    p = filled(
        6,
        Cage(12, "x", ((0, 0), (1, 0), (2, 0))),
        Cage(2, "/", ((3, 0), (3, 1))),
        Cage(11, "+", ((4, 0), (4, 1))),
        Cage(7, "+", ((5, 0), (5, 1))),
    )
    pos = logic.position(p, {(3, 0): (1, 2, 3, 6), (4, 0): (1, 5, 6), (5, 0): (1, 5, 6)})
    step = techniques.line_totals(pos, 6)  # column 0
    assert step.explanation == (
        "Column 0 multiplies to 720; cage 12x at r0c0 gives 12, so r3c0 × r4c0 × r5c0 = 60: "  # noqa: RUF001
        "r3c0 = 2; r4c0 and r5c0 lose 1."
    )
    assert step.placements == (((3, 0), 2),)


def test_a_line_total_that_leaves_one_cell_places_it():
    p = filled(4, Cage(7, "+", ((0, 0), (0, 1), (0, 2))), Cage(5, "+", ((0, 3), (1, 3))))
    step = techniques.line_totals(logic.position(p), 0)
    assert step.placements == (((0, 3), 3),)
    assert step.explanation == (
        "Row 0 adds up to 10; cage 7+ at r0c0 gives 7, leaving 3 for r0c3, so r0c3 = 3."
    )


def test_every_technique_step_is_sound_on_a_corpus_chain():
    p, solution = corpus_puzzle("14_6x6")
    explanation = logic.explain(p)
    assert explanation.solved
    assert_sound(explanation.steps, solution)
    used = {t for t, n in explanation.technique_counts.items() if n}
    assert {Technique.CAGE_LINE, Technique.LINE_TOTALS, Technique.TRIAL} <= used
    for step in explanation.steps:
        assert step.explanation.endswith(".") and step.explanation[0].isupper()
        assert step.groups, step.explanation


# ---------------------------------------------------------------- trial, hints, positions


def test_trial_is_a_last_resort():
    p, solution = corpus_puzzle("14_6x6")
    stalled = logic.explain(p, max_technique=Technique.LINE_TOTALS)
    assert not stalled.solved and stalled.grade is None and not stalled.contradiction
    assert logic.next_step(p, stalled.candidates, Technique.LINE_TOTALS) is None
    step = logic.last_resort(p, stalled.candidates)
    assert step.technique is Technique.TRIAL
    assert step.explanation.startswith("Trial (a last resort): if r")
    assert_sound([step], solution)
    whole = logic.explain(p)
    assert whole.solved and whole.grade is Grade.EXTREME


def test_hidden_operations_are_listed():
    """A cage whose operation is not shown: the combinations name the operation that
    gives the target, and the sentence says when only one operation is left."""
    p = filled(4, Cage(12, "", ((0, 0), (0, 1))))
    step = techniques.combinations(logic.position(p), cage_index(p, (0, 0)))
    assert step.explanation == (
        "Cage 12 at r0c0 in two cells (operation not shown) can only be 3·4 (so it "
        "multiplies), so r0c0 and r0c1 lose 1 and 2."
    )
    p = filled(6, Cage(6, "", ((0, 0), (0, 1), (0, 2))))
    step = techniques.combinations(logic.position(p), cage_index(p, (0, 0)))
    assert step.explanation == (
        "Cage 6 at r0c0 in three cells (operation not shown) can only be 1+2+3 = 1·2·3, "
        "so r0c0, r0c1 and r0c2 lose 4, 5 and 6."
    )
    p, solution = corpus_puzzle("50_8x8")
    step = logic.next_step(p)
    assert step.explanation == (
        "Cage 224 at r4c4 in three cells (operation not shown) can only be 4·7·8 (so it "
        "multiplies), so r4c4, r4c5 and r5c5 lose 1, 2, 3, 5 and 6."
    )
    first = logic.explain(p, max_technique=Technique.COMBINATIONS).steps
    said = [s.explanation for s in first]
    assert any("can only be 3·5 or 7+8" in text for text in said)
    assert_sound(first, solution)


def test_fast_propagation_reads_cage_layouts_as_bits():
    p, _ = corpus_puzzle("50_8x8")
    layout = techniques.layout_of(p)
    for k in range(len(layout.cages)):
        index = techniques.cage_index(layout, k)
        for t, lay in enumerate(layout.cage_bits[k]):
            assert all(index[j][b.bit_length() - 1] >> t & 1 for j, b in enumerate(lay))
        assert sum(x.bit_count() for x in index[0]) == len(layout.cage_bits[k])
    pos = logic.position(p)
    assert logic._propagate(pos, 36, 1) > 0  # r4c4 = 1: cage 224 has no layout left
    assert logic._propagate(pos, 36, 7) == 0


def test_two_level_trial():
    """50_8x8 hides every operation; after one-level trials it needs two levels."""
    p, solution = corpus_puzzle("50_8x8")
    pos = logic.position(p)
    while (step := logic.first_step(pos)) is not None:
        assert_sound([step], solution)
        pos.apply(step)
        if step.technique is Technique.TRIAL and "could be neither" in step.explanation:
            break
    assert step is not None
    assert step.explanation.startswith("Trial (a last resort): if r")
    assert " could be neither " in step.explanation and " nor " in step.explanation
    assert len(step.eliminations) + len(step.placements) == 1
    # refuted assumptions kept for later trials are still refuted (candidates only shrink)
    for i, d, _ in pos.refuted2:
        assert solution[i // 8][i % 8] != d


def test_trials_keep_their_refutations():
    p, solution = corpus_puzzle("39_8x8")
    stalled = logic.explain(p, max_technique=Technique.LINE_TOTALS)
    pos = logic.position(p, stalled.candidates)
    step = logic.find(pos, Technique.TRIAL)
    assert step is not None and pos.refuted
    assert all(solution[i // 8][i % 8] != d for _, i, d in pos.refuted)
    assert_sound([step], solution)


def test_a_trial_skips_the_digits_of_a_solution_it_knows():
    # no sound propagation refutes what a solution holds: the screens skip those digits
    # and find what they found before; candidates that exclude every solution (a
    # player's wrong eliminations) give no witness, and nothing is skipped
    p, solution = corpus_puzzle("39_8x8")
    stalled = logic.explain(p, max_technique=Technique.LINE_TOTALS)
    pos = logic.position(p, stalled.candidates)
    witness = logic._witness(pos)
    assert witness == [1 << (solution[i // 8][i % 8] - 1) for i in range(64)]
    assert pos.copy().witness is witness
    wrong = dict(stalled.candidates)
    cell = next(c for c, digits in wrong.items() if len(digits) > 1)
    wrong[cell] = tuple(d for d in wrong[cell] if d != solution[cell[0]][cell[1]])
    assert logic._witness(logic.position(p, wrong)) == [0] * 64


def test_placements_only_summarises_the_chain():
    p, solution = corpus_puzzle("02_4x4")
    entries = ((3, 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4)
    step = logic.next_step(p, entries, placements_only=True)
    assert step.technique is Technique.HIDDEN_SINGLE
    assert step.placements == (((1, 1), 3),)
    assert [s.technique for s in step.chain] == [Technique.COMBINATIONS] * 4
    assert step.explanation == (
        "Cage 16x at r0c1 in three cells, given its cells' candidates, can only be 1·4·4 or "
        "2·2·4, and no layout puts 1 in r0c1, 2 in r0c2 or 1 in r1c2, so r0c1 loses 1; "
        "r0c2 loses 2; r1c2 loses 1 and 3. Cage 2/ at r0c3 in two cells, given its cells' "
        "candidates, can only be 2/1 or 4/2, so r1c3 loses 3. In row 1, only r1c1 can take 3, "
        "so r1c1 = 3."
    )
    assert set(step.eliminations) == {e for s in step.chain for e in s.eliminations}
    assert_sound([step, *step.chain], solution)


def test_placements_only_from_every_point_of_a_chain():
    p, solution = corpus_puzzle("20_8x8")
    steps = logic.explain(p).steps
    entries = [list(row) for row in p.empty_grid()]
    placed = 0
    for step in steps:
        for (r, c), d in step.placements:
            entries[r][c] = d
            placed += 1
        if placed % 12 == 0 and placed < 60:
            hint = logic.next_step(p, entries, Technique.LINE_TOTALS, placements_only=True)
            if hint is not None:
                assert hint.placements
                assert_sound([hint, *hint.chain], solution)


def test_entries_are_checked_then_placed():
    p, _ = corpus_puzzle("02_4x4")
    with pytest.raises(PuzzleError) as caught:
        logic.position(p, ((3, 3, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 5)))
    assert [(f.code, f.cells) for f in caught.value.findings] == [("bad_digit", ((3, 3),))]
    with pytest.raises(PuzzleError) as caught:  # the digits first, then the board's rules
        logic.position(p, ((3, 3, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)))
    duplicate = next(f for f in caught.value.findings if f.code == "duplicate")
    assert duplicate.group == "row 0" and duplicate.cells == ((0, 0), (0, 1))
    with pytest.raises(PuzzleError) as caught:  # cage 5+ at r2c2 complete at 1+2
        logic.position(p, ((0,) * 4, (0,) * 4, (0, 0, 1, 0), (0, 0, 2, 0)))
    (finding,) = caught.value.findings
    assert finding.code == "wrong_cage" and finding.group == "cage 5+ at r2c2"
    assert finding.message == "cage 5+ at r2c2: complete but gives 3, not 5"
    with pytest.raises(PuzzleError) as caught:  # 12x at r2c3 cannot hold 1
        logic.position(p, ((0,) * 4, (0,) * 4, (0, 0, 0, 1), (0,) * 4))
    assert [f.code for f in caught.value.findings] == ["cage_impossible"]
    pos = logic.position(p, ((3, 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4))
    assert pos.placed[0] == 3
    assert all(3 not in pos.candidates()[cell] for cell in ((0, 1), (1, 0), (3, 0)))


def test_wrong_entries_end_in_a_contradiction():
    p, _ = corpus_puzzle("02_4x4")
    # r0c0 is the one-cell cage 3: a 4 there breaks no rule yet no filling completes it
    explanation = logic.explain(p, ((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 4, 0, 0)))
    assert not explanation.solved and explanation.grade is None
    assert explanation.contradiction


def test_candidates_are_a_position():
    p, solution = corpus_puzzle("02_4x4")
    given = {(r, c): range(1, 5) for r in range(4) for c in range(4)}
    given[(0, 0)] = (3,)
    pos = logic.position(p, given)
    assert pos.placed[0] == 3
    with pytest.raises(PuzzleError):
        logic.position(p, {(0, 0): (7,)})
    with pytest.raises(PuzzleError):
        logic.position(p, {(0, 0): (1,), (0, 1): (1,)})
    explanation = logic.explain(p, pos)
    assert explanation.solved and explanation.final == solution


# ---------------------------------------------------------------- budgets


def test_budgets_are_polled():
    p, _ = corpus_puzzle("14_6x6")
    spent = Budget(deadline=time.monotonic() - 1)
    with pytest.raises(SearchTimeout):
        logic.explain(p, budget=spent)
    with pytest.raises(SearchTimeout):
        logic.next_step(p, budget=spent)
    stalled = logic.explain(p, max_technique=Technique.LINE_TOTALS)
    with pytest.raises(SearchTimeout):
        logic.last_resort(p, stalled.candidates, budget=spent)
    cancelled = Budget.seconds(60)
    cancelled.cancel()
    with pytest.raises(SearchTimeout):
        logic.explain(p, budget=cancelled)
    assert logic.explain(p, budget=Budget.seconds(60)).solved


# ---------------------------------------------------------------- grades


def test_an_explanation_is_graded_as_its_counts():
    # (the grades of technique counts: tests/conformance/test_every_kind_logic.py)
    p, _ = corpus_puzzle("02_4x4")
    explanation = logic.explain(p)
    assert explanation.grade is Grade.EASY is logic.grade(explanation)
    assert set(explanation.technique_counts) == set(Technique)


# ---------------------------------------------------------------- never a wrong step


def test_a_compiled_puzzle_is_kept_between_calls_unless_huge():
    small, _ = corpus_puzzle("28_6x6")
    huge, _ = corpus_puzzle("419_9x9")  # a 7-cell 34+: 84,216 cage layouts in all
    assert techniques.layout_of(small) is techniques.layout_of(small)
    assert techniques.layout_of(huge) is not techniques.layout_of(huge)
    assert len(techniques.layout_of(huge).cage_bits[0]) > 0
