"""The ``numgrid`` CLI with KenKen, run as a user runs it (embedded and against a server)."""

from __future__ import annotations

import json

from support.client import numgrid

SMALL = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3\n"
BOARD = """\
+-----+-----+-----+-----+
|3    |16x        |2/   |
|  3  |  4     1  |  2  |
+-----+-----+     +     +
|2/   |1-   |     |     |
|  2  |  3  |  4  |  1  |
+     +     +-----+-----+
|     |     |5+   |12x  |
|  1  |  2  |  3  |  4  |
+-----+-----+     +     +
|3-         |     |     |
|  4     1  |  2  |  3  |
+-----+-----+-----+-----+
"""
KEEN = "4:_a__b3__a_3a__,a7m4a5m24s2d2s1"


def test_solve_draws_the_cages(mode, tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(SMALL)
    done = numgrid(*mode, "solve", str(path))
    assert done.returncode == 0, done.stderr
    assert BOARD in done.stdout


def test_a_keen_game_id_from_stdin(mode):
    done = numgrid(*mode, "--json", "unique", "-", stdin=KEEN + "\n")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["verdict"] == "UNIQUE"
    assert record["solutions"][0].startswith("4 4\n")


def test_kind_and_format_can_be_named(mode, tmp_path):
    path = tmp_path / "keen.txt"
    path.write_text(KEEN)
    done = numgrid(*mode, "--kind", "kenken", "--format", "tatham", "explain", str(path))
    assert done.returncode == 0, done.stderr
    assert "grade" in done.stdout.lower()


def test_an_unknown_kind_is_unsupported(mode, tmp_path):
    path = tmp_path / "nonogram.json"
    path.write_text('{"nonogram": {"rows": []}}')
    done = numgrid(*mode, "unique", str(path))
    assert done.returncode == 1
    assert "unsupported kind 'nonogram'" in done.stdout + done.stderr
