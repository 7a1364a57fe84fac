"""Board validation: what a Kakuro app shows after every move, per run and per cell."""

from __future__ import annotations

import pytest
from numgrid.server.core import CellStatus
from numgrid.server.core import GroupState as RunState
from numgrid.server.kinds.kakuro.checks import validate_board
from support.kakuro import KAKURO
from support.kakuro import VALID_3X3
from support.kakuro import board
from support.kakuro import codes
from support.kakuro import puzzle
from support.kakuro import sample
from support.kakuro import solution_grid
from support.kakuro import with_entries

S = CellStatus

# The seed 000 sample, nearly solved: every run right except the down 16 in the lower
# right, which adds up to 16 with two 7s (7, 2, 7 in column 9, rows 9-11).
NEARLY = "Game03-nearly-solved.csv"
DOWN_16 = ((9, 9), (10, 9), (11, 9))


def run_report(report, name: str):
    (found,) = [rep for rep in report.groups if rep.group.name == name]
    return found


# ---------------------------------------------------------------- the seed 000 board


def test_seed_board_has_only_the_duplicate_7s_in_the_down_16():
    report = validate_board(board(sample(NEARLY)))
    assert codes(report.findings) == [("duplicate", ((9, 9), (11, 9)))]
    finding = report.findings[0]
    assert finding.group == "down 16 at r8c9"
    assert finding.message == "down 16 at r8c9: 7 appears 2 times (r9c9, r11c9)"
    down_16 = run_report(report, "down 16 at r8c9")
    assert down_16.group.cells == DOWN_16
    assert down_16.state is RunState.DUPLICATE
    assert down_16.total == 16  # it does add up, as the seed says
    assert down_16.duplicates == ((9, 9), (11, 9))
    assert not report.solved
    assert not report.ok


def test_seed_board_cell_statuses():
    b = board(sample(NEARLY))
    report = validate_board(b)
    assert report.cells[9, 9] is S.DUPLICATE
    assert report.cells[11, 9] is S.DUPLICATE
    assert report.cells[10, 9] is S.GROUP_WRONG  # not a duplicate, but in a broken run
    others = {cell: st for cell, st in report.cells.items() if cell not in DOWN_16}
    assert set(others.values()) == {S.GROUP_CORRECT}
    assert set(report.cells) == set(b.puzzle.white_cells)
    broken = [rep for rep in report.groups if rep.state is not RunState.CORRECT]
    assert [rep.group.name for rep in broken] == ["down 16 at r8c9"]


def test_seed_board_wrong_entries_against_the_solution():
    report = validate_board(board(sample(NEARLY)), solution_grid("Game03-fixed.solution.txt"))
    # 7, 7 in the down 16, and the two cells that keep the across runs right around them
    assert report.wrong_entries == ((9, 8), (9, 9), (11, 8), (11, 9))


def test_seed_board_corrected_is_solved():
    solution = solution_grid("Game03-fixed.solution.txt")
    b = with_entries(board(sample("Game03-fixed.csv")).puzzle, {}, base=solution)
    report = validate_board(b, solution)
    assert report.solved and report.ok
    assert report.findings == () and report.wrong_entries == ()
    assert set(report.cells.values()) == {S.GROUP_CORRECT}
    assert {rep.state for rep in report.groups} == {RunState.CORRECT}


# ---------------------------------------------------------------- single rules


def test_empty_board_is_all_blank_and_not_solved():
    report = validate_board(board(VALID_3X3))
    assert set(report.cells.values()) == {S.BLANK}
    assert len(report.cells) == 4
    assert report.findings == ()
    assert {(rep.state, rep.total) for rep in report.groups} == {(RunState.INCOMPLETE, 0)}
    assert not report.solved
    assert report.ok  # nothing broken yet


def test_duplicate_names_its_cells():
    b = with_entries(puzzle("3 4\n- 16, 6, 17,\n,19 0 0 0\n,10 0 0 0\n"), {(1, 1): 8, (1, 3): 8})
    report = validate_board(b)
    assert codes(report.findings) == [("duplicate", ((1, 1), (1, 3)))]
    assert run_report(report, "across 19 at r1c0").state is RunState.DUPLICATE
    assert report.cells[1, 1] is S.DUPLICATE and report.cells[1, 3] is S.DUPLICATE
    assert report.cells[1, 2] is S.BLANK


def test_partial_sum_over_the_clue():
    b = with_entries(puzzle(sample("seed004-figure3.txt")), {(4, 2): 8, (4, 3): 9, (4, 4): 2})
    report = validate_board(b)  # across 18: 8 + 9 + 2 = 19 with two cells still empty
    across = run_report(report, "across 18 at r4c0")
    assert across.state is RunState.OVER and across.total == 19
    assert codes(report.findings) == [("over_sum", ((4, 2), (4, 3), (4, 4)))]
    assert "already add up to 19" in report.findings[0].message
    assert {report.cells[4, c] for c in (2, 3, 4)} == {S.GROUP_WRONG}
    assert report.cells[4, 1] is S.BLANK


def test_partial_sum_reaching_the_clue_with_cells_left_is_over():
    b = with_entries(puzzle(VALID_3X3), {(1, 1): 3})  # across 3 over two cells: 3 + ? > 3
    report = validate_board(b)
    assert run_report(report, "across 3 at r1c0").state is RunState.OVER
    assert run_report(report, "down 4 at r0c1").state is RunState.INCOMPLETE


def test_partial_sum_under_the_clue_is_incomplete():
    b = with_entries(puzzle(VALID_3X3), {(1, 1): 1})
    report = validate_board(b)
    assert report.findings == ()
    assert report.cells[1, 1] is S.GROUP_INCOMPLETE


