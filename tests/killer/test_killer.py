"""Killer Sudoku's own quirks: cages read from the corpus text, JSON and Solo's killer
IDs; the checks naming each cage; detection beside a KenKen without operations; the
shared sum-combination table; the cage techniques' sentences; the maker."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from numgrid.client.batch_cli import dataset_kind
from numgrid.server.chain import Grade
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import Severity
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import cagesums
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.kakuro import sums as kakuro_sums
from numgrid.server.kinds.killer.native import rule_of_45
from support import PUZZLES
from support.facts import errors
from support.sudoku import SGT_SOLO

KILLER = KINDS["killer"]
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
# a 4x4: rows 0-1 of cages of two cells, rows 2-3 of cages of four
FOUR = "4 4 K\n3 - 7 -\n7 - 3 -\n10 - - -\n10 - - -\n1 1 2 2\n3 3 4 4\n5 5 5 5\n6 6 6 6\n"


def corpus() -> dict[str, dict]:
    return json.loads((CORPUS / "killer-sudoku.json").read_text())["data"]


def codes(text: str) -> list[str]:
    board = KILLER.formats.read(text, None, None)
    return [f.code for f in KILLER.checks.check_puzzle(board.puzzle, None, None)]


def test_a_corpus_text_fits_two_kinds_and_neither_is_picked():
    for entry in list(corpus().values())[:20]:
        with pytest.raises(PuzzleError) as caught:
            detect_format(entry["problem"])
        message = caught.value.findings[0].message
        assert "KenKen without operations" in message and "Killer Sudoku" in message
        assert "not served" not in message


def test_the_text_numgrid_writes_tells_its_kind():
    key = "11_6x6"
    board = KILLER.formats.read(corpus()[key]["problem"], "janko")
    text = KILLER.formats.write(board, "janko")
    assert text.startswith("6 6 K\n")
    assert detect_format(text)[0] is KILLER
    assert KILLER.formats.read(text, None, None) == board


def test_a_dataset_named_killer_sudoku_is_read_as_killer():
    assert dataset_kind("KillerSudoku") == "killer"
    assert dataset_kind("Killer Sudoku") == "killer"


def test_the_sum_table_is_shared_with_kakuro():
    assert kakuro_sums.COMBINATIONS is cagesums.table(9)
    assert cagesums.combos(17, 2) == (0b110000000,)  # 8+9
    assert cagesums.sum_range(2, 4) == (3, 7)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        (
            "4 4 K\n8 - 2 -\n10 - - -\n10 - - -\n10 - - -\n1 1 2 2\n3 3 3 3\n4 4 4 4\n5 5 5 5\n",
            "impossible_sum",
            "no two cells of different digits 1-4 add up to 8; they make 3 to 7",
        ),
        (
            "4 4 K\n3 - 7 -\n7 - 3 -\n10 - - -\n10 - - -\n1 2 2 1\n3 3 4 4\n5 5 5 5\n6 6 6 6\n",
            "cage_split",
            "cage 1 (3: r0c0 and r0c3) is not connected",
        ),
        (
            "4 4 K\n3 - 7 -\n7 - 3 -\n10 - - -\n11 - - -\n1 1 2 2\n3 3 4 4\n5 5 5 5\n6 6 6 6\n",
            "sums_total",
            "add up to 4 x 10 = 40",
        ),
    ],
)
def test_a_broken_cage_is_named_with_its_cells(text, code, words):
    assert code in codes(text)
    assert any(words in message for message in errors(KILLER, text)), errors(KILLER, text)


def test_json_may_leave_cells_out_and_says_so_but_not_overlap():
    two = {"sum": 3, "cells": [{}, {"column": 1}]}
    text = json.dumps({"killer": {"size": 4, "cages": [two]}})
    board = KILLER.formats.read(text, None, None)
    found = KILLER.checks.check_puzzle(board.puzzle, None, None)
    assert [(f.code, f.severity) for f in found] == [("uncaged_cells", Severity.WARNING)]
    assert "JSON allows it" in found[0].message
    with pytest.raises(PuzzleError, match="puts every cell in one cage"):
        KILLER.formats.write(board, "janko")
    overlap = json.dumps({"killer": {"size": 4, "cages": [two, {"sum": 4, "cells": [{}]}]}})
    assert "cages_overlap" in codes(overlap)
    assert any(
        "cage 1 (4: r0c0) and cage 2 (3: r0c0 and r0c1) overlap: r0c0 is in both" in m
        for m in errors(KILLER, overlap)
    )


def test_a_given_twice_in_a_cage_is_named():
    cage = {"sum": 10, "cells": [{}, {"column": 1}, {"row": 1}, {"row": 1, "column": 1}]}
    givens = {
        "rows": [{"values": [1, 0, 0, 0]}, {"values": [0, 1, 0, 0]}] + [{"values": [0] * 4}] * 2
    }
    text = json.dumps({"killer": {"size": 4, "cages": [cage], "givens": givens}})
    assert any("holds the given 1 twice" in m for m in errors(KILLER, text))


@pytest.mark.skipif(SGT_SOLO is None, reason="sgt-solo is not installed")
@pytest.mark.parametrize("params", ["2x2kdi", "2x3kdi", "3x3kdi", "3x3xkdi"])
def test_solo_killer_ids_round_trip_and_sgt_solo_takes_what_is_written(params):
    done = subprocess.run(
        [SGT_SOLO, "--generate", "2", params], capture_output=True, text=True, timeout=120
    )
    for game_id in filter(None, map(str.strip, done.stdout.splitlines())):
        board = KILLER.formats.read(game_id, None, None)
        assert board.puzzle.diagonals == ("xk" in params)
        assert KILLER.native.search(board.puzzle, limit=2).verdict().value == "UNIQUE"
        written = KILLER.formats.write(board, "tatham").strip()
        assert written == game_id
    # a corpus puzzle written as a Solo ID: sgt-solo parses and solves it
    board = KILLER.formats.read(corpus()["11_6x6"]["problem"], "janko")
    written = KILLER.formats.write(board, "tatham").strip()
    check = subprocess.run(
        [SGT_SOLO, "--test-solve", "--generate", "1", written],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr


def test_cage_techniques_say_their_numbers():
    board = KILLER.formats.read(FOUR, None, None)
    steps = KILLER.logic.explain(board.puzzle, None, None, None).steps
    said = " | ".join(step.explanation for step in steps)
    assert "only 1+2 makes 3 in two cells" in said, said
    assert all(step.explanation.endswith(".") for step in steps)


@pytest.mark.parametrize(
    ("key", "technique", "words"),
    [
        (
            "134_9x9",
            "CAGE_SPLITTING",
            "the part of cage 23 (35: r6c3, r6c5, r7c3, r7c4, r7c5, r8c3 and r8c5) inside it, "
            "r8c3 and r8c5, adds up to 45 - 39 = 6, and its part outside, r6c3, r6c5, r7c3, "
            "r7c4 and r7c5, to 35 - 6 = 29",
        ),
        (
            "142_9x9",
            "CAGE_UNIT_OVERLAP",
            "Cage 15 (6: r3c7 and r3c8) must hold 4 (every set of digits still making 6 "
            "does: 2+4), and only r3c7 and r3c8 can take it, all in row 3 and box 5",
        ),
        (
            "146_9x9",
            "CAGE_UNIT_OVERLAP",
            "Box 0 can take 8 only in r0c0, r0c1 and r1c1, cells of cage 1 (11: r0c0, r0c1 "
            "and r1c1): so the cage holds 8, and of the sets making 11 only 1+2+8 do",
        ),
    ],
)
def test_cage_splitting_and_cage_unit_overlap_say_their_numbers_and_are_right(
    key, technique, words
):
    entry = corpus()[key]
    puzzle = KILLER.formats.read(entry["problem"], "janko").puzzle
    solution = KILLER.formats.read_solution(entry["solution"])
    steps = KILLER.logic.explain(puzzle, None, None, None).steps
    found = [s for s in steps if s.technique.name == technique and words in s.explanation]
    assert found, [s.explanation for s in steps if s.technique.name == technique]
    for step in found:
        assert step.eliminations or step.placements
        assert all(solution[r][c] != d for (r, c), d in step.eliminations)
        assert all(solution[r][c] == d for (r, c), d in step.placements)


def test_the_rule_of_45_places_an_innie():
    # 9x9: row 0 is a cage of eight cells (36) and r0c8 sits in a cage with r1c8
    text = corpus()["196_9x9"]["problem"]
    board = KILLER.formats.read(text, "janko")
    explanation = KILLER.logic.explain(board.puzzle, None, None, None)
    sums = [s.explanation for s in explanation.steps if "Rule of 45" in s.explanation]
    assert all(" = " in s for s in sums)


@pytest.mark.parametrize("size", [4, 6, 9])
def test_the_engines_rule_of_45_holds_in_every_solution(size):
    """Each innie and outie group the native engine adds adds up to its sum in the
    solution, its cells in one house when there are two or more (different digits);
    over these puzzles both kinds and one-cell groups (a digit fixed) occur."""
    seen = set()
    for seed in range(12):
        puzzle, solution = KILLER.maker.candidate(
            Spec(size, size, None), random.Random(seed), 0.0, Budget.seconds(30)
        )
        cages = [(c.sum, [r * size + col for r, col in c.cells]) for c in puzzle.cages]
        values = [v for row in solution for v in row]
        groups = rule_of_45(size, puzzle.boxes, cages)
        for total, cells in groups:
            digits = [values[i] for i in cells]
            assert sum(digits) == total, (seed, total, cells, digits)
            assert len(set(digits)) == len(digits), (seed, cells, digits)
            rows, cols = {i // size for i in cells}, {i % size for i in cells}
            assert (
                len(cells) == 1
                or len(rows) == 1
                or len(cols) == 1
                or (
                    len(
                        {(i // size // puzzle.boxes[0], i % size // puzzle.boxes[1]) for i in cells}
                    )
                    == 1
                )
            )
            seen.add(len(cells) == 1)
    assert seen == {True, False}


def test_the_maker_is_seeded_and_cages_every_cell_in_two_or_more():
    spec = Spec(6, 6, None)
    one = KILLER.maker.candidate(spec, random.Random(5), 0.0, Budget.seconds(30))
    two = KILLER.maker.candidate(spec, random.Random(5), 0.0, Budget.seconds(30))
    assert one == two
    puzzle, solution = one
    assert all(len(cage.cells) >= 2 for cage in puzzle.cages)
    assert sum(len(cage.cells) for cage in puzzle.cages) == 36
    assert solution in KILLER.native.search(puzzle, limit=50).solutions
    assert [f for f in KILLER.checks.check_puzzle(puzzle, None, None) if f.is_error] == []
    assert KILLER.maker.problems(Spec(5, 5, None))


def test_an_easy_target_is_drawn_as_small_cages_that_few_digit_sets_make():
    """Solo's easiest killers are two-cell cages: an EASY candidate's cages are two
    cells (three where a lone cell joins one), leaning to sums few sets of digits make;
    the same seed for MEDIUM draws larger cages."""

    def drawn(grade):
        puzzle, _ = KILLER.maker.candidate(
            Spec(9, 9, grade), random.Random(7), 0.0, Budget.seconds(30)
        )
        sets = [len(cagesums.combos(c.sum, len(c.cells))) for c in puzzle.cages]
        return max(len(c.cells) for c in puzzle.cages), sum(sets) / len(sets)

    easy, medium = drawn(Grade.EASY), drawn(Grade.MEDIUM)
    assert easy[0] <= 3 < medium[0]
    assert easy[1] < medium[1]


def test_a_two_cell_cage_where_a_second_solution_differs_is_dissolved():
    """An EASY candidate's cages are mostly two cells, which the repair can neither cut
    nor shrink: a differing cell moves into a neighbouring cage lacking its digit, and
    its partner into one lacking its own. The cages still cover every cell once, each
    connected, of different digits, their sums the maker's solution's."""
    spec = Spec(9, 9, Grade.EASY)
    rng = random.Random(3)
    puzzle, solution = KILLER.maker.candidate(spec, rng, 0.0, Budget.seconds(30))
    search = KILLER.native.search(puzzle, limit=1, other_than=solution, budget=Budget())
    (other,) = search.solutions
    pairs = {cage.cells for cage in puzzle.cages if len(cage.cells) == 2}
    differ = {(r, c) for r in range(9) for c in range(9) if solution[r][c] != other[r][c]}
    assert differ and all(any(cell in cells for cells in pairs) for cell in differ)
    repaired = KILLER.maker.repair(puzzle, solution, other, rng)
    assert repaired is not None
    assert not {cage.cells for cage in repaired.cages} >= pairs  # a pair went
    assert sorted(cell for cage in repaired.cages for cell in cage.cells) == sorted(
        (r, c) for r in range(9) for c in range(9)
    )
    for cage in repaired.cages:
        digits = [solution[r][c] for r, c in cage.cells]
        assert len(set(digits)) == len(digits) and sum(digits) == cage.sum
    assert [f for f in KILLER.checks.check_puzzle(repaired, None, None) if f.is_error] == []


def test_a_change_forgets_the_cage_and_area_findings_that_read_its_cell_only():
    from numgrid.server.kinds.killer import logic

    puzzle = KILLER.formats.read((PUZZLES / "killer-9x9.txt").read_text(), None, None).puzzle
    ladder = logic._ladder(puzzle)
    pos = ladder.position(puzzle, None)
    for technique in (logic.Technique.COMBINATIONS, logic.Technique.REGION_SUM):
        ladder.find(pos, technique)
    cages, areas = (pos.memo(t) for t in (logic.Technique.COMBINATIONS, logic.Technique.REGION_SUM))
    assert len(cages) == len(puzzle.cages) and len(areas) == len(pos.frames.areas)
    i = next(i for i in range(81) if pos.frames.reads["REGION_SUM"][i])
    pos.set(i, pos.masks[i] & (pos.masks[i] - 1))  # one candidate fewer
    cages, areas = (pos.memo(t) for t in (logic.Technique.COMBINATIONS, logic.Technique.REGION_SUM))
    assert set(range(len(puzzle.cages))) - set(cages) == set(pos.frames.reads["COMBINATIONS"][i])
    assert set(range(len(pos.frames.areas))) - set(areas) == set(pos.frames.reads["REGION_SUM"][i])


def test_json_refuses_an_entry_over_a_given_that_differs_from_it():
    data = json.loads(KILLER.formats.write(KILLER.formats.read(FOUR, None, None), "json"))
    data["killer"]["givens"] = {"rows": [{"values": row} for row in ([1, 2, 0, 0], *[[0] * 4] * 3)]}
    data["killer"]["entries"] = {
        "rows": [{"values": row} for row in ([0, 3, 0, 0], *[[0] * 4] * 3)]
    }
    with pytest.raises(PuzzleError) as caught:
        KILLER.formats.read(json.dumps(data), None, None)
    assert [(f.code, f.cells, f.message) for f in caught.value.findings] == [
        ("given_changed", ((0, 1),), "r0c1: entry 3 over the given 2")
    ]


def test_written_board_holds_entries_as_json():
    board = KILLER.formats.read(FOUR, None, None)
    entries = ((1, 2, 0, 0),) + ((0,) * 4,) * 3
    text = KILLER.formats.write(Board(board.puzzle, entries), "json")
    assert KILLER.formats.read(text, None, None).entries == entries
