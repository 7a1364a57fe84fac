"""KenKen formats: janko text, Tatham's Keen game IDs and the protobuf JSON, with detection."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from google.protobuf import json_format
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds.kakuro import formats as kakuro_formats
from numgrid.server.kinds.kenken import arith
from numgrid.server.kinds.kenken import checks
from numgrid.server.kinds.kenken import formats
from numgrid.server.kinds.kenken.model import Cage
from numgrid.server.kinds.kenken.model import Puzzle
from numgrid.v1 import puzzle_pb2
from support import DATA
from support import REPO
from support.corpus import corpus as kind_corpus

KEEN_IDS = DATA / "keen-ids.txt"

SMALL = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3\n"
SMALL_SOLUTION = ((3, 4, 1, 2), (2, 3, 4, 1), (1, 2, 3, 4), (4, 1, 2, 3))
KEEN = "4:_a__b3__a_3a__,a7m4a5m24s2d2s1"


def corpus() -> dict[str, dict]:
    return kind_corpus("kenken")


@cache
def corpus_boards() -> dict[str, Board]:
    return {key: formats.read(item["problem"], "janko") for key, item in corpus().items()}


def keen_ids() -> list[tuple[str, str]]:
    lines = KEEN_IDS.read_text().splitlines()
    return [tuple(line.split()) for line in lines if line.strip() and not line.startswith("#")]


def codes(error: pytest.ExceptionInfo) -> list[str]:
    return [f.code for f in error.value.findings]


def messages(error: pytest.ExceptionInfo) -> str:
    return " | ".join(f.message for f in error.value.findings)


def cage(target: int, operation: str, *cells) -> Cage:
    return Cage(target, operation, tuple(sorted(cells)))


# ---------------------------------------------------------------- the corpus, every format


def test_every_corpus_puzzle_with_its_operations_round_trips_through_tatham():
    written = refused = 0
    for key, board in corpus_boards().items():
        missing = [
            c for c in board.puzzle.cages if c.operation == "" and len(c.cells) > 1
        ]  # janko.at's hidden operations, and the division signs the corpus lost
        if missing:
            with pytest.raises(PuzzleError) as error:
                formats.write(board, "tatham")
            assert set(codes(error)) == {"operation_missing"}, key
            assert [f.group or f.message.split(":")[0] for f in error.value.findings] == [
                c.name for c in missing
            ]
            refused += 1
            continue
        text = formats.write(board, "tatham")
        assert formats.sniff(text) == "tatham", key
        assert formats.read(text) == board, key
        written += 1
    assert written > 200 and refused == len(corpus()) - written


def test_the_corpus_solutions_round_trip_as_entries():
    for key, item in list(corpus().items())[:60]:
        solution = formats.read_solution(item["solution"])
        board = Board(corpus_boards()[key].puzzle, solution)
        for fmt in ("janko", "json"):
            assert formats.read(formats.write(board, fmt)) == board, (key, fmt)
        assert formats.read_solution(formats.write_solution(board.puzzle, solution)) == solution
        # A game ID holds the puzzle only.
        if all(c.operation or len(c.cells) == 1 for c in board.puzzle.cages):
            again = formats.read(formats.write(board, "tatham"))
            assert again == Board.empty(board.puzzle)


def test_json_is_what_protobuf_writes():
    for key, board in list(corpus_boards().items())[:40]:
        data = json.loads(formats.write(Board(board.puzzle, _partial(board)), "json"))
        message = json_format.ParseDict(data["kenken"], puzzle_pb2.KenKenPuzzle())
        assert json_format.MessageToDict(message) == data["kenken"], key
        assert formats.read(json.dumps({"kenken": json_format.MessageToDict(message)})) == Board(
            board.puzzle, _partial(board)
        )


def _partial(board: Board):
    """A few entries: the cage targets of one-cell cages."""
    grid = [list(row) for row in board.entries]
    for c in board.puzzle.cages:
        if len(c.cells) == 1 and c.target <= board.puzzle.size:
            grid[c.cells[0][0]][c.cells[0][1]] = c.target
    return tuple(map(tuple, grid))


# ---------------------------------------------------------------- detection


def test_each_format_is_detected_and_can_be_forced():
    board = formats.read(SMALL)
    texts = {fmt: formats.write(board, fmt) for fmt in formats.FORMATS}
    assert set(formats.FORMATS) == {"janko", "tatham", "json", "penpa"}
    for fmt, text in texts.items():
        assert formats.sniff(text) == fmt
        assert formats.read(text) == board
        assert formats.read(text, fmt=fmt) == board
        for other in set(formats.FORMATS) - {fmt}:
            with pytest.raises(PuzzleError):
                formats.read(text, other)


def test_unknown_formats_and_texts_are_puzzle_errors():
    with pytest.raises(PuzzleError) as error:
        formats.read(SMALL, "csv")
    assert codes(error) == ["unknown_format"] and "janko" in messages(error)
    with pytest.raises(PuzzleError) as error:
        formats.write(formats.read(SMALL), "csv")
    assert codes(error) == ["unknown_format"]
    for text in ("", "hello", "4 4\n1 2 3 4\n", "{}", "[1, 2]", "{"):
        assert formats.sniff(text) is None
        with pytest.raises(PuzzleError) as error:
            formats.read(text)
        assert codes(error) == ["unknown_format"]


def test_kakuro_texts_are_not_claimed():
    samples = [p for p in (REPO / "puzzles").iterdir() if not p.name.startswith("kenken")]
    texts = [p.read_text() for p in samples if p.suffix in (".txt", ".csv", ".json")]
    kakuro = kind_corpus("kakuro")
    texts += [item["problem"] for item in list(kakuro.values())[:100]]
    texts += [item["solution"] for item in list(kakuro.values())[:20]]
    square = "3 3\n- 4, 3,\n,4 0 0\n,3 0 0\n"  # square, as many lines as rows
    texts += [square, kakuro_formats.write(kakuro_formats.read(square), "csv")]
    assert len(texts) > 120
    assert [t for t in texts if formats.sniff(t) is not None] == []


def test_the_sample_files_read_as_the_corpus_puzzle():
    puzzles = REPO / "puzzles"
    board = formats.read((puzzles / "kenken-4x4.txt").read_text())
    assert board == formats.read(corpus()["02_4x4"]["problem"]) == formats.read(SMALL)
    assert formats.read((puzzles / "kenken-4x4.json").read_text()) == board
    solution = formats.read_solution((puzzles / "kenken-4x4.solution.txt").read_text())
    assert solution == SMALL_SOLUTION
    keen = (puzzles / "kenken-6x6.keen").read_text()
    assert formats.sniff(keen) == "tatham" and formats.read(keen).puzzle.size == 6


# ---------------------------------------------------------------- janko


@pytest.mark.parametrize("token", ["16*", "16x", "16X", "16\N{MULTIPLICATION SIGN}"])
def test_janko_spellings_of_multiply(token):
    board = formats.read(SMALL.replace("16*", token))
    assert board.puzzle.cages[1] == cage(16, "x", (0, 1), (0, 2), (1, 2))


@pytest.mark.parametrize("sign", ["/", ":", "\N{DIVISION SIGN}"])
def test_janko_spellings_of_divide(sign):
    board = formats.read(SMALL.replace("2/ 1-", f"2{sign} 1-"))
    assert board.puzzle.cages[3] == cage(2, "/", (1, 0), (2, 0))


def test_janko_spellings_of_subtract():
    typeset = formats.read(SMALL.replace("2/ 1-", "2/ 1\N{MINUS SIGN}"))
    assert typeset == formats.read(SMALL)


def test_janko_reads_the_clue_wherever_it_is_in_its_cage_and_writes_it_first():
    moved = SMALL.replace("3- . . .", ". 3- . .").replace(". . 5+ 12*", ". . 5+ 12*")
    board = formats.read(moved)
    assert cage(3, "-", (3, 0), (3, 1)) in board.puzzle.cages
    assert formats.write(board, "janko").splitlines()[4] == "3- . . ."


def test_janko_entries_block():
    text = SMALL + "3 . 0 -\n. . . .\n. . . .\n. . . 3\n"
    board = formats.read(text)
    assert board.entries == ((3, 0, 0, 0), (0,) * 4, (0,) * 4, (0, 0, 0, 3))
    assert formats.read(formats.write(board, "janko")) == board


def test_janko_problems_name_their_cells():
    ragged = SMALL.replace("2/ 1- . .", "2/ 1- .")
    with pytest.raises(PuzzleError) as error:
        formats.read(ragged)
    assert codes(error) == ["ragged_row"]
    assert error.value.findings[0].cells == ((1, 3),)
    assert messages(error).startswith("r1c3: clue row 1 has 3 tokens, expected 4")

    unknown = SMALL.replace("16*", "16?").replace("5+", "+5")
    with pytest.raises(PuzzleError) as error:
        formats.read(unknown)
    assert codes(error) == ["unknown_token", "unknown_token"]
    assert [f.cells for f in error.value.findings] == [((0, 1),), ((2, 2),)]
    assert messages(error).startswith("r0c1: unknown clue '16?'")

    entries = SMALL + "5 . . .\n. x . .\n. . . .\n. . . 9\n"
    with pytest.raises(PuzzleError) as error:
        formats.read(entries)
    assert codes(error) == ["bad_digit", "unknown_token", "bad_digit"]
    assert [f.cells for f in error.value.findings] == [((0, 0),), ((1, 1),), ((3, 3),)]
    assert "r0c0: entered value 5 is not a digit 1-4" in messages(error)
    assert "r1c1: entry 'x' is not a digit" in messages(error)


def test_janko_cages_need_one_clue():
    no_clue = SMALL.replace("3 16*", ". 16*")
    with pytest.raises(PuzzleError) as error:
        formats.read(no_clue)
    assert codes(error) == ["cage_without_clue"] and "r0c0" in messages(error)
    two = SMALL.replace("2/ 1- . .", "2/ 1- 4 .")
    with pytest.raises(PuzzleError) as error:
        formats.read(two)
    assert codes(error) == ["cage_with_two_clues"]
    assert error.value.findings[0].cells == ((0, 1), (1, 2))


def test_janko_header_line_count_and_size():
    with pytest.raises(PuzzleError) as error:
        formats.read(SMALL + "1 2 3 4\n", "janko")
    assert codes(error) == ["row_count"] and "expected 8 lines" in messages(error)
    assert formats.sniff(SMALL + "1 2 3 4\n") == "janko"  # claimed: the reader says why
    with pytest.raises(PuzzleError) as error:
        formats.read("4 5\n" + SMALL.split("\n", 1)[1], "janko")
    assert codes(error) == ["bad_header"] and "square" in messages(error)
    with pytest.raises(PuzzleError) as error:
        formats.read("17 17\n" + ". \n" * 34, "janko")
    assert codes(error) == ["bad_size"]
    with pytest.raises(PuzzleError) as error:
        formats.read(SMALL, max_cells=15)
    assert codes(error) == ["grid_too_large"]
    assert messages(error) == "grid of 4x4 = 16 cells is over the limit of 15 cells"


# ---------------------------------------------------------------- Tatham's Keen


def test_the_keen_ids_file():
    ids = keen_ids()
    assert len(ids) >= 30
    sizes = set()
    for params, game_id in ids:
        board = formats.read(game_id)
        puzzle = board.puzzle
        assert formats.sniff(game_id) == "tatham"
        assert puzzle.size == int(params.split("d")[0])
        sizes.add(puzzle.size)
        assert not checks.check_puzzle(puzzle), game_id  # connected, covering, possible
        assert len(puzzle.cages) == len(game_id.split(",")[1].translate(_DIGITS_OUT))
        assert formats.write(board, "tatham").strip() == game_id  # as keen.c encodes it
        assert formats.read(f"{params}:{game_id.split(':')[1]}") == board
        if puzzle.size <= 6:
            assert _solutions(puzzle) == 1, game_id
    assert sizes == set(range(3, 10))


_DIGITS_OUT = str.maketrans("", "", "0123456789")


def _solutions(puzzle: Puzzle, limit: int = 2) -> int:
    """A small search over the cages' layouts (enough for 6x6)."""
    n = puzzle.size
    cages = sorted(puzzle.cages, key=lambda c: len(arith.layouts(c, n)))
    rows, cols = [0] * n, [0] * n
    found = 0

    def place(i: int) -> None:
        nonlocal found
        if found >= limit:
            return
        if i == len(cages):
            found += 1
            return
        for layout in arith.layouts(cages[i], n):
            cells = cages[i].cells
            if any(
                rows[r] >> d & 1 or cols[c] >> d & 1
                for (r, c), d in zip(cells, layout, strict=True)
            ):
                continue
            for (r, c), d in zip(cells, layout, strict=True):
                rows[r] |= 1 << d
                cols[c] |= 1 << d
            place(i + 1)
            for (r, c), d in zip(cells, layout, strict=True):
                rows[r] &= ~(1 << d)
                cols[c] &= ~(1 << d)

    place(0)
    return found


