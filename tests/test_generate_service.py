"""Generate against a real ``numgrid-server``: puzzles of every kind streamed, each one
read back from its own text and found UNIQUE by CP-SAT alone with the same solution and
the grade Explain gives; seeds that make the same puzzle again; bad parameters refused
with a sentence per field; deadlines and cancellation that end the stream and leave the
server serving; and ``numgrid generate`` run as a user runs it."""

from __future__ import annotations

import asyncio
import json
import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.client.aio import AsyncNumgridClient
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support.client import numgrid
from support.facts import KINDS
from support.facts import facts

# Small sizes: the tests are about the service, the makers have tests of their own.
SIZES = {kind.name: facts(kind).size for kind in KINDS}


@pytest.fixture(scope="module")
def client(server_process):
    with NumgridClient(server_process.target, timeout=120) as c:
        yield c


def request(name: str, **fields) -> service_pb2.GenerateRequest:
    rows, cols = SIZES[name]
    kind = pb.PuzzleKind.Value(f"PUZZLE_KIND_{name.upper()}")
    values = {"kind": kind, "rows": rows, "columns": cols, "count": 1, **fields}
    return service_pb2.GenerateRequest(**values)


def violations(error: grpc.RpcError) -> dict[str, str]:
    status = rpc_status.from_call(error)
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            return {v.field: v.description for v in bad.field_violations}
    return {}


def test_the_grade_asked_for_is_the_grade_made(client):
    for grade in ("EASY", "MEDIUM"):
        made = list(client.generate("kenken", 6, 6, grade=grade, count=2, seed=3))
        assert [m.difficulty.grade for m in made] == [grade, grade]


def test_a_request_without_a_seed_says_the_seed_it_used(client):
    made = next(iter(client.generate("kenken", 4, 4)))
    again = next(iter(client.generate("kenken", 4, 4, seed=made.seed)))
    assert again.texts == made.texts


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"kind": pb.PUZZLE_KIND_UNSPECIFIED}, "kind", "which kind"),
        ({"kind": 77}, "kind", "unknown puzzle kind"),
        ({"rows": 0, "columns": 0}, "rows", "positive"),
        ({"rows": 400, "columns": 400}, "rows", "over the limit"),
        ({"count": 10**6}, "count", "count must be"),
        ({"grade": 42}, "grade", "unknown grade"),
        ({"seed": -1}, "seed", "seed"),
        ({"rows": 5, "columns": 6}, "", "square"),
    ],
)
def test_parameters_no_puzzle_can_meet_are_invalid_argument_with_a_sentence(
    stub, fields, field, words
):
    message = request("kenken", **fields)
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.Generate(message, timeout=30))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert found, caught.value.details()
    if field:
        assert field in found, found
    assert words in caught.value.details().lower() + " ".join(found.values()).lower()


def test_a_kakuro_density_out_of_range_is_refused(stub):
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.Generate(request("kakuro", density=1.5), timeout=30))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "density" in violations(caught.value)


def test_a_refused_request_is_logged_with_the_kind_it_asked_for(stub, server_process):
    mark = server_process.log_mark()
    with pytest.raises(grpc.RpcError):
        list(stub.Generate(request("kakurasu", rows=41, columns=41), timeout=30))
    deadline = time.monotonic() + 10
    lines = []
    while not lines and time.monotonic() < deadline:
        lines = [x for x in server_process.log_since(mark) if "method=Generate" in x]
        time.sleep(0.05)
    assert lines and "status=INVALID_ARGUMENT kind=kakurasu" in lines[-1], lines


def test_each_puzzle_has_the_requests_time_limit(stub):
    """A puzzle not made within the request's time_limit ends the stream with
    DEADLINE_EXCEEDED saying which; the call's deadline (120 s) is far off."""
    slow = request("sudoku", rows=9, columns=9, grade=service_pb2.GRADE_EXTREME, seed=5)
    slow.time_limit.FromMilliseconds(50)
    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.Generate(slow, timeout=120))
    assert caught.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
    assert caught.value.details() == (
        "puzzle 0 (seed 5) was not made within the time limit of 0.05 s: try another grade or size"
    )
    assert time.monotonic() - start < 30
    zero = request("kenken", rows=0, columns=4)
    zero.time_limit.FromSeconds(0)
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.Generate(zero, timeout=30))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert violations(caught.value) == {
        "rows": "the size must be positive, not 0x4",
        "time_limit": "the time limit must be positive",
    }


