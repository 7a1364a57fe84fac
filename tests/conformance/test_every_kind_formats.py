"""Every kind's formats: each corpus puzzle written in each format reads back the same,
is detected as that format and that kind, and holds its solution as entries (but in a
format that holds the puzzle only); the published solution's text reads back; a format
that cannot hold a puzzle refuses it with a finding."""

from __future__ import annotations

import pytest
from numgrid.server.core import Board, PuzzleError
from numgrid.server.kinds import detect
from support.corpus import corpus_ids, corpus_puzzle
from support.facts import KINDS, MAX_CELLS, entered, facts

CASES = [
    pytest.param(kind, fmt, id=f"{kind.name}-{fmt}")
    for kind in KINDS
    for fmt in kind.formats.FORMATS
]


@pytest.mark.parametrize(("kind", "fmt"), CASES)
def test_every_corpus_puzzle_round_trips_through_the_format(kind, fmt):
    written = 0
    for key in corpus_ids(kind.name):
        puzzle, solution = corpus_puzzle(kind.name, key)
        board = Board.empty(puzzle)
        try:
            text = kind.formats.write(board, fmt)
        except PuzzleError as e:  # a puzzle the format cannot hold, e.g. a variant
            assert e.findings and all(f.message for f in e.findings), key
            continue
        written += 1
        assert kind.formats.sniff(text) == fmt, key
        assert detect(text) is kind, key
        assert kind.formats.read(text, fmt, MAX_CELLS) == board, key
        assert kind.formats.read(text, None, MAX_CELLS) == board, key
        if fmt in facts(kind).formats_without_entries:
            assert (
                kind.formats.read(kind.formats.write(Board(puzzle, solution), fmt), fmt, MAX_CELLS)
                == board
            )
        else:
            assert entered(kind, puzzle, solution, fmt) == entered(kind, puzzle, solution), key
    assert written > 0, f"no corpus puzzle fits {fmt}"


def test_every_published_solution_reads_back_from_its_text(kind):
    read_solution = kind.formats.read_solution
    for key in corpus_ids(kind.name):
        puzzle, solution = corpus_puzzle(kind.name, key)
        assert read_solution(kind.formats.write_solution(puzzle, solution)) == solution, key
