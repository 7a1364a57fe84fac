"""Kakurasu structural checks (each defect named by its clue or cell, all at once) and
board validation (per line and per cell), directly and as a read board is checked."""

from __future__ import annotations

import pytest
from numgrid.server import operations
from numgrid.server.core import Board
from numgrid.server.core import CellStatus
from numgrid.server.core import GroupState
from numgrid.server.core import PuzzleError
from numgrid.server.kinds.kakurasu import formats
from numgrid.server.kinds.kakurasu.checks import check_puzzle
from numgrid.server.kinds.kakurasu.checks import disagreement
from numgrid.server.kinds.kakurasu.checks import validate_board
from numgrid.server.kinds.kakurasu.model import Puzzle
from support.kakurasu import KAKURASU
from support.kakurasu import SMALL
from support.kakurasu import SMALL_SOLUTION
from support.kakurasu import corpus
from support.kakurasu import grid
from support.kakurasu import puzzle_of

PUZZLE = formats.read(SMALL).puzzle
SOLUTION = formats.read_solution(SMALL_SOLUTION)


def found(puzzle: Puzzle, entries=None) -> list[tuple[str, str]]:
    return [(f.code, f.message) for f in check_puzzle(puzzle, entries)]


def test_sound_puzzles_have_no_findings():
    assert check_puzzle(PUZZLE, SOLUTION) == []
    assert all(not check_puzzle(formats.read(e["problem"]).puzzle) for e in corpus().values())


def test_the_number_of_clues_is_named():
    assert found(Puzzle(3, 2, (1, 2), (1, 2))) == [
        ("clue_count", "2 row clues for 3 rows (a '-' stands for a clue not given)")
    ]
    assert [code for code, _ in found(Puzzle(2, 2, (1, 2), (1,)))] == ["clue_count"]


def test_a_clue_no_set_of_weights_makes_is_named_with_its_line():
    findings = check_puzzle(Puzzle(2, 5, (16, 3), (1, -2, 3, 0, 3)))
    assert [(f.code, f.group) for f in findings] == [
        ("impossible_clue", "row 0 (clue 16)"),
        ("bad_clue", "column 1 (clue -2)"),
    ]
    assert findings[0].message == (
        "row 0 (clue 16): no set of the weights 1-5 adds up to 16: they add up to 15 at most"
    )


def test_every_clue_up_to_the_total_is_made_by_some_weights():
    assert check_puzzle(Puzzle(1, 5, (15,), (1, 1, 1, 1, 1))) == []
    assert check_puzzle(Puzzle(1, 5, (0,), (0, 0, 0, 0, 0))) == []


def test_clues_that_cannot_all_hold_are_named():
    # Each clue alone is fine: the row clues add up to 6 = 2 x (column 0's count: 2, as
    # 3 = 1+2) + ... no: column 0 (clue 3) shades both rows, column 1 (clue 2) one cell,
    # so the shaded cells weigh 1+1+2 = 4 in their rows, never 6.
    why = disagreement(Puzzle(2, 2, (3, 3), (3, 2)))
    assert "the row clues add up to 6" in why
    (finding,) = check_puzzle(Puzzle(2, 2, (3, 3), (3, 2)))
    assert finding.code == "clues_disagree" and finding.message.startswith("the clues cannot")
    # columns 0 and 1 (clues 1) shade row 0, whose clue is 0: 2 shaded cells against 1
    assert disagreement(Puzzle(2, 3, (0, 3), (1, 1, 0))) == (
        "the row clues add up to 3, which takes 2 shaded cells with what the column clues "
        "allow, but the column clues add up to 2, which takes 1 with what the row clues allow"
    )
    # a transcription slip in a corpus puzzle: column 2's clue 9 read as 10
    p = PUZZLE
    slipped = Puzzle(p.rows, p.cols, p.row_clues, (8, 8, 10, 13, 6))
    assert disagreement(slipped).startswith("the row clues add up to 38, but no number")


def test_a_side_with_a_missing_clue_has_no_total_to_test():
    assert disagreement(Puzzle(2, 2, (3, None), (3, 3))) == ""  # r0c0, r0c1 and r1c1
    # the column clues' total (5) still is: row 0 (clue 3) shades both its cells, so the
    # row numbers add up to 1 + 1 + 2 x (row 1's count), never 5
    assert "the column clues add up to 5" in disagreement(Puzzle(2, 2, (3, None), (3, 2)))