def test_complete_wrong_sum():
    b = with_entries(puzzle(VALID_3X3), {(1, 1): 1, (1, 2): 3})
    report = validate_board(b)
    across = run_report(report, "across 3 at r1c0")
    assert across.state is RunState.WRONG and across.total == 4
    assert codes(report.findings) == [("wrong_sum", ((1, 1), (1, 2)))]
    assert report.findings[0].message == "across 3 at r1c0: complete but adds up to 4, not 3"
    assert report.cells[1, 1] is S.GROUP_WRONG and report.cells[1, 2] is S.GROUP_WRONG


def test_complete_right_run_in_unfinished_crossing_runs():
    b = with_entries(puzzle(VALID_3X3), {(1, 1): 1, (1, 2): 2})
    report = validate_board(b)
    assert run_report(report, "across 3 at r1c0").state is RunState.CORRECT
    assert report.findings == ()
    # both cells' down runs are still open, so the cells are not "correct" yet
    assert report.cells[1, 1] is S.GROUP_INCOMPLETE and report.cells[1, 2] is S.GROUP_INCOMPLETE
    assert not report.solved


def test_complete_right_board_is_solved():
    b = with_entries(puzzle(VALID_3X3), {(1, 1): 1, (1, 2): 2, (2, 1): 3, (2, 2): 4})
    report = validate_board(b)
    assert report.solved and report.ok
    assert set(report.cells.values()) == {S.GROUP_CORRECT}
    assert [(rep.group.name, rep.total) for rep in report.groups] == [
        ("across 3 at r1c0", 3),
        ("across 7 at r2c0", 7),
        ("down 4 at r0c1", 4),
        ("down 6 at r0c2", 6),
    ]


def test_every_cell_status_on_one_board():
    p = puzzle(sample("seed004-figure3.txt"))
    entries = {
        # rows 1 and 2 as in the figure: across 17, 11, 15, down 12, 13 complete and right
        **{(1, c): d for c, d in zip((1, 2, 4, 5), (9, 8, 2, 9), strict=True)},
        **{(2, c): d for c, d in zip(range(1, 6), (3, 2, 5, 1, 4), strict=True)},
        (4, 1): 1,  # across 18: 1, 1 is a duplicate ...
        (4, 2): 1,
        (4, 3): 8,  # ... so this entry sits in a wrong run
        (5, 4): 6,  # across 14: 6 + 9 = 15
        (5, 5): 9,
    }
    report = validate_board(with_entries(p, entries), solution_grid("seed004-figure3.solution.txt"))
    expected = {
        (1, 1): S.GROUP_CORRECT,  # across 17 and down 12 both complete and right
        (1, 5): S.GROUP_CORRECT,  # across 11 and down 13
        (2, 1): S.GROUP_CORRECT,
        (2, 5): S.GROUP_CORRECT,
        (1, 2): S.GROUP_INCOMPLETE,  # down 21 still open
        (1, 4): S.GROUP_INCOMPLETE,  # down 16 still open
        (2, 2): S.GROUP_INCOMPLETE,
        (2, 3): S.GROUP_INCOMPLETE,  # down 22 still open
        (2, 4): S.GROUP_INCOMPLETE,
        (4, 1): S.DUPLICATE,
        (4, 2): S.DUPLICATE,
        (4, 3): S.GROUP_WRONG,
        (5, 4): S.GROUP_WRONG,
        (5, 5): S.GROUP_WRONG,
    }
    assert {cell: report.cells[cell] for cell in expected} == expected
    blanks = {cell for cell, st in report.cells.items() if st is S.BLANK}
    assert blanks == set(p.white_cells) - set(expected)
    assert sorted(codes(report.findings)) == [
        ("duplicate", ((4, 1), (4, 2))),
        ("wrong_sum", ((5, 4), (5, 5))),
    ]
    assert not report.solved
    # against the figure's solution: (4,2) should be 3 and (5,5) should be 8
    assert report.wrong_entries == ((4, 2), (5, 5))


def test_a_different_valid_solution_is_solved_yet_wrong_against_the_other():
    p = puzzle(sample("multiple-4x4.txt"))
    first = ((0, 0, 0, 0), (0, 7, 1, 2), (0, 3, 2, 1), (0, 9, 3, 6))
    second = ((0, 0, 0, 0), (0, 7, 2, 1), (0, 3, 1, 2), (0, 9, 3, 6))
    report = validate_board(with_entries(p, {}, base=second), first)
    assert report.solved
    assert report.findings == ()
    assert report.wrong_entries == ((1, 2), (1, 3), (2, 2), (2, 3))
    assert not report.ok


def test_blank_cells_are_never_wrong_entries():
    p = puzzle(sample("seed004-figure3.txt"))
    report = validate_board(
        with_entries(p, {(1, 1): 9, (5, 5): 1}), solution_grid("seed004-figure3.solution.txt")
    )
    assert report.wrong_entries == ((5, 5),)


def test_a_run_without_a_clue_never_counts_as_solved():
    p = puzzle("3 3\n- 4, 6,\n- 0 0\n,7 0 0\n")
    report = validate_board(with_entries(p, {(1, 1): 1, (1, 2): 2, (2, 1): 3, (2, 2): 4}))
    assert report.findings == ()
    assert not report.solved


@pytest.mark.parametrize("with_solution", [False, True])
def test_kind_interface_validates(with_solution):
    b = board(sample(NEARLY))
    solution = solution_grid("Game03-fixed.solution.txt") if with_solution else None
    report = KAKURO.checks.validate_board(b, solution)
    assert report == validate_board(b, solution)
    assert len(report.wrong_entries) == (4 if with_solution else 0)
