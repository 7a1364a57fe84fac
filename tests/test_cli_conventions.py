"""The command line's conventions, run as a user runs them (issue 13, item 6).

``--version``; a mistyped command, kind, format or engine refused in one sentence with
the closest names; the global options described once; an environment variable's bad
value named with the variable (the client's and the server's), exit 2 and no traceback;
a text of no kind served refused as "unsupported kind" (CLI and gRPC), while a
malformed puzzle of a served kind keeps its precise, per-cell findings.
"""

from __future__ import annotations

import json
import os
import subprocess
from importlib import metadata

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from numgrid.server import config
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from support.client import WIDTH
from support.client import FakeServer
from support.client import FakeService
from support.client import numgrid
from support.server import server_executable

TEN = "puzzles/kakuro-10x12.txt"
SERVED = "jigsaw, kakurasu, kakuro, kenken, killer, skyscraper, sudoku"
COMMANDS = [
    "solve",
    "validate",
    "hint",
    "explain",
    "unique",
    "render",
    "print",
    "generate",
    "convert",
    "health",
    "play",
]
SUDOKU_ROWS = [
    "530070000",
    "600195000",
    "098000060",
    "800060003",
    "400800001",
    "700280006",
    "000419800",
    "000080079",
    "000000000",
]
SUDOKU = "\n".join(SUDOKU_ROWS) + "\n"


def one_line(done, *needles: str) -> str:
    """The run failed with exit 2, nothing on stdout and one line on stderr holding
    every needle (no usage, no traceback: numgrid() asserts the latter)."""
    assert (done.returncode, done.stdout) == (2, ""), (done.returncode, done.stdout)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------- --version


def test_version_is_the_installed_packages():
    done = numgrid("--version")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"numgrid {metadata.version('numgrid')}\n"


# ---------------------------------------------------------------- mistyped names


@pytest.mark.parametrize(
    "args, sentence",
    [
        (
            ["slove", "x.txt"],
            "numgrid: unknown command 'slove'; did you mean solve? (the commands: "
            + ", ".join(COMMANDS)
            + ")",
        ),
        (["valdiate", TEN], "numgrid: unknown command 'valdiate'; did you mean validate?"),
        (["--json", "hnit", TEN], "numgrid: unknown command 'hnit'; did you mean hint?"),
        (["frobnicate", TEN], "numgrid: unknown command 'frobnicate' (the commands: solve,"),
    ],
)
def test_a_mistyped_command_gets_the_closest_ones_in_one_line(args, sentence):
    line = one_line(numgrid(*args))
    assert line.startswith(sentence), line
    assert "usage:" not in line and "invalid choice" not in line


@pytest.mark.parametrize(
    "args, needles",
    [
        (
            ["solve", "--kind", "nonogram", TEN],
            ["--kind: unsupported kind 'nonogram'", f"numgrid reads {SERVED};"],
        ),
        (["--kind", "kenkn", "solve", TEN], ["unsupported kind 'kenkn'; did you mean kenken?"]),
        (["solve", "--format", "jsn", TEN], ["--format: unknown format 'jsn'; did you mean json?"]),
        (["solve", "--format", "xml", TEN], ["unknown format 'xml' (known: auto, janko, csv"]),
        (["unique", "--engine", "cpstat", TEN], ["unknown engine 'cpstat'; did you mean cpsat?"]),
    ],
)
def test_a_mistyped_kind_format_or_engine_gets_the_closest_ones(args, needles):
    one_line(numgrid(*args), *needles)


def test_unsupported_kind_lists_every_kind_served():
    line = one_line(numgrid("render", "--kind", "nonogram", TEN))
    for kind in KINDS:
        assert kind in line


def test_other_usage_errors_keep_a_short_usage():
    done = numgrid("solve")
    assert done.returncode == 2 and done.stdout == ""
    assert "the following arguments are required: FILE" in done.stderr
    assert len(done.stderr.splitlines()) <= 6  # the command's own usage, not every option


# ---------------------------------------------------------------- help


@pytest.mark.slow
def test_global_options_are_described_once():
    top = numgrid("--help")
    assert top.returncode == 0
    assert "global options" in top.stdout and "--version" in top.stdout
    for option in ("--server HOST:PORT", "--json", "--kind", "--format", "--timeout"):
        assert top.stdout.count(f"  {option}") == 1, option
    for command in COMMANDS:
        done = numgrid(command, "--help")
        assert done.returncode == 0, command
        assert "--server HOST:PORT" not in done.stdout, command
        assert "--timeout SECONDS" not in done.stdout, command
        text = " ".join(done.stdout.split())
        assert "global options (--server," in text and "numgrid --help describes them" in text
        assert all(len(line) <= WIDTH for line in done.stdout.splitlines()), command
    validate = numgrid("validate", "--help").stdout
    assert "--solution" in validate  # the command's own options are still there


