"""The service end to end: a real ``numgrid-server`` process called through raw stubs,
plus fast unit tests of :mod:`numgrid.server.operations`, ``convert`` and ``config``.
"""

from __future__ import annotations

import re
import signal
import threading
import time

import grpc
import pytest
from google.protobuf import descriptor_pb2
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha import reflection_pb2_grpc
from grpc_status import rpc_status
from numgrid.server import config
from numgrid.server import convert
from numgrid.server import operations
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import Verdict
from numgrid.server.core import cell_name
from numgrid.server.engines import Engine
from numgrid.server.kinds import KINDS
from numgrid.server.main import start_embedded
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from support import DATA
from support.server import run_server

KAKURO = KINDS["kakuro"]
PUZZLE_ID = "162_12x12"
SLOW = (DATA / "slow_30x30.txt").read_text()
# Two solutions: [[1, 3], [3, 1]] and [[3, 1], [1, 3]].
MULTIPLE = "3 3\n- 4, 4,\n,4 0 0\n,4 0 0\n"
# Every cell can hold a digit on its own, but no assignment satisfies all four runs.
NO_SOLUTION = "3 3\n- 4, 4,\n,3 0 0\n,5 0 0\n"
ENGINES = {
    "auto": pb.ENGINE_AUTO,
    "native": pb.ENGINE_NATIVE,
    "cpsat": pb.ENGINE_CPSAT,
    "cross-check": pb.ENGINE_CROSS_CHECK,
}
SEARCH_ENGINES = ("native", "cpsat", "cross-check")
DEADLINE = 1.0
SLACK = 0.2  # the bound: DEADLINE_EXCEEDED within deadline + 200 ms


# ---------------------------------------------------------------- helpers


def text_input(content: str, fmt: int = pb.PUZZLE_FORMAT_UNSPECIFIED) -> pb.PuzzleInput:
    return pb.PuzzleInput(text=pb.PuzzleText(content=content, format=fmt))


def structured(janko: str) -> pb.Puzzle:
    return json_format.Parse(
        KAKURO.formats.write(KAKURO.formats.read(janko, "janko"), "json"), pb.Puzzle()
    )


def structured_input(janko: str) -> pb.PuzzleInput:
    return pb.PuzzleInput(puzzle=structured(janko))


def grid_of(solution_text: str) -> list[list[int]]:
    lines = solution_text.strip().splitlines()[1:]
    return [[0 if t == "-" else int(t) for t in line.split()] for line in lines]


def rows_of(grid: pb.Grid) -> list[list[int]]:
    return [list(row.values) for row in grid.rows]


def with_entries(problem: str, entries: dict[tuple[int, int], int]) -> str:
    """The janko text of ``problem`` with digits entered in some white cells."""
    lines = problem.strip().splitlines()
    rows = [line.split() for line in lines[1:]]
    for (r, c), digit in entries.items():
        assert rows[r][c] == "0", f"r{r}c{c} is not an empty white cell"
        rows[r][c] = str(digit)
    return "\n".join([lines[0], *(" ".join(row) for row in rows)]) + "\n"


def cells_of(refs) -> list[tuple[int, int]]:
    return [(ref.row, ref.column) for ref in refs]


def white_cells(solution: list[list[int]]) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(solution) for c, d in enumerate(row) if d]


def open_grid(rows: int, cols: int) -> str:
    """A valid janko puzzle of any size: black lines every 10 rows and columns, the
    blocks between them filled like a Latin square, clues summed from that filling."""

    def black(r: int, c: int) -> bool:
        return r % 10 == 0 or c % 10 == 0

    def digit(r: int, c: int) -> int:
        return (r % 10 + c % 10) % 9 + 1

    def run_sum(r: int, c: int, dr: int, dc: int) -> int:
        total = 0
        r, c = r + dr, c + dc
        while r < rows and c < cols and not black(r, c):
            total, r, c = total + digit(r, c), r + dr, c + dc
        return total

    lines = [f"{rows} {cols}"]
    for r in range(rows):
        tokens = []
        for c in range(cols):
            if not black(r, c):
                tokens.append("0")
                continue
            down, across = run_sum(r, c, 1, 0), run_sum(r, c, 0, 1)
            tokens.append(f"{down or ''},{across or ''}" if down or across else "-")
        lines.append(" ".join(tokens))
    return "\n".join(lines) + "\n"


def violations(error: grpc.RpcError) -> list[error_details_pb2.BadRequest.FieldViolation]:
    status = rpc_status.from_call(error)
    assert status is not None, "INVALID_ARGUMENT without a google.rpc.Status"
    found = []
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Is(pb.Finding.DESCRIPTOR) or detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            continue  # the same problems for machines, and their count
        assert detail.Unpack(bad), f"unexpected detail {detail.type_url}"
        found.extend(bad.field_violations)
    return found


