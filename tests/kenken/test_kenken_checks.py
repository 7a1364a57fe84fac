"""KenKen structure checks and board validation."""

from __future__ import annotations

from functools import cache

import pytest
from numgrid.server.core import Board
from numgrid.server.core import CellStatus
from numgrid.server.core import GroupState
from numgrid.server.core import GroupType
from numgrid.server.core import Severity
from numgrid.server.kinds.kenken import arith
from numgrid.server.kinds.kenken import checks
from numgrid.server.kinds.kenken import formats
from numgrid.server.kinds.kenken.model import Cage
from numgrid.server.kinds.kenken.model import Puzzle
from support.kenken import corpus

SMALL = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3\n"
SOLUTION = ((3, 4, 1, 2), (2, 3, 4, 1), (1, 2, 3, 4), (4, 1, 2, 3))


@cache
def small() -> Puzzle:
    return formats.read(SMALL).puzzle


def cage(target: int, operation: str, *cells) -> Cage:
    return Cage(target, operation, tuple(sorted(cells)))


def board(puzzle: Puzzle, rows: str) -> Board:
    """Entries as text: one line per row, ``.`` for empty."""
    grid = tuple(
        tuple(0 if t == "." else int(t) for t in line.split()) for line in rows.strip().splitlines()
    )
    return Board(puzzle, grid)


def found(findings, code: str) -> list:
    return [f for f in findings if f.code == code]


def only(findings, code: str):
    matches = found(findings, code)
    assert len(matches) == 1, findings
    return matches[0]


# ---------------------------------------------------------------- check_puzzle


def test_the_corpus_puzzles_have_no_errors():
    data = corpus()
    clean = hidden = 0
    for key, item in data.items():
        puzzle = formats.read(item["problem"]).puzzle
        findings = checks.check_puzzle(puzzle)
        if any(checks.hidden(c) for c in puzzle.cages):
            # janko.at's hidden operations and the corpus's lost division signs: warnings.
            assert {f.code for f in findings} == {"operation_missing"}, key
            assert all(f.severity is Severity.WARNING for f in findings)
            hidden += 1
        else:
            assert findings == [], key
            clean += 1
    assert clean > 200 and hidden > 0


def test_a_sound_puzzle_and_its_entries():
    assert checks.check_puzzle(small(), SOLUTION, max_cells=16) == []


def test_size_limits():
    f = only(checks.check_puzzle(small(), max_cells=15), "grid_too_large")
    assert f.message == "grid of 4x4 = 16 cells is over the limit of 15 cells"
    assert only(checks.check_puzzle(Puzzle(0, ())), "bad_size").message == "size 0 is not 1 to 16"
    assert found(checks.check_puzzle(Puzzle(17, ())), "bad_size")


def test_cells_in_no_cage_and_in_two():
    cages = [c for c in small().cages if c.cells[0] != (0, 0)]  # r0c0 left out
    cages.append(cage(5, "+", (1, 0), (1, 1)))  # r1c0 and r1c1 again
    findings = checks.check_puzzle(Puzzle(4, tuple(cages)))
    assert only(findings, "cell_without_cage").message == "r0c0 is in no cage"
    twice = found(findings, "cell_in_two_cages")
    assert [f.cells for f in twice] == [((1, 0),), ((1, 1),)]
    assert twice[0].message == "r1c0 is in 2 cages (cage 2/ at r1c0 and cage 5+ at r1c0)"


def test_a_cage_cell_outside_the_grid_names_the_cage():
    puzzle = Puzzle(2, (cage(3, "+", (0, 0), (0, 1)), cage(3, "+", (1, 0), (1, 1), (2, 1))))
    f = only(checks.check_puzzle(puzzle), "cell_outside_grid")
    assert f.message == "cage 3+ at r1c0: r2c1 outside the 2x2 grid"
    assert f.group == "cage 3+ at r1c0" and f.cells == ((2, 1),)


def test_a_cage_that_is_not_connected():
    puzzle = Puzzle(
        2, (cage(3, "+", (0, 0), (1, 1)), cage(3, "+", (0, 1), (1, 0)))
    )  # diagonals touch only at a corner
    findings = found(checks.check_puzzle(puzzle), "cage_not_connected")
    assert [f.group for f in findings] == ["cage 3+ at r0c0", "cage 3+ at r0c1"]
    assert findings[0].message == (
        "cage 3+ at r0c0: its cells are not connected (2 separate parts: r0c0; r1c1)"
    )


