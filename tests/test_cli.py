"""The ``numgrid`` CLI run as a user runs it: a subprocess of the console script, both
embedded (no ``--server``: the servicer in-process) and against a real ``numgrid-server``.

Every command, the JSON line shape, exit codes 0/1/2, stdin, and every error path: a
clear message naming the cell or run at fault, never a traceback.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

import grpc
import pytest
from support.client import HARD
from support.client import LINE_KEYS
from support.client import PUZZLES
from support.client import WIDTH
from support.client import FakeServer
from support.client import FakeService
from support.client import corpus_entry
from support.client import filled
from support.client import numgrid
from support.client import sample
from support.client import too_big

ERROR_KEYS = {"row", "column", "message", "code", "group", "cells", "field"}
TEN = "puzzles/kakuro-10x12.txt"


def jsonl(done) -> list[dict]:
    """Every stdout line is one JSON object with the documented keys."""
    records = [json.loads(line) for line in done.stdout.splitlines()]
    for record in records:
        assert set(record) >= LINE_KEYS, record
        for entry in record["errors"] + record["warnings"]:
            assert set(entry) == ERROR_KEYS, entry
        for stat in record["stats"]:
            assert set(stat) == {"engine", "ms", "nodes"}
    return records


def fits(text: str, width: int = WIDTH) -> bool:
    return all(len(line) <= width for line in text.splitlines())


def one_line_error(done, *needles: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("numgrid")
    for needle in needles:
        assert needle in lines[0]


@pytest.fixture(scope="module")
def solved_board() -> str:
    return filled(sample("kakuro-10x12.txt"), sample("kakuro-10x12.solution.txt"))


# ---------------------------------------------------------------- every command, both modes


def test_solve(mode):
    files = [TEN, "puzzles/kakuro-10x12.csv", "puzzles/kakuro-10x12.json"]
    done = numgrid("solve", "--json", *mode, *files, "puzzles/no-solution.txt")
    assert done.returncode == 1  # the worst of the puzzles: one has no solution
    records = jsonl(done)
    assert [r["source"] for r in records] == [*files, "puzzles/no-solution.txt"]
    assert [r["status"] for r in records] == ["UNIQUE"] * 3 + ["NO_SOLUTION"]
    published = sample("kakuro-10x12.solution.txt").split()
    for record in records[:3]:
        (solution,) = record["solutions"]
        assert solution.split() == published
        assert record["command"] == "solve" and record["stats"][0]["engine"] == "native"
    assert records[3]["solutions"] == []


def test_solve_shows_the_board(server):
    human = numgrid("solve", *server, TEN)
    assert human.returncode == 0 and human.stderr == ""
    assert human.stdout.startswith(f"{TEN}: UNIQUE (native ")
    assert "\\23   6     9     8" in human.stdout  # the board, with the solution's digits
    assert fits(human.stdout)


def test_unique(mode):
    done = numgrid(
        "unique", *mode, "--json", TEN, "puzzles/multiple-4x4.txt", "puzzles/no-solution.txt"
    )
    assert done.returncode == 1
    unique, multiple, none = jsonl(done)
    assert (unique["status"], len(unique["solutions"])) == ("UNIQUE", 1)
    assert multiple["status"] == multiple["verdict"] == "MULTIPLE"
    first, second = multiple["solutions"]
    assert first.splitlines()[0] == "4 4" and first != second
    assert multiple["differing_cells"] == [[1, 2], [1, 3], [2, 2], [2, 3]]
    assert (none["status"], none["solutions"]) == ("NO_SOLUTION", [])


def test_unique_shows_both_solutions(server):
    human = numgrid("unique", *server, "puzzles/multiple-4x4.txt")
    assert human.returncode == 1
    assert "MULTIPLE" in human.stdout and "differ at 4 cells: r1c2 r1c3 r2c2 r2c3" in human.stdout
    assert "solution 1:" in human.stdout and "solution 2:" in human.stdout
    assert human.stdout.count("[1]") == 4  # the differing cells are marked on both boards


def test_validate(mode, solved_board):
    done = numgrid(
        "validate",
        *mode,
        "--json",
        TEN,
        "puzzles/Game03-nearly-solved.csv",
        "-",
        "puzzles/kakuro-16x16.txt",
        stdin=solved_board,
    )
    assert done.returncode == 1
    empty, mistakes, solved, warned = jsonl(done)
    assert (empty["status"], empty["errors"], empty["solved"]) == ("VALID", [], False)
    assert mistakes["status"] == "INVALID"
    (error,) = mistakes["errors"]
    assert (error["row"], error["column"], error["code"]) == (9, 9, "duplicate")
    assert error["cells"] == [[9, 9], [11, 9]] and error["group"] == "down 16 at r8c9"
    assert (solved["source"], solved["status"], solved["solved"]) == ("<stdin>", "SOLVED", True)
    assert warned["status"] == "VALID" and warned["warnings"][0]["code"] == "one_cell_run"


def test_validate_against_the_solution(server):
    compared = numgrid("validate", *server, "--solution", "puzzles/Game03-nearly-solved.csv")
    assert compared.returncode == 1
    assert "puzzle: UNIQUE" in compared.stdout
    assert "r9c9: down 16 at r8c9: 7 appears 2 times (r9c9, r11c9)" in compared.stdout
    assert "r9c8: the entry differs from the unique solution" in compared.stdout
    assert "[7]" in compared.stdout and fits(compared.stdout)

    ok = numgrid("validate", *server, TEN)
    assert ok.returncode == 0 and ok.stdout == f"{TEN}: VALID\n"


def test_hint(mode):
    files = [TEN, "puzzles/Game03-nearly-solved.csv", "puzzles/multiple-4x4.txt"]
    done = numgrid("hint", *mode, "--json", "--placements-only", *files)
    assert done.returncode == 1  # no hint can be trusted for the last one
    step, mistake, not_unique = jsonl(done)  # more in tests/test_cli_logic.py
    assert step["status"] == "STEP" and step["verdict"] == "UNIQUE"
    assert step["hint"]["placements"] == [{"row": 1, "column": 9, "digit": 7}]
    assert step["hint"]["cells"] == [[1, 9]]
    assert step["hint"]["explanation"].endswith("so r1c9 = 7.")
    assert mistake["status"] == "MISTAKE" and mistake["hint"]["kind"] == "MISTAKE"
    assert sorted(mistake["hint"]["cells"]) == [[9, 9], [11, 9]]
    assert mistake["errors"][0]["code"] == "duplicate"
    assert (not_unique["status"], not_unique["verdict"]) == ("NOT_UNIQUE", "MULTIPLE")


def test_hint_marks_the_board(server):
    human = numgrid("hint", *server, "--placements-only", TEN)
    assert human.returncode == 0
    assert "so r1c9 = 7." in " ".join(human.stdout.split())
    assert "12\\24   .     .    [7]  24\\" in human.stdout  # placed and marked on the board
    assert fits(human.stdout)
    assert numgrid("hint", *server, "puzzles/Game03-nearly-solved.csv").returncode == 0


def test_render(mode):
    done = numgrid("render", *mode, "puzzles/Game03-nearly-solved.csv")
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "puzzles/Game03-nearly-solved.csv: RENDERED"
    assert lines[1].split()[:4] == ["▓▓▓▓▓", "10\\▓▓", "19\\▓▓", "4\\▓▓"]  # D\A, A shaded
    assert lines[2].split()[:4] == ["▓▓\\19", "7", "9", "3"]
    assert fits(done.stdout)


def test_render_json(server):
    (record,) = jsonl(numgrid("render", *server, "--json", TEN))
    assert record["status"] == "RENDERED" and record["board"].count("\n") == 10


def test_health(mode):
    done = numgrid("health", *mode)
    assert done.returncode == 0
    assert done.stdout.strip().endswith(": SERVING")


def test_health_not_serving():
    with FakeServer(FakeService(), health_status="NOT_SERVING") as fake:
        done = numgrid("health", "--server", fake.target, "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout) == {
        "source": fake.target,
        "command": "health",
        "status": "NOT_SERVING",
    }


def test_a_bad_cell_is_named(mode):
    """Game03.csv is defective on purpose at row 11, column 2."""
    done = numgrid("unique", *mode, "--json", "puzzles/Game03.csv")
    assert done.returncode == 1
    (record,) = jsonl(done)
    assert record["status"] == "INVALID"
    (error,) = record["errors"]
    assert (error["row"], error["column"]) == (11, 2)
    assert "'100017' is not a cell" in error["message"]


def test_a_bad_cell_is_named_in_human_output(server):
    human = numgrid("solve", *server, "puzzles/Game03.csv")
    assert human.returncode == 1
    assert human.stdout.splitlines()[:2] == [
        "puzzles/Game03.csv: INVALID",
        "  r11c2: '100017' is not a cell (expected 0 for empty, a digit 1-9, or 1VVHH",
    ]
    assert fits(human.stdout)


def test_timeout(mode):
    done = numgrid("unique", *mode, "--engine", "native", "--timeout", "0.3", "-", stdin=HARD)
    assert done.returncode == 1
    assert done.stdout.startswith("<stdin>: TIMEOUT")


# ---------------------------------------------------------------- options


def test_engines(server):
    for engine, used in [("cpsat", ["cpsat"]), ("cross-check", ["cpsat", "native"])]:
        (record,) = jsonl(numgrid("unique", *server, "--json", "--engine", engine, TEN))
        assert sorted(s["engine"] for s in record["stats"]) == used


def test_cpsat_answers_what_native_cannot(server):
    done = numgrid("unique", *server, "--engine", "cpsat", "--timeout", "20", "-", stdin=HARD)
    assert (done.returncode, done.stdout.split()[1]) == (1, "NO_SOLUTION")


def test_options_before_or_after_the_command(server_process):
    before = numgrid("--json", "--server", server_process.target, "unique", TEN)
    after = numgrid("unique", TEN, "--server", server_process.target, "--json")
    assert before.returncode == after.returncode == 0
    assert jsonl(before)[0]["status"] == jsonl(after)[0]["status"] == "UNIQUE"


def test_server_from_the_environment(server_process):
    done = numgrid("unique", TEN, env={"NUMGRID_SERVER": server_process.target})
    assert done.returncode == 0
    gone = numgrid("unique", TEN, env={"NUMGRID_SERVER": "127.0.0.1:1"})
    assert gone.returncode == 2
    one_line_error(gone, "cannot reach the server at 127.0.0.1:1")


def test_format_override(server):
    assert numgrid("unique", *server, "--format", "csv", "puzzles/kakuro-10x12.csv").returncode == 0
    wrong = numgrid("unique", *server, "--format", "janko", "--json", "puzzles/kakuro-10x12.csv")
    assert wrong.returncode == 1
    assert jsonl(wrong)[0]["status"] == "INVALID"


def test_stdin(server):
    done = numgrid("solve", *server, "--json", "-", stdin=sample("kakuro-10x12.csv"))
    assert done.returncode == 0
    assert jsonl(done)[0]["source"] == "<stdin>"


def test_help():
    done = numgrid("--help")
    assert done.returncode == 0 and "solve" in done.stdout and "Exit codes" in done.stdout
    assert fits(done.stdout)


# ---------------------------------------------------------------- error paths


def test_malformed_text_names_every_run_at_fault(server):
    done = numgrid("validate", *server, "puzzles/broken-clues.txt")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "puzzles/broken-clues.txt: INVALID",
        "  r1c0: across 2 at r1c0: 2 cannot be made from 2 different digits (possible:",
        "        3-17)",
        "  r2c3: down run of 2 cells from r2c3 has no clue (before it)",
    ]


def test_many_errors_are_counted_not_all_printed(server):
    junk = "30 30\n" + "\n".join([" ".join(["x"] * 30)] * 30) + "\n"
    done = numgrid("validate", *server, "-", stdin=junk)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 1 + 20 + 1
    assert lines[1] == "  r0c0: unknown token 'x' (expected 0-9, '-' or 'DOWN,ACROSS')"
    assert lines[-1] == "  ... and 880 more errors"
    (record,) = jsonl(numgrid("validate", *server, "--json", "-", stdin=junk))
    *listed, more = record["errors"]
    assert all(e["code"] == "unknown_token" for e in listed)
    assert more["code"] == "more_not_listed"
    assert more["message"] == f"... and {900 - len(listed)} more not listed"


def test_many_warnings_are_counted(server):
    lines = numgrid("validate", *server, "puzzles/kakuro-16x16.txt").stdout.splitlines()
    assert lines[:3] == [
        "puzzles/kakuro-16x16.txt: VALID",
        "warnings:",
        "  r2c1: across 2 at r2c0: run of a single cell",
    ]
    assert lines[-1] == "  ... and 95 more warnings (--json lists them all)"


def test_a_ragged_row_is_named(server):
    done = numgrid("solve", *server, "--json", "-", stdin="3 3\n- 3, 3,\n,3 0 0\n,4 0\n")
    (error,) = jsonl(done)[0]["errors"]
    # the cell named is where the row ends early
    assert (error["row"], error["column"], error["message"]) == (
        2,
        2,
        "row 2 has 2 cells, expected 3",
    )


def test_a_bad_digit_in_json_is_named(server, tmp_path):
    data = json.loads(sample("kakuro-10x12.json"))
    data["kakuro"]["rows"][1]["cells"][2] = {"digit": 12}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    done = numgrid("validate", *server, str(path))
    assert done.returncode == 1
    assert "r1c2: entered value 12 is not a digit 1-9" in done.stdout


def test_text_in_no_known_format(server):
    # a short folder of its own: the path heads the first line, which must fit too
    with tempfile.TemporaryDirectory(prefix="ng-") as folder:
        path = Path(folder) / "notes.txt"
        path.write_text("this is not a puzzle\n")
        done = numgrid("unique", *server, str(path))
    assert done.returncode == 1
    assert "INVALID" in done.stdout and "unsupported kind: " in done.stdout
    assert fits(done.stdout)
    empty = numgrid("unique", *server, "-", stdin="")
    assert empty.returncode == 1 and "INVALID" in empty.stdout


def test_a_grid_over_the_size_limit(server):
    done = numgrid("solve", *server, "--json", "-", stdin=too_big())
    assert done.returncode == 1
    (record,) = jsonl(done)
    assert record["status"] == "INVALID"
    assert "200x200 = 40000 cells is over the limit" in record["errors"][0]["message"]


def test_a_missing_file(mode):
    done = numgrid("unique", *mode, "--json", "puzzles/no-such-file.txt", TEN)
    assert done.returncode == 2  # the worst: one input could not be read
    error, *summary = done.stderr.splitlines()  # with --json the summary is on stderr
    assert error == "numgrid: cannot read puzzles/no-such-file.txt: No such file or directory"
    summary = " ".join(" ".join(summary).split())  # wrapped to the width
    assert summary.startswith("2 of 2 puzzles in ") and summary.endswith(", unreadable 1")
    missing, found = jsonl(done)
    assert missing["status"] == "UNREADABLE" and found["status"] == "UNIQUE"


def test_a_missing_file_in_human_output(server):
    done = numgrid("unique", *server, "puzzles/no-such-file.txt", TEN)
    assert done.returncode == 2
    one_line_error(done, "cannot read puzzles/no-such-file.txt: No such file or directory")
    assert done.stdout.startswith(f"{TEN}: UNIQUE")


def test_unreadable_inputs(server, tmp_path):
    binary = tmp_path / "puzzle.bin"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    # solve, unique and explain read a directory's puzzles (tests/test_cli_many.py)
    for command, path, reason in [
        ("solve", binary, "not UTF-8 text"),
        ("validate", binary, "not UTF-8 text"),
        ("validate", PUZZLES, "Is a directory"),
    ]:
        done = numgrid(command, *server, str(path))
        assert (done.returncode, done.stdout) == (2, "")
        one_line_error(done, f"cannot read {path}: {reason}")


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["solve"],
        ["solve", "--timeout", "-1", TEN],
        ["solve", "--timeout", "soon", TEN],
    ],
)
def test_usage_errors(args):
    done = numgrid(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert "usage: numgrid" in done.stderr


@pytest.mark.parametrize(
    "args, needle",
    [
        (["frobnicate", TEN], "unknown command 'frobnicate'"),
        (["solve", "--format", "xml", TEN], "--format: unknown format 'xml'"),
        (["solve", "--engine", "fast", TEN], "--engine: unknown engine 'fast'"),
    ],
)
def test_an_unknown_name_is_one_line(args, needle):
    """More in tests/test_cli_conventions.py."""
    done = numgrid(*args)
    assert done.returncode == 2 and done.stdout == ""
    one_line_error(done, needle)


def test_no_server():
    done = numgrid("unique", "--server", "127.0.0.1:1", TEN, "puzzles/no-solution.txt")
    assert (done.returncode, done.stdout) == (2, "")
    one_line_error(done, "cannot reach the server at 127.0.0.1:1")
    health = numgrid("health", "--server", "127.0.0.1:1")
    assert health.returncode == 2


@pytest.mark.parametrize(
    ("time_limit", "cap"),
    [(None, None), (5.0, 5.0), (120.0, 120.0), (math.inf, "longest")],
)
def test_the_embedded_servers_time_cap_is_the_timeout(time_limit, cap):
    from numgrid.server.config import ServerConfig
    from numgrid.server.main import LONGEST_CAP
    from numgrid.server.main import embedded_for

    expected = {None: ServerConfig().time_cap_seconds, "longest": LONGEST_CAP}.get(cap, cap)
    with embedded_for(time_limit) as embedded:
        assert embedded.built.servicer.config.time_cap_seconds == expected


def test_the_cli_gives_its_timeout_to_the_embedded_server(monkeypatch, capsys):
    """Without --timeout, a puzzle not made within the embedded server's cap is told how
    to give it longer; with it, the embedded server is started with that limit."""
    from numgrid.client import cli
    from numgrid.server import main as server_main
    from numgrid.server.config import ServerConfig

    asked = []

    def short_capped(time_limit):
        asked.append(time_limit)
        return server_main.start_embedded(ServerConfig(time_cap_seconds=0.05))

    monkeypatch.setattr(server_main, "embedded_for", short_capped)
    generate = ["generate", "sudoku", "--grade", "extreme", "--seed", "5"]
    assert cli.main(generate) == 1
    err = capsys.readouterr().err
    assert "time cap of 0.05 s" in err and "--timeout SECONDS gives each puzzle longer" in err
    assert cli.main([*generate, "--timeout", "0.2"]) == 1
    assert asked == [None, 0.2]
    assert "--timeout SECONDS" not in capsys.readouterr().err


def test_a_timeout_the_wire_rounds_up_is_still_the_searchs_own_limit():
    """--timeout 0.0123456789 travels as 0.012346 s (a Duration of whole microseconds), a
    hair over the embedded server's cap of 0.0123456789 s: the limit still binds, so the
    answer is the search's own TIMEOUT with its stats, not a cap's error."""
    done = numgrid("--timeout", "0.0123456789", "hint", "puzzles/no-solution-8x8-slow.txt")
    assert done.returncode == 1
    assert "(native" in done.stdout and "the time limit ran out" in done.stdout


class GenerateDeadline(FakeService):
    """Generate: notes the call's time remaining, then ends as a server past its cap."""

    remaining: float | None = None
    time_limit: float | None = None

    def Generate(self, request, context):
        self.remaining = context.time_remaining()
        self.time_limit = request.time_limit.ToMilliseconds() / 1000
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "puzzle 0 was not made in time")
        yield from ()


