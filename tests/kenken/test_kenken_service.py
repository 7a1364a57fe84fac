"""KenKen through the real service: a ``numgrid-server`` process called through raw stubs,
every RPC, text (janko, Tatham, JSON, kind detected or named) and structured puzzles,
and bad input answered INVALID_ARGUMENT naming the cage or cell at fault."""

from __future__ import annotations

import json
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

KENKEN = KINDS["kenken"]
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "kenken.json"
PUZZLE = "07_5x5"
# 4x4 from the corpus (02_4x4) with its published solution.
SMALL = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3"
SMALL_SOLUTION = [[3, 4, 1, 2], [2, 3, 4, 1], [1, 2, 3, 4], [4, 1, 2, 3]]
# Two solutions: the 2x2 latin squares with one 3+ cage over all of row 0... (2x2 grid:
# cage 3+ on row 0 and 3+ on row 1 leave both squares).
TWO_SOLUTIONS = "2 2\n3+ .\n3+ .\n1 1\n2 2"
# r0c0 and r1c1 share a cage number but are not neighbours.
DISCONNECTED = "2 2\n3+ 2\n1 .\n1 2\n3 1"


@pytest.fixture(scope="module")
def kenken_corpus() -> dict:
    return json.loads(CORPUS.read_text())["data"]


@pytest.fixture(scope="module")
def stub(server_process):
    with grpc.insecure_channel(server_process.target) as channel:
        yield numgrid_service_pb2_grpc.NumgridServiceStub(channel)


def text(content: str, kind=pb.PUZZLE_KIND_UNSPECIFIED, fmt=pb.PUZZLE_FORMAT_UNSPECIFIED):
    return pb.PuzzleInput(text=pb.PuzzleText(content=content, kind=kind, format=fmt))


def rows_of(grid: pb.Grid) -> list[list[int]]:
    return [list(row.values) for row in grid.rows]


def grid_of(solution: str) -> list[list[int]]:
    return [[int(t) for t in line.split()] for line in solution.strip().splitlines()[1:]]


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
def test_a_corpus_puzzle_is_unique_with_its_published_solution(stub, kenken_corpus, engine):
    entry = kenken_corpus[PUZZLE]
    reply = unique(stub, text(entry["problem"]), engine)
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert rows_of(reply.solutions[0]) == grid_of(entry["solution"])
    assert reply.puzzle.WhichOneof("kind") == "kenken" and reply.puzzle.kenken.size == 5
    assert reply.difficulty.grade != service_pb2.GRADE_UNSPECIFIED


def test_the_same_puzzle_in_every_format_and_structured(stub):
    board = KENKEN.read(SMALL, "janko")
    sources = [
        text(SMALL, pb.PUZZLE_KIND_KENKEN, pb.PUZZLE_FORMAT_JANKO),
        text(KENKEN.write(board, "tatham")),
        text(KENKEN.write(board, "tatham"), pb.PUZZLE_KIND_KENKEN, pb.PUZZLE_FORMAT_TATHAM),
        text(KENKEN.write(board, "json")),
        pb.PuzzleInput(puzzle=json_format.Parse(KENKEN.write(board, "json"), pb.Puzzle())),
    ]
    for source in sources:
        reply = stub.Solve(service_pb2.SolveRequest(puzzle=source), timeout=30)
        assert reply.verdict == pb.VERDICT_UNIQUE
        assert rows_of(reply.solution) == SMALL_SOLUTION
        assert len(reply.puzzle.kenken.cages) == len(board.puzzle.cages)


def test_multiple_solutions_show_two_and_where_they_differ(stub):
    reply = unique(stub, text(TWO_SOLUTIONS))
    assert reply.verdict == pb.VERDICT_MULTIPLE
    first, second = (rows_of(g) for g in reply.solutions)
    assert first != second
    assert {(c.row, c.column) for c in reply.differing_cells} == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_a_cage_that_is_not_connected_is_named(stub):
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, text(DISCONNECTED))
    violations = bad_request(caught.value)
    assert any("not connected" in v.description for v in violations), violations
    assert all(v.field == "puzzle.text.content" for v in violations)


