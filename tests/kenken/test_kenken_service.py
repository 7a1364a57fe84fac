"""KenKen through the real service, what is its own (what every kind must do is in
``tests/conformance/``): bad cages and cells answered INVALID_ARGUMENT naming them,
Validate's rows, columns and cages, and a JSON puzzle of a kind not served."""

from __future__ import annotations

import grpc
import pytest
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support.rpc import bad_request
from support.rpc import group_types
from support.rpc import text
from support.rpc import unique
from support.rpc import validate

# 4x4 from the corpus (02_4x4) with its published solution.
SMALL = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3"
# r0c0 and r1c1 share a cage number but are not neighbours.
DISCONNECTED = "2 2\n3+ 2\n1 .\n1 2\n3 1"


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
    reply = validate(stub, entered)
    assert group_types(reply) == {"ROW", "COLUMN", "CAGE"}
    (duplicate,) = [f for f in reply.board_findings if f.code == "duplicate"]
    assert {(c.row, c.column) for c in duplicate.cells} == {(0, 0), (0, 1)}
    assert duplicate.group == "row 0"
    statuses = {(c.cell.row, c.cell.column): c.status for c in reply.cells}
    assert statuses[0, 0] == service_pb2.CELL_STATUS_DUPLICATE
    assert statuses[3, 3] == service_pb2.CELL_STATUS_BLANK
    cage = next(g for g in reply.groups if g.type == service_pb2.GROUP_TYPE_CAGE and g.clue == 16)
    assert cage.operation == pb.CAGE_OPERATION_MULTIPLY
    assert (cage.clue_cell.row, cage.clue_cell.column) == (0, 1)


def test_a_json_puzzle_of_an_unknown_kind_is_unsupported(stub):
    with pytest.raises(grpc.RpcError) as caught:
        unique(stub, text('{"nonogram": {"rows": []}}'))
    assert "unsupported kind 'nonogram'" in caught.value.details()