def test_a_keen_id_decodes_to_the_expected_cages():
    # Walls in reading order, then column by column: checked by hand against keen.c.
    board = formats.read(KEEN)
    assert board.puzzle.size == 4
    assert board.puzzle.cages == (
        cage(7, "+", (0, 0), (1, 0)),
        cage(4, "x", (0, 1), (0, 2)),
        cage(5, "+", (0, 3), (1, 2), (1, 3)),
        cage(24, "x", (1, 1), (2, 0), (2, 1)),
        cage(2, "-", (2, 2), (2, 3)),
        cage(2, "/", (3, 0), (3, 1)),
        cage(1, "-", (3, 2), (3, 3)),
    )
    assert board.entries == ((0,) * 4,) * 4


def test_a_random_seed_id_is_explained():
    for seed in ("6dh#12345", "6#1", "9dxm#abc"):
        assert formats.sniff(seed) == "tatham"
        with pytest.raises(PuzzleError) as error:
            formats.read(seed)
        assert codes(error) == ["random_seed_id"]
        assert messages(error).startswith(
            "a random-seed ID cannot be read: paste the game ID with ':'"
        )


def test_keen_params_prefixes():
    walls_and_clues = KEEN.split(":", 1)[1]
    board = formats.read(KEEN)
    for params in ("4", "4de", "4dn", "4dh", "4dx", "4du", "4dem", "4m"):
        assert formats.read(f"{params}:{walls_and_clues}") == board
        assert formats.read(f"  {params}:{walls_and_clues}\n") == board
    with pytest.raises(PuzzleError) as error:
        formats.read(f"4dq:{walls_and_clues}")
    assert codes(error) == ["bad_keen_id"] and "difficulty" in messages(error)
    with pytest.raises(PuzzleError) as error:
        formats.read(f"5:{walls_and_clues}")
    assert codes(error) == ["bad_keen_id"] and "walls" in messages(error)