def test_a_structured_puzzle_error_points_at_the_cage_cell(stub):
    puzzle = pb.Puzzle(
        kenken=pb.KenKenPuzzle(
            size=2,
            cages=[
                pb.Cage(target=3, operation=pb.CAGE_OPERATION_ADD, cells=[pb.CellRef()]),
                pb.Cage(target=2, cells=[pb.CellRef(column=1)]),
                pb.Cage(
                    target=3,
                    operation=pb.CAGE_OPERATION_ADD,
                    cells=[pb.CellRef(row=1), pb.CellRef(row=1, column=1)],
                ),
            ],
        )
    )
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, pb.PuzzleInput(puzzle=puzzle))
    fields = {v.field for v in bad_request(caught.value)}
    assert "puzzle.puzzle.kenken.cages[0].cells[0]" in fields, fields


def test_validate_reports_rows_columns_and_cages(stub):
    entered = SMALL + "\n3 3 . .\n. . . .\n. . . .\n. . . ."
    reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text(entered)), timeout=30)
    types = {g.type for g in reply.groups}
    assert types == {
        service_pb2.GROUP_TYPE_ROW,
        service_pb2.GROUP_TYPE_COLUMN,
        service_pb2.GROUP_TYPE_CAGE,
    }
    (duplicate,) = [f for f in reply.board_findings if f.code == "duplicate"]
    assert {(c.row, c.column) for c in duplicate.cells} == {(0, 0), (0, 1)}
    assert duplicate.group == "row 0"
    statuses = {(c.cell.row, c.cell.column): c.status for c in reply.cells}
    assert statuses[0, 0] == service_pb2.CELL_STATUS_DUPLICATE
    assert statuses[3, 3] == service_pb2.CELL_STATUS_BLANK
    cage = next(g for g in reply.groups if g.type == service_pb2.GROUP_TYPE_CAGE and g.clue == 16)
    assert cage.operation == pb.CAGE_OPERATION_MULTIPLY
    assert (cage.clue_cell.row, cage.clue_cell.column) == (0, 1)


def test_hint_and_explain_speak_kenken(stub, kenken_corpus):
    problem = kenken_corpus[PUZZLE]["problem"]
    hint = stub.Hint(service_pb2.HintRequest(puzzle=text(problem)), timeout=30)
    assert hint.kind == service_pb2.HINT_KIND_STEP
    assert service_pb2.Technique.Name(hint.step.technique) in {
        f"TECHNIQUE_{t.name}" for t in KENKEN.techniques
    }
    assert hint.explanation
    explained = stub.Explain(service_pb2.ExplainRequest(puzzle=text(problem)), timeout=30)
    assert explained.solved
    solution = grid_of(kenken_corpus[PUZZLE]["solution"])
    for step in explained.steps:
        for p in step.placements:
            assert solution[p.cell.row][p.cell.column] == p.digit
        for e in step.eliminations:
            assert solution[e.cell.row][e.cell.column] != e.digit
    assert explained.difficulty.grade != service_pb2.GRADE_UNSPECIFIED


def test_a_kakuro_technique_is_refused_for_kenken(stub):
    request = service_pb2.HintRequest(
        puzzle=text(SMALL), max_technique=service_pb2.TECHNIQUE_REGION_SUM
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.Hint(request, timeout=30)
    assert "kenken has no technique REGION_SUM" in caught.value.details()


def test_a_json_puzzle_of_an_unknown_kind_is_unsupported(stub):
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, text('{"sudoku": {"rows": []}}'))
    assert "unsupported kind 'sudoku'" in caught.value.details()


def test_a_batch_mixes_kinds(stub, kenken_corpus):
    kakuro = (Path(__file__).resolve().parents[2] / "puzzles" / "kakuro-10x12.txt").read_text()
    puzzles = [
        service_pb2.BatchPuzzle(id="kenken", puzzle=text(kenken_corpus[PUZZLE]["problem"])),
        service_pb2.BatchPuzzle(id="kakuro", puzzle=text(kakuro)),
        service_pb2.BatchPuzzle(id="broken", puzzle=text(DISCONNECTED)),
    ]
    request = service_pb2.BatchCheckUniquenessRequest(puzzles=puzzles)
    results = {
        r.id: r
        for reply in stub.BatchCheckUniqueness(iter([request]), timeout=30)
        for r in reply.results
    }
    assert results["kenken"].result.verdict == pb.VERDICT_UNIQUE
    assert results["kakuro"].result.verdict == pb.VERDICT_UNIQUE
    assert results["broken"].WhichOneof("outcome") == "rejection"
