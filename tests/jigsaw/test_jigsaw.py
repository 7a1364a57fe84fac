"""Jigsaw Sudoku's own quirks: regions read from the puzzle (the corpus text, JSON, Solo's
``9j`` IDs with their walls), regions that are not N connected cells, the unmarked X
puzzles of the corpus, detection, the maker."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.base import Spec
from support.facts import errors
from support.sudoku import SGT_SOLO
from support.sudoku import assert_solo_ids_round_trip

JIGSAW = KINDS["jigsaw"]
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
# Made by sgt-solo --generate 3x3jdi.
SOLO_J = (
    "9j:b5_1_3c7_4c8h5a6c1g5b6a1b2g2c9a4h1c3_3c7_5_8b,"
    "bcb_aaab_aaab_c___aa__bcb_babcd_db_aae_a____ba_bbcaad__ecdc"
)
FOUR = "4 4\n- - - 1\n2 - - -\n- 3 4 -\n- - - -\n2 2 4 4\n2 2 4 4\n1 1 3 3\n1 1 3 3\n"
UNMARKED_X = ("651_6x6", "671_6x6", "675_6x6")


def corpus() -> dict[str, dict]:
    return json.loads((CORPUS / "jigsaw-sudoku.json").read_text())["data"]


def test_the_corpus_text_reads_regions_numbered_from_one():
    board = JIGSAW.formats.read(FOUR, None, None)
    assert board.puzzle.regions == ((1, 1, 3, 3), (1, 1, 3, 3), (0, 0, 2, 2), (0, 0, 2, 2))
    assert detect_format(FOUR) == (JIGSAW, "janko")
    assert JIGSAW.formats.write(board, "janko") == FOUR


@pytest.mark.parametrize("fmt", ["janko", "json", "tatham"])
def test_every_format_reads_back_what_it_writes(fmt):
    board = JIGSAW.formats.read(corpus()["94_9x9"]["problem"], None, None)
    again = JIGSAW.formats.read(JIGSAW.formats.write(board, fmt), fmt, None)
    assert again.puzzle.givens == board.puzzle.givens
    assert (
        JIGSAW.native.search(again.puzzle).solutions == JIGSAW.native.search(board.puzzle).solutions
    )


def test_a_solo_jigsaw_id_reads_its_walls_and_writes_them_back():
    puzzle = JIGSAW.formats.read(SOLO_J, None, None).puzzle
    assert puzzle.size == 9 and not JIGSAW.checks.check_puzzle(puzzle, None, None)
    assert JIGSAW.native.search(puzzle).verdict().value == "UNIQUE"
    assert JIGSAW.formats.write(Board(puzzle, puzzle.empty_grid()), "tatham").strip() == SOLO_J


def test_a_region_of_eight_cells_is_named():
    text = FOUR.replace("1 1 3 3\n1 1 3 3\n", "1 1 3 3\n1 1 1 3\n")
    found = errors(JIGSAW, text)
    assert any(m.startswith("region 1 has 5 cells") for m in found), found
    assert any(m.startswith("region 3 has 3 cells") for m in found), found


def test_a_region_split_in_two_is_named_with_its_pieces():
    text = FOUR.replace("2 2 4 4\n2 2 4 4\n1 1 3 3\n", "2 2 4 4\n1 1 4 4\n2 2 3 3\n")
    found = errors(JIGSAW, text)
    assert any("region 2 is not connected" in m and "(r0c0 and r0c1; r2c0" in m for m in found)


def test_a_region_number_left_without_cells_is_named_not_crashed_on():
    """Found by the fuzz test: a region with no cell had no first cell to be named by."""
    text = FOUR.replace("2 2 4 4\n2 2 4 4\n", "1 1 4 4\n1 1 4 4\n")  # no region 2
    found = errors(JIGSAW, text)
    assert any(m.startswith("region 2 has no cells") for m in found), found


def test_region_numbers_that_do_not_tile_the_grid():
    text = FOUR.replace("1 1 3 3\n1 1 3 3\n", "1 1 3 3\n1 1 3 9\n")
    assert any("region number" in m or "has" in m for m in errors(JIGSAW, text))


def test_a_region_number_0_among_numbers_from_1_names_its_cell():
    """One 0 in a map numbered 1..N is that cell's mistake (it read as numbered from 0,
    naming the cells of region N and a number 5 the file does not hold)."""
    text = FOUR.replace("1 1 3 3\n1 1 3 3\n", "1 1 3 3\n1 1 0 3\n")
    found = errors(JIGSAW, text)
    assert "r3c2: region number 0 is not one of 1-4" in found, found
    assert not any("5" in m for m in found), found


def test_duplicate_givens_in_a_region_name_both_cells():
    text = FOUR.replace("2 - - -", "2 - - 2")
    assert "row 1 holds the given 2 twice: r1c0 and r1c3" in errors(JIGSAW, text)


@pytest.mark.parametrize("key", UNMARKED_X)
def test_unmarked_x_puzzles_are_multiple_plain_and_unique_as_x(key):
    entry = corpus()[key]
    plain = JIGSAW.formats.read(entry["problem"], None, None).puzzle
    assert JIGSAW.native.search(plain, limit=2).verdict().value == "MULTIPLE"
    header, rest = entry["problem"].split("\n", 1)
    x = JIGSAW.formats.read(f"{header} X\n{rest}", None, None).puzzle
    assert x.diagonals
    found = JIGSAW.native.search(x, limit=2)
    assert found.solutions == (JIGSAW.formats.read_solution(entry["solution"]),)


def test_explain_completes_a_corpus_puzzle():
    puzzle = JIGSAW.formats.read(corpus()["94_9x9"]["problem"], None, None).puzzle
    explanation = JIGSAW.logic.explain(puzzle)
    assert explanation.solved
    assert explanation.final == JIGSAW.formats.read_solution(corpus()["94_9x9"]["solution"])


def test_the_maker_draws_regions_and_keeps_one_solution():
    puzzle, solution = JIGSAW.maker.candidate(
        Spec(6, 6, None), random.Random(3), 0.0, Budget.seconds(60)
    )
    assert not JIGSAW.checks.check_puzzle(puzzle, None, None)
    assert JIGSAW.native.search(puzzle, limit=2).solutions == (solution,)


@pytest.mark.skipif(SGT_SOLO is None, reason="sgt-solo is not installed")
def test_solo_jigsaw_ids_round_trip_through_sgt_solo():
    assert_solo_ids_round_trip(JIGSAW, "3x3jdi")
