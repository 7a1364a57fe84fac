"""Skyscraper formats: the corpus's text, Tatham's Towers game IDs and the protobuf JSON,
each read and written back, detected, and named explicitly."""

from __future__ import annotations

import json

import pytest
from google.protobuf import json_format
from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.skyscraper import formats
from numgrid.server.kinds.skyscraper.model import Side
from numgrid.server.operations import read_board
from numgrid.v1 import puzzle_pb2
from support.skyscraper import corpus
from support.skyscraper import corpus_ids
from support.skyscraper import towers_ids

SMALL = (
    "5 5 5\n1 3 2 2 3\n3 2 2 1 2\n1 3 3 2 3\n3 2 1 3 2\n"
    "- - - - -\n- - - - -\n- - - - -\n- - - - -\n- - - - -\n"
)
TOWERS = "6:2//2/3/4/5///2/2/3////3/3/3/3//////,w4_1c2g"
SKYSCRAPER = KINDS["skyscraper"]


def codes(error: pytest.ExceptionInfo) -> list[str]:
    return [f.code for f in error.value.findings]


def messages(error: pytest.ExceptionInfo) -> str:
    return " | ".join(f.message for f in error.value.findings)


# ---------------------------------------------------------------- the corpus, every format


def test_every_corpus_puzzle_round_trips_through_every_format_it_fits():
    tatham = 0
    for key in corpus_ids():
        board = formats.read(corpus()[key]["problem"], "janko")
        assert formats.read(formats.write(board, "janko"), "janko") == board, key
        assert formats.read(formats.write(board, "json"), "json") == board, key
        p = board.puzzle
        if p.height == p.size and not p.diagonals:
            assert formats.read(formats.write(board, "tatham"), "tatham") == board, key
            tatham += 1
    assert tatham > 100


def test_the_corpus_text_is_read_as_published():
    """02_5x5: the first clue line is above the columns, left to right."""
    p = formats.read(SMALL).puzzle
    assert (p.size, p.height, p.diagonals) == (5, 5, False)
    assert p.top == (1, 3, 2, 2, 3) and p.bottom == (3, 2, 2, 1, 2)
    assert p.left == (1, 3, 3, 2, 3) and p.right == (3, 2, 1, 3, 2)
    assert p.variant == "plain"


def test_the_variants_are_read_and_said():
    lots = formats.read(corpus()["15_4x4"]["problem"]).puzzle
    assert (lots.size, lots.height, lots.empties) == (4, 3, 1)
    assert lots.variant == "empty lots (heights 1-3, one empty lot per line)"
    diagonal = formats.read(corpus()["271_5x5"]["problem"]).puzzle
    assert diagonal.diagonals and diagonal.height == 4
    assert "diagonal" in diagonal.variant and "empty lots" in diagonal.variant
    assert formats.write(Board.empty(diagonal), "janko").startswith("5 5 4 D\n")


def test_givens_and_the_solution_text():
    board = formats.read(corpus()["06_4x4"]["problem"])
    assert board.puzzle.givens[3] == (2, 0, 0, 0)
    solution = formats.read_solution(corpus()["15_4x4"]["solution"])
    assert solution[0] == (EMPTY, 1, 3, 2)
    written = formats.write_solution(formats.read(corpus()["15_4x4"]["problem"]).puzzle, solution)
    assert written.splitlines() == corpus()["15_4x4"]["solution"].splitlines()


def test_a_given_empty_lot_and_entries_round_trip():
    text = "4 4 3\n2 2 1 2\n1 2 3 1\n2 2 3 1\n2 2 1 3\n0 - - -\n- - - -\n- - - -\n- - - -\n"
    board = formats.read(text)
    assert board.puzzle.givens[0][0] == EMPTY
    entered = Board(board.puzzle, ((0, 1, 3, 2), (2, 3, 0, 1), (0,) * 4, (0,) * 4))
    for fmt in ("janko", "json"):
        assert formats.read(formats.write(entered, fmt), fmt) == entered, fmt
    assert formats.write(entered, "janko").splitlines()[-4] == "- 1 3 2"


def test_clues_may_be_dashes_or_zeros():
    zeros = SMALL.replace("1 3 2 2 3\n3 2", "0 3 2 2 3\n3 2", 1)
    dashes = SMALL.replace("1 3 2 2 3\n3 2", "- 3 2 2 3\n3 2", 1)
    assert formats.read(zeros) == formats.read(dashes)
    assert formats.read(zeros).puzzle.top[0] == 0


# ---------------------------------------------------------------- Tatham's Towers IDs


@pytest.mark.parametrize(("params", "game_id"), towers_ids())
def test_real_towers_ids_decode_and_re_encode(params, game_id):
    board = formats.read(game_id)
    p = board.puzzle
    assert p.size == int(params[0]) and p.height == p.size
    assert formats.write(board, "tatham").strip() == game_id
    assert formats.read(formats.write(board, "json")) == board


def test_the_givens_run_length_code():
    """``w4_1c2g``: 23 empty, 4, 1 (after a separator), 3 empty, 2, 7 empty."""
    p = formats.read(TOWERS).puzzle
    values = [v for row in p.givens for v in row]
    assert values[23] == 4 and values[24] == 1 and values[28] == 2
    assert sum(map(bool, values)) == 3
    assert p.top == (2, 0, 2, 3, 4, 5) and p.right == (0,) * 6