def test_marks_other_than_1_minus_1_and_0_and_ragged_marks_are_named():
    findings = check_puzzle(PUZZLE, ((1, 2, 0, 0, 0), (0, 0, 0), *SOLUTION[2:], (0,) * 5))
    assert [(f.code, f.cells) for f in findings] == [
        ("bad_entries", ()),
        ("bad_mark", ((0, 1),)),
        ("ragged_row", ((1, 3),)),
    ]
    assert findings[1].message == "r0c1: mark 2 is not 1 (shaded), -1 (white) or 0 (undecided)"


def test_a_grid_too_large_or_too_small():
    assert [c for c, _ in found(Puzzle(0, 3, (), (1, 1, 1)))] == ["bad_size"]
    big = Puzzle(16, 16, (1,) * 16, (1,) * 16)
    assert [f.code for f in check_puzzle(big, max_cells=200)] == ["grid_too_large"]


def test_a_read_board_with_broken_clues_is_refused_with_every_finding():
    text = "3 3\n1 2 3\n1 2 3\nx 0 .\n. . .\n. . .\n"
    with pytest.raises(PuzzleError) as caught:
        operations.read_board(KAKURASU, text, None, 1000)
    assert [f.code for f in caught.value.findings] == ["unknown_token"]  # '0' is no mark
    with pytest.raises(PuzzleError) as caught:
        operations.read_board(KAKURASU, "3 3\n1 2\n7 2 3\n", None, 1000)
    assert [f.code for f in caught.value.findings] == ["clue_count", "impossible_clue"]


# ---------------------------------------------------------------- boards


def states(report) -> dict[str, GroupState]:
    return {r.group.name: r.state for r in report.groups}


def test_an_empty_board_is_incomplete_everywhere():
    report = validate_board(Board.empty(PUZZLE))
    assert set(states(report).values()) == {GroupState.INCOMPLETE}
    assert not report.findings and not report.solved
    assert set(report.cells.values()) == {CellStatus.BLANK}


def test_the_solution_is_solved_even_with_white_cells_left_undecided():
    assert validate_board(Board(PUZZLE, SOLUTION)).solved
    shaded_only = tuple(tuple(max(v, 0) for v in row) for row in SOLUTION)
    report = validate_board(Board(PUZZLE, shaded_only))
    assert report.solved and not report.findings
    assert report.cells[0, 0] is CellStatus.BLANK and report.cells[0, 3] is CellStatus.GROUP_CORRECT


def test_a_line_over_its_clue_short_of_it_or_wrong_is_named():
    rows = [
        "x---x",  # row 0 (clue 4): 1 + 5 = 6, over
        ".----",  # row 1 (clue 5): only r1c0 open, weight 1: short
        "x-x--",  # row 2 (clue 7): every cell decided, 1 + 3 = 4: wrong
        ".....",
        ".....",
    ]
    marks = grid(" ".join(rows))
    report = validate_board(Board(PUZZLE, marks))
    by_code = {f.code: f for f in report.findings if f.group.startswith("row")}
    assert set(by_code) == {"line_over", "line_short", "wrong_line"}
    assert by_code["line_over"].message == (
        "row 0 (clue 4): the shaded cells weigh 1 + 5 = 6, more than 4"
    )
    assert by_code["line_over"].cells == ((0, 0), (0, 4))
    assert by_code["line_short"].group == "row 1 (clue 5)"
    assert by_code["wrong_line"].message == (
        "row 2 (clue 7): every cell is decided but the shaded ones weigh 4"
    )
    assert states(report)["row 0 (clue 4)"] is GroupState.OVER
    assert states(report)["row 2 (clue 7)"] is GroupState.WRONG
    assert report.cells[0, 0] is CellStatus.GROUP_WRONG


def test_wrong_marks_against_the_solution():
    marks = grid("---x- ----x x-..- ..... .....")
    report = validate_board(Board(PUZZLE, marks), SOLUTION)
    assert report.wrong_entries == ((2, 1),)  # shaded in the solution, marked white


def test_a_line_without_a_clue_is_correct_once_its_crossing_lines_decide_it():
    p = Puzzle(2, 2, (1, None), (1, 0))  # r0c0 shaded; row 1 has no clue
    done = validate_board(Board(p, grid("x. ..")))
    assert done.solved  # r0c1 white by row 0, r1c0 and r1c1 white by columns 0 and 1
    assert states(validate_board(Board(Puzzle(1, 2, (None,), (None, 1)), grid("..")))) == {
        "row 0": GroupState.INCOMPLETE,
        "column 0": GroupState.INCOMPLETE,
        "column 1 (clue 1)": GroupState.INCOMPLETE,
    }


def test_a_puzzle_built_from_a_shading_has_it_as_a_solution():
    shading = grid("x-x -xx")
    assert validate_board(Board(puzzle_of(shading), shading)).solved