def test_the_deadline_ends_the_stream_and_the_puzzles_sent_stand(stub, client):
    start = time.monotonic()
    stream = stub.Generate(request("kenken", rows=6, columns=6, count=10_000, seed=1), timeout=2)
    got = []
    with pytest.raises(grpc.RpcError) as caught:
        for response in stream:
            got.append(response)
    assert caught.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - start < 4
    assert got, "puzzles made before the deadline arrive"
    assert client.health() == "SERVING"


def test_a_cancelled_stream_stops_and_the_server_goes_on(stub, client, server_process):
    mark = server_process.log_mark()
    # 5x5: no other test's stream, whose log line may come late, has this size
    stream = stub.Generate(request("kenken", rows=5, columns=5, count=10_000, seed=2))
    next(stream)
    stream.cancel()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        lines = [x for x in server_process.log_since(mark) if "method=Generate size=5x5" in x]
        if lines:
            break
        time.sleep(0.05)
    assert lines and "status=CANCELLED" in lines[-1], lines
    assert next(iter(client.generate("kenken", 4, 4, seed=5))).difficulty.grade


def test_the_asyncio_client_streams_the_same_puzzles(server_process, client):
    async def main():
        async with AsyncNumgridClient(server_process.target, timeout=60) as aio:
            return [m async for m in aio.generate("skyscraper", 4, 4, count=2, seed=30)]

    made = asyncio.run(main())
    assert [m.texts for m in made] == [
        m.texts for m in client.generate("skyscraper", 4, 4, count=2, seed=30)
    ]


def test_the_client_refuses_an_unknown_grade_before_calling(client):
    with pytest.raises(ValueError, match="unknown grade"):
        next(iter(client.generate("kenken", 4, 4, grade="impossible")))


def test_client_errors_carry_the_violations(client):
    with pytest.raises(NumgridError) as caught:
        list(client.generate("kenken", 4, 7))
    assert caught.value.code == "INVALID_ARGUMENT"
    assert caught.value.violations


# ---------------------------------------------------------------- the CLI


def test_cli_writes_every_format_and_the_solutions_and_unique_agrees(tmp_path, server):
    out = tmp_path / "made"
    done = numgrid(
        "generate",
        "kenken",
        "--size",
        "5",
        "--count",
        "3",
        "--seed",
        "11",
        "--out",
        str(out),
        *server,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("kenken 5x5") == 3
    puzzles = sorted(out.glob("kenken-5x5-*-s1[123].txt"))
    assert len(puzzles) == 3, sorted(p.name for p in out.iterdir())
    for suffix in (".json", ".tatham", ".solution.txt"):
        assert len(list(out.glob(f"*{suffix}"))) == 3, suffix
    checked = numgrid("unique", "--engine", "cpsat", "--json", *map(str, puzzles), *server)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert [json.loads(x)["verdict"] for x in checked.stdout.splitlines()] == ["UNIQUE"] * 3


def test_cli_names_the_x_variant_so_that_it_writes_files_of_its_own(tmp_path, server):
    out = tmp_path / "made"
    for x in ([], ["--diagonals"]):
        args = ("sudoku", "--size", "4", "--grade", "easy", "--seed", "3", "--out", str(out))
        done = numgrid("generate", *args, *x, *server)
        assert done.returncode == 0, done.stderr
    plain, crossed = (sorted(out.glob(f"sudoku{x}-4x4-easy-s3.*")) for x in ("", "-x"))
    assert plain and crossed and not set(plain) & set(crossed)
    ignored = ("sudoku", "--size", "4", "--grade", "easy", "--seed", "3", "--density", "0.6")
    done = numgrid("generate", *ignored, "--out", str(out), *server)  # a Sudoku has none
    assert done.returncode == 0 and not list(out.glob("sudoku-d*")), done.stderr
    for files in (plain, crossed):  # each set's solution solves each of its own files
        *texts, solution = sorted(files, key=lambda p: p.name.endswith(".solution.txt"))
        for text in texts:
            done = numgrid("solve", "--json", str(text), *server)
            assert json.loads(done.stdout)["solutions"] == [solution.read_text()], text


def test_cli_json_lines_and_a_seed_that_reproduces(server):
    done = numgrid(
        "generate", "kakurasu", "--size", "4", "--count", "2", "--seed", "4", "--json", *server
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert [x["seed"] for x in lines] == [4, 5]
    assert all(x["grade"] and x["texts"]["janko"] for x in lines)
    again = numgrid("generate", "kakurasu", "--size", "4", "--seed", "5", "--json", *server)
    assert json.loads(again.stdout)["texts"] == lines[1]["texts"]


def test_cli_draws_the_board_without_out_embedded():
    done = numgrid("generate", "skyscraper", "--size", "4", "--grade", "easy", "--seed", "9")
    assert done.returncode == 0, done.stderr
    assert "skyscraper 4x4 EASY, seed 9" in done.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["kenken", "--size", "4x6"], "square"),
        (["kenken", "--size", "x"], "not a size"),
        (["kenken", "--grade", "impossible"], "unknown grade"),
        (["nonogram"], "kind: unknown kind 'nonogram'"),
        (["kakuro", "--density", "2"], "share of white cells"),
    ],
)
def test_cli_bad_parameters_exit_2_with_a_sentence(args, words, server):
    done = numgrid("generate", *args, *server)
    assert done.returncode == 2
    assert words in done.stderr.lower(), done.stderr


