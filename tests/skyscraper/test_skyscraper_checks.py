"""Skyscraper structure (every defect named with its clue or cell, all at once) and
board validation (lines, diagonals, clues, cells)."""

from __future__ import annotations

import pytest
from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import CellStatus
from numgrid.server.core import GroupState
from numgrid.server.core import GroupType
from numgrid.server.core import Severity
from numgrid.server.kinds.skyscraper import checks
from numgrid.server.kinds.skyscraper import formats
from support.skyscraper import corpus
from support.skyscraper import corpus_puzzle
from support.skyscraper import puzzle

SMALL = "1 3 2 2 3", "3 2 2 1 2", "1 3 3 2 3", "3 2 1 3 2"  # 02_5x5
SOLUTION = ((5, 3, 2, 4, 1), (1, 2, 5, 3, 4), (3, 4, 1, 2, 5), (4, 5, 3, 1, 2), (2, 1, 4, 5, 3))


def errors(p, entries=None) -> dict[str, list]:
    found: dict[str, list] = {}
    for f in checks.check_puzzle(p, entries):
        if f.is_error:
            found.setdefault(f.code, []).append(f)
    return found


def grid(*rows: str):
    return tuple(
        tuple(EMPTY if t == "x" else 0 if t == "." else int(t) for t in r.split()) for r in rows
    )


def test_sound_puzzles_have_no_errors_and_variants_are_warned():
    assert checks.check_puzzle(puzzle(*SMALL)) == []
    for key, variant in (("15_4x4", "empty lots"), ("08_4x4", "diagonal")):
        found = checks.check_puzzle(corpus_puzzle(key)[0])
        assert [(f.code, f.severity) for f in found] == [("variant", Severity.WARNING)]
        assert variant in found[0].message


def test_a_clue_larger_than_the_towers_is_named_at_its_cell():
    found = errors(puzzle("6 3 2 2 3", *SMALL[1:]))
    (clue,) = found["clue_too_large"]
    assert (
        clue.message == "clue 6 above column 0: no more than 5 towers can be seen (the grid is 5x5)"
    )
    assert clue.cells == ((-1, 0),)
    lots = errors(puzzle("- - 4 -", "- - - -", "- - - -", "- - - 4", height=3))
    assert [f.cells for f in lots["clue_too_large"]] == [((-1, 2),), ((3, 4),)]
    assert "a line has 3 towers" in lots["clue_too_large"][0].message


def test_clue_counts_and_negative_clues():
    p = puzzle("1 3 2 2", *SMALL[1:], size=5)
    assert (
        errors(p)["clue_count"][0].message
        == "4 clues above columns, expected 5 (0 or '-' for none)"
    )
    negative = puzzle(*SMALL)
    negative = type(negative)(
        5,
        5,
        False,
        negative.top,
        negative.bottom,
        (-1, 0, 0, 0, 0),
        negative.right,
        negative.givens,
    )
    (bad,) = errors(negative)["bad_clue"]
    assert bad.cells == ((0, -1),) and "negative" in bad.message


def test_opposite_clues_no_line_can_show():
    found = errors(puzzle("4 - - -", "2 - - -", "1 - - -", "1 - - -"))
    messages = [f.message for f in found["clues_clash"]]
    assert messages == [
        "clues 4 and 2 above and below column 0 add up to more than 5 (the tallest tower is "
        "seen from both sides)",
        "clues 1 and 1 left and right of row 0 are both 1, but only one tower can be first "
        "from both sides",
    ]
    assert found["clues_clash"][0].cells == ((-1, 0), (4, 0))


def test_givens_out_of_range_repeated_or_too_many_empty():
    found = errors(
        puzzle(size=4, height=3, givens=grid("4 . . .", "x x . .", ". . . .", "1 . . 1"))
    )
    assert found["bad_given"][0].message == "r0c0: given 4 is not a height 1-3 or empty (-1)"
    (dup,) = found["duplicate_given"]
    assert dup.message == "row 3: 1 is given 2 times (r3c0, r3c3)" and dup.group == "row 3"
    (lots,) = found["too_many_empty"]
    assert lots.cells == ((1, 0), (1, 1)) and "a row has 1" in lots.message
    plain = errors(puzzle(size=3, givens=grid("x . .", ". . .", ". . .")))
    assert plain["bad_given"][0].message == "r0c0: given -1 is not a height 1-3"


def test_duplicate_givens_on_a_diagonal():
    found = errors(
        puzzle(size=4, diagonals=True, givens=grid("2 . . .", ". . . .", ". . . .", ". . . 2"))
    )
    (dup,) = found["duplicate_given"]
    assert dup.group == "diagonal r0c0-r3c3" and dup.cells == ((0, 0), (3, 3))


