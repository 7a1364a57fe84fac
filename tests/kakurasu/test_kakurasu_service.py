"""Kakurasu through the real service: a ``numgrid-server`` process called through raw
stubs, every RPC, text (detected or named) and structured puzzles, 1 and -1 in grids
and steps, and bad input answered INVALID_ARGUMENT naming the clue or cell at fault."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from kakurasu_support import KAKURASU, SMALL, SMALL_SOLUTION, corpus
from numgrid.server.kinds.kakurasu import formats
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb

SOLUTION = [list(row) for row in formats.read_solution(SMALL_SOLUTION)]
TWO_SOLUTIONS = "3 3\n3 3 3\n3 3 3\n"
PUZZLE = "547_10x10"


@pytest.fixture(scope="module")
def stub(server_process):
    with grpc.insecure_channel(server_process.target) as channel:
        yield numgrid_service_pb2_grpc.NumgridServiceStub(channel)


def text(content: str, kind=pb.PUZZLE_KIND_UNSPECIFIED, fmt=pb.PUZZLE_FORMAT_UNSPECIFIED):
    return pb.PuzzleInput(text=pb.PuzzleText(content=content, kind=kind, format=fmt))


def rows_of(grid: pb.Grid) -> list[list[int]]:
    return [list(row.values) for row in grid.rows]


def unique(stub, source, engine=pb.ENGINE_CROSS_CHECK):
    request = service_pb2.CheckUniquenessRequest(
        puzzle=source, options=service_pb2.SearchOptions(engine=engine)
    )
    return stub.CheckUniqueness(request, timeout=30)


def violations(error: grpc.RpcError) -> list[error_details_pb2.BadRequest.FieldViolation]:
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    for detail in rpc_status.from_call(error).details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            return list(bad.field_violations)
    raise AssertionError("no BadRequest detail")


@pytest.mark.parametrize("engine", [pb.ENGINE_AUTO, pb.ENGINE_NATIVE, pb.ENGINE_CPSAT])
def test_a_corpus_puzzle_is_unique_with_its_published_solution(stub, engine):
    entry = corpus()[PUZZLE]
    reply = unique(stub, text(entry["problem"]), engine)
    assert reply.verdict == pb.VERDICT_UNIQUE
    published = formats.read_solution(entry["solution"])
    assert rows_of(reply.solutions[0]) == [list(row) for row in published]
    assert reply.puzzle.WhichOneof("kind") == "kakurasu" and reply.puzzle.kakurasu.rows == 10
    assert reply.difficulty.grade != service_pb2.GRADE_UNSPECIFIED


def test_the_same_puzzle_as_text_json_and_structured(stub):
    board = KAKURASU.read(SMALL, "janko", 100)
    json_text = KAKURASU.write(board, "json")
    sources = [
        text(SMALL),
        text(SMALL, pb.PUZZLE_KIND_KAKURASU, pb.PUZZLE_FORMAT_JANKO),
        text(json_text),
        text(json_text, pb.PUZZLE_KIND_KAKURASU, pb.PUZZLE_FORMAT_JSON),
        pb.PuzzleInput(puzzle=json_format.Parse(json_text, pb.Puzzle())),
    ]
    for source in sources:
        reply = stub.Solve(service_pb2.SolveRequest(puzzle=source), timeout=30)
        assert reply.verdict == pb.VERDICT_UNIQUE
        assert rows_of(reply.solution) == SOLUTION
        assert list(reply.puzzle.kakurasu.column_clues) == [8, 8, 9, 13, 6]


def test_multiple_solutions_show_two_and_where_they_differ(stub):
    reply = unique(stub, text(TWO_SOLUTIONS))
    assert reply.verdict == pb.VERDICT_MULTIPLE
    first, second = (rows_of(g) for g in reply.solutions)
    assert first != second and {v for row in first + second for v in row} == {1, -1}
    assert len(reply.differing_cells) == 9


def test_a_missing_clue_is_minus_one_in_the_message(stub):
    reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text("2 2\n1 -\n1 -\n")), timeout=30)
    assert list(reply.puzzle.kakurasu.column_clues) == [1, -1]
    assert list(reply.puzzle.kakurasu.row_clues) == [1, -1]


def test_broken_clues_are_named_all_at_once(stub):
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, text("3 3\n1 2\n7 2 3\n"))
    found = [v.description for v in violations(caught.value)]
    assert found == [
        "2 column clues for 3 columns (a '-' stands for a clue not given)",
        "row 0 (clue 7): no set of the weights 1-3 adds up to 7: they add up to 6 at most",
    ]


def test_a_structured_puzzle_error_points_at_the_mark(stub):
    puzzle = pb.Puzzle(
        kakurasu=pb.KakurasuPuzzle(
            rows=2,
            columns=2,
            row_clues=[1, 2],
            column_clues=[1, 2],
            entries=pb.Grid(rows=[pb.GridRow(values=[1, 0]), pb.GridRow(values=[0, 5])]),
        )
    )
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, pb.PuzzleInput(puzzle=puzzle))
    fields = {v.field for v in violations(caught.value)}
    assert fields == {"puzzle.puzzle.kakurasu.entries.rows[1].values[1]"}


def test_validate_reports_rows_columns_and_cells(stub):
    marked = SMALL + "x - . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"
    reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text(marked)), timeout=30)
    assert {g.type for g in reply.groups} == {
        service_pb2.GROUP_TYPE_ROW,
        service_pb2.GROUP_TYPE_COLUMN,
    }
    row0 = next(g for g in reply.groups if g.type == service_pb2.GROUP_TYPE_ROW and g.index == 0)
    assert (row0.clue, row0.total, row0.state) == (4, 1, service_pb2.GROUP_STATE_INCOMPLETE)
    statuses = {(c.cell.row, c.cell.column): c.status for c in reply.cells}
    assert statuses[0, 0] == service_pb2.CELL_STATUS_GROUP_INCOMPLETE
    assert statuses[4, 4] == service_pb2.CELL_STATUS_BLANK
    checked = stub.Validate(
        service_pb2.ValidateRequest(puzzle=text(marked), compare_with_solution=True), timeout=30
    )
    assert [(c.row, c.column) for c in checked.wrong_entries] == [(0, 0)]


def test_hint_and_explain_speak_kakurasu(stub):
    hint = stub.Hint(service_pb2.HintRequest(puzzle=text(SMALL)), timeout=30)
    assert hint.kind == service_pb2.HINT_KIND_STEP
    assert hint.step.technique == service_pb2.TECHNIQUE_SUM_BOUNDS
    assert [(p.cell.row, p.cell.column, p.digit) for p in hint.placements] == [
        (2, 3, 1),
        (3, 3, 1),
        (4, 3, 1),
    ]
    assert hint.step.groups[0].type == service_pb2.GROUP_TYPE_COLUMN
    assert hint.step.groups[0].clue == 13
    explained = stub.Explain(service_pb2.ExplainRequest(puzzle=text(SMALL)), timeout=30)
    assert explained.solved
    for step in explained.steps:
        for p in step.placements:
            assert SOLUTION[p.cell.row][p.cell.column] == p.digit
    assert explained.difficulty.grade == service_pb2.GRADE_EASY


def test_a_technique_of_another_kind_is_refused(stub):
    request = service_pb2.HintRequest(
        puzzle=text(SMALL), max_technique=service_pb2.TECHNIQUE_NAKED_SINGLE
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.Hint(request, timeout=30)
    assert "kakurasu has no technique NAKED_SINGLE" in caught.value.details()


def test_a_batch_mixes_kinds(stub):
    puzzles = [
        service_pb2.BatchPuzzle(id="kakurasu", puzzle=text(corpus()[PUZZLE]["problem"])),
        service_pb2.BatchPuzzle(id="two", puzzle=text(TWO_SOLUTIONS)),
        service_pb2.BatchPuzzle(id="broken", puzzle=text("3 3\n1 2\n7 2 3\n")),
    ]
    request = service_pb2.BatchCheckUniquenessRequest(puzzles=puzzles)
    results = {
        r.id: r
        for reply in stub.BatchCheckUniqueness(iter([request]), timeout=30)
        for r in reply.results
    }
    assert results["kakurasu"].result.verdict == pb.VERDICT_UNIQUE
    assert results["two"].result.verdict == pb.VERDICT_MULTIPLE
    assert results["broken"].WhichOneof("outcome") == "rejection"