def test_keen_one_cell_cages_and_faithful_reading():
    # 3x3: the top row one cage of three, then one-cell cages a2 / m3 and others.
    puzzle = Puzzle(
        3,
        (
            cage(6, "+", (0, 0), (0, 1), (0, 2)),
            cage(2, "", (1, 0)),
            cage(2, "-", (1, 1), (1, 2)),
            cage(3, "", (2, 0)),
            cage(2, "/", (2, 1), (2, 2)),
        ),
    )
    text = formats.write(Board.empty(puzzle), "tatham").strip()
    assert text.endswith(",a6a2s2a3d2")
    assert formats.read(text).puzzle == puzzle
    assert formats.read(text.replace("a3d2", "m3d2")).puzzle == puzzle
    # s on a one-cell cage is kept for the checks to report.
    odd = formats.read(text.replace("a3d2", "s3d2")).puzzle
    assert odd.cages[3] == cage(3, "-", (2, 0))
    assert [f.code for f in checks.check_puzzle(odd)] == ["operation_needs_two_cells"]


def test_keen_runs_of_25_and_more_as_keen_c_parses_them():
    rows = Puzzle(6, tuple(cage(21, "+", *((r, c) for c in range(6))) for r in range(6)))
    cols = Puzzle(6, tuple(cage(21, "+", *((r, c) for r in range(6))) for c in range(6)))
    clues = "a21" * 6
    # 30 non-walls then a wall: y (25, no wall) and e (5, then a wall); sgt-keen loads these.
    assert formats.write(Board.empty(rows), "tatham") == f"6:ye_30,{clues}\n"
    assert formats.write(Board.empty(cols), "tatham") == f"6:_30ye,{clues}\n"
    assert formats.read(f"6:ye_30,{clues}").puzzle == rows
    assert formats.read(f"6:_30ye,{clues}").puzzle == cols
    # z: 26 non-walls, then a wall; written as y and a (25 without a wall, 1 and a wall).
    joined = Puzzle(
        6,
        (
            *rows.cages[:5],
            cage(3, "+", (5, 0), (5, 1)),
            *(cage(c, "", (5, c)) for c in range(2, 6)),
        ),
    )
    text = formats.write(Board.empty(joined), "tatham")
    assert text.startswith("6:ya_34,")
    assert formats.read(text.replace("ya", "z", 1)).puzzle == joined


