"""Structural checks: one test per problem, each asserting the code and the cells at fault."""

from __future__ import annotations

import json

import pytest
from numgrid.server.core import PuzzleError
from numgrid.server.core import Severity
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro.checks import check_puzzle
from support.kakuro import KAKURO
from support.kakuro import VALID_3X3
from support.kakuro import board
from support.kakuro import codes
from support.kakuro import errors
from support.kakuro import puzzle
from support.kakuro import sample


def check(text: str, **kwargs):
    b = board(text)
    return check_puzzle(b.puzzle, b.entries, **kwargs)


def test_a_valid_puzzle_has_no_findings():
    assert check(VALID_3X3) == []


@pytest.mark.parametrize(
    "name", ["kakuro-10x12.txt", "kakuro-16x16.txt", "seed004-figure3.txt", "Game03-fixed.csv"]
)
def test_sample_puzzles_have_no_errors(name):
    assert errors(check(sample(name))) == []


# ---------------------------------------------------------------- parse problems


def test_unknown_token_is_a_parse_error_at_its_cell():
    with pytest.raises(PuzzleError) as info:
        board("3 3\n- 4, 6,\n,3 0 x\n,7 0 0\n")
    assert codes(info.value.findings) == [("unknown_token", ((1, 2),))]
    assert info.value.findings[0].message.startswith("r1c2: unknown token 'x'")


def test_ragged_row_is_a_parse_error_at_its_row():
    with pytest.raises(PuzzleError) as info:
        board("3 3\n- 4, 6,\n,3 0\n,7 0 0\n")
    assert codes(info.value.findings) == [("ragged_row", ((1, 2),))]
    assert "row 1 has 2 cells, expected 3" in info.value.findings[0].message


# ---------------------------------------------------------------- runs and clues


def test_white_run_with_no_clue():
    found = check("3 3\n- 4, 6,\n- 0 0\n,7 0 0\n")
    assert codes(found) == [("run_without_clue", ((1, 1), (1, 2)))]
    assert found[0].message == "across run of 2 cells from r1c1 has no clue (before it)"
    assert found[0].group == "across run at r1c0"


def test_white_runs_starting_at_the_grid_edge_have_no_clue():
    found = check("3 3\n,3 0 0\n,4 0 0\n- - -\n")
    assert codes(found) == [
        ("run_without_clue", ((0, 1), (1, 1))),
        ("run_without_clue", ((0, 2), (1, 2))),
    ]
    assert "has no clue (at the edge before r0c1)" in found[0].message
    assert "has no clue (at the edge before r0c2)" in found[1].message


def test_white_run_from_the_left_edge():
    found = check("3 3\n- 4, 6,\n,3 0 0\n0 0 0\n")
    assert codes(errors(found)) == [
        ("run_without_clue", ((2, 0), (2, 1), (2, 2))),
        ("cell_without_run", ((2, 0),)),
    ]


def test_clue_pointing_at_a_black_cell():
    found = check("3 3\n5, 4, 6,\n,3 0 0\n,7 0 0\n")
    assert codes(found) == [("clue_without_run", ((0, 0),))]
    assert found[0].message == "down clue 5 at r0c0 points at black cell r1c0"


@pytest.mark.parametrize(
    ("text", "cell", "message"),
    [
        ("3 4\n- 4, 6, -\n,3 0 0 ,5\n,7 0 0 -\n", (1, 3), "across clue 5 at r1c3"),
        ("3 4\n- 4, 6, -\n,3 0 0 -\n,7 0 0 5,\n", (2, 3), "down clue 5 at r2c3"),
    ],
)
def test_clue_pointing_at_the_edge(text, cell, message):
    found = check(text)
    assert codes(found) == [("clue_without_run", (cell,))]
    assert found[0].message == f"{message} points at the edge of the grid"


def test_run_longer_than_nine():
    found = check("2 11\n- 1, 2, 3, 4, 5, 6, 7, 8, 9, 1,\n,45 0 0 0 0 0 0 0 0 0 0\n")
    assert codes(errors(found)) == [("run_too_long", ((1, 0), *((1, c) for c in range(1, 11))))]
    assert "run of 10 cells is longer than 9" in found[0].message
    # the ten down runs of one cell are only warnings
    assert [f.code for f in found if not f.is_error] == ["one_cell_run"] * 10


def test_two_in_two_cells_is_impossible():
    found = check("3 3\n- 3, 4,\n,2 0 0\n,5 0 0\n")
    assert codes(found) == [("impossible_clue", ((1, 0), (1, 1), (1, 2)))]
    assert found[0].message == (
        "across 2 at r1c0: 2 cannot be made from 2 different digits (possible: 3-17)"
    )


