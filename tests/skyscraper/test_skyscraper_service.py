"""Skyscraper through the real service: a ``numgrid-server`` process called through raw
stubs, every RPC, text (corpus text, Towers IDs, JSON, kind detected or named) and
structured puzzles, the variants, and bad input answered INVALID_ARGUMENT naming the
clue or cell at fault."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from numgrid.server.kinds import KINDS
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from skyscraper_support import corpus

SKYSCRAPER = KINDS["skyscraper"]
PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SMALL = (PUZZLES / "skyscraper-5x5.txt").read_text()
SMALL_SOLUTION = [
    [5, 3, 2, 4, 1],
    [1, 2, 5, 3, 4],
    [3, 4, 1, 2, 5],
    [4, 5, 3, 1, 2],
    [2, 1, 4, 5, 3],
]
LOTS = (PUZZLES / "skyscraper-5x5-empty-lots.txt").read_text()
TOWERS = (PUZZLES / "skyscraper-6x6.towers").read_text()


@pytest.fixture(scope="module")
def stub(server_process):
    with grpc.insecure_channel(server_process.target) as channel:
        yield numgrid_service_pb2_grpc.NumgridServiceStub(channel)


def text(content: str, kind=pb.PUZZLE_KIND_UNSPECIFIED, fmt=pb.PUZZLE_FORMAT_UNSPECIFIED):
    return pb.PuzzleInput(text=pb.PuzzleText(content=content, kind=kind, format=fmt))


def rows_of(grid: pb.Grid) -> list[list[int]]:
    return [list(row.values) for row in grid.rows]


def grid_of(solution: str) -> list[list[int]]:
    lines = solution.strip().splitlines()[1:]
    return [[int(t) or -1 for t in line.split()] for line in lines]


def unique(stub, source, engine=pb.ENGINE_CROSS_CHECK):
    request = service_pb2.CheckUniquenessRequest(
        puzzle=source, options=service_pb2.SearchOptions(engine=engine)
    )
    return stub.CheckUniqueness(request, timeout=30)


def bad_request(error: grpc.RpcError) -> list[error_details_pb2.BadRequest.FieldViolation]:
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    for detail in rpc_status.from_call(error).details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            return list(bad.field_violations)
    raise AssertionError("no BadRequest detail")


@pytest.mark.parametrize("engine", [pb.ENGINE_AUTO, pb.ENGINE_NATIVE, pb.ENGINE_CPSAT])
def test_a_corpus_puzzle_is_unique_with_its_published_solution(stub, engine):
    reply = unique(stub, text(SMALL), engine)
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert rows_of(reply.solutions[0]) == SMALL_SOLUTION
    assert reply.puzzle.WhichOneof("kind") == "skyscraper" and reply.puzzle.skyscraper.size == 5
    assert reply.difficulty.grade != service_pb2.GRADE_UNSPECIFIED


def test_the_same_puzzle_in_every_format_and_structured(stub):
    board = SKYSCRAPER.read(SMALL, "janko", 100)
    sources = [
        text(SMALL, pb.PUZZLE_KIND_SKYSCRAPER, pb.PUZZLE_FORMAT_JANKO),
        text(SKYSCRAPER.write(board, "tatham")),
        text(SKYSCRAPER.write(board, "tatham"), pb.PUZZLE_KIND_SKYSCRAPER, pb.PUZZLE_FORMAT_TATHAM),
        text(SKYSCRAPER.write(board, "json")),
        pb.PuzzleInput(puzzle=json_format.Parse(SKYSCRAPER.write(board, "json"), pb.Puzzle())),
    ]
    for source in sources:
        reply = stub.Solve(service_pb2.SolveRequest(puzzle=source), timeout=30)
        assert reply.verdict == pb.VERDICT_UNIQUE
        assert rows_of(reply.solution) == SMALL_SOLUTION
        assert list(reply.puzzle.skyscraper.top) == [1, 3, 2, 2, 3]


def test_empty_lots_are_minus_one_in_the_answer(stub):
    reply = stub.Solve(service_pb2.SolveRequest(puzzle=text(LOTS)), timeout=30)
    solution = (PUZZLES / "skyscraper-5x5-empty-lots.solution.txt").read_text()
    assert rows_of(reply.solution) == grid_of(solution)
    assert reply.puzzle.skyscraper.max_height == 4
    again = stub.Solve(service_pb2.SolveRequest(puzzle=pb.PuzzleInput(puzzle=reply.puzzle)))
    assert rows_of(again.solution) == rows_of(reply.solution)


def test_multiple_solutions_show_two_and_where_they_differ(stub):
    reply = unique(stub, text("2 2 2\n- -\n- -\n- -\n- -\n- -\n- -\n"))
    assert reply.verdict == pb.VERDICT_MULTIPLE
    assert {(c.row, c.column) for c in reply.differing_cells} == {(0, 0), (0, 1), (1, 0), (1, 1)}


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
    reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text(entered)), timeout=30)
    types = {g.type for g in reply.groups}
    assert types == {
        service_pb2.GROUP_TYPE_ROW,
        service_pb2.GROUP_TYPE_COLUMN,
        service_pb2.GROUP_TYPE_DIAGONAL,
        service_pb2.GROUP_TYPE_VIEW,
    }
    (duplicate,) = [f for f in reply.board_findings if f.code == "duplicate"]
    assert duplicate.group == "row 0"
    assert [w.code for w in reply.warnings] == ["variant"]
    view = next(g for g in reply.groups if g.type == service_pb2.GROUP_TYPE_VIEW)
    assert (view.clue_cell.row, view.clue_cell.column) == (0, -1) and view.clue == 1


def test_hint_and_explain_speak_skyscraper(stub):
    hint = stub.Hint(service_pb2.HintRequest(puzzle=text(LOTS)), timeout=30)
    assert hint.kind == service_pb2.HINT_KIND_STEP
    assert service_pb2.Technique.Name(hint.step.technique) in {
        f"TECHNIQUE_{t.name}" for t in SKYSCRAPER.techniques
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


def test_a_kenken_technique_is_refused_for_skyscraper(stub):
    request = service_pb2.HintRequest(
        puzzle=text(SMALL), max_technique=service_pb2.TECHNIQUE_CAGE_LINE
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.Hint(request, timeout=30)
    assert "skyscraper has no technique CAGE_LINE" in caught.value.details()


def test_a_batch_mixes_kinds(stub):
    kenken = (PUZZLES / "kenken-4x4.txt").read_text()
    puzzles = [
        service_pb2.BatchPuzzle(id="towers", puzzle=text(TOWERS)),
        service_pb2.BatchPuzzle(id="sky", puzzle=text(corpus()["271_5x5"]["problem"])),
        service_pb2.BatchPuzzle(id="kenken", puzzle=text(kenken)),
    ]
    request = service_pb2.BatchCheckUniquenessRequest(puzzles=puzzles)
    results = {
        r.id: r
        for reply in stub.BatchCheckUniqueness(iter([request]), timeout=30)
        for r in reply.results
    }
    assert all(r.result.verdict == pb.VERDICT_UNIQUE for r in results.values())