def test_global_options_still_go_after_the_command():
    with FakeServer(FakeService()) as fake:
        done = numgrid("health", "--json", "--server", fake.target)
    assert done.returncode == 0
    assert json.loads(done.stdout)["status"] == "SERVING"


# ---------------------------------------------------------------- the client's environment


@pytest.mark.parametrize(
    "value, reason",
    [
        ("x:y:z", "the port 'z' is not a number 1-65535"),
        ("localhost", "'localhost' has no :PORT"),
        ("localhost:99999", "the port '99999' is not a number 1-65535"),
        (":50051", "no host before :50051"),
        ("http://localhost:50051", "no http:// before it"),
        ("::1:50051", "an IPv6 address goes in brackets: [::1]:50051"),
        ("127.0.0.1:1,,127.0.0.1:2", "an empty address in the list"),
    ],
)
def test_a_bad_server_variable_is_named_with_its_value(value, reason):
    done = numgrid("unique", TEN, env={"NUMGRID_SERVER": value})
    one_line(done, f"numgrid: NUMGRID_SERVER={value!r} is not HOST:PORT: {reason}")


def test_a_bad_server_option_is_named_as_the_option():
    done = numgrid("health", "--server", "x:y:z", env={"NUMGRID_SERVER": "127.0.0.1:1"})
    one_line(done, "numgrid: --server 'x:y:z' is not HOST:PORT")


def test_the_tls_variable_is_on_or_off():
    one_line(
        numgrid("render", TEN, env={"NUMGRID_TLS": "maybe"}),
        "numgrid: NUMGRID_TLS='maybe' is not on or off",
    )
    with FakeServer(FakeService()) as fake:  # a plaintext server: TLS must be off
        done = numgrid("health", env={"NUMGRID_SERVER": fake.target, "NUMGRID_TLS": "0"})
    assert done.returncode == 0 and done.stdout.endswith(": SERVING\n")


def test_a_bad_token_is_named_not_shown():
    secret = "s3cr\u00e9t"
    done = numgrid("render", TEN, env={"NUMGRID_TOKEN": secret})
    line = one_line(done, "numgrid: NUMGRID_TOKEN is not a bearer token")
    assert secret not in line


def test_an_unreadable_file_variable_is_named(tmp_path):
    missing = str(tmp_path / "nope.pem")
    one_line(
        numgrid("render", TEN, env={"NUMGRID_TOKEN_FILE": missing}),
        f"numgrid: NUMGRID_TOKEN_FILE={missing!r}: cannot read the token file",
    )
    one_line(
        numgrid("health", env={"NUMGRID_SERVER": "127.0.0.1:1", "NUMGRID_CA": missing}),
        f"numgrid: NUMGRID_CA={missing!r}: cannot read the CA file",
    )


# ---------------------------------------------------------------- the server's environment


@pytest.mark.parametrize(
    "variable, value, message",
    [
        ("NUMGRID_THREADS", "0", "NUMGRID_THREADS='0': must be positive, got 0"),
        ("NUMGRID_PORT", "abc", "NUMGRID_PORT='abc' is not a whole number"),
        ("NUMGRID_TIME_CAP", "soon", "NUMGRID_TIME_CAP='soon' is not a number"),
        ("NUMGRID_LOG_LEVEL", "loud", "NUMGRID_LOG_LEVEL='loud' must be one of DEBUG"),
        ("NUMGRID_HOST", "", "NUMGRID_HOST='' is no address to listen on"),
    ],
)
def test_a_bad_server_variable_is_named(variable, value, message):
    environment = {**_plain_environment(), "NUMGRID_HOST": "127.0.0.1", "NUMGRID_PORT": "0"}
    done = subprocess.run(
        [server_executable()],
        env={**environment, variable: value},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()  # no usage, no traceback
    assert len(lines) == 1 and lines[0].startswith(f"numgrid-server: error: {message}"), lines


def test_a_server_flag_wins_over_a_bad_variable(monkeypatch):
    monkeypatch.setenv("NUMGRID_THREADS", "zero")
    assert config.from_args(["--threads", "3"]).threads == 3
    monkeypatch.setenv("NUMGRID_PORT", "6001")
    assert config.from_args(["--threads", "3"]).port == 6001


def _plain_environment() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith("NUMGRID_")}


