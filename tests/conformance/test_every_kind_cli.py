"""Every kind through ``numgrid`` run as a user runs it (embedded and against a real
server): the sample solved, UNIQUE, with its published solution in the JSON line; a
broken puzzle's every error said in full, exit 1."""

from __future__ import annotations

import json

import pytest
from numgrid.server import operations
from numgrid.server.core import PuzzleError
from support import PUZZLES
from support.client import numgrid
from support.facts import facts
from support.facts import sample


def words(text: str) -> str:
    return " ".join(text.split())


def test_the_sample_is_solved_to_its_published_solution(kind, mode):
    _, solution = sample(kind)
    path = PUZZLES / facts(kind).sample
    done = numgrid(*mode, "solve", "--json", str(path))
    assert done.returncode == 0, done.stderr
    (line,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert line["verdict"] == "UNIQUE"
    assert kind.formats.read_solution(line["solutions"][0]) == solution  # as the kind publishes it


def test_a_broken_puzzle_exits_1_saying_every_error(kind, mode, tmp_path):
    path = tmp_path / "broken.txt"
    path.write_text(facts(kind).broken)
    with pytest.raises(PuzzleError) as caught:
        operations.read_board(kind, facts(kind).broken, None, 10_000)
    done = numgrid(*mode, "validate", str(path))
    assert done.returncode == 1
    said = words(done.stdout + done.stderr)
    for finding in caught.value.findings:
        assert words(finding.message) in said
