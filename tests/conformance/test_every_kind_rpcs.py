"""Every kind through the real service (a ``numgrid-server`` process, raw stubs): a corpus
puzzle UNIQUE with its published solution by each engine; the same puzzle in every
format, kind and format detected or named, and structured; several solutions shown with
where they differ; a hint and an explanation in the kind's own techniques, every step
right; another kind's technique refused; a batch that mixes every kind."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import json_format
from numgrid.server.core import Board
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support.corpus import corpus
from support.corpus import corpus_puzzle
from support.facts import KINDS
from support.facts import facts
from support.facts import puzzle_of
from support.facts import sample
from support.rpc import rows_of
from support.rpc import text
from support.rpc import unique


def structured(kind, board) -> pb.Puzzle:
    return json_format.Parse(kind.formats.write(board, "json"), pb.Puzzle())


def kind_enum(kind) -> int:
    return pb.PuzzleKind.Value(f"PUZZLE_KIND_{kind.name.upper()}")


def format_enum(fmt: str) -> int:
    return pb.PuzzleFormat.Value(f"PUZZLE_FORMAT_{fmt.upper()}")


@pytest.mark.parametrize("engine", [pb.ENGINE_AUTO, pb.ENGINE_NATIVE, pb.ENGINE_CPSAT])
def test_a_corpus_puzzle_is_unique_with_its_published_solution(stub, kind, engine):
    key = facts(kind).corpus_key
    puzzle, published = corpus_puzzle(kind.name, key)
    # the kind named, as a client does: a corpus text may fit two kinds (a Killer
    # Sudoku's fits a KenKen without operations), and detection never picks one
    reply = unique(stub, text(corpus(kind.name)[key]["problem"], kind_enum(kind)), engine)
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert rows_of(reply.solutions[0]) == [list(row) for row in published]
    assert reply.puzzle == structured(kind, Board.empty(puzzle))
    assert reply.puzzle.WhichOneof("kind") == kind.name
    assert reply.difficulty.grade != service_pb2.GRADE_UNSPECIFIED
    assert reply.difficulty.score > 0  # the sum of the chain's step weights


def test_the_same_puzzle_in_every_format_and_structured(stub, kind):
    board, solution = sample(kind)
    sources = [pb.PuzzleInput(puzzle=structured(kind, board))]
    for fmt in kind.formats.FORMATS:
        written = kind.formats.write(board, fmt)
        sources += [text(written), text(written, kind_enum(kind), format_enum(fmt))]
    for source in sources:
        reply = stub.Solve(service_pb2.SolveRequest(puzzle=source), timeout=30)
        assert reply.verdict == pb.VERDICT_UNIQUE, source
        assert rows_of(reply.solution) == [list(row) for row in solution], source
        assert reply.puzzle == structured(kind, board), source


def test_multiple_solutions_show_two_and_where_they_differ(stub, kind):
    reply = unique(stub, text(facts(kind).two_solutions))
    assert reply.verdict == pb.VERDICT_MULTIPLE
    first, second = (rows_of(g) for g in reply.solutions)
    assert first != second
    puzzle = puzzle_of(kind, facts(kind).two_solutions)
    for grid in (first, second):  # each one keeps every rule
        assert facts(kind).rule_violations(puzzle, tuple(map(tuple, grid))) == []
    assert {(c.row, c.column) for c in reply.differing_cells} == facts(kind).differing


def test_hint_and_explain_speak_the_kinds_techniques(stub, kind):
    board, solution = sample(kind)
    source = pb.PuzzleInput(puzzle=structured(kind, board))
    names = {f"TECHNIQUE_{t.name}" for t in kind.logic.Technique}
    hint = stub.Hint(service_pb2.HintRequest(puzzle=source), timeout=30)
    assert hint.kind == service_pb2.HINT_KIND_STEP
    assert service_pb2.Technique.Name(hint.step.technique) in names
    assert hint.explanation
    explained = stub.Explain(service_pb2.ExplainRequest(puzzle=source), timeout=30)
    assert explained.solved
    for step in explained.steps:
        assert service_pb2.Technique.Name(step.technique) in names
        for p in step.placements:
            assert solution[p.cell.row][p.cell.column] == p.digit
        for e in step.eliminations:
            assert solution[e.cell.row][e.cell.column] != e.digit
    assert explained.difficulty.grade != service_pb2.GRADE_UNSPECIFIED


def test_a_technique_of_another_kind_is_refused(stub, kind):
    own = {t.name for t in kind.logic.Technique}
    other = next(
        name.removeprefix("TECHNIQUE_")
        for name in service_pb2.Technique.DESCRIPTOR.values_by_name
        if name != "TECHNIQUE_UNSPECIFIED" and name.removeprefix("TECHNIQUE_") not in own
    )
    board, _ = sample(kind)
    request = service_pb2.HintRequest(
        puzzle=pb.PuzzleInput(puzzle=structured(kind, board)),
        max_technique=service_pb2.Technique.Value(f"TECHNIQUE_{other}"),
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.Hint(request, timeout=30)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"{kind.name} has no technique {other}" in caught.value.details()


def test_a_batch_mixes_every_kind(stub):
    puzzles = []
    for kind in KINDS:
        key = facts(kind).corpus_key
        puzzles += [
            service_pb2.BatchPuzzle(  # the kind named: a corpus text may fit two kinds
                id=f"{kind.name}", puzzle=text(corpus(kind.name)[key]["problem"], kind_enum(kind))
            ),
            service_pb2.BatchPuzzle(id=f"{kind.name} two", puzzle=text(facts(kind).two_solutions)),
            service_pb2.BatchPuzzle(id=f"{kind.name} broken", puzzle=text(facts(kind).broken)),
        ]
    request = service_pb2.BatchCheckUniquenessRequest(puzzles=puzzles)
    results = {
        r.id: r
        for reply in stub.BatchCheckUniqueness(iter([request]), timeout=60)
        for r in reply.results
    }
    assert len(results) == 3 * len(KINDS)
    for kind in KINDS:
        assert results[kind.name].result.verdict == pb.VERDICT_UNIQUE
        assert results[f"{kind.name} two"].result.verdict == pb.VERDICT_MULTIPLE
        assert results[f"{kind.name} broken"].WhichOneof("outcome") == "rejection"
