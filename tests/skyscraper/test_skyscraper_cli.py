"""The ``numgrid`` CLI with Skyscraper, run as a user runs it (embedded and against a
server): the board drawn with its edge clues, every format and variant, hints and
explanations in words, bad clues named."""

from __future__ import annotations

import json

from support.client import numgrid
from support.client import sample

BOARD = """\
    1  3  2  2  3
  +---------------+
1 | 5  3  2  4  1 | 3
3 | 1  2  5  3  4 | 2
3 | 3  4  1  2  5 | 1
2 | 4  5  3  1  2 | 3
3 | 2  1  4  5  3 | 2
  +---------------+
    3  2  2  1  2
"""


def test_solve_draws_the_towers_inside_their_clues(mode):
    done = numgrid(*mode, "solve", "puzzles/skyscraper-5x5.txt")
    assert done.returncode == 0, done.stderr
    assert "UNIQUE" in done.stdout and BOARD in done.stdout


def test_every_format_and_variant_is_read(mode):
    files = [
        "puzzles/skyscraper-5x5.json",
        "puzzles/skyscraper-6x6.towers",
        "puzzles/skyscraper-5x5-empty-lots.txt",
        "puzzles/skyscraper-4x4-diagonal.txt",
    ]
    done = numgrid(*mode, "--json", "unique", *files)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["verdict"] for r in records] == ["UNIQUE"] * 4
    assert records[2]["solutions"] == [sample("skyscraper-5x5-empty-lots.solution.txt")]
    assert records[3]["solutions"] == [sample("skyscraper-4x4-diagonal.solution.txt")]


def test_empty_lots_are_drawn_and_named():
    done = numgrid("solve", "puzzles/skyscraper-5x5-empty-lots.txt")
    assert done.returncode == 0, done.stderr
    assert "heights 1-4 and one empty lot (x) per line" in done.stdout
    assert "2 | 3  x  1  2  4 | 1" in done.stdout


def test_a_hint_names_its_technique_and_marks_its_cell(mode):
    done = numgrid(*mode, "hint", "puzzles/skyscraper-5x5.txt")
    assert done.returncode == 0, done.stderr
    assert "edge clue: Clue 1 above column 0 sees only the tallest tower (5)" in done.stdout
    assert "1 |[5] ." in done.stdout


def test_a_clue_too_large_exits_non_zero_naming_it(mode, tmp_path):
    path = tmp_path / "bad.txt"
    lines = ["5 5 5", "1 3 2 2 9", "3 2 2 1 2", "1 3 3 2 3", "3 2 1 3 2"] + ["- - - - -"] * 5
    path.write_text("\n".join(lines) + "\n")
    done = numgrid(*mode, "validate", str(path))
    assert done.returncode == 1
    assert "clue 9 above column 4: no more than 5 towers can be seen" in done.stdout


def test_the_batch_path_checks_skyscrapers_too(mode):
    done = numgrid(*mode, "unique", "--batch", "puzzles/skyscraper-5x5.txt", "--json")
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert record["verdict"] == "UNIQUE"