def test_subtraction_and_division_need_two_cells():
    puzzle = Puzzle(
        3,
        (
            cage(1, "-", (0, 0), (0, 1), (0, 2)),
            cage(3, "/", (1, 0)),
            cage(2, "-", (1, 1), (1, 2)),
            cage(6, "x", (2, 0), (2, 1), (2, 2)),
        ),
    )
    findings = found(checks.check_puzzle(puzzle), "operation_needs_two_cells")
    assert [f.message for f in findings] == [
        "cage 1- at r0c0: - needs exactly two cells, not 3",
        "cage 3/ at r1c0: / needs exactly two cells, not 1",
    ]
    assert all(f.is_error for f in findings)


def test_a_missing_operation_is_read_as_hidden():
    puzzle = Puzzle(2, (cage(3, "", (0, 0), (0, 1)), cage(3, "", (1, 0), (1, 1))))
    findings = checks.check_puzzle(puzzle)
    assert [f.code for f in findings] == ["operation_missing"] * 2
    f = findings[0]
    assert f.severity is Severity.WARNING
    assert f.message == (
        "cage 3 at r0c0: 2 cells but no operation; read as hidden (any of +, -, x, / that gives 3)"
    )
    assert f.group == "cage 3 at r0c0" and f.cells == ((0, 0), (0, 1))
    assert arith.layouts(puzzle.cages[0], 2) == ((1, 2), (2, 1))
    three = Puzzle(3, (cage(5, "", (0, 0), (0, 1), (1, 0)),))
    assert "any of +, x that gives 5" in checks.check_puzzle(three)[0].message


def test_a_hidden_operation_on_the_board():
    puzzle = Puzzle(4, (cage(2, "", (0, 0), (0, 1)), cage(7, "", (1, 0), (1, 1), (1, 2))))
    right = checks.validate_board(board(puzzle, "4 2 . .\n1 2 4 .\n. . . .\n. . . ."))
    assert [g.state for g in reports(right, GroupType.CAGE)] == [GroupState.CORRECT] * 2
    assert [g.total for g in reports(right, GroupType.CAGE)] == [2, 7]
    wrong = checks.validate_board(board(puzzle, "4 3 . .\n. . . .\n. . . .\n. . . ."))
    f = only(wrong.findings, "wrong_cage")
    assert f.message == "cage 2 at r0c0: complete but 4 and 3 give 2 under none of +, -, x, /"
    nine = Puzzle(4, (cage(9, "", (1, 0), (1, 1), (1, 2)),))  # 9 = 2 + 3 + 4, not with 1
    over = checks.validate_board(board(nine, ". . . .\n1 . . .\n. . . .\n. . . ."))
    assert only(over.findings, "cage_impossible").message == (
        "cage 9 at r1c0: with the entry 1, no digits 1-4 in the 2 cells left give 9 under "
        "any operation"
    )
    (judged,) = reports(over, GroupType.CAGE)
    assert judged.state is GroupState.OVER


@pytest.mark.parametrize(
    "the_cage, message",
    [
        (
            cage(40, "+", (0, 0), (0, 1), (1, 0)),
            "cage 40+ at r0c0: 40 cannot be made by adding 3 digits 1-6 (possible 3-18)",
        ),
        (
            cage(7, "x", (0, 0), (0, 1)),
            "cage 7x at r0c0: 7 cannot be made by multiplying 2 digits 1-6",
        ),
        (
            cage(3, "+", (0, 0), (0, 1), (1, 0)),
            "cage 3+ at r0c0: 3 can only be made by adding 3 digits 1-6 with a digit "
            "repeated in a row or column",
        ),
        (
            cage(6, "-", (0, 0), (0, 1)),
            "cage 6- at r0c0: 6 cannot be made by subtracting two digits 1-6 (possible 1-5)",
        ),
        (
            cage(7, "/", (0, 0), (0, 1)),
            "cage 7/ at r0c0: 7 cannot be made by dividing two digits 1-6 (possible 2-6)",
        ),
        (cage(7, "", (0, 0)), "cage 7 at r0c0: 7 is not a digit 1-6"),
        (
            cage(40, "", (0, 0), (0, 1)),
            "cage 40 at r0c0: 40 cannot be made from 2 digits 1-6 with any of +, -, x, /",
        ),
    ],
)
def test_impossible_targets_say_why(the_cage, message):
    f = only(checks.check_puzzle(Puzzle(6, (the_cage,))), "impossible_target")
    assert f.message == message
    assert f.group == the_cage.name and f.cells == the_cage.cells


