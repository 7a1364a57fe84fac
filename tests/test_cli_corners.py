"""Corners a careless user finds at the terminal (issue 29, item 6): each is a plain
answer or error naming the file or option, never an internal error, and one bad file in
a batch does not lose the others' answers."""

from __future__ import annotations

import json

import pytest
from numgrid.client.client import LONGEST
from numgrid.client.client import Call
from support.client import numgrid

KAKURO = "puzzles/kakuro-10x12.csv"


def test_a_json_file_nested_too_deep_is_reported_and_the_others_answered(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' * 5000 + "1" + "}" * 5000)
    done = numgrid("unique", str(deep), KAKURO)
    assert done.returncode == 1
    assert f"{deep}: INVALID" in done.stdout and "nested too deep" in done.stdout
    assert f"{KAKURO}: UNIQUE" in done.stdout


@pytest.mark.parametrize("seconds", ["1e308", "inf", "1e10"])
def test_a_huge_timeout_means_long(seconds):
    done = numgrid("--timeout", seconds, "--json", "hint", KAKURO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["verdict"] != "TIMEOUT"


def test_a_cell_beyond_any_grid_is_an_error_naming_the_option():
    done = numgrid("render", "--svg", "/dev/null", "--mistake", "r2147483648c1", KAKURO)
    assert done.returncode == 2
    assert "--mistake" in done.stderr and "r2147483648c1" in done.stderr


def test_every_deadline_given_to_grpc_is_at_most_a_month():
    call = Call("Solve", None, lambda answer: answer, timeout=1e308)
    assert call.deadline(None) == LONGEST
    assert Call("Solve", None, lambda answer: answer).deadline(5.0) == 5.0
    assert Call("Solve", None, lambda answer: answer).deadline(None) is None