def test_generate_gives_each_puzzle_its_timeout():
    """--timeout is each search's limit: the request's time_limit, and for three puzzles
    a call's deadline of three times one puzzle's (1.1 x 10 s + 1 s each), not 10 s for
    the whole stream."""
    service = GenerateDeadline()
    with FakeServer(service) as fake:
        done = numgrid(
            "generate", "sudoku", "--count", "3", "--timeout", "10", "--server", fake.target
        )
    assert done.returncode == 1 and "puzzle 0 was not made in time" in done.stderr
    assert service.remaining is not None and 30 < service.remaining <= 3 * 12
    assert service.time_limit == 10  # each puzzle's, in the request


def test_a_server_past_the_deadline_is_a_timeout():
    with FakeServer(FakeService(delay=10)) as fake:
        done = numgrid("validate", "--server", fake.target, "--json", "--timeout", "0.1", TEN)
    assert done.returncode == 1
    assert jsonl(done)[0]["status"] == "TIMEOUT"


def test_a_server_error_is_reported():
    with FakeServer(FakeService(grpc.StatusCode.INTERNAL, failures=1)) as fake:
        done = numgrid("validate", "--server", fake.target, "--json", TEN)
    assert done.returncode == 2
    one_line_error(done, f"{TEN}: server error INTERNAL: fake failure 1")
    assert jsonl(done)[0]["status"] == "ERROR"