def test_a_params_prefix_is_accepted():
    prefixed = "6dh:" + TOWERS.split(":", 1)[1]
    assert formats.read(prefixed) == formats.read(TOWERS)


def test_a_variant_tatham_cannot_hold_is_refused():
    board = formats.read(corpus()["15_4x4"]["problem"])
    with pytest.raises(PuzzleError, match="no empty lots"):
        formats.write(board, "tatham")
    board = formats.read(corpus()["08_4x4"]["problem"])
    with pytest.raises(PuzzleError, match="diagonal"):
        formats.write(board, "tatham")


# ---------------------------------------------------------------- JSON


def test_json_is_the_proto():
    board = formats.read(corpus()["271_5x5"]["problem"])
    message = json_format.Parse(formats.write(board, "json"), puzzle_pb2.Puzzle())
    sky = message.skyscraper
    assert sky.size == 5 and sky.max_height == 4 and sky.diagonals
    assert list(sky.top) == [2, 3, 2, 1, 1]
    back = json.dumps({"skyscraper": json_format.MessageToDict(sky)})
    assert formats.read(back) == board


def test_json_zero_values_may_be_left_out():
    board = formats.read('{"skyscraper": {"size": 3, "left": [3, 0, 0]}}')
    p = board.puzzle
    assert p.height == 3 and p.top == (0, 0, 0) and p.left == (3, 0, 0)
    assert board.entries == p.givens == ((0,) * 3,) * 3


def test_an_entry_repeating_its_given_reads_as_no_entry_in_every_format():
    """Entries that list the givens too read as entries that do not (what every format
    writes back), so a board reads back the same; one that differs stays, for the
    checks. The fuzz test found a structured echo that lost such an entry."""

    def read(first_row: list[int]) -> Board:
        rows = [first_row, [0, 0, 0], [0, 0, 0]]
        givens = [[1, 0, 0], [0, 0, 0], [0, 0, 2]]
        sky = {"size": 3, "left": [3, 0, 0], "givens": {"rows": [{"values": r} for r in givens]}}
        sky["entries"] = {"rows": [{"values": r} for r in rows]}
        return formats.read(json.dumps({"skyscraper": sky}))

    listed, own = read([1, 2, 3]), read([0, 2, 3])
    assert listed == own and own.entries[0] == (0, 2, 3)
    for fmt in ("janko", "json"):
        assert formats.read(formats.write(listed, fmt), fmt) == listed
    assert read([3, 2, 1]).entries[0] == (3, 2, 1)


# ---------------------------------------------------------------- reading errors


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("5 5 5 X\n" + SMALL.split("\n", 1)[1], "bad_header", "'X' is not 'D'"),
        (SMALL.replace("- - - - -\n", "- - -\n", 1), "ragged_row", "r0c3: givens row 0 has 3"),
        (SMALL.replace("- - - - -\n", "- - q - -\n", 1), "unknown_token", "r0c2: given 'q'"),
        (SMALL.rsplit("- - - - -\n", 1)[0], "row_count", "expected 9 lines"),
        ("5 6 5\n", "bad_header", "square"),
        (SMALL.replace("1 3 2 2 3\n", "1 3 2 2\n", 1), "clue_count", "4 clues above columns"),
    ],
)
def test_what_cannot_be_read_is_named(text, code, words):
    """As the service reads a puzzle: the text, then its structure."""
    with pytest.raises(PuzzleError) as caught:
        read_board(SKYSCRAPER, text, "janko", 100)
    assert code in codes(caught), messages(caught)
    assert words in messages(caught)


def test_every_problem_is_reported_at_once():
    text = SMALL.replace("- - - - -\n", "- - q - -\n", 1).replace("1 3 2 2 3", "9 3 2 2 3", 1)
    with pytest.raises(PuzzleError) as caught:
        formats.read(text)
    assert {"unknown_token", "clue_too_large"} <= set(codes(caught))
    clue = next(f for f in caught.value.findings if f.code == "clue_too_large")
    assert clue.cells == (Side.TOP.clue_cell(0, 5),) == ((-1, 0),)


# ---------------------------------------------------------------- detection


def test_each_format_is_detected_and_can_be_named():
    board = formats.read(SMALL)
    for fmt in ("janko", "tatham", "json"):
        text = formats.write(board, fmt)
        kind, found = detect_format(text)
        assert kind is KINDS["skyscraper"] and found == fmt
        assert KINDS["skyscraper"].formats.read(text, fmt, 100) == board
    with pytest.raises(PuzzleError, match="unknown format 'csv'"):
        formats.read(SMALL, "csv")
    with pytest.raises(PuzzleError):
        formats.read(SMALL, "tatham")


def test_other_kinds_texts_are_not_claimed():
    kenken = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3"
    for text in (kenken, "4:_a__b3__a_3a__,a7m4a5m24s2d2s1", "3 3\n- 4, 4,\n,4 0 0\n,4 0 0\n"):
        assert formats.sniff(text) is None