# ---------------------------------------------------------------- unsupported kinds


@pytest.mark.parametrize(
    "text, needles",
    [
        ("this is not a puzzle\n", ["its first line 'this is not a puzzle' is not a header"]),
        ('{"a": 1, "b": 2}', ['a JSON puzzle is {"KIND": {...}}', "keys are 'a', 'b'"]),
        ("[1, 2]", ["not a list"]),
        # A variant's own header (a Killer's N N K, an X variant's N N X) tells the kinds
        # even when the rest is wrong: the message says what is missing.
        ("9 9 K\n", ["'9 9 K' is the header of a Killer Sudoku, but expected 18 lines"]),
        (
            "9 9 X\n1 2\n",
            [
                "is the header of a Sudoku, a Jigsaw Sudoku or a Killer Sudoku",
                "as a Sudoku, expected 9 lines",
            ],
        ),
        ("9 9 Q\n", ["'9 9 Q' is not a header"]),  # no kind's variant: no kind named
    ],
)
def test_a_text_of_no_kind_served_is_an_unsupported_kind(text, needles):
    with pytest.raises(PuzzleError) as caught:
        detect_format(text)
    (finding,) = caught.value.findings
    assert finding.code == "unsupported_kind"
    assert finding.message.startswith("unsupported kind")
    assert SERVED in finding.message
    for needle in needles:
        assert needle in finding.message


@pytest.mark.parametrize(
    "text, kind, fmt",
    [
        ("3 3\n- 4, x\n,3 0 0\n,7 0 0\n", "kakuro", "janko"),  # a bad token: still Kakuro
        ("10000,10400\n10300,0\n", "kakuro", "csv"),
        ("2 2\n3+ 2\n1 .\n1 2\n3 1\n", "kenken", "janko"),
        # A 'ROWS COLS' header: a Kakuro (written so by the library, from a board
        # without clues); its reader says what is wrong.
        ("9 9\n" + SUDOKU, "kakuro", "janko"),
        ("9 9\n", "kakuro", "janko"),  # a header of many kinds, and nothing after it
    ],
)
def test_a_malformed_puzzle_of_a_kind_served_stays_that_kind(text, kind, fmt):
    assert detect_format(text) == (KINDS[kind], fmt)


@pytest.mark.parametrize(
    "text",
    [
        SUDOKU,
        "\n".join(" ".join(row) for row in SUDOKU_ROWS),
        "\n".join(",".join(row) for row in SUDOKU_ROWS),  # no 1VVHH clue square: no CSV
    ],
)
def test_a_drawn_9x9_grid_of_digits_is_a_sudoku(text):
    assert detect_format(text) == (KINDS["sudoku"], "grid")


def test_the_cli_says_unsupported_kind(tmp_path):
    path = tmp_path / "nothing.txt"
    path.write_text("this is not a puzzle\n")
    done = numgrid("validate", str(path))
    assert done.returncode == 1 and done.stderr == ""
    text = " ".join(done.stdout.split())
    assert text.startswith(f"{path}: INVALID unsupported kind: ")
    assert f"({SERVED})" in text
    assert "unknown token" not in text and "Kakuro format" not in text
    rendered = numgrid("render", "--json", str(path))
    (record,) = [json.loads(line) for line in rendered.stdout.splitlines()]
    assert record["status"] == "INVALID"
    assert [e["code"] for e in record["errors"]] == ["unsupported_kind"]


def test_the_grpc_api_says_unsupported_kind(server_process):
    request = service_pb2.SolveRequest(
        puzzle=pb.PuzzleInput(text=pb.PuzzleText(content="this is not a puzzle\n"))
    )
    with grpc.insecure_channel(server_process.target) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        with pytest.raises(grpc.RpcError) as caught:
            stub.Solve(request, timeout=30)
    error = caught.value
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("unsupported kind: ")
    status = rpc_status.from_call(error)
    violations, codes = [], []
    for detail in status.details:
        bad, finding = error_details_pb2.BadRequest(), pb.Finding()
        if detail.Unpack(bad):
            violations.extend(bad.field_violations)
        elif detail.Unpack(finding):
            codes.append(finding.code)
    (violation,) = violations
    assert violation.field == "puzzle.text.content"
    assert (
        violation.description.startswith("unsupported kind: ") and SERVED in violation.description
    )
    assert codes == ["unsupported_kind"]