def test_an_unexpected_exception_is_one_line(monkeypatch, capsys, server_process):
    from numgrid.client import cli
    from numgrid.client.commands import validate

    def broken(ctx, source, text):
        raise RuntimeError("a bug")

    monkeypatch.setattr(validate, "outcome", broken)
    assert cli.main(["validate", "--server", server_process.target, TEN]) == 2
    assert capsys.readouterr().err == "numgrid: internal error: RuntimeError: a bug\n"


# ---------------------------------------------------------------- 80 columns


def test_a_12x18_puzzle_fits_80_columns(server, tmp_path):
    problem, _ = corpus_entry("166_12x18")
    path = tmp_path / "166_12x18.txt"
    path.write_text(problem)
    rendered = numgrid("render", *server, str(path))
    assert rendered.returncode == 0
    head, *board = rendered.stdout.splitlines()
    assert head == f"{path}: RENDERED"  # the path may be long: it is printed as it is
    assert len(board) == 2 * 12 and fits("\n".join(board))  # the compact layout
    solved = numgrid("solve", *server, str(path))
    assert solved.returncode == 0 and fits(solved.stdout.split("\n", 1)[1])
    assert " 7   5   9 " in solved.stdout  # the first row of the solution


def test_a_narrow_terminal_gets_a_narrower_layout(server):
    wide = numgrid("render", *server, TEN)
    narrow = numgrid("render", *server, TEN, env={"COLUMNS": "60"})
    assert max(map(len, wide.stdout.splitlines())) > 60 >= max(map(len, narrow.stdout.splitlines()))