@pytest.mark.parametrize(
    ("text", "cells", "possible"),
    [
        (
            "2 10\n- 1, 2, 3, 4, 5, 6, 7, 8, 9,\n,46 0 0 0 0 0 0 0 0 0\n",
            ((1, 0), *((1, c) for c in range(1, 10))),
            "45-45",
        ),
        ("3 2\n- 46,\n,1 0\n,2 0\n", ((0, 1), (1, 1), (2, 1)), "3-17"),
        ("2 2\n- 46,\n,5 0\n", ((0, 1), (1, 1)), "1-9"),
    ],
)
def test_46_is_impossible_anywhere(text, cells, possible):
    impossible = [f for f in check(text) if f.code == "impossible_clue"]
    assert codes(impossible) == [("impossible_clue", cells)]
    assert "46 cannot be made" in impossible[0].message
    assert f"(possible: {possible})" in impossible[0].message


def test_white_cell_with_no_across_run():
    found = check("3 4\n- 4, 3, -\n,3 0 0 1,\n,1 0 - 0\n")
    assert codes(errors(found)) == [("cell_without_run", ((2, 3),))]
    assert errors(found)[0].message == "white cell r2c3 has no across run (no clue before it)"


def test_white_cell_with_no_down_run():
    p = puzzle("3 4\n- 4, 3, -\n,3 0 0 1,\n,1 0 - 0\n").transposed()
    found = check_puzzle(p)
    assert codes(errors(found)) == [("cell_without_run", ((3, 2),))]
    assert errors(found)[0].message == "white cell r3c2 has no down run (no clue before it)"


def test_one_cell_runs_are_warnings_not_errors():
    found = check("3 3\n- 3, -\n,3 0 -\n- - -\n")
    assert codes(found) == [("one_cell_run", ((1, 1),)), ("one_cell_run", ((1, 1),))]
    assert {f.group for f in found} == {"across 3 at r1c0", "down 3 at r0c1"}
    assert all(f.severity is Severity.WARNING and not f.is_error for f in found)
    assert errors(found) == []


def test_the_16x16_sample_has_only_one_cell_run_warnings():
    found = check(sample("kakuro-16x16.txt"))
    assert len(found) == 100
    assert {(f.code, f.severity) for f in found} == {("one_cell_run", Severity.WARNING)}
    assert all(len(f.cells) == 1 for f in found)


def test_a_puzzle_with_no_white_cells():
    assert codes(check("2 2\n- -\n- -\n")) == [("no_white_cells", ())]


# ---------------------------------------------------------------- entries and size


@pytest.mark.parametrize("digit", [12, -1, 10])
def test_entered_digit_outside_1_to_9(digit):
    rows = json.loads(formats.write_json(board(VALID_3X3)))["kakuro"]["rows"]
    rows[1]["cells"][1] = {"digit": digit}
    found = check(json.dumps({"kakuro": {"rows": rows}}))
    assert codes(found) == [("bad_digit", ((1, 1),))]
    assert found[0].message == f"r1c1: entered value {digit} is not a digit 1-9"


def test_entered_digits_1_to_9_are_fine():
    assert check("3 3\n- 4, 6,\n,3 1 9\n,7 0 0\n") == []


def test_grid_over_the_size_limit():
    p = puzzle(VALID_3X3)
    assert check_puzzle(p, max_cells=9) == []
    found = check_puzzle(p, max_cells=8)
    assert codes(found) == [("grid_too_large", ())]
    assert found[0].message == "grid of 3x3 = 9 cells is over the limit of 8 cells"


def test_grid_over_the_size_limit_stops_the_other_checks():
    assert codes(check(sample("broken-clues.txt"), max_cells=10)) == [("grid_too_large", ())]


# ---------------------------------------------------------------- several faults at once


def test_broken_clues_sample_reports_both_faults():
    assert codes(check(sample("broken-clues.txt"))) == [
        ("impossible_clue", ((1, 0), (1, 1), (1, 2))),
        ("run_without_clue", ((2, 3), (3, 3))),
    ]


def test_every_problem_of_a_puzzle_is_reported_together():
    text = "4 5\n- 16, 6, - 3,\n,2 0 0 - -\n,24 0 0 0 ,4\n,7 0 0 0 -\n"
    b = board(text)
    entries = [list(row) for row in b.entries]
    entries[3][1] = 12
    found = KAKURO.checks.check_puzzle(b.puzzle, tuple(map(tuple, entries)), None)
    assert sorted(codes(found)) == sorted(
        [
            ("impossible_clue", ((1, 0), (1, 1), (1, 2))),
            ("run_without_clue", ((2, 3), (3, 3))),
            ("clue_without_run", ((0, 4),)),
            ("clue_without_run", ((2, 4),)),
            ("bad_digit", ((3, 1),)),
        ]
    )
    assert all(f.is_error for f in found)
