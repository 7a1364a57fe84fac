"""Every kind's structural checks: a broken puzzle is refused with every error at once,
each named where it is (its cells, or its group where it has no cell, e.g. a clue
outside the grid), the same through the library and the service; a board filled with
the published solution is solved and right everywhere."""

from __future__ import annotations

import grpc
import pytest
from numgrid.server import operations
from numgrid.server.core import PuzzleError
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from support.facts import entered
from support.facts import facts
from support.facts import sample
from support.rpc import bad_request
from support.rpc import text
from support.rpc import unique


def test_every_error_of_a_broken_puzzle_is_named(kind):
    with pytest.raises(PuzzleError) as caught:
        operations.read_board(kind, facts(kind).broken, None, 10_000)
    found = [(f.code, f.cells, f.group) for f in caught.value.findings]
    assert found == list(facts(kind).broken_findings)
    assert all(f.is_error and (f.cells or f.group) for f in caught.value.findings)


def test_the_service_names_the_same_errors(kind, stub):
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, text(facts(kind).broken))
    violations = bad_request(caught.value)
    assert len(violations) == len(facts(kind).broken_findings)
    assert all(v.field == "puzzle.text.content" and v.description for v in violations)


def test_a_board_of_the_published_solution_is_solved(kind):
    board, solution = sample(kind)
    solved = entered(kind, board.puzzle, solution)
    assert [
        f for f in kind.checks.check_puzzle(board.puzzle, solved.entries, None) if f.is_error
    ] == []
    report = kind.checks.validate_board(solved, solution)
    assert report.solved and not report.wrong_entries


def test_validate_over_the_service_says_the_solution_is_right(kind, stub):
    board, solution = sample(kind)
    text_of = kind.formats.write(
        entered(kind, board.puzzle, solution), next(iter(kind.formats.FORMATS))
    )
    reply = stub.Validate(
        service_pb2.ValidateRequest(puzzle=text(text_of), compare_with_solution=True), timeout=30
    )
    assert reply.solved and not reply.wrong_entries and not reply.board_findings
