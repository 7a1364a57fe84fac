"""The ``numgrid`` CLI with Skyscraper, run as a user runs it (embedded and against a server)."""

from __future__ import annotations

import json

from client_support import PUZZLES, numgrid

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
TOWERS = (PUZZLES / "skyscraper-6x6.towers").read_text().strip()


def test_solve_draws_the_clues_around_the_grid(mode):
    done = numgrid(*mode, "solve", str(PUZZLES / "skyscraper-5x5.txt"))
    assert done.returncode == 0, done.stderr
    assert BOARD in done.stdout


def test_a_towers_game_id_from_stdin(mode):
    done = numgrid(*mode, "--json", "unique", "-", stdin=TOWERS + "\n")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["verdict"] == "UNIQUE"
    assert record["solutions"][0].startswith("6 6 6\n")


def test_kind_and_format_can_be_named(mode, tmp_path):
    path = tmp_path / "towers.txt"
    path.write_text(TOWERS)
    done = numgrid(*mode, "--kind", "skyscraper", "--format", "tatham", "explain", str(path))
    assert done.returncode == 0, done.stderr
    assert "grade" in done.stdout.lower() and "visibility bounds" in done.stdout


def test_empty_lots_are_drawn_and_the_variant_said(mode):
    done = numgrid(*mode, "solve", str(PUZZLES / "skyscraper-5x5-empty-lots.txt"))
    assert done.returncode == 0, done.stderr
    assert "heights 1-4 and one empty lot (x) per line" in done.stdout
    assert "2 | 3  x  1  2  4 | 1" in done.stdout


def test_a_bad_skyscraper_exits_non_zero_naming_the_clue(mode, tmp_path):
    path = tmp_path / "broken.txt"
    path.write_text("3 3 3\n4 - -\n- - -\n- - -\n- - -\n- - -\n- - -\n- - -\n")
    done = numgrid(*mode, "validate", str(path))
    assert done.returncode == 1
    assert "clue 4 above column 0" in done.stdout + done.stderr