def has_diagonals(kind) -> bool:
    """The kinds whose maker makes the X variant: their puzzle says ``diagonals`` and
    their techniques are the units ladder's (a diagonal Skyscraper is not made)."""
    message = pb.Puzzle.DESCRIPTOR.fields_by_name[kind.name].message_type
    return (
        "diagonals" in message.fields_by_name and "FULL_HOUSE" in kind.logic.Technique.__members__
    )


X_KINDS = [kind for kind in KINDS if has_diagonals(kind)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", X_KINDS, ids=[k.name for k in X_KINDS])
def test_x_puzzles_are_x_unique_under_both_engines_and_reproduced_by_their_seed(stub, kind):
    size = 9 if kind.name == "sudoku" else 6
    asked = request(kind.name, rows=size, columns=size, count=2, seed=11, diagonals=True)
    made = list(stub.Generate(asked, timeout=120))
    assert [m.seed for m in made] == [11, 12]
    for m in made:
        assert getattr(m.puzzle, kind.name).diagonals
        janko = next(t.content for t in m.texts if t.format == pb.PUZZLE_FORMAT_JANKO)
        assert janko.splitlines()[0].endswith(" X")
        for engine in (pb.ENGINE_NATIVE, pb.ENGINE_CPSAT, pb.ENGINE_CROSS_CHECK):
            reply = stub.CheckUniqueness(
                service_pb2.CheckUniquenessRequest(
                    puzzle=pb.PuzzleInput(puzzle=m.puzzle),
                    options=service_pb2.SearchOptions(engine=engine),
                ),
                timeout=60,
            )
            assert reply.verdict == pb.VERDICT_UNIQUE, engine
            assert reply.solutions[0] == m.solution
        assert m.difficulty.solved_by_logic and m.difficulty.score > 0
    again = request(kind.name, rows=size, columns=size, seed=12, diagonals=True)
    (alone,) = stub.Generate(again, timeout=120)
    assert alone.puzzle == made[1].puzzle and alone.texts == made[1].texts


@pytest.mark.parametrize(
    "kind", [k for k in KINDS if k not in X_KINDS], ids=[k.name for k in KINDS if k not in X_KINDS]
)
def test_the_other_kinds_refuse_diagonals_with_a_sentence(stub, kind):
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.Generate(request(kind.name, diagonals=True), timeout=30))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = violations(caught.value)
    assert list(found) == ["diagonals"], found
    assert found["diagonals"].endswith(("once)", "generated")), found


def test_cli_makes_the_x_variant_and_its_seed_makes_it_again(server):
    args = ("generate", "sudoku", "--size", "6", "--diagonals", "--seed", "5", "--json")
    done = numgrid(*args, *server)
    assert done.returncode == 0, done.stderr
    (line,) = [json.loads(x) for x in done.stdout.splitlines()]
    assert line["texts"]["janko"].startswith("6 6 X\n") and line["score"] > 0
    assert json.loads(numgrid(*args, *server).stdout)["texts"] == line["texts"]
    refused = numgrid("generate", "kenken", "--size", "4", "--diagonals", *server)
    assert refused.returncode == 2 and "no x variant" in refused.stderr.lower()


def test_a_grade_no_puzzle_of_the_size_reaches_is_refused_at_once(stub, server):
    """Every 4x4 Sudoku is EASY (the maker's REACHABLE): asking for a harder one is
    INVALID_ARGUMENT naming the grade, not a search until the time cap (which ends in
    DEADLINE_EXCEEDED)."""
    hard = request("sudoku", rows=4, columns=4, grade=service_pb2.GRADE_HARD)
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.Generate(hard, timeout=30))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert violations(caught.value) == {"grade": "no 4x4 Sudoku is HARD: EASY ones can be made"}
    done = numgrid("generate", "sudoku", "--size", "4", "--grade", "expert", *server)
    assert done.returncode != 0
    assert "no 4x4 Sudoku is EXPERT: EASY ones can be made" in done.stderr