def test_keen_cannot_hold_every_puzzle():
    rest = [cage(1, "", (r, 2)) for r in range(3)] + [cage(1, "", (2, c)) for c in range(2)]
    loose = Puzzle(3, (cage(3, "+", (0, 0), (1, 1)), cage(3, "+", (0, 1), (1, 0)), *rest))
    with pytest.raises(PuzzleError) as error:
        formats.write(Board.empty(loose), "tatham")
    assert codes(error) == ["cage_not_connected", "cage_not_connected"]
    assert messages(error).startswith("cage 3+ at r0c0: its cells are not connected")
    gap_cages = [cage(3, "+", (0, 0), (0, 1)), cage(1, "", (1, 0)), *rest[:-1]]
    gap = Puzzle(3, tuple(sorted(gap_cages, key=lambda one: one.cells)))
    for fmt in ("tatham", "janko"):
        with pytest.raises(PuzzleError) as error:
            formats.write(Board.empty(gap), fmt)
        assert codes(error) == ["cell_without_cage"] * 2 and "r1c1" in messages(error)
    assert formats.read(formats.write(Board.empty(gap), "json")).puzzle == gap
    # Keen plays 3x3 to 9x9 (keen.c): a smaller or larger grid has no game ID
    for n in (2, 10):
        with pytest.raises(PuzzleError) as error:
            formats.write(Board.empty(Puzzle(n, ())), "tatham")
        assert codes(error) == ["tatham_size"] and "3x3 to 9x9" in messages(error)