def test_odd_cages():
    puzzle = Puzzle(
        2,
        (
            cage(0, "+", (0, 0), (0, 1)),
            Cage(3, "?", ((1, 0), (1, 1))),
            Cage(2, "", ()),
            Cage(1, "", ((0, 0), (0, 0))),
        ),
    )
    findings = checks.check_puzzle(puzzle)
    assert (
        only(findings, "bad_target").message == "cage 0+ at r0c0: target 0 is not a positive number"
    )
    assert only(findings, "unknown_operation").group == "cage 3? at r1c0"
    assert only(findings, "empty_cage").message == "cage 2 (2) has no cells"
    assert only(findings, "duplicate_cell").message == "cage 1 at r0c0: lists r0c0 more than once"
    assert not found(findings, "impossible_target")


def test_entries_outside_the_digits():
    entries = ((3, 4, 1, 2), (2, 5, 4, 1), (1, 2, 3, 4), (4, 1, 2, -1))
    findings = checks.check_puzzle(small(), entries)
    bad = found(findings, "bad_digit")
    assert [f.cells for f in bad] == [((1, 1),), ((3, 3),)]
    assert bad[0].message == "r1c1: entered value 5 is not a digit 1-4"
    ragged = only(checks.check_puzzle(small(), ((1, 2),)), "bad_entries")
    assert ragged.message.startswith("the entries are not 4x4")


# ---------------------------------------------------------------- validate_board


def reports(report, kind: GroupType) -> list:
    return [g for g in report.groups if g.group.type is kind]


def test_a_solved_board():
    report = checks.validate_board(Board(small(), SOLUTION), SOLUTION)
    assert report.solved and report.ok
    assert len(report.groups) == 8 + len(small().cages)
    assert all(g.state is GroupState.CORRECT for g in report.groups)
    assert all(status is CellStatus.GROUP_CORRECT for status in report.cells.values())
    totals = {g.group.name: g.total for g in reports(report, GroupType.CAGE)}
    assert totals["cage 16x at r0c1"] == 16 and totals["cage 2/ at r0c3"] == 2
    assert all(g.total == 0 for g in reports(report, GroupType.ROW))


def test_every_corpus_solution_solves_its_puzzle():
    data = corpus()
    for key, item in data.items():
        puzzle = formats.read(item["problem"]).puzzle
        solution = formats.read_solution(item["solution"])
        assert checks.validate_board(Board(puzzle, solution)).solved, key


def test_an_empty_board():
    report = checks.validate_board(Board.empty(small()))
    assert not report.solved and report.ok
    assert all(g.state is GroupState.INCOMPLETE for g in report.groups)
    assert set(report.cells.values()) == {CellStatus.BLANK}


def test_duplicates_in_a_row_and_a_column():
    b = board(small(), ". 4 . .\n. . . .\n. 4 . 4\n. . . .")
    report = checks.validate_board(b)
    dups = found(report.findings, "duplicate")
    assert [f.message for f in dups] == [
        "row 2: 4 appears 2 times (r2c1, r2c3)",
        "column 1: 4 appears 2 times (r0c1, r2c1)",
    ]
    assert [f.group for f in dups] == ["row 2", "column 1"]
    row2 = next(g for g in report.groups if g.group.name == "row 2")
    assert row2.state is GroupState.DUPLICATE and row2.duplicates == ((2, 1), (2, 3))
    assert report.cells[(2, 1)] is CellStatus.DUPLICATE
    assert report.cells[(0, 1)] is CellStatus.DUPLICATE
    assert report.cells[(0, 0)] is CellStatus.BLANK
    assert not report.solved and not report.ok


def test_a_complete_cage_with_the_wrong_result():
    b = board(small(), ". . . .\n. . . .\n. . . 3\n. . . 2")
    report = checks.validate_board(b)
    f = only(report.findings, "wrong_cage")
    assert f.message == "cage 12x at r2c3: complete but gives 6, not 12"
    assert f.group == "cage 12x at r2c3" and f.cells == ((2, 3), (3, 3))
    twelve = next(g for g in report.groups if g.group.name == "cage 12x at r2c3")
    assert twelve.state is GroupState.WRONG and twelve.total == 6
    assert report.cells[(2, 3)] is CellStatus.GROUP_WRONG


def test_a_division_that_is_not_whole():
    b = board(small(), ". . . 3\n. . . 2\n. . . .\n. . . .")
    f = only(checks.validate_board(b).findings, "wrong_cage")
    assert (
        f.message == "cage 2/ at r0c3: complete but 3 / 2 is not a whole number (the target is 2)"
    )


