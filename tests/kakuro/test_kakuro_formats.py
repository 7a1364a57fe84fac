"""Reading and writing Kakuro in janko text, 1VVHH CSV and JSON: round trips, detection,
and parse errors that name every problem with its position."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro.model import WHITE
from numgrid.server.kinds.kakuro.model import Clue
from numgrid.server.kinds.kakuro.model import Puzzle
from support.kakuro import KAKURO
from support.kakuro import PUZZLES
from support.kakuro import board
from support.kakuro import codes
from support.kakuro import corpus
from support.kakuro import sample
from support.kakuro import solution_grid
from support.kakuro import with_entries

FORMATS = ("janko", "csv", "json")

# Every sample file that parses, with the format auto-detection must pick.
SAMPLES = {
    "kakuro-10x12.txt": "janko",
    "kakuro-10x12.csv": "csv",
    "kakuro-10x12.json": "json",
    "kakuro-16x16.txt": "janko",
    "seed004-figure3.txt": "janko",
    "Game03-fixed.csv": "csv",
    "Game03-nearly-solved.csv": "csv",
    "multiple-4x4.txt": "janko",
    "no-solution.txt": "janko",
    "broken-clues.txt": "janko",
}

# Every 25th corpus puzzle: 30 puzzles of every size class in the file's order.
CORPUS_SAMPLE = sorted(corpus())[::25]


def read_error(text: str, fmt: str | None = None, **kwargs) -> PuzzleError:
    with pytest.raises(PuzzleError) as info:
        formats.read(text, fmt, **kwargs)
    return info.value


def test_every_sample_file_exists_and_the_readme_lists_every_file():
    assert all((PUZZLES / name).is_file() for name in SAMPLES)
    readme = (PUZZLES / "README.md").read_text()
    unlisted = [p.name for p in PUZZLES.iterdir() if p.is_file() and f"`{p.name}`" not in readme]
    assert unlisted == ["README.md"]


# ---------------------------------------------------------------- detection and override


@pytest.mark.parametrize(("name", "fmt"), sorted(SAMPLES.items()))
def test_detect_picks_the_format_of_each_sample(name, fmt):
    assert formats.detect(sample(name)).name == fmt


@pytest.mark.parametrize(("name", "fmt"), sorted(SAMPLES.items()))
def test_explicit_format_reads_the_same_board_as_detection(name, fmt):
    text = sample(name)
    assert formats.read(text, fmt) == formats.read(text)


# The 10x12 sample in each format, and what each format's reader finds wrong with another's
THE_10X12 = {"janko": "kakuro-10x12.txt", "csv": "kakuro-10x12.csv", "json": "kakuro-10x12.json"}
NOT_MINE = {"janko": "bad_header", "csv": "not_csv", "json": "not_json"}


@pytest.mark.parametrize(
    ("fmt", "wrong_fmt"), [(f, w) for f in THE_10X12 for w in NOT_MINE if w != f]
)
def test_explicit_format_overrides_detection(fmt, wrong_fmt):
    error = read_error(sample(THE_10X12[fmt]), wrong_fmt)
    assert codes(error.findings) == [(NOT_MINE[wrong_fmt], ())]


def test_unknown_format_name_is_an_error_listing_the_known_ones():
    error = read_error(sample("kakuro-10x12.txt"), "xml")
    assert codes(error.findings) == [("unknown_format", ())]
    message = error.findings[0].message
    assert "'xml'" in message
    for name in FORMATS:
        assert name in message


def test_text_in_no_format_gets_one_error_naming_every_format_and_why():
    error = read_error("hello world\nthis is not a puzzle\n")
    assert codes(error.findings) == [("unknown_format", ())]
    message = error.findings[0].message
    assert "json: not JSON" in message
    assert "janko: first line must be 'ROWS COLS'" in message
    assert "csv: no comma- or semicolon-separated rows" in message


def test_numbers_that_are_no_format_say_why_csv_failed_too():
    message = read_error("10000,x\n").findings[0].message
    assert "csv: not every field is a number" in message


# ---------------------------------------------------------------- the seed 000 sample


@pytest.mark.parametrize("fmt", [None, "csv"])
def test_game03_fails_at_row_11_column_2_for_token_100017(fmt):
    error = read_error(sample("Game03.csv"), fmt)
    assert len(error.findings) == 1
    finding = error.findings[0]
    assert finding.code == "unknown_token"
    assert finding.cells == ((11, 2),)
    assert finding.message.startswith("r11c2: '100017'")
    assert finding.is_error


def test_game03_fixed_reads_as_the_12x10_puzzle_of_the_seed():
    b = board(sample("Game03-fixed.csv"))
    assert (b.puzzle.rows, b.puzzle.cols) == (12, 10)
    assert not b.has_entries
    assert b.puzzle.squares[11][2] == Clue(down=None, across=17)  # the corrected cell
    assert b.puzzle.squares[0][0] == Clue()  # 10000: black, no clue
    assert b.puzzle.squares[2][5] == Clue(down=29, across=25)  # 12925
    assert b.puzzle.squares[8][9] == Clue(down=16, across=None)  # 11600
    assert len(b.puzzle.white_cells) == 69


def test_game03_differs_from_the_fixed_sample_only_in_the_bad_token():
    broken = sample("Game03.csv").splitlines()
    fixed = sample("Game03-fixed.csv").splitlines()
    assert [i for i, (a, b) in enumerate(zip(broken, fixed, strict=True)) if a != b] == [11]
    assert broken[11].replace("100017", "10017") == fixed[11]


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_round_trip_read_write_read(name, fmt):
    original = board(sample(name))
    assert formats.read(formats.write(original, fmt), fmt) == original


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_round_trip_write_read_write(name, fmt):
    text = formats.write(board(sample(name)), fmt)
    assert formats.write(formats.read(text, fmt), fmt) == text


@pytest.mark.parametrize(
    "name",
    [
        "kakuro-10x12.txt",
        "kakuro-16x16.txt",
        "seed004-figure3.txt",
        "kakuro-10x12.csv",
        "Game03-fixed.csv",
        "Game03-nearly-solved.csv",
    ],
)
def test_writer_reproduces_the_sample_text_exactly(name):
    writer = formats.write_csv if name.endswith(".csv") else formats.write_janko
    assert writer(board(sample(name))) == sample(name)


def test_the_10x12_sample_is_one_board_in_three_formats():
    janko = board(sample("kakuro-10x12.txt"), "janko")
    assert board(sample("kakuro-10x12.csv"), "csv") == janko
    assert board(sample("kakuro-10x12.json"), "json") == janko
    assert janko.puzzle.squares[1][6] == Clue(down=12, across=24)
    assert janko.puzzle.squares[0][1] == Clue(down=14, across=None)
    assert janko.puzzle.squares[1][1] is WHITE


def test_the_format_samples_are_corpus_puzzles():
    assert board(sample("kakuro-10x12.txt")) == board(corpus()["2_10x12"]["problem"])
    assert board(sample("kakuro-16x16.txt")) == board(corpus()["947_16x16"]["problem"])
    assert solution_grid("kakuro-10x12.solution.txt") == formats.read_solution(
        corpus()["2_10x12"]["solution"]
    )


@pytest.mark.parametrize("name", ["kakuro-10x12.txt", "kakuro-16x16.txt", "seed004-figure3.txt"])
def test_cross_format_chain_janko_csv_json_janko(name):
    text = sample(name)
    start = board(text, "janko")
    as_csv = formats.write_csv(start)
    from_csv = board(as_csv, "csv")
    as_json = formats.write_json(from_csv)
    from_json = board(as_json, "json")
    back = formats.write_janko(from_json)
    assert from_csv == start
    assert from_json == start
    assert back == text


@pytest.mark.parametrize("key", CORPUS_SAMPLE)
def test_corpus_puzzles_round_trip_in_every_format(key):
    original = board(corpus()[key]["problem"])
    for fmt in FORMATS:
        text = formats.write(original, fmt)
        again = formats.read(text)  # auto-detected, too
        assert again == original, fmt
        assert formats.write(again, fmt) == text, fmt
    # the janko writer spells a corpus puzzle exactly as published
    assert formats.write_janko(original) == corpus()[key]["problem"].strip() + "\n"


@pytest.mark.parametrize("key", CORPUS_SAMPLE)
def test_corpus_solutions_survive_as_entries_in_every_format(key):
    original = board(corpus()[key]["problem"])
    solved = Board(original.puzzle, formats.read_solution(corpus()[key]["solution"]))
    for fmt in FORMATS:
        assert formats.read(formats.write(solved, fmt), fmt).entries == solved.entries, fmt


def test_entries_survive_every_format_hop():
    nearly = board(sample("Game03-nearly-solved.csv"))
    assert nearly.entries[9][9] == 7 and nearly.entries[11][9] == 7 and nearly.entries[10][9] == 2
    current = nearly
    for fmt in ("json", "janko", "csv", "janko", "json"):
        current = formats.read(formats.write(current, fmt), fmt)
    assert current == nearly


def test_entries_are_written_where_they_are():
    b = with_entries(board(sample("seed004-figure3.txt")).puzzle, {(1, 1): 9, (5, 5): 8})
    janko_lines = formats.write_janko(b).splitlines()
    assert janko_lines[2].split()[1] == "9"
    assert janko_lines[6].split()[5] == "8"
    csv_rows = formats.write_csv(b).splitlines()
    assert csv_rows[1].split(",")[1] == "9"
    assert csv_rows[5].split(",")[5] == "8"
    cells = json.loads(formats.write_json(b))["kakuro"]["rows"]
    assert cells[1]["cells"][1] == {"digit": 9}
    assert cells[5]["cells"][5] == {"digit": 8}
    assert cells[5]["cells"][4] == {}
    assert cells[5]["cells"][3] == {"black": True, "across": 14}


def test_json_spells_cells_like_the_proto():
    text = (
        '{"kakuro": {"rows": ['
        '{"cells": [{"black": true}, {"black": true, "down": 3}]},'
        '{"cells": [{"black": true, "across": 3}, {"digit": 3}]}]}}'
    )
    b = board(text)
    assert b.puzzle.squares == ((Clue(), Clue(3, None)), (Clue(None, 3), WHITE))
    assert b.entries == ((0, 0), (0, 3))
    assert formats.board_to_dict(b) == json.loads(text)


def test_janko_clue_tokens_with_one_side():
    b = board("2 3\n- 16, 3,\n,19 0 0\n")
    assert b.puzzle.squares[0] == (Clue(), Clue(16, None), Clue(3, None))
    assert b.puzzle.squares[1][0] == Clue(None, 19)


def test_csv_spells_clues_as_1vvhh():
    b = board("2 3\n- 16, 3,\n,19 0 0\n")
    assert formats.write_csv(b) == "10000,11600,10300\n10019,0,0\n"


def test_kind_interface_reads_and_writes():
    b = KAKURO.formats.read(sample("kakuro-10x12.csv"), None, 20_000)
    assert tuple(KAKURO.formats.FORMATS) == ("json", "janko", "csv", "penpa", "puzzlink")
    assert KAKURO.formats.write(b, "janko") == sample("kakuro-10x12.txt")
    assert KAKURO.formats.write_solution(
        b.puzzle, solution_grid("kakuro-10x12.solution.txt")
    ) == sample("kakuro-10x12.solution.txt")


# ---------------------------------------------------------------- every problem at once


def test_janko_two_unknown_tokens_are_two_findings_with_their_cells():
    error = read_error("3 3\n- 4, 6,\n,3 x 0\n,7 0 7?\n")
    assert codes(error.findings) == [("unknown_token", ((1, 1),)), ("unknown_token", ((2, 2),))]
    assert "'x'" in error.findings[0].message and "'7?'" in error.findings[1].message
    assert "(and 1 more)" in str(error)


def test_janko_ragged_rows_are_reported_with_their_row():
    error = read_error("4 3\n- 4, 6,\n,3 0\n,7 0 0 0\n,7 0 0\n")
    assert codes(error.findings) == [("ragged_row", ((1, 2),)), ("ragged_row", ((2, 3),))]
    assert error.findings[0].message == "row 1 has 2 cells, expected 3"
    assert error.findings[1].message == "row 2 has 4 cells, expected 3"


# A JSON puzzle with a row short, a black cell's clue as a string, a cell of an unknown
# field and a white one holding 7.
JSON_PROBLEMS = json.dumps(
    {
        "kakuro": {
            "rows": [
                {"cells": [{"black": True}, {"black": True, "down": "3"}]},
                {"cells": [{"colour": "red"}, 7]},
                {"cells": [{}]},
            ]
        }
    }
)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        pytest.param(
            "4 3\n- 4, 6,\n,3 0\n,7 0 ?\n",
            [("row_count", ((3, 0),)), ("ragged_row", ((1, 2),)), ("unknown_token", ((2, 2),))],
            id="janko-row-count-ragged-rows-and-bad-tokens",
        ),
        pytest.param(
            "10000,10400,10600\n10003,0,12\n10007,0\n10007,0,0,-1\n",
            [
                ("ragged_row", ((2, 2),)),
                ("ragged_row", ((3, 3),)),
                ("unknown_token", ((1, 2),)),
                ("unknown_token", ((3, 3),)),
            ],
            id="csv",
        ),
        pytest.param(
            "10000,14600\n20003,0\n",
            [("unknown_token", ((0, 1),)), ("unknown_token", ((1, 0),))],
            id="csv-sum-over-45-and-wrong-lead-digit",
        ),
        pytest.param(
            JSON_PROBLEMS,
            [
                ("ragged_row", ((2, 1),)),
                ("bad_value", ((0, 1),)),
                ("unknown_token", ((1, 0),)),
                ("bad_value", ((1, 1),)),
            ],
            id="json",
        ),
    ],
)
def test_every_problem_of_a_text_is_reported_in_order(text, found):
    assert codes(read_error(text).findings) == found


@pytest.mark.parametrize(
    "text", ['{"kakuro": []}', '{"kakuro": 5}', '{"kakuro": {"rows": {"cells": []}}}']
)
def test_json_of_the_wrong_shape_is_a_puzzle_error(text):
    assert codes(read_error(text).findings) == [("bad_shape", ())]


def test_json_nested_too_deep_is_a_puzzle_error():
    error = read_error("[" * 100_000, "json")
    assert codes(error.findings) == [("not_json", ())]


@pytest.mark.parametrize("text", ["2 2\n- ²,\n,3 0\n", "1,²\n", "² 2\n- -\n"])
def test_unicode_digits_int_cannot_read_are_reported_not_crashed_on(text):
    assert read_error(text).findings[0].code in ("unknown_token", "unknown_format")


# ---------------------------------------------------------------- size limits


def test_default_limit_admits_124x90():
    assert formats.DEFAULT_MAX_CELLS >= 124 * 90
    text = f"124 90\n- {' '.join(['9,'] * 89)}\n" + "".join(
        f",45 {' '.join('0' * 89)}\n" for _ in range(123)
    )
    for fmt in FORMATS:
        b = formats.read(formats.write(board(text), fmt), fmt)
        assert (b.puzzle.rows, b.puzzle.cols) == (124, 90), fmt


@pytest.mark.parametrize("fmt", FORMATS)
def test_default_limit_refuses_a_larger_grid(fmt):
    # built directly, not read: the reader would refuse it
    big = Board.empty(Puzzle(tuple(tuple(Clue() for _ in range(150)) for _ in range(150))))
    error = read_error(formats.write(big, fmt), fmt)
    assert codes(error.findings) == [("grid_too_large", ())]
    assert "150x150 = 22500 cells" in error.findings[0].message
    assert f"limit of {formats.DEFAULT_MAX_CELLS} cells" in error.findings[0].message


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_smaller_custom_limit(fmt):
    text = formats.write(board(sample("kakuro-10x12.txt")), fmt)  # 120 cells
    assert formats.read(text, fmt, max_cells=120).puzzle.rows == 10
    error = read_error(text, fmt, max_cells=119)
    assert codes(error.findings) == [("grid_too_large", ())]
    assert "10x12 = 120 cells is over the limit of 119 cells" in error.findings[0].message


def test_huge_header_fails_fast_without_allocating():
    tracemalloc.start()
    try:
        error = read_error("100000 100000\n- - -\n")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert codes(error.findings) == [("grid_too_large", ())]
    assert "100000x100000" in error.findings[0].message
    assert peak < 1_000_000  # 10^10 cells would need gigabytes


def test_one_column_csv_reads_when_the_format_is_given():
    board = formats.read("10000\n10300\n0\n0\n", "csv")
    assert board.puzzle.cols == 1
    assert board.puzzle.squares[1][0] == Clue(3, None)


def test_a_clue_over_45_cannot_be_written_as_1vvhh():
    board = formats.read("2 2\n- 50,\n- 0\n")
    with pytest.raises(PuzzleError) as caught:
        formats.write(board, "csv")
    assert codes(caught.value.findings) == [("clue_too_large", ((0, 1),))]