def test_a_one_by_one_grid():
    puzzle = Puzzle(1, (cage(1, "", (0, 0)),))
    for fmt in set(formats.FORMATS) - {"tatham"}:  # Keen's grids are 3x3 to 9x9
        assert formats.read(formats.write(Board.empty(puzzle), fmt)).puzzle == puzzle
    assert formats.read("1:_,a1").puzzle == puzzle


# ---------------------------------------------------------------- JSON


def _json(kenken) -> str:
    return json.dumps({"kenken": kenken})


def test_json_zero_values_may_be_left_out():
    text = _json(
        {
            "size": 2,
            "cages": [
                {"target": 3, "operation": "CAGE_OPERATION_ADD", "cells": [{}, {"column": 1}]},
                {"target": 2, "operation": 3, "cells": [{"row": 1}, {"row": 1, "column": 1}]},
            ],
        }
    )
    board = formats.read(text)
    assert board.puzzle == Puzzle(2, (cage(3, "+", (0, 0), (0, 1)), cage(2, "x", (1, 0), (1, 1))))
    assert board.entries == ((0, 0), (0, 0))
    assert formats.read(_json({"size": "2", "cages": [{"target": 1.0, "cells": [{}]}]}))


@pytest.mark.parametrize(
    "kenken, code, words",
    [
        ({"size": True}, "bad_shape", "size must be an integer, not true"),
        ({"size": 2**40}, "bad_shape", "out of range"),
        ({"size": 0}, "bad_size", "size 0 is not 1 to 16"),
        ({}, "bad_size", "size 0"),
        ({"size": 17}, "bad_size", "size 17"),
        ({"size": 2.5}, "bad_shape", "size must be an integer"),
        ({"size": [4]}, "bad_shape", "size must be an integer"),
        ({"size": 4, "cages": {}}, "bad_shape", "cages must be a list"),
        ({"size": 4, "colour": "red"}, "bad_shape", "unknown field(s) 'colour'"),
        ({"size": 4, "cages": [5]}, "bad_value", "cages[0] must be an object"),
        ({"size": 4, "cages": [{"target": False, "cells": [{}]}]}, "bad_value", "target"),
        ({"size": 4, "cages": [{"target": 1, "cells": {}}]}, "bad_value", "cells must be a list"),
        ({"size": 4, "cages": [{"cells": [{"row": "x"}]}]}, "bad_value", "cells[0].row"),
        ({"size": 4, "cages": [{"cells": [{"rows": 1}]}]}, "bad_value", "unknown field(s) 'rows'"),
        ({"size": 4, "cages": [{"target": 1}]}, "empty_cage", "cages[0] (1) has no cells"),
        (
            {"size": 4, "cages": [{"target": 3, "operation": "ADD", "cells": [{}]}]},
            "bad_value",
            'cages[0].operation "ADD" is not a CageOperation',
        ),
        ({"size": 4, "cages": [{"operation": 7, "cells": [{}]}]}, "bad_value", "operation 7"),
        ({"size": 4, "cages": [{"operation": True, "cells": [{}]}]}, "bad_value", "operation"),
        (
            {"size": 4, "cages": [{"target": 7, "operation": 1, "cells": [{}, {"row": 4}]}]},
            "cell_outside_grid",
            "cage 7+ at r0c0: r4c0 outside the 4x4 grid",
        ),
        (
            {"size": 4, "cages": [{"target": 7, "operation": 1, "cells": [{"row": -1}, {}]}]},
            "cell_outside_grid",
            "r-1c0 outside the 4x4 grid",
        ),
        (
            {"size": 4, "cages": [{"target": 4, "operation": 1, "cells": [{}, {}, {"row": 1}]}]},
            "duplicate_cell",
            "cage 4+ at r0c0: lists r0c0 more than once",
        ),
        ({"size": 2, "entries": {"rows": [{"values": [1, 2]}]}}, "bad_value", "1 rows"),
        ({"size": 2, "entries": {"rows": [{"values": [1]}, {}]}}, "ragged_row", "r0c1: entry"),
        (
            {"size": 2, "entries": {"rows": [{"values": [1, 3]}, {"values": [0, 0]}]}},
            "bad_digit",
            "r0c1: entered value 3 is not a digit 1-2",
        ),
        ({"size": 2, "entries": {"rows": [{"values": [1, -1]}, {}]}}, "bad_digit", "r0c1"),
        ({"size": 2, "entries": []}, "bad_value", "entries must be an object"),
    ],
)
def test_json_shape_errors_are_sentences(kenken, code, words):
    with pytest.raises(PuzzleError) as error:
        formats.read(_json(kenken))
    assert code in codes(error)
    assert words in messages(error)


