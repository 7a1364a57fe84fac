"""Raw gRPC calls to a real ``numgrid-server``, as the service tests of every kind make
them: a puzzle as text, grids as lists, CheckUniqueness with an engine, and the
``BadRequest`` field violations of an INVALID_ARGUMENT."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb


def text(content: str, kind=pb.PUZZLE_KIND_UNSPECIFIED, fmt=pb.PUZZLE_FORMAT_UNSPECIFIED):
    """A text puzzle input, its kind and format named or left to detection."""
    return pb.PuzzleInput(text=pb.PuzzleText(content=content, kind=kind, format=fmt))


def rows_of(grid: pb.Grid) -> list[list[int]]:
    return [list(row.values) for row in grid.rows]


def unique(stub, source, engine=pb.ENGINE_CROSS_CHECK):
    request = service_pb2.CheckUniquenessRequest(
        puzzle=source, options=service_pb2.SearchOptions(engine=engine)
    )
    return stub.CheckUniqueness(request, timeout=30)


def validate(stub, content: str, **fields):
    """Validate of a text puzzle (its entries after it)."""
    request = service_pb2.ValidateRequest(puzzle=text(content), **fields)
    return stub.Validate(request, timeout=30)


def group_types(reply) -> set[str]:
    """The types of the groups a Validate reply reports: ``{"ROW", "COLUMN", ...}``."""
    return {service_pb2.GroupType.Name(g.type).removeprefix("GROUP_TYPE_") for g in reply.groups}


def bad_request(error: grpc.RpcError) -> list[error_details_pb2.BadRequest.FieldViolation]:
    """The field violations of an INVALID_ARGUMENT (it must be one)."""
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    for detail in rpc_status.from_call(error).details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            return list(bad.field_violations)
    raise AssertionError("no BadRequest detail")
