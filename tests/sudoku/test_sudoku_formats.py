"""Sudoku's own formats: the 81-character line (and 16x16's 256), a file of lines, the
grid text, the corpus text, JSON and Tatham's Solo game IDs; each read back as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.units.formats import puzzle_lines

SUDOKU = KINDS["sudoku"]
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
LINE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
# Made by sgt-solo --generate (3x3 Intermediate, 2x3, 3x3 X).
SOLO_9 = "3x3:5c1b7a7_2_8_3a5_4p7_8a1a6a5a9a4a3a7_1p4_8a6_1_9_5a8b9c2"
SOLO_6 = "2x3:c3_5f4a3a4_2b1_4a6a1f5_6c"
SOLO_X = "3x3x:l8a4b9b2b1b7_2a5e3_6a9c4a2_4e8a6_1b9b5b8b2a5l"
SOLO_4 = "2x2:4f4_1f3"


def read(text: str, fmt: str | None = None) -> Board:
    return SUDOKU.formats.read(text, fmt, None)


def test_the_line_reads_dots_and_zeros_alike():
    board = read(LINE)
    assert board.puzzle.size == 9 and board.puzzle.boxes == (3, 3)
    assert board.puzzle.givens[0][:5] == (4, 0, 0, 0, 3)
    assert read(LINE.replace(".", "0")).puzzle == board.puzzle
    assert SUDOKU.formats.write(board, "line") == LINE + "\n"
    assert detect_format(LINE) == (SUDOKU, "line")


def test_a_16x16_line_has_256_characters_digits_then_letters():
    data = json.loads((CORPUS / "sudoku.json").read_text())["data"]
    puzzle = read(next(iter(data.values()))["problem"]).puzzle
    line = SUDOKU.formats.write(Board(puzzle, puzzle.empty_grid()), "line").strip()
    assert len(line) == 256 and set(line) <= set("123456789ABCDEFG.")
    assert read(line).puzzle == puzzle
    assert read(line.lower()).puzzle == puzzle


def test_a_file_of_lines_is_many_puzzles_one_a_line():
    text = "# two puzzles\n" + LINE + "\n\n" + LINE.replace("4", ".", 1) + "\n"
    assert [k for k, _ in puzzle_lines(text)] == [2, 4]
    with pytest.raises(PuzzleError, match="holds 2 puzzles, one a line"):
        read(text)


def test_the_grid_text_with_a_frame_and_spaces():
    rows = [LINE[r * 9 : r * 9 + 9] for r in range(9)]
    drawn = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            drawn.append("------+-------+------")
        drawn.append(" | ".join(" ".join(row[c : c + 3]) for c in (0, 3, 6)))
    board = read("\n".join(drawn) + "\n")
    assert board.puzzle == read(LINE).puzzle
    assert detect_format("\n".join(drawn))[1] == "grid"
    assert read(SUDOKU.formats.write(board, "grid")).puzzle == board.puzzle


@pytest.mark.parametrize("fmt", ["janko", "json", "tatham", "line", "grid"])
def test_every_format_reads_back_what_it_writes(fmt):
    board = read(LINE)
    again = read(SUDOKU.formats.write(board, fmt), fmt)
    assert again.puzzle == board.puzzle


def test_json_keeps_the_x_variant_and_the_entries():
    text = (
        '{"sudoku": {"size": 4, "diagonals": true, "givens": {"rows": [{"values": [1,0,0,0]},'
        '{"values": [0,0,0,0]},{"values": [0,0,0,0]},{"values": [0,0,0,2]}]},'
        '"entries": {"rows": [{"values": [0,2,0,0]},{"values": [0,0,0,0]},'
        '{"values": [0,0,0,0]},{"values": [0,0,0,0]}]}}}'
    )
    board = read(text)
    assert board.puzzle.diagonals and board.entries[0][1] == 2
    assert read(SUDOKU.formats.write(board, "json")) == board


def test_json_refuses_an_entry_over_a_given_that_differs_from_it():
    def grid(*rows: list[int]) -> str:
        return json.dumps({"rows": [{"values": row} for row in rows]})

    rows = grid([1, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2])
    text = '{"sudoku": {"size": 4, "givens": %s, "entries": %s}}'
    with pytest.raises(PuzzleError) as caught:
        read(text % (rows, grid([3, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4])))
    assert [(f.code, f.cells, f.message) for f in caught.value.findings] == [
        ("given_changed", ((0, 0),), "r0c0: entry 3 over the given 1"),
        ("given_changed", ((3, 3),), "r3c3: entry 4 over the given 2"),
    ]
    same = grid([1, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2])  # the givens themselves
    board = read(text % (rows, same))
    assert board.entries[0] == (0, 2, 0, 0) and board.entries[3] == (0, 0, 0, 0)


@pytest.mark.parametrize(
    "game_id, size, boxes, diagonals",
    [
        (SOLO_9, 9, (3, 3), False),
        (SOLO_6, 6, (2, 3), False),
        (SOLO_X, 9, (3, 3), True),
        (SOLO_4, 4, (2, 2), False),
    ],
)
def test_solo_game_ids_read_unique_and_write_back(game_id, size, boxes, diagonals):
    puzzle = read(game_id).puzzle
    assert (puzzle.size, puzzle.boxes, puzzle.diagonals) == (size, boxes, diagonals)
    assert SUDOKU.native.search(puzzle, limit=2).verdict().value == "UNIQUE"
    assert SUDOKU.formats.write(Board(puzzle, puzzle.empty_grid()), "tatham").strip() == game_id
    assert detect_format(game_id) == (SUDOKU, "tatham")


def test_the_corpus_text_and_its_solution():
    data = json.loads((CORPUS / "sudoku.json").read_text())["data"]
    entry = next(iter(data.values()))
    puzzle = read(entry["problem"]).puzzle
    assert puzzle.size == 16 and puzzle.boxes == (4, 4)
    found = SUDOKU.native.search(puzzle, limit=2)
    assert found.solutions == (SUDOKU.formats.read_solution(entry["solution"]),)
    assert (
        SUDOKU.formats.read_solution(SUDOKU.formats.write_solution(puzzle, found.solutions[0]))
        == found.solutions[0]
    )
