"""The Python client against a real ``numgrid-server`` process: every RPC, Python values
out, errors with their parsed violations, deadlines, and retries on UNAVAILABLE only
(against a fake server whose failures the test chooses). Also the text renderer."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import grpc
import pytest
from google.protobuf import json_format
from numgrid.client import EngineStat
from numgrid.client import Hint
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.client import SolveResult
from numgrid.client import Uniqueness
from numgrid.client import Validation
from numgrid.client.client import channel_options
from numgrid.client.render import render
from numgrid.client.render import solution_text
from numgrid.client.types import Violation
from numgrid.client.types import parse_cell
from numgrid.v1 import puzzle_pb2
from support.client import HARD
from support.client import FakeServer
from support.client import FakeService
from support.client import corpus_entry
from support.client import filled
from support.client import parse_solution
from support.client import published_solution
from support.client import sample
from support.client import too_big

TEN = "kakuro-10x12.txt"


@pytest.fixture(scope="module")
def client(server_process):
    with NumgridClient(server_process.target, timeout=30) as c:
        yield c


def structured(name: str) -> puzzle_pb2.Puzzle:
    return json_format.Parse(sample(name), puzzle_pb2.Puzzle())


# ---------------------------------------------------------------- no solver code


def test_importing_the_client_imports_no_solver_code():
    code = (
        "import sys, numgrid.client, numgrid.client.cli, numgrid.client.render\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('numgrid.server', 'ortools')))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- every RPC


def test_health(client):
    assert client.health() == "SERVING"
    assert client.health("numgrid.v1.NumgridService") == "SERVING"


@pytest.mark.parametrize("name", ["kakuro-10x12.txt", "kakuro-10x12.csv", "kakuro-10x12.json"])
def test_solve_gives_the_published_solution_in_every_format(client, name):
    result = client.solve(sample(name))
    assert isinstance(result, SolveResult)
    assert result.verdict == "UNIQUE"
    assert result.solution == published_solution("kakuro-10x12.solution.txt")
    assert isinstance(result.solution, tuple) and isinstance(result.solution[0], tuple)
    assert result.puzzle.WhichOneof("kind") == "kakuro"
    assert [s.engine for s in result.stats] == ["native"]


def test_solve_a_structured_puzzle(client):
    result = client.solve(structured("kakuro-10x12.json"))
    assert result.solution == published_solution("kakuro-10x12.solution.txt")


def test_solve_with_an_explicit_format(client):
    assert client.solve(sample("kakuro-10x12.csv"), format="csv").verdict == "UNIQUE"
    with pytest.raises(NumgridError) as e:
        client.solve(sample("kakuro-10x12.csv"), format="janko")
    assert e.value.code == "INVALID_ARGUMENT"


def test_solve_without_solution(client):
    result = client.solve(sample("no-solution.txt"))
    assert (result.verdict, result.solution) == ("NO_SOLUTION", None)


@pytest.mark.parametrize(
    ("engine", "engines"),
    [
        ("auto", ["native"]),
        ("native", ["native"]),
        ("cpsat", ["cpsat"]),
        ("cross-check", ["cpsat", "native"]),
    ],
)
def test_engines(client, engine, engines):
    result = client.check_uniqueness(sample(TEN), engine=engine)
    assert result.verdict == "UNIQUE"
    assert sorted(s.engine for s in result.stats) == engines
    assert all(isinstance(s, EngineStat) and s.seconds >= 0 for s in result.stats)


def test_check_uniqueness_unique(client):
    result = client.check_uniqueness(sample(TEN))
    assert isinstance(result, Uniqueness)
    assert result.verdict == "UNIQUE"
    assert result.solutions == (published_solution("kakuro-10x12.solution.txt"),)
    assert result.differing_cells == ()


def test_check_uniqueness_multiple_shows_two_solutions_and_where_they_differ(client):
    result = client.check_uniqueness(sample("multiple-4x4.txt"))
    assert result.verdict == "MULTIPLE"
    first, second = result.solutions
    assert first != second
    differ = tuple(
        (r, c) for r, row in enumerate(first) for c, v in enumerate(row) if v != second[r][c]
    )
    assert result.differing_cells == differ


def test_check_uniqueness_no_solution(client):
    result = client.check_uniqueness(sample("no-solution.txt"))
    assert (result.verdict, result.solutions, result.differing_cells) == ("NO_SOLUTION", (), ())


def test_validate_an_empty_board(client):
    result = client.validate(sample(TEN))
    assert isinstance(result, Validation)
    assert result.ok and not result.solved and result.verdict is None
    assert result.groups and all(run.state == "INCOMPLETE" for run in result.groups)
    assert {status for _, status in result.cells} == {"BLANK"}
    assert result.stats == ()


def test_validate_reports_warnings(client):
    result = client.validate(sample("kakuro-16x16.txt"))
    assert result.warnings
    assert {(w.code, w.severity) for w in result.warnings} == {("one_cell_run", "warning")}


def test_validate_a_board_with_mistakes(client):
    result = client.validate(sample("Game03-nearly-solved.csv"), compare_with_solution=True)
    assert not result.ok
    assert [(f.code, f.cells) for f in result.board_findings] == [("duplicate", ((9, 9), (11, 9)))]
    assert result.board_findings[0].group == "down 16 at r8c9"
    assert result.verdict == "UNIQUE"
    assert set(result.wrong_entries) >= {(9, 9), (11, 9)}
    assert dict(result.cells)[(9, 9)] == "DUPLICATE"


def test_validate_a_solved_board(client):
    board = filled(sample(TEN), sample("kakuro-10x12.solution.txt"))
    result = client.validate(board, compare_with_solution=True)
    assert result.solved and result.ok and result.verdict == "UNIQUE"
    assert all(run.state == "CORRECT" for run in result.groups)


def test_hint_places_a_digit_of_the_solution(client):
    result = client.hint(sample(TEN), placements_only=True)
    assert isinstance(result, Hint)
    assert result.kind == "STEP" and result.verdict == "UNIQUE"
    ((cell, digit),) = result.placements
    assert result.cells == (cell,)
    assert published_solution("kakuro-10x12.solution.txt")[cell[0]][cell[1]] == digit
    assert result.explanation and result.step.placements == result.placements


def test_hint_points_at_a_mistake(client):
    result = client.hint(sample("Game03-nearly-solved.csv"))
    assert result.kind == "MISTAKE"
    assert set(result.cells) == {(9, 9), (11, 9)}
    assert result.findings[0].code == "duplicate"


def test_hint_on_solved_and_not_unique_puzzles(client):
    board = filled(sample(TEN), sample("kakuro-10x12.solution.txt"))
    assert client.hint(board).kind == "SOLVED"
    result = client.hint(sample("multiple-4x4.txt"))
    assert (result.kind, result.verdict, result.placements) == ("NOT_UNIQUE", "MULTIPLE", ())


def test_hold_entries(client):
    # The top-left cell of the 10x12 is 6 in the solution: holding 9 there leaves none.
    text = sample(TEN).replace(",23 0 0 0", ",23 9 0 0", 1)
    assert client.check_uniqueness(text).verdict == "UNIQUE"
    assert client.check_uniqueness(text, hold_entries=True).verdict == "NO_SOLUTION"


# ---------------------------------------------------------------- errors


def test_a_bad_cell_is_named_by_row_and_column(client):
    with pytest.raises(NumgridError) as e:
        client.check_uniqueness(sample("Game03.csv"))
    error = e.value
    assert error.code == "INVALID_ARGUMENT"
    assert "r11c2" in error.message
    ((field, description),) = error.violations  # unpacks as (field, description)
    assert field == "puzzle.text.content"
    assert (error.violations[0].row, error.violations[0].column) == (11, 2)
    assert "100017" in description


def test_every_broken_run_is_a_violation(client):
    with pytest.raises(NumgridError) as e:
        client.validate(sample("broken-clues.txt"))
    cells = [v.cell for v in e.value.violations]
    assert len(cells) == 2 and all(cells)


def test_a_bad_cell_of_a_structured_puzzle_is_named_by_its_field(client):
    puzzle = structured("kakuro-10x12.json")
    puzzle.kakuro.rows[1].cells[2].digit = 12
    with pytest.raises(NumgridError) as e:
        client.validate(puzzle)
    (violation,) = e.value.violations
    assert violation.field == "puzzle.puzzle.kakuro.rows[1].cells[2]"
    assert violation.cell == (1, 2)


def test_hundreds_of_bad_cells_are_counted_and_the_first_listed(client):
    """All 900 would not fit gRPC's default metadata limit: the first ones are listed
    with their cells, and the count says how many there are in all."""
    junk = "30 30\n" + "\n".join([" ".join(["x"] * 30)] * 30) + "\n"
    with pytest.raises(NumgridError) as e:
        client.validate(junk)
    assert e.value.code == "INVALID_ARGUMENT"
    assert e.value.problems == 900
    assert e.value.findings[0].cells == ((0, 0),)
    assert e.value.findings[1].cells == ((0, 1),)
    assert 10 < len(e.value.findings) < 900


def test_text_in_no_known_format(client):
    with pytest.raises(NumgridError) as e:
        client.solve("hello, world\n")
    assert e.value.code == "INVALID_ARGUMENT"
    assert "unsupported kind: " in e.value.message


def test_a_grid_over_the_size_limit(client):
    with pytest.raises(NumgridError) as e:
        client.solve(too_big())
    assert e.value.code == "INVALID_ARGUMENT"
    assert "over the limit" in e.value.violations[0].description


def test_the_client_refuses_what_it_cannot_send(client):
    with pytest.raises(ValueError, match="unknown format"):
        client.solve(sample(TEN), format="xml")
    with pytest.raises(ValueError, match="unknown engine"):
        client.solve(sample(TEN), engine="fast")
    with pytest.raises(TypeError):
        client.solve(b"3 3")


def test_violation_cells_in_every_spelling():
    assert parse_cell("r11c2: '100017' is not a cell") == (11, 2)
    assert parse_cell("puzzle.puzzle.kakuro.rows[3].cells[5]") == (3, 5)
    assert parse_cell("row 4, column 7") == (4, 7)
    assert parse_cell("grid of 200x200 = 40000 cells is over the limit") is None
    assert Violation.parse("puzzle.text.content", "row 3 has 5 cells, expected 9").row == 3


def test_enum_values_from_a_newer_server_do_not_break_the_client():
    from numgrid.client.client import _name

    assert _name(puzzle_pb2.Verdict, 99, "VERDICT_") == "UNKNOWN_99"
    assert _name(puzzle_pb2.Verdict, 0, "VERDICT_") is None


# ---------------------------------------------------------------- time


def test_time_limit_gives_a_timeout_verdict(client):
    start = time.monotonic()
    result = client.check_uniqueness(HARD, engine="native", time_limit=0.3)
    assert result.verdict == "TIMEOUT"
    assert time.monotonic() - start < 5


def test_cpsat_settles_the_puzzle_native_cannot(client):
    assert client.check_uniqueness(HARD, engine="cpsat", time_limit=20).verdict == "NO_SOLUTION"


def test_deadline_exceeded(server_process):
    with NumgridClient(server_process.target, timeout=0.3) as c:
        start = time.monotonic()
        with pytest.raises(NumgridError) as e:
            c.check_uniqueness(HARD, engine="native")
        assert e.value.code == "DEADLINE_EXCEEDED"
        assert time.monotonic() - start < 5
        assert c.health(timeout=5) == "SERVING"  # the per-call deadline wins


# ---------------------------------------------------------------- retries


def test_the_channel_carries_a_retry_policy_for_unavailable_only():
    options = dict(channel_options(4))
    assert options["grpc.enable_retries"] == 1
    config = json.loads(options["grpc.service_config"])
    (method,) = config["methodConfig"]
    assert {"service": "numgrid.v1.NumgridService"} in method["name"]
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert method["retryPolicy"]["maxAttempts"] == 5
    off = dict(channel_options(0))
    assert off["grpc.enable_retries"] == 0 and "grpc.service_config" not in off
    with pytest.raises(ValueError):
        channel_options(5)


def test_unavailable_is_retried_by_grpc():
    with FakeServer(FakeService(grpc.StatusCode.UNAVAILABLE, failures=2)) as fake:
        with NumgridClient(fake.target, timeout=10) as c:
            assert c.solve("any").verdict == "UNIQUE"
        assert fake.service.calls == 3


def test_retries_give_up_after_the_last_attempt():
    with FakeServer(FakeService(grpc.StatusCode.UNAVAILABLE, failures=100)) as fake:
        with (
            NumgridClient(fake.target, timeout=10, retries=2) as c,
            pytest.raises(NumgridError) as e,
        ):
            c.solve("any")
        assert e.value.code == "UNAVAILABLE"
        assert fake.service.calls == 3


@pytest.mark.parametrize(
    "code",
    [grpc.StatusCode.INTERNAL, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.UNKNOWN],
)
def test_other_failures_are_not_retried(code):
    with FakeServer(FakeService(code, failures=1)) as fake:
        with NumgridClient(fake.target, timeout=10) as c, pytest.raises(NumgridError) as e:
            c.solve("any")
        assert e.value.code == code.name
        assert e.value.message == "fake failure 1"
        assert fake.service.calls == 1


def test_no_retries_when_turned_off():
    with FakeServer(FakeService(grpc.StatusCode.UNAVAILABLE, failures=1)) as fake:
        with NumgridClient(fake.target, timeout=10, retries=0) as c, pytest.raises(NumgridError):
            c.solve("any")
        assert fake.service.calls == 1


def test_a_deadline_is_not_retried():
    with FakeServer(FakeService(delay=5)) as fake:
        with NumgridClient(fake.target, timeout=0.3) as c:
            start = time.monotonic()
            with pytest.raises(NumgridError) as e:
                c.solve("any")
            assert e.value.code == "DEADLINE_EXCEEDED"
            assert time.monotonic() - start < 2
        assert fake.service.calls == 1


def test_no_server():
    with NumgridClient("127.0.0.1:1", timeout=10, retries=1) as c, pytest.raises(NumgridError) as e:
        c.health()
    assert e.value.code == "UNAVAILABLE"


# ---------------------------------------------------------------- rendering


def test_render_layouts_fit_the_width(client):
    problem, solution = corpus_entry("166_12x18")
    puzzle = client.validate(problem).puzzle
    grid = parse_solution(solution)
    for width, layout_rows in ((200, 12), (80, 24), (60, 24)):
        lines = render(puzzle, grid, width=width).splitlines()
        assert len(lines) == layout_rows  # one line per row, or two in the compact layouts
        assert max(map(len, lines)) <= width
    wide = render(puzzle, grid, width=200).splitlines()
    assert wide[0].split()[:4] == ["▓▓▓▓▓", "10\\▓▓", "17\\▓▓", "24\\▓▓"]  # down clues: D\
    assert wide[1].split()[:4] == ["▓▓\\21", "7", "5", "9"]  # an across clue: \A, digits
    compact = render(puzzle, grid, width=80).splitlines()
    assert compact[2].split()[:4] == ["\\21", "7", "5", "9"]  # across clue top right
    assert compact[1].split()[:2] == ["▓▓▓", "10\\"]  # down clue bottom left
    assert "▓" not in render(puzzle, width=200, ascii_only=True)


def test_render_marks_cells_and_shows_entries(client):
    result = client.validate(sample("Game03-nearly-solved.csv"))
    lines = render(result.puzzle, marks=[(9, 9)], width=80).splitlines()
    assert lines[1].split()[:4] == ["▓▓\\19", "7", "9", "3"]
    assert lines[9].split()[-1] == "[7]"
    empty = render(client.validate(sample(TEN)).puzzle, width=80).splitlines()
    assert empty[1].split()[:4] == ["▓▓\\23", ".", ".", "."]


def test_solution_text_is_the_published_form(client):
    result = client.solve(sample(TEN))
    assert solution_text(result.puzzle, result.solution).split() == (
        sample("kakuro-10x12.solution.txt").split()
    )


def test_render_refuses_a_puzzle_of_no_kind():
    with pytest.raises(ValueError, match="no renderer"):
        render(puzzle_pb2.Puzzle())