def test_json_oddities():
    assert formats.sniff('{"kakuro": {"rows": []}}') is None
    assert formats.sniff("[" * 100_000) is None  # too deep for the parser: not a puzzle
    with pytest.raises(PuzzleError) as error:
        formats.read('{"kenken": {"size": 4}, "kakuro": {}}')
    assert codes(error) == ["bad_shape"] and "kakuro" in messages(error)
    with pytest.raises(PuzzleError) as error:
        formats.read('{"kenken": [1]}')
    assert codes(error) == ["bad_shape"]
    with pytest.raises(PuzzleError) as error:
        formats.read('{"kenken": {"size": 9}}', max_cells=80)
    assert codes(error) == ["grid_too_large"]
    with pytest.raises(PuzzleError) as error:
        formats.read("{" + '"kenken": {"size": 4}', "json")
    assert codes(error) == ["not_json"]
    # Cages are kept in the order of their first cell, whatever order the JSON lists.
    reversed_json = json.loads(formats.write(formats.read(SMALL), "json"))
    reversed_json["kenken"]["cages"].reverse()
    assert formats.read(json.dumps(reversed_json)) == formats.read(SMALL)


def test_solution_text():
    text = formats.write_solution(formats.read(SMALL).puzzle, SMALL_SOLUTION)
    assert text == "4 4\n3 4 1 2\n2 3 4 1\n1 2 3 4\n4 1 2 3\n"
    assert formats.read_solution(text) == SMALL_SOLUTION
    with pytest.raises(PuzzleError) as error:
        formats.read_solution(text.replace("4 1 2 3", "4 1 2 5"))
    assert codes(error) == ["bad_digit"] and error.value.findings[0].cells == ((3, 3),)
    with pytest.raises(PuzzleError) as error:
        formats.read_solution(text.replace("4 1 2 3\n", ""))
    assert codes(error) == ["row_count"]