def test_the_height_must_fit_the_grid():
    found = errors(puzzle(size=4, height=5))
    assert found["bad_height"][0].message == "the tallest height 5 is not 1 to 4 (the grid is 4x4)"


def test_entries_out_of_range_or_over_a_given():
    p = puzzle(size=3, givens=grid("1 . .", ". . .", ". . ."))
    found = errors(p, grid("2 . .", ". 4 .", ". . x"))
    assert found["given_changed"][0].message == "r0c0: entry 2 over the given 1"
    assert [f.cells for f in found["bad_digit"]] == [((1, 1),), ((2, 2),)]
    assert errors(p, grid("1 . .", ". . .", ". . .")) == {}  # the given itself is fine


def test_every_structural_problem_at_once():
    p = puzzle(
        "9 - - -", "- - - -", "1 - - -", "1 - - -", grid("7 . . .", ". . . .", ". . . .", ". . . .")
    )
    assert set(errors(p)) == {"clue_too_large", "clues_clash", "bad_given"}


# ---------------------------------------------------------------- boards


def report(p, entries):
    return checks.validate_board(Board(p, entries))


def test_a_solved_board_is_solved_and_correct_everywhere():
    rep = report(puzzle(*SMALL), SOLUTION)
    assert rep.solved and rep.ok
    assert {r.group.type for r in rep.groups} == {GroupType.ROW, GroupType.COLUMN, GroupType.VIEW}
    assert all(s is CellStatus.GROUP_CORRECT for s in rep.cells.values())
    view = next(r for r in rep.groups if r.group.type is GroupType.VIEW)
    assert view.group.name == "clue 1 above column 0" and view.group.clue_cell == (-1, 0)


def test_duplicates_and_wrong_entries():
    entries = (*SOLUTION[:4], (2, 1, 4, 3, 3))
    rep = checks.validate_board(Board(puzzle(*SMALL), entries), SOLUTION)
    dups = [f for f in rep.findings if f.code == "duplicate"]
    assert dups[0].message == "row 4: 3 appears 2 times (r4c3, r4c4)"
    assert rep.cells[4, 3] is CellStatus.DUPLICATE
    assert rep.wrong_entries == ((4, 3),) and not rep.solved


def test_a_complete_line_that_breaks_its_clue():
    p = puzzle("- - - -", "- - - -", "2 - - -", "- - - -")
    rep = report(p, grid("1 2 3 4", ". . . .", ". . . .", ". . . ."))
    (wrong,) = [f for f in rep.findings if f.code == "wrong_view"]
    assert wrong.message == "clue 2 left of row 0: the complete line shows 4 towers, not 2"
    assert wrong.group == "clue 2 left of row 0"
    state = next(r.state for r in rep.groups if r.group.type is GroupType.VIEW)
    assert state is GroupState.WRONG and rep.cells[0, 0] is CellStatus.GROUP_WRONG


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        (("1 2 3 .", ". . . .", ". . . .", ". . . ."), "already 3 towers are seen, more than 2"),
        (("4 . . .", ". . . .", ". . . .", ". . . ."), "the tallest tower (4) at r0c0 hides"),
    ],
)
def test_a_clue_already_broken_before_the_line_is_complete(entries, words):
    p = puzzle("- - - -", "- - - -", "2 - - -", "- - - -")
    rep = report(p, grid(*entries))
    (over,) = [f for f in rep.findings if f.code == "view_impossible"]
    assert words in over.message
    assert next(r.state for r in rep.groups if r.group.type is GroupType.VIEW) is GroupState.OVER


def test_empty_lots_on_a_board():
    p, solution = corpus_puzzle("15_4x4")
    assert report(p, solution).solved
    rep = report(p, grid("x 1 3 2", "2 3 x 1", "1 x 2 3", "3 2 1 x"))
    assert rep.solved
    too_many = grid("x x 3 .", ". . . .", ". . . .", ". . . .")
    (lots,) = [f for f in report(p, too_many).findings if f.code == "too_many_empty"]
    assert lots.message == "row 0: 2 empty cells (r0c0 and r0c1), but a row holds only 1"


def test_givens_count_on_the_board():
    p = formats.read(corpus()["06_4x4"]["problem"]).puzzle
    rep = report(p, p.empty_grid())
    assert rep.cells[3, 0] is CellStatus.GROUP_INCOMPLETE and rep.cells[0, 0] is CellStatus.BLANK
    assert {r.group.type for r in rep.groups} >= {GroupType.DIAGONAL}
