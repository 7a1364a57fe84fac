"""The ``numgrid`` CLI with Kakurasu, run as a user runs it (embedded and against a
server): the board drawn with its weights and clues, kinds and formats named, hints
and explanations in words, bad clues named."""

from __future__ import annotations

import json

from numgrid.client.batch_cli import janko_solution
from numgrid.client.render import entries
from numgrid.client.render import render
from numgrid.client.render import solution_text
from numgrid.client.render import with_entries
from numgrid.server.kinds.kakurasu import messages
from support.client import numgrid
from support.client import sample
from support.kakurasu import KAKURASU

BOARD = """\
     1   2   3   4   5
   +--------------------+
 1 | -   -   -   ▓▓  -  |   4
 2 | -   -   -   -   ▓▓ |   5
 3 | ▓▓  ▓▓  -   ▓▓  -  |   7
 4 | -   -   ▓▓  ▓▓  ▓▓ |  12
 5 | ▓▓  ▓▓  ▓▓  ▓▓  -  |  10
   +--------------------+
     8   8   9   13  6
"""


def test_solve_draws_the_shading_with_weights_and_clues(mode):
    done = numgrid(*mode, "solve", "--grade", "puzzles/kakurasu-5x5.txt")
    assert done.returncode == 0, done.stderr
    assert "UNIQUE" in done.stdout and "grade: EASY" in done.stdout
    assert BOARD in done.stdout


def test_the_json_file_and_the_solution_text(mode):
    done = numgrid(*mode, "--json", "unique", "puzzles/kakurasu-5x5.json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["verdict"] == "UNIQUE"
    assert record["solutions"] == [sample("kakurasu-5x5.solution.txt")]


def test_kind_and_format_can_be_named(mode, tmp_path):
    path = tmp_path / "kakurasu.txt"
    path.write_text(sample("kakurasu-5x5.txt"))
    done = numgrid(*mode, "--kind", "kakurasu", "--format", "janko", "explain", str(path))
    assert done.returncode == 0, done.stderr
    assert "1. sum bounds: Column 3 (clue 13) needs 13" in done.stdout
    assert "16 steps, grade EASY" in done.stdout


def test_a_hint_on_marks_in_the_file(mode, tmp_path):
    path = tmp_path / "marked.txt"
    path.write_text(sample("kakurasu-5x5.txt") + "x - . . .\n" + ". . . . .\n" * 4)
    done = numgrid(*mode, "hint", str(path))
    assert done.returncode == 0, done.stderr
    assert "Fix r0c0: the entry differs from the puzzle's unique solution." in done.stdout
    assert "[▓▓]" in done.stdout


def test_the_drawing_of_marks_missing_clues_and_ascii():
    board = KAKURASU.formats.read("2 3\n- 3 4\n3 -\nx - .\n. . x\n", None, 100)
    puzzle = messages.to_proto(board)
    assert render(puzzle, marks=[(0, 0)], width=80, ascii_only=True) == (
        "     1   2   3\n"
        "   +------------+\n"
        " 1 |[##] -   .  |   3\n"
        " 2 | .   .   ## |\n"
        "   +------------+\n"
        "         3   4\n"
    )
    assert entries(with_entries(puzzle, ((0, 0, 0), (0, 0, 0)))) == ((0, 0, 0), (0, 0, 0))
    assert solution_text(puzzle, ((1, -1, -1), (-1, 1, 1))) == "2 3\nx - -\n- x x\n"
    assert janko_solution(((1, -1, -1), (-1, 1, 1))) == "2 3\n1 - -\n- 1 1\n"  # a batch's
