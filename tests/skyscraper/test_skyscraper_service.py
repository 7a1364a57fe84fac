"""Skyscraper through the real service, what is its own (what every kind must do is in
``tests/conformance/``): empty lots as -1, bad clues and givens answered
INVALID_ARGUMENT naming them, Validate's views and variants, a hint and an
explanation that place empty lots."""

from __future__ import annotations

import grpc
import pytest
from numgrid.server.kinds import KINDS
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support import PUZZLES
from support.rpc import bad_request
from support.rpc import group_types
from support.rpc import rows_of
from support.rpc import text
from support.rpc import unique
from support.rpc import validate

SKYSCRAPER = KINDS["skyscraper"]
SMALL = (PUZZLES / "skyscraper-5x5.txt").read_text()
LOTS = (PUZZLES / "skyscraper-5x5-empty-lots.txt").read_text()


def grid_of(solution: str) -> list[list[int]]:
    lines = solution.strip().splitlines()[1:]
    return [[int(t) or -1 for t in line.split()] for line in lines]


def test_empty_lots_are_minus_one_in_the_answer(stub):
    reply = stub.Solve(service_pb2.SolveRequest(puzzle=text(LOTS)), timeout=30)
    solution = (PUZZLES / "skyscraper-5x5-empty-lots.solution.txt").read_text()
    assert rows_of(reply.solution) == grid_of(solution)
    assert reply.puzzle.skyscraper.max_height == 4
    again = stub.Solve(service_pb2.SolveRequest(puzzle=pb.PuzzleInput(puzzle=reply.puzzle)))
    assert rows_of(again.solution) == rows_of(reply.solution)


def test_a_bad_clue_is_named(stub):
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, text(SMALL.replace("1 3 2 2 3", "7 3 2 2 3", 1)))
    violations = bad_request(caught.value)
    assert any(v.description.startswith("clue 7 above column 0") for v in violations)
    assert all(v.field == "puzzle.text.content" for v in violations)


def test_a_structured_puzzle_error_points_at_the_clue_or_given(stub):
    puzzle = pb.Puzzle(
        skyscraper=pb.SkyscraperPuzzle(
            size=3,
            top=[4, 0, 0],
            givens=pb.Grid(rows=[pb.GridRow(values=v) for v in ([0, 0, 0], [0, 9, 0], [0, 0, 0])]),
        )
    )
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, pb.PuzzleInput(puzzle=puzzle))
    fields = {v.field for v in bad_request(caught.value)}
    assert "puzzle.puzzle.skyscraper.top[0]" in fields
    assert "puzzle.puzzle.skyscraper.givens.rows[1].values[1]" in fields


def test_validate_reports_lines_clues_and_the_variant(stub):
    diagonal = (PUZZLES / "skyscraper-4x4-diagonal.txt").read_text()
    entered = diagonal + "4 4 - -\n- - - -\n- - - -\n- - - -\n"
    reply = validate(stub, entered)
    assert group_types(reply) == {"ROW", "COLUMN", "DIAGONAL", "VIEW"}
    (duplicate,) = [f for f in reply.board_findings if f.code == "duplicate"]
    assert duplicate.group == "row 0"
    assert [w.code for w in reply.warnings] == ["variant"]
    view = next(g for g in reply.groups if g.type == service_pb2.GROUP_TYPE_VIEW)
    assert (view.clue_cell.row, view.clue_cell.column) == (0, -1) and view.clue == 1


def test_hint_and_explain_speak_skyscraper(stub):
    hint = stub.Hint(service_pb2.HintRequest(puzzle=text(LOTS)), timeout=30)
    assert hint.kind == service_pb2.HINT_KIND_STEP
    assert service_pb2.Technique.Name(hint.step.technique) in {
        f"TECHNIQUE_{t.name}" for t in SKYSCRAPER.logic.Technique
    }
    explained = stub.Explain(service_pb2.ExplainRequest(puzzle=text(LOTS)), timeout=30)
    assert explained.solved
    solution = grid_of((PUZZLES / "skyscraper-5x5-empty-lots.solution.txt").read_text())
    placed_empty = False
    for step in explained.steps:
        for p in step.placements:
            assert solution[p.cell.row][p.cell.column] == p.digit
            placed_empty |= p.digit == -1
        for e in step.eliminations:
            assert solution[e.cell.row][e.cell.column] != e.digit
    assert placed_empty
    assert explained.difficulty.grade != service_pb2.GRADE_UNSPECIFIED
