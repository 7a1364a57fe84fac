"""Kakurasu through the real service, what is its own (what every kind must do is in
``tests/conformance/``): a clue not given as -1, bad clues and marks answered
INVALID_ARGUMENT naming them, Validate's rows and columns, and the sample's first hint."""

from __future__ import annotations

import grpc
import pytest
from numgrid.server.kinds.kakurasu import formats
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support.kakurasu import SMALL
from support.kakurasu import SMALL_SOLUTION
from support.rpc import bad_request
from support.rpc import group_types
from support.rpc import text
from support.rpc import unique
from support.rpc import validate

SOLUTION = [list(row) for row in formats.read_solution(SMALL_SOLUTION)]


def test_a_missing_clue_is_minus_one_in_the_message(stub):
    reply = validate(stub, "2 2\n1 -\n1 -\n")
    assert list(reply.puzzle.kakurasu.column_clues) == [1, -1]
    assert list(reply.puzzle.kakurasu.row_clues) == [1, -1]


def test_broken_clues_are_named_all_at_once(stub):
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, text("3 3\n1 2\n7 2 3\n"))
    found = [v.description for v in bad_request(caught.value)]
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
    fields = {v.field for v in bad_request(caught.value)}
    assert fields == {"puzzle.puzzle.kakurasu.entries.rows[1].values[1]"}


def test_validate_reports_rows_columns_and_cells(stub):
    marked = SMALL + "x - . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"
    reply = validate(stub, marked)
    assert group_types(reply) == {"ROW", "COLUMN"}
    row0 = next(g for g in reply.groups if g.type == service_pb2.GROUP_TYPE_ROW and g.index == 0)
    assert (row0.clue, row0.total, row0.state) == (4, 1, service_pb2.GROUP_STATE_INCOMPLETE)
    statuses = {(c.cell.row, c.cell.column): c.status for c in reply.cells}
    assert statuses[0, 0] == service_pb2.CELL_STATUS_GROUP_INCOMPLETE
    assert statuses[4, 4] == service_pb2.CELL_STATUS_BLANK
    checked = validate(stub, marked, compare_with_solution=True)
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