def test_entries_that_already_make_a_cage_impossible():
    puzzle = Puzzle(6, (cage(7, "+", (1, 1), (1, 2), (2, 1)),))
    report = checks.validate_board(board(puzzle, _grid(6, {(1, 1): 5, (1, 2): 4})))
    f = only(report.findings, "cage_impossible")
    assert f.message == "cage 7+ at r1c1: the entries 5 and 4 already pass 7"
    assert f.group == "cage 7+ at r1c1" and f.cells == ((1, 1), (1, 2))
    (seven,) = reports(report, GroupType.CAGE)
    assert seven.state is GroupState.OVER and seven.total == 0
    assert report.cells[(1, 1)] is CellStatus.GROUP_WRONG


def _grid(n: int, values: dict) -> str:
    return "\n".join(" ".join(str(values.get((r, c), ".")) for c in range(n)) for r in range(n))


@pytest.mark.parametrize(
    "the_cage, values, message",
    [
        (
            cage(20, "+", (0, 0), (0, 1), (0, 2)),
            {(0, 0): 1, (0, 1): 2},
            "cage 20+ at r0c0: the entries 1 and 2 cannot reach 20 with 1 cell left "
            "(at most 6 each)",
        ),
        (
            cage(18, "x", (0, 0), (0, 1), (0, 2)),
            {(0, 0): 4},
            "cage 18x at r0c0: the entry 4 does not go into 18",
        ),
        (
            cage(18, "x", (0, 0), (0, 1), (0, 2)),
            {(0, 0): 4, (0, 1): 3},
            "cage 18x at r0c0: the entries 4 and 3 multiply to 12, which does not go into 18",
        ),
        (
            cage(7, "+", (0, 0), (0, 1), (0, 2)),
            {(0, 0): 8},
            "cage 7+ at r0c0: the entry 8 already passes 7",
        ),
        (
            cage(5, "+", (0, 0), (0, 1), (0, 2)),
            {(0, 0): 4},
            "cage 5+ at r0c0: after the entry 4, 1 is too little for the 2 cells left",
        ),
        (
            cage(3, "-", (0, 0), (0, 1)),
            {(0, 0): 3},
            "cage 3- at r0c0: no digit 1-4 goes with the entry 3 to give 3 under -",
        ),
        (
            cage(3, "+", (0, 0), (0, 1), (1, 0)),
            {(0, 0): 1},
            "cage 3+ at r0c0: no digits 1-4 in the 2 cells left make the entry 1 give 3 "
            "without repeating a digit in a row or column",
        ),
        (
            cage(6, "+", (0, 0), (0, 1), (0, 2)),
            {(0, 0): 2, (0, 1): 2},
            None,  # a repeat in a row: DUPLICATE, not OVER
        ),
    ],
)
def test_over_messages(the_cage, values, message):
    n = 4 if the_cage.operation == "-" or the_cage.target == 3 else 6
    n = 9 if the_cage.target == 7 else n
    report = checks.validate_board(board(Puzzle(n, (the_cage,)), _grid(n, values)))
    (judged,) = reports(report, GroupType.CAGE)
    if message is None:
        assert judged.state is GroupState.DUPLICATE
        assert judged.duplicates == ((0, 0), (0, 1))
        return
    assert judged.state is GroupState.OVER
    assert only(report.findings, "cage_impossible").message == message


def test_a_digit_repeated_in_a_cage_but_not_in_a_line_is_fine():
    puzzle = Puzzle(4, (cage(4, "x", (0, 0), (0, 1), (1, 1)),))
    report = checks.validate_board(board(puzzle, "2 1 . .\n. 2 . .\n. . . .\n. . . ."))
    (judged,) = reports(report, GroupType.CAGE)
    assert judged.state is GroupState.CORRECT and judged.total == 4
    assert not report.findings


def test_wrong_entries_against_a_solution():
    b = board(small(), "4 . . .\n. . . .\n. . . .\n. . . .")
    report = checks.validate_board(b, SOLUTION)
    assert report.wrong_entries == ((0, 0),)
    assert not report.ok and not report.solved
    f = only(report.findings, "wrong_cage")
    assert f.message == "cage 3 at r0c0: complete but gives 4, not 3"
    assert checks.validate_board(b).wrong_entries == ()


def test_a_cell_in_hundreds_of_cages_is_named_in_one_short_sentence():
    """Found by fuzzing: the finding listed every cage, too long for a gRPC trailer."""
    cages = [Cage(3, "", ((0, 0),))] * 300
    findings = checks.check_puzzle(Puzzle(4, tuple(cages)), None, None)
    (twice,) = [f for f in findings if f.code == "cell_in_two_cages"]
    assert twice.message.startswith("r0c0 is in 300 cages (cage 3 at r0c0, cage 3 at r0c0")
    assert twice.message.endswith("and 297 more)") and len(twice.message) < 120
