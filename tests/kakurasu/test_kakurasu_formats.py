"""Kakurasu formats: the corpus's text (with marks), the solution text and the protobuf
JSON, read and written, detected among the other kinds' texts, and what cannot be read."""

from __future__ import annotations

import json

import pytest
from google.protobuf import json_format
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.kakurasu import formats
from numgrid.server.kinds.kakurasu import messages
from numgrid.server.kinds.kakurasu.model import Puzzle
from numgrid.server.kinds.textformats import BOM
from support.kakurasu import KAKURASU
from support.kakurasu import SMALL
from support.kakurasu import SMALL_SOLUTION
from support.kakurasu import corpus
from support.kakurasu import corpus_ids
from support.kakurasu import grid

MARKED = SMALL + "x - . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"
MISSING = "3 4\n- 3 - 6\n7 - 2\n"


def codes(error: pytest.ExceptionInfo) -> list[str]:
    return [f.code for f in error.value.findings]


# ---------------------------------------------------------------- the corpus


def test_every_corpus_puzzle_and_solution_round_trips():
    for key in corpus_ids():
        item = corpus()[key]
        board = formats.read(item["problem"])
        assert formats.write(board, "janko").strip() == item["problem"].strip()
        assert formats.read(formats.write(board, "json")) == board
        solution = formats.read_solution(item["solution"])
        written = formats.write_solution(board.puzzle, solution)
        assert written.split() == item["solution"].split()  # some rows end in a space


def test_the_corpus_text_is_column_clues_then_row_clues():
    board = formats.read(SMALL)
    assert (board.puzzle.rows, board.puzzle.cols) == (5, 5)
    assert board.puzzle.column_clues == (8, 8, 9, 13, 6)
    assert board.puzzle.row_clues == (4, 5, 7, 12, 10)
    assert board.entries == board.puzzle.empty_grid()
    solution = formats.read_solution(SMALL_SOLUTION)
    assert solution[0] == (-1, -1, -1, 1, -1)  # row 0: column 3 shaded, weight 4 = its clue


def test_clues_not_given_are_read_and_written_as_dashes():
    board = formats.read(MISSING)
    assert board.puzzle.column_clues == (None, 3, None, 6)
    assert board.puzzle.row_clues == (7, None, 2)
    assert formats.write(board, "janko") == MISSING
    data = json.loads(formats.write(board, "json"))["kakurasu"]
    assert data["columnClues"] == [-1, 3, -1, 6] and data["rowClues"] == [7, -1, 2]
    assert formats.read(formats.write(board, "json")) == board
    assert sum("-" in item["problem"].split("\n", 1)[1] for item in corpus().values()) == 46


def test_marks_round_trip_in_text_and_json():
    board = formats.read(MARKED)
    assert board.entries[0] == (1, -1, 0, 0, 0)
    assert formats.write(board, "janko") == MARKED
    assert formats.read(formats.write(board, "json")) == board


def test_json_reads_the_protos_own_field_names_and_its_message():
    board = formats.read(MARKED)
    message = messages.to_proto(board).kakurasu
    assert message.row_clues == [4, 5, 7, 12, 10] and message.entries.rows[0].values[1] == -1
    snake = json_format.MessageToJson(message, preserving_proto_field_name=True)
    assert formats.read('{"kakurasu": ' + snake + "}") == board
    assert formats.read(messages.WIRE.to_json(message)) == board
    assert messages.shape(message) == (5, 5)
    assert messages.parts(message, 1000) == 5 + 5 + 5 + 25
    assert messages.parts(message, 3) == 15  # counted no further than needed
    assert messages.cell_field(message, (2, 3)) == "entries.rows[2].values[3]"


# ---------------------------------------------------------------- detection