# ---------------------------------------------------------------- property: random boards


def _random_board(rng: random.Random, n: int, with_entries: bool) -> Board:
    """A random latin square cut into random connected cages with true clues."""
    base = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    rng.shuffle(base)
    order = list(range(n))
    rng.shuffle(order)
    symbols = list(range(1, n + 1))
    rng.shuffle(symbols)
    grid = [[symbols[base[r][order[c]] - 1] for c in range(n)] for r in range(n)]
    label = {}
    for cell in rng.sample([(r, c) for r in range(n) for c in range(n)], n * n):
        if cell in label:
            continue
        label[cell] = cell
        size = rng.choice((1, 2, 2, 3, 4))
        members = [cell]
        while len(members) < size:
            r, c = rng.choice(members)
            near = rng.choice(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
            if near in label or not (0 <= near[0] < n and 0 <= near[1] < n):
                break
            label[near] = cell
            members.append(near)
    groups: dict = {}
    for cell, root in label.items():
        groups.setdefault(root, []).append(cell)
    cages = []
    for cells in groups.values():
        cells = sorted(cells)
        digits = [grid[r][c] for r, c in cells]
        if len(cells) == 1:
            options = [""]
        else:
            options = ["+", "x"]
            if len(cells) == 2:
                options += ["-"] + (["/"] if max(digits) % min(digits) == 0 else [])
        operation = rng.choice(options)
        cages.append(Cage(arith.value(operation, digits), operation, tuple(cells)))
    cages.sort(key=lambda c: c.cells)
    entries = tuple(
        tuple(grid[r][c] if with_entries and rng.random() < 0.4 else 0 for c in range(n))
        for r in range(n)
    )
    return Board(Puzzle(n, tuple(cages)), entries)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.randoms(use_true_random=False), st.booleans())
def test_random_boards_round_trip_through_every_format(n, rng, with_entries):
    board = _random_board(rng, n, with_entries)
    assert not [f for f in checks.check_puzzle(board.puzzle, board.entries) if f.is_error]
    for fmt in formats.FORMATS:
        if fmt == "tatham" and n < 3:  # Keen's grids are 3x3 to 9x9
            with pytest.raises(PuzzleError):
                formats.write(board, fmt)
            continue
        text = formats.write(board, fmt)
        assert formats.sniff(text) == fmt
        expected = Board.empty(board.puzzle) if fmt in ("tatham", "penpa") else board
        assert formats.read(text) == expected
        assert formats.read(text, fmt) == expected