INFO = error_details_pb2.ErrorInfo.DESCRIPTOR


def finding_details(error: grpc.RpcError) -> list:
    """The ``numgrid.v1.Finding`` details: each problem with its code and cells."""
    found = []
    for detail in rpc_status.from_call(error).details:
        finding = pb.Finding()
        if detail.Unpack(finding):
            found.append(finding)
    return found


def wait_for_log(server, mark: int, needle: str, timeout: float = 10.0) -> str:
    """The first line logged after ``mark`` that contains ``needle``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for line in server.log_since(mark):
            if needle in line:
                return line
        time.sleep(0.02)
    raise AssertionError(f"no log line with {needle!r} within {timeout}s")


def logged_ms(line: str) -> float:
    return float(re.search(r"ms=([\d.]+)", line).group(1))


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def channel(server_process):
    with grpc.insecure_channel(server_process.target) as ch:
        yield ch


@pytest.fixture(scope="module")
def stub(channel):
    return numgrid_service_pb2_grpc.NumgridServiceStub(channel)


@pytest.fixture(scope="module")
def twelve(corpus_puzzle):
    """A 12x12 corpus puzzle: (problem text, published solution grid)."""
    problem, solution = corpus_puzzle(PUZZLE_ID)
    return problem, grid_of(solution)


def uniqueness(stub, source: pb.PuzzleInput, engine: str = "auto", **options):
    request = service_pb2.CheckUniquenessRequest(
        puzzle=source, options=service_pb2.SearchOptions(engine=ENGINES[engine], **options)
    )
    return stub.CheckUniqueness(request)


def assert_served_normally(stub, twelve) -> None:
    problem, solution = twelve
    reply = stub.Solve(service_pb2.SolveRequest(puzzle=text_input(problem)), timeout=10)
    assert rows_of(reply.solution) == solution


# ---------------------------------------------------------------- health and reflection


def test_health_is_serving(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "numgrid.v1.NumgridService"):
        reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_and_describes_the_service(channel):
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="numgrid.v1.NumgridService"),
    ]
    listed, described = list(reflection.ServerReflectionInfo(iter(requests), timeout=5))
    names = {s.name for s in listed.list_services_response.service}
    assert {"numgrid.v1.NumgridService", "grpc.health.v1.Health"} <= names
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(raw)
        for raw in described.file_descriptor_response.file_descriptor_proto
    ]
    service = next(f for f in files if f.name == "numgrid/v1/numgrid_service.proto")
    methods = {m.name for m in service.service[0].method}
    assert methods == {
        "Validate",
        "Solve",
        "Hint",
        "CheckUniqueness",
        "Explain",
        "BatchCheckUniqueness",
        "Render",
        "Generate",
        "ConvertPuzzle",
    }


# ---------------------------------------------------------------- happy paths


@pytest.mark.parametrize("engine", ENGINES)
def test_solve_gives_the_published_solution(stub, twelve, engine):
    problem, solution = twelve
    request = service_pb2.SolveRequest(
        puzzle=text_input(problem), options=service_pb2.SearchOptions(engine=ENGINES[engine])
    )
    reply = stub.Solve(request)
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert rows_of(reply.solution) == solution
    expected = {"cross-check": {pb.ENGINE_CPSAT, pb.ENGINE_NATIVE}, "cpsat": {pb.ENGINE_CPSAT}}
    assert {s.engine for s in reply.stats} == expected.get(engine, {pb.ENGINE_NATIVE})
    assert reply.puzzle == structured(problem)


@pytest.mark.parametrize("engine", ENGINES)
def test_check_uniqueness_unique(stub, twelve, engine):
    problem, solution = twelve
    reply = uniqueness(stub, text_input(problem), engine)
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert [rows_of(g) for g in reply.solutions] == [solution]
    assert not reply.differing_cells


@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_check_uniqueness_multiple_shows_two_solutions_and_where_they_differ(stub, engine):
    reply = uniqueness(stub, text_input(MULTIPLE), engine)
    assert reply.verdict == pb.VERDICT_MULTIPLE
    first, second = (rows_of(g) for g in reply.solutions)
    assert first != second
    assert sorted([first, second]) == [
        [[0, 0, 0], [0, 1, 3], [0, 3, 1]],
        [[0, 0, 0], [0, 3, 1], [0, 1, 3]],
    ]
    assert sorted(cells_of(reply.differing_cells)) == [(1, 1), (1, 2), (2, 1), (2, 2)]


@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_no_solution(stub, engine):
    reply = uniqueness(stub, text_input(NO_SOLUTION), engine)
    assert reply.verdict == pb.VERDICT_NO_SOLUTION
    assert not reply.solutions
    solved = stub.Solve(service_pb2.SolveRequest(puzzle=text_input(NO_SOLUTION)))
    assert solved.verdict == pb.VERDICT_NO_SOLUTION
    assert not solved.HasField("solution")


@pytest.mark.parametrize(
    ("fmt", "enum"),
    [
        ("janko", pb.PUZZLE_FORMAT_JANKO),
        ("csv", pb.PUZZLE_FORMAT_CSV),
        ("json", pb.PUZZLE_FORMAT_JSON),
        ("janko", pb.PUZZLE_FORMAT_UNSPECIFIED),
        ("csv", pb.PUZZLE_FORMAT_UNSPECIFIED),
        ("json", pb.PUZZLE_FORMAT_UNSPECIFIED),
    ],
)
def test_every_text_format_reads_the_same_puzzle(stub, twelve, fmt, enum):
    problem, solution = twelve
    board = KAKURO.formats.read(with_entries(problem, {(1, 2): 7}), "janko")
    source = text_input(KAKURO.formats.write(board, fmt), enum)
    reply = stub.Solve(service_pb2.SolveRequest(puzzle=source))
    assert rows_of(reply.solution) == solution
    assert reply.puzzle == structured(with_entries(problem, {(1, 2): 7}))


def test_structured_input(stub, twelve):
    problem, solution = twelve
    source = structured_input(problem)
    assert rows_of(stub.Solve(service_pb2.SolveRequest(puzzle=source)).solution) == solution
    reply = stub.CheckUniqueness(service_pb2.CheckUniquenessRequest(puzzle=source))
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert reply.puzzle == source.puzzle


def test_hold_entries(stub, twelve):
    problem, solution = twelve
    hold = service_pb2.SearchOptions(hold_entries=True)
    right = text_input(with_entries(problem, {(1, 2): solution[1][2]}))
    reply = stub.Solve(service_pb2.SolveRequest(puzzle=right, options=hold))
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert rows_of(reply.solution) == solution

    wrong_digit = solution[1][2] % 9 + 1
    wrong = text_input(with_entries(problem, {(1, 2): wrong_digit}))
    held = stub.Solve(service_pb2.SolveRequest(puzzle=wrong, options=hold))
    assert held.verdict == pb.VERDICT_NO_SOLUTION
    not_held = stub.Solve(service_pb2.SolveRequest(puzzle=wrong))
    assert rows_of(not_held.solution) == solution

    # A held entry picks one of the two solutions of an ambiguous puzzle.
    one = uniqueness(stub, text_input(with_entries(MULTIPLE, {(1, 1): 3})), hold_entries=True)
    assert one.verdict == pb.VERDICT_UNIQUE
    assert rows_of(one.solutions[0]) == [[0, 0, 0], [0, 3, 1], [0, 1, 3]]


def test_validate_reports_runs_cells_and_findings(stub, twelve):
    problem, solution = twelve
    # Row 1 starts with the across run 29 over r1c2..r1c5; enter one digit twice in it.
    board = with_entries(problem, {(1, 2): 5, (1, 3): 5})
    reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text_input(board)))
    assert [f.code for f in reply.board_findings] == ["duplicate"]
    assert sorted(cells_of(reply.board_findings[0].cells)) == [(1, 2), (1, 3)]
    assert reply.board_findings[0].group == "across 29 at r1c1"
    across = next(r for r in reply.groups if r.type == service_pb2.GROUP_TYPE_ACROSS)
    assert (across.clue, across.state, across.total) == (29, service_pb2.GROUP_STATE_DUPLICATE, 10)
    statuses = {(c.cell.row, c.cell.column): c.status for c in reply.cells}
    assert len(statuses) == len(white_cells(solution))
    assert statuses[1, 2] == statuses[1, 3] == service_pb2.CELL_STATUS_DUPLICATE
    assert statuses[1, 4] == service_pb2.CELL_STATUS_BLANK
    assert not reply.solved
    assert reply.verdict == pb.VERDICT_UNSPECIFIED  # nothing compared
    assert not reply.stats


def test_validate_compares_with_the_solution(stub, twelve):
    problem, solution = twelve
    right, wrong = solution[1][2], solution[2][1] % 9 + 1
    board = with_entries(problem, {(1, 2): right, (2, 1): wrong})
    request = service_pb2.ValidateRequest(puzzle=text_input(board), compare_with_solution=True)
    reply = stub.Validate(request)
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert cells_of(reply.wrong_entries) == [(2, 1)]
    assert reply.stats


def test_validate_a_solved_board_with_warnings(stub):
    # A one-cell run is legal but worth a warning.
    solved = "3 3\n- 5, 1,\n,4 3 1\n,2 0 -\n"
    reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text_input(solved)))
    assert not reply.solved  # r2c1 is still empty
    assert {w.code for w in reply.warnings} == {"one_cell_run"}
    assert all(w.severity == pb.SEVERITY_WARNING for w in reply.warnings)
    full = stub.Validate(
        service_pb2.ValidateRequest(puzzle=text_input(solved.replace(",2 0", ",2 2")))
    )
    assert full.solved
    assert not full.board_findings


def test_a_grid_of_124x90_is_admitted(stub):
    big = open_grid(124, 90)
    reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text_input(big)), timeout=30)
    assert len(reply.puzzle.kakuro.rows) == 124
    assert not reply.board_findings


# ---------------------------------------------------------------- Hint


def hint(stub, board: str, engine: str = "auto", **fields) -> service_pb2.HintResponse:
    request = service_pb2.HintRequest(
        puzzle=text_input(board),
        options=service_pb2.SearchOptions(engine=ENGINES[engine]),
        **fields,
    )
    return stub.Hint(request)


def test_hint_names_a_broken_rule(stub, twelve):
    problem, _ = twelve
    reply = hint(stub, with_entries(problem, {(1, 2): 5, (1, 3): 5}))
    assert reply.kind == service_pb2.HINT_KIND_MISTAKE
    assert sorted(cells_of(reply.cells)) == [(1, 2), (1, 3)]
    assert [f.code for f in reply.findings] == ["duplicate"]
    assert "r1c2" in reply.explanation and "r1c3" in reply.explanation
    assert not reply.placements


@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_hint_names_an_entry_that_differs_from_the_solution(stub, twelve, engine):
    problem, solution = twelve
    wrong = solution[2][1] % 9 + 1
    reply = hint(stub, with_entries(problem, {(1, 2): solution[1][2], (2, 1): wrong}), engine)
    assert reply.kind == service_pb2.HINT_KIND_MISTAKE
    assert cells_of(reply.cells) == [(2, 1)]
    assert "r2c1" in reply.explanation
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert not reply.placements


@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_hint_places_a_digit_of_the_solution(stub, twelve, engine):
    problem, solution = twelve
    board = with_entries(problem, {(1, 2): solution[1][2]})
    reply = hint(stub, board, engine, placements_only=True)
    assert reply.kind == service_pb2.HINT_KIND_STEP  # a logical step (tests/test_hints.py)
    [placement] = reply.placements
    cell = (placement.cell.row, placement.cell.column)
    assert cell in white_cells(solution) and cell != (1, 2)
    assert placement.digit == solution[cell[0]][cell[1]]
    assert cells_of(reply.cells) == [cell]
    assert reply.explanation.endswith(f"{cell_name(cell)} = {placement.digit}.")
    assert reply.verdict == pb.VERDICT_UNIQUE


@pytest.mark.parametrize(
    ("puzzle", "verdict"), [(MULTIPLE, "MULTIPLE"), (NO_SOLUTION, "NO_SOLUTION")]
)
def test_hint_refuses_a_puzzle_without_a_unique_solution(stub, puzzle, verdict):
    reply = hint(stub, puzzle)
    assert reply.kind == service_pb2.HINT_KIND_NOT_UNIQUE
    assert reply.verdict == pb.Verdict.Value(f"VERDICT_{verdict}")
    assert not reply.placements


# ---------------------------------------------------------------- errors


def call_every_rpc(stub, source: pb.PuzzleInput, **options):
    """Each RPC with ``source``: the list of the RpcErrors they raised."""
    opts = service_pb2.SearchOptions(**options)
    calls = [
        lambda: stub.Validate(
            service_pb2.ValidateRequest(puzzle=source, compare_with_solution=True, options=opts)
        ),
        lambda: stub.Solve(service_pb2.SolveRequest(puzzle=source, options=opts)),
        lambda: stub.Hint(service_pb2.HintRequest(puzzle=source, options=opts)),
        lambda: stub.CheckUniqueness(
            service_pb2.CheckUniquenessRequest(puzzle=source, options=opts)
        ),
    ]
    errors = []
    for call in calls:
        with pytest.raises(grpc.RpcError) as caught:
            call()
        errors.append(caught.value)
    return errors


def assert_invalid(stub, source: pb.PuzzleInput, **options):
    """Every RPC refuses ``source`` with INVALID_ARGUMENT; the violations of one of them."""
    errors = call_every_rpc(stub, source, **options)
    for error in errors:
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (error.code(), error.details())
    found = violations(errors[0])
    assert found
    assert all(violations(e) == found for e in errors)
    return found


def test_malformed_text_names_every_bad_cell(stub, twelve):
    problem, _ = twelve
    lines = problem.splitlines()
    lines[3] = lines[3].replace("0 0 0 0 0", "0 x 0 0 0", 1)  # r2c2 (line 0 is the header)
    lines[6] = lines[6].replace(",17", "17;", 1)  # r5c0
    found = assert_invalid(stub, text_input("\n".join(lines), pb.PUZZLE_FORMAT_JANKO))
    assert {v.field for v in found} == {"puzzle.text.content"}
    described = " | ".join(v.description for v in found)
    assert len(found) == 2
    assert "r2c2" in described and "'x'" in described
    assert "r5c0" in described and "'17;'" in described


def test_errors_carry_each_finding_with_its_code_and_cells(stub, twelve):
    """Machines need not read cells out of sentences: each finding is a detail too."""
    problem, _ = twelve
    lines = problem.splitlines()
    lines[3] = lines[3].replace("0 0 0 0 0", "0 x 0 0 0", 1)  # r2c2
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(service_pb2.SolveRequest(puzzle=text_input("\n".join(lines))))
    found = finding_details(caught.value)
    assert [(f.code, [(c.row, c.column) for c in f.cells]) for f in found] == [
        ("unknown_token", [(2, 2)])
    ]
    assert found[0].severity == pb.SEVERITY_ERROR


def test_thousands_of_bad_cells_are_capped_not_lost(stub):
    """A 100x100 grid of bad tokens: the error still reaches a default client (trailers
    under 8 KiB), listing the first problems and how many more there are."""
    text = "100 100\n" + "\n".join(" ".join(["x"] * 100) for _ in range(100))
    with pytest.raises(grpc.RpcError) as caught:
        stub.Validate(service_pb2.ValidateRequest(puzzle=text_input(text)))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    listed = violations(caught.value)
    assert 20 < len(listed) < 10_000
    assert listed[-1].description == f"... and {10_001 - len(listed)} more not listed"
    findings = finding_details(caught.value)
    assert findings and all(f.code == "unknown_token" for f in findings)
    (info,) = [d for d in rpc_status.from_call(caught.value).details if d.Is(INFO)]
    unpacked = error_details_pb2.ErrorInfo()
    info.Unpack(unpacked)
    assert unpacked.metadata["problems"] == "10000"


def test_bad_cells_are_all_reported_at_once(stub):
    # across 50 over two cells is impossible; the down run at r1c2..r2c2 has no clue.
    broken = "3 3\n- 4, -\n,50 0 0\n,4 0 0\n"
    found = assert_invalid(stub, text_input(broken))
    text = [v.description for v in found]
    assert any("across 50 at r1c0" in t and "cannot be made" in t for t in text), text
    assert any("down run of 2 cells from r1c2 has no clue" in t for t in text), text

    fields = {v.field for v in assert_invalid(stub, structured_input(broken))}
    root = "puzzle.puzzle.kakuro"
    # the impossible clue at its clue cell and its two cells; the unclued run's two cells
    assert {
        f"{root}.rows[1].cells[0]",
        f"{root}.rows[1].cells[1]",
        f"{root}.rows[1].cells[2]",
        f"{root}.rows[2].cells[2]",
    } <= fields


def test_structured_ragged_rows_and_bad_values(stub):
    puzzle = structured(MULTIPLE)
    del puzzle.kakuro.rows[1].cells[2]
    puzzle.kakuro.rows[2].cells[1].digit = 12
    found = assert_invalid(stub, pb.PuzzleInput(puzzle=puzzle))
    assert [v.field for v in found] == ["puzzle.puzzle.kakuro.rows[1].cells[2]"]
    assert "row 1 has 2 cells, expected 3" in found[0].description

    puzzle = structured(MULTIPLE)
    puzzle.kakuro.rows[2].cells[1].digit = 12
    found = assert_invalid(stub, pb.PuzzleInput(puzzle=puzzle))
    assert [v.field for v in found] == ["puzzle.puzzle.kakuro.rows[2].cells[1]"]
    assert "r2c1" in found[0].description


def test_wrong_explicit_format(stub, twelve):
    problem, _ = twelve
    as_csv = KAKURO.formats.write(KAKURO.formats.read(problem, "janko"), "csv")
    found = assert_invalid(stub, text_input(as_csv, pb.PUZZLE_FORMAT_JSON))
    assert "not JSON" in found[0].description
    found = assert_invalid(stub, text_input(problem, pb.PUZZLE_FORMAT_CSV))
    assert found[0].field == "puzzle.text.content"


def test_text_matching_no_format(stub):
    found = assert_invalid(stub, text_input("hello, world\n"))
    assert found[0].description.startswith("unsupported kind: ")
    assert "kakurasu, kakuro, kenken, killer, skyscraper" in found[0].description
    assert assert_invalid(stub, text_input(""))


def test_size_over_the_limit(stub):
    found = assert_invalid(stub, text_input("150 150\n- -\n"))
    assert "22500 cells is over the limit of 20000" in found[0].description
    big = pb.Puzzle()
    for _ in range(150):
        big.kakuro.rows.add().cells.extend(pb.KakuroCell() for _ in range(150))
    found = assert_invalid(stub, pb.PuzzleInput(puzzle=big))
    assert found[0].field == "puzzle.puzzle.kakuro"
    assert "over the limit" in found[0].description


def test_text_too_long_for_any_grid_within_the_limit(stub):
    # Refused at once, before parsing: 20000 cells never need 6 MB of text.
    found = assert_invalid(stub, text_input("0," * 3_000_000))
    assert [v.field for v in found] == ["puzzle.text.content"]
    assert "more than any grid of at most 20000 cells needs" in found[0].description


def test_empty_request_and_empty_puzzle(stub):
    found = assert_invalid(stub, pb.PuzzleInput())
    assert [v.field for v in found] == ["puzzle"]
    found = assert_invalid(stub, pb.PuzzleInput(puzzle=pb.Puzzle()))
    assert [v.field for v in found] == ["puzzle.puzzle"]


def test_bad_options(stub, twelve):
    problem, _ = twelve
    found = assert_invalid(stub, text_input(problem), engine=42)
    assert [v.field for v in found] == ["options.engine"]
    found = assert_invalid(stub, text_input(problem), time_limit={"seconds": -1})
    assert [v.field for v in found] == ["options.time_limit"]
    source = pb.PuzzleInput(text=pb.PuzzleText(content=problem, format=17))
    assert [v.field for v in assert_invalid(stub, source)] == ["puzzle.text.format"]
    source = pb.PuzzleInput(text=pb.PuzzleText(content=problem, kind=9))
    assert [v.field for v in assert_invalid(stub, source)] == ["puzzle.text.kind"]


def test_bad_input_leaves_the_server_healthy(stub, twelve, server_process):
    call_every_rpc(stub, text_input("\x00\xff" * 1000))
    assert server_process.process.poll() is None
    assert_served_normally(stub, twelve)


def test_bad_input_does_not_disturb_calls_in_flight(stub, twelve):
    slow = stub.CheckUniqueness.future(slow_request("native", time_limit={"seconds": 1}))
    for source in (text_input("nonsense"), text_input("150 150\n"), pb.PuzzleInput()):
        call_every_rpc(stub, source)
        assert_served_normally(stub, twelve)
    reply = slow.result(timeout=20)  # its work is not lost: it answers in full
    assert reply.verdict == pb.VERDICT_TIMEOUT
    assert reply.stats[0].nodes > 0


# ---------------------------------------------------------------- time: deadline, cap, limit


def slow_request(engine: str, **options) -> service_pb2.CheckUniquenessRequest:
    """A 30x30 puzzle of 9-cell runs that neither engine decides in 20 s (tests/data)."""
    return service_pb2.CheckUniquenessRequest(
        puzzle=text_input(SLOW, pb.PUZZLE_FORMAT_JANKO),
        options=service_pb2.SearchOptions(engine=ENGINES[engine], **options),
    )


@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_client_deadline_stops_the_search(stub, twelve, server_process, engine):
    mark = server_process.log_mark()
    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as caught:
        stub.CheckUniqueness(slow_request(engine), timeout=DEADLINE)
    elapsed = time.monotonic() - start
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert elapsed < DEADLINE + SLACK
    # The server really stopped: the call's log line comes long before the 30 s cap.
    line = wait_for_log(server_process, mark, "method=CheckUniqueness size=30x30")
    assert "status=DEADLINE_EXCEEDED" in line
    assert logged_ms(line) < (DEADLINE + SLACK) * 1000, line
    assert_served_normally(stub, twelve)


@pytest.fixture(scope="module")
def capped_server(launch_server):
    """A server with a time cap of DEADLINE, 1000 cells at most, 64 KiB messages."""
    flags = ("--time-cap", str(DEADLINE), "--max-cells", "1000", "--max-message-bytes", "65536")
    server = launch_server(*flags)
    yield server
    assert server.stop() == 0


def test_server_limits_on_cells_and_message_size(capped_server, twelve):
    with grpc.insecure_channel(capped_server.target) as ch:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(ch)
        found = assert_invalid(stub, text_input(open_grid(40, 40)))
        assert "1600 cells is over the limit of 1000 cells" in found[0].description
        with pytest.raises(grpc.RpcError) as caught:
            stub.Solve(service_pb2.SolveRequest(puzzle=text_input(" " * 70_000)), timeout=10)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert_served_normally(stub, twelve)


@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_server_time_cap_stops_the_search(capped_server, twelve, engine):
    with grpc.insecure_channel(capped_server.target) as ch:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(ch)
        start = time.monotonic()
        with pytest.raises(grpc.RpcError) as caught:
            stub.CheckUniqueness(slow_request(engine), timeout=30)
        elapsed = time.monotonic() - start
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "time cap of 1 s" in caught.value.details()
        assert elapsed < DEADLINE + SLACK
        assert_served_normally(stub, twelve)
        # A request's own time limit cannot go past the cap.
        with pytest.raises(grpc.RpcError) as caught:
            stub.CheckUniqueness(slow_request(engine, time_limit={"seconds": 5}), timeout=30)
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


@pytest.mark.parametrize("engine", SEARCH_ENGINES)
def test_request_time_limit_gives_a_timeout_verdict(stub, engine):
    reply = stub.CheckUniqueness(
        slow_request(engine, time_limit={"nanos": 300_000_000}), timeout=20
    )
    assert reply.verdict == pb.VERDICT_TIMEOUT
    assert not reply.solutions
    assert reply.stats
    solve = stub.Solve(
        service_pb2.SolveRequest(
            puzzle=text_input(SLOW),
            options=service_pb2.SearchOptions(
                engine=ENGINES[engine], time_limit={"nanos": 300_000_000}
            ),
        ),
        timeout=20,
    )
    assert solve.verdict == pb.VERDICT_TIMEOUT
    assert not solve.HasField("solution")


def test_client_cancellation_stops_the_search(stub, twelve, server_process):
    for engine in SEARCH_ENGINES:
        mark = server_process.log_mark()
        future = stub.CheckUniqueness.future(slow_request(engine))
        time.sleep(0.3)
        assert future.cancel()
        line = wait_for_log(server_process, mark, "method=CheckUniqueness size=30x30")
        assert "status=CANCELLED" in line
        assert_served_normally(stub, twelve)


# ---------------------------------------------------------------- shutdown


def test_sigterm_lets_in_flight_calls_finish(launch_server, twelve):
    server = launch_server("--grace", "10")
    try:
        with grpc.insecure_channel(server.target) as ch:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(ch)
            assert_served_normally(stub, twelve)
            future = stub.CheckUniqueness.future(slow_request("native", time_limit={"seconds": 2}))
            time.sleep(0.5)
            server.process.send_signal(signal.SIGTERM)
            reply = future.result(timeout=20)  # finishes normally, within the grace period
            assert reply.verdict == pb.VERDICT_TIMEOUT
            assert server.process.wait(20) == 0
            with pytest.raises(grpc.RpcError) as caught:
                stub.Solve(service_pb2.SolveRequest(puzzle=text_input(MULTIPLE)), timeout=5)
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop(signal.SIGKILL)
    log = "\n".join(server.log_lines())
    assert "method=CheckUniqueness size=30x30 status=OK" in log


def test_past_the_grace_period_in_flight_calls_are_cancelled(launch_server):
    server = launch_server("--grace", "0.5")
    try:
        with grpc.insecure_channel(server.target) as ch:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(ch)
            future = stub.CheckUniqueness.future(slow_request("cross-check"))
            time.sleep(0.5)
            server.process.send_signal(signal.SIGINT)
            with pytest.raises(grpc.RpcError) as caught:
                future.result(timeout=20)
            assert caught.value.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
            assert server.process.wait(20) == 0  # the search stopped: the process could exit
    finally:
        server.stop(signal.SIGKILL)


# ---------------------------------------------------------------- in-process units


def test_start_embedded_serves_quietly(twelve, capsys):
    with start_embedded() as embedded:
        assert embedded.target.startswith("127.0.0.1:")
        with grpc.insecure_channel(embedded.target) as ch:
            assert_served_normally(numgrid_service_pb2_grpc.NumgridServiceStub(ch), twelve)
    assert capsys.readouterr().out == ""


def test_operations_read_board_reports_every_error():
    with pytest.raises(PuzzleError) as caught:
        operations.read_board(KAKURO, "3 3\n- 4, -\n,50 0 0\n,4 0 0\n", None, 100)
    codes = sorted(f.code for f in caught.value.findings)
    assert codes == ["impossible_clue", "run_without_clue"]
    board, warnings = operations.read_board(KAKURO, MULTIPLE, None, 100)
    assert board.puzzle.rows == 3 and warnings == ()
    with pytest.raises(PuzzleError):
        operations.read_board(KAKURO, MULTIPLE, None, 8)  # 9 cells over a limit of 8


def _hint(text: str, **options) -> operations.Hint:
    board, _ = operations.read_board(KAKURO, text, None, 1000)
    return operations.hint(KAKURO, board, engine=Engine.AUTO, budget=Budget.seconds(10), **options)


def test_operations_hint(twelve):
    problem, solution = twelve
    duplicate = _hint(with_entries(problem, {(1, 2): 5, (1, 3): 5}))
    assert (duplicate.kind, duplicate.verdict) == ("MISTAKE", None)  # no search needed
    wrong = _hint(with_entries(problem, {(2, 1): solution[2][1] % 9 + 1}))
    assert (wrong.kind, wrong.cells, wrong.verdict) == ("MISTAKE", ((2, 1),), Verdict.UNIQUE)
    assert [f.code for f in wrong.findings] == ["wrong_entry"]
    markup = _hint(problem)
    assert (markup.kind, markup.step.technique.name) == ("STEP", "COMBINATIONS")
    assert markup.placements == () and markup.cells  # the cells that lose digits
    step = _hint(problem, placements_only=True)
    [(cell, digit)] = step.placements
    assert step.kind == "STEP" and digit == solution[cell[0]][cell[1]]
    entries = {cell: solution[cell[0]][cell[1]] for cell in white_cells(solution)}
    assert _hint(with_entries(problem, entries)).kind == "SOLVED"
    assert _hint(MULTIPLE).kind == "NOT_UNIQUE"

    board, _ = operations.read_board(KAKURO, SLOW, None, 1000)
    timed_out = operations.hint(KAKURO, board, engine=Engine.NATIVE, budget=Budget.seconds(0.1))
    assert (timed_out.kind, timed_out.verdict) == ("", Verdict.TIMEOUT)


def test_operations_validate_and_search(twelve):
    problem, solution = twelve
    board, _ = operations.read_board(
        KAKURO, with_entries(problem, {(2, 1): solution[2][1] % 9 + 1}), None, 1000
    )
    result = operations.validate(
        KAKURO, board, compare=True, engine=Engine.NATIVE, budget=Budget.seconds(10)
    )
    assert result.verdict is Verdict.UNIQUE and result.report.wrong_entries == ((2, 1),)
    plain = operations.validate(
        KAKURO, board, compare=False, engine=Engine.NATIVE, budget=Budget.seconds(10)
    )
    assert plain.verdict is None and plain.report.wrong_entries == ()
    held = operations.solve(
        KAKURO, board, engine=Engine.NATIVE, budget=Budget.seconds(10), hold_entries=True
    )
    assert held.verdict is Verdict.NO_SOLUTION
    answer = operations.check_uniqueness(
        KAKURO, board, engine=Engine.NATIVE, budget=Budget.seconds(10), hold_entries=False
    )
    assert answer.verdict is Verdict.UNIQUE
    assert [list(row) for row in answer.solutions[0]] == solution


def test_convert_structured_and_text_read_the_same_board(twelve):
    problem, _ = twelve
    text = convert.read_input(text_input(problem), 1000)
    proto = convert.read_input(structured_input(problem), 1000)
    assert text.board == proto.board == KAKURO.formats.read(problem, "janko")
    assert convert.puzzle(text) == structured(problem)


def test_config_flags_and_environment(monkeypatch):
    defaults = config.from_args([])
    assert defaults == config.ServerConfig()
    assert defaults.max_cells >= 124 * 90
    monkeypatch.setenv("NUMGRID_PORT", "6000")
    monkeypatch.setenv("NUMGRID_TIME_CAP", "2.5")
    monkeypatch.setenv("NUMGRID_MAX_CELLS", "500")
    cfg = config.from_args(["--port", "7000", "--threads", "3"])
    assert (cfg.port, cfg.time_cap_seconds, cfg.max_cells, cfg.threads) == (7000, 2.5, 500, 3)
    monkeypatch.setenv("NUMGRID_THREADS", "zero")
    with pytest.raises(SystemExit):
        config.from_args([])
    with pytest.raises(SystemExit):
        config.from_args(["--time-cap", "0", "--threads", "1"])


def test_a_port_in_use_is_a_clear_error(server_process):
    done = run_server("--host", "127.0.0.1", "--port", str(server_process.port))
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{server_process.port}" in done.stderr
    assert "listening on" not in done.stdout


def test_bad_flags_exit_with_usage():
    done = run_server("--log-level", "loud")
    assert done.returncode == 2
    assert "--log-level must be one of" in done.stderr


def test_an_rpc_racing_the_shutdown_is_never_unknown(twelve):
    """Calls in flight while an embedded server stops end with a real status."""
    embedded = start_embedded()
    codes = []
    with grpc.insecure_channel(embedded.target) as ch:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(ch)

        def call():
            try:
                stub.CheckUniqueness(slow_request("cpsat"), timeout=10)
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as e:
                codes.append(e.code())

        threads = [threading.Thread(target=call) for _ in range(2)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        embedded.stop(0.1)
        for t in threads:
            t.join(15)
    assert len(codes) == 2
    assert set(codes) <= {grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE}