def test_detected_and_told_apart_from_the_other_kinds():
    assert detect_format(SMALL) == (KAKURASU, "janko")
    assert detect_format(MARKED) == (KAKURASU, "janko")
    assert detect_format(MISSING) == (KAKURASU, "janko")
    assert detect_format(formats.write(formats.read(SMALL), "json")) == (KAKURASU, "json")
    assert detect_format(BOM + SMALL) == (KAKURASU, "janko")
    for key in list(corpus())[:20]:
        assert detect(corpus()[key]["problem"]) is KAKURASU
    kenken = "2 2\n3+ .\n3+ .\n1 1\n2 2\n"
    kakuro = "3 3\n- 4, 6,\n,3 0 0\n,7 0 0\n"
    no_clues_kakuro = "2 2\n- -\n- -\n"  # two lines of '-' only: not a Kakurasu
    assert detect(kenken) is KINDS["kenken"]
    assert detect(kakuro) is KINDS["kakuro"]
    assert detect(no_clues_kakuro) is KINDS["kakuro"]
    assert KAKURASU.formats.sniff(kenken) is None and KAKURASU.formats.sniff(kakuro) is None


def test_a_format_or_kind_named_overrides_detection():
    board = KAKURASU.formats.read(SMALL, "janko", 100)
    assert KAKURASU.formats.read(KAKURASU.formats.write(board, "json"), "json", 100) == board
    with pytest.raises(PuzzleError) as caught:
        KAKURASU.formats.read(SMALL, "json", 100)
    assert codes(caught) == ["not_json"]
    with pytest.raises(PuzzleError) as caught:
        KAKURASU.formats.read(SMALL, "tatham", 100)
    assert codes(caught) == ["unknown_format"]


# ---------------------------------------------------------------- what cannot be read


def test_every_unreadable_token_is_named_at_once():
    with pytest.raises(PuzzleError) as caught:
        formats.read_janko("2 2\n1 a\nb 2\nx o\n? .\n")
    found = [f.message for f in caught.value.findings]
    assert len(found) == 4
    assert "column clue 1: 'a' is not a clue" in found[0]
    assert found[2].startswith("r0c1: mark 'o'") and found[3].startswith("r1c0: mark '?'")


def test_a_grid_over_the_cell_limit_is_refused_before_it_is_built():
    with pytest.raises(PuzzleError) as caught:
        formats.read(SMALL, max_cells=20)
    assert codes(caught) == ["grid_too_large"]


@pytest.mark.parametrize(
    "text",
    [
        '{"kakurasu": []}',
        '{"kakurasu": {"rows": 2, "columns": 2, "colour": 1}}',
        '{"kakurasu": {"rows": "two", "columns": 2}}',
        '{"kakurasu": {"rows": 2, "columns": 2, "rowClues": [1, true]}}',
        '{"kakurasu": {"rows": 2, "columns": 2, "rowClues": [1, 99999999999]}}',
        '{"kakurasu": {"rows": 2, "columns": 2, "rowClues": [1], "row_clues": [1]}}',
        '{"kakurasu": {"rows": 2, "columns": 2, "entries": {"rows": [{"values": "x"}]}}}',
        '{"kakurasu": {"rows": 2, "columns": 2}, "kenken": {}}',
    ],
)
def test_json_of_the_wrong_shape(text):
    with pytest.raises(PuzzleError) as caught:
        formats.read_json(text)
    assert codes(caught) == ["bad_shape"]


def test_json_reads_what_the_checks_judge_faithfully():
    """Clue counts, ragged marks and marks other than 1, -1, 0 are read as given: the
    checks name them (``test_kakurasu_checks``)."""
    text = json.dumps(
        {
            "kakurasu": {
                "rows": 2,
                "columns": 2,
                "rowClues": [1],
                "entries": {"rows": [{"values": [1, 2]}, {"values": [0]}]},
            }
        }
    )
    board = formats.read_json(text)
    assert board.puzzle == Puzzle(2, 2, (1,), ())
    assert board.entries == ((1, 2), (0,))


def test_a_solution_text_that_is_not_one():
    with pytest.raises(PuzzleError) as caught:
        formats.read_solution("2 2\nx o\n")
    assert codes(caught) == ["row_count", "bad_row"]
    assert formats.read_solution("2 2\nx -\n- x\n") == grid("x- -x")


def test_the_board_a_kind_write_reads_back():
    board = Board(Puzzle(2, 3, (3, None), (2, 1, None)), grid("x-. ..x"))
    for fmt in KAKURASU.formats.FORMATS:
        expected = Board.empty(board.puzzle) if fmt == "penpa" else board  # a puzzle only
        assert KAKURASU.formats.read(KAKURASU.formats.write(board, fmt), None, 100) == expected
