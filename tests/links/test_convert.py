"""ConvertPuzzle against a real ``numgrid-server``, Generate's ``formats``, and
``numgrid convert`` run as a user runs it: a puzzle written in another format reads back
the same; a format a kind lacks, or one that cannot hold the puzzle (the X rule in a line
of digits), is INVALID_ARGUMENT with the reason and the formats that can; files of one
link or game ID a line, on disk or on stdin, are read a puzzle a line."""

from __future__ import annotations

import json

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc as service_grpc
from numgrid.v1 import puzzle_pb2 as pb
from support.client import numgrid

KEEN = "4:a__a_aa__a_3aba,s2m8s1a7m24a5d2"  # sgt-keen --generate 1 4
TOWERS = "4:2/1/3/2/1/3/2/3/2/3/2/1/2/1/2/3"  # sgt-towers --generate 1 4
SOLO_X = "3x3x:d6b5_1_7_1d9c6a3f5_3_7h2a9h3_6_7f8a1c5d6_7_4_8b9d"  # sgt-solo --generate 1 3x3xu


@pytest.fixture(scope="module")
def client(server_process):
    with NumgridClient(server_process.target, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def stub(server_process):
    with grpc.insecure_channel(server_process.target) as channel:
        yield service_grpc.NumgridServiceStub(channel)


def _violations(error: grpc.RpcError) -> list[tuple[str, str]]:
    status = rpc_status.from_call(error)
    assert status is not None
    found = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            found += [(v.field, v.description) for v in bad.field_violations]
    return found


def test_a_puzzle_written_in_another_format_reads_back_the_same(client):
    for text, formats in ((KEEN, ("janko", "json")), (TOWERS, ("janko", "json"))):
        original = client.convert(text, "json")
        for fmt in formats:
            written = client.convert(text, fmt)
            assert written.format == fmt
            assert written.puzzle == original.puzzle
            assert client.convert(written.text, "tatham").text.strip() == text


def test_a_format_the_kind_lacks_is_refused_naming_the_site_and_the_formats_it_has(stub):
    request = service_pb2.ConvertPuzzleRequest(
        puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=KEEN)),
        format=pb.PUZZLE_FORMAT_PUZZLINK,
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.ConvertPuzzle(request, timeout=30)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, description)] = _violations(caught.value)
    assert field == "format"
    assert description.startswith("puzz.link (pzprjs) has no KenKen: write it as one of json")


def test_a_format_that_cannot_hold_the_puzzle_says_why_and_drops_nothing(client):
    with pytest.raises(NumgridError) as caught:
        client.convert(SOLO_X, "line")
    assert caught.value.code == "INVALID_ARGUMENT"
    assert "holds no X rule" in caught.value.message
    # the formats that can hold it, each tried: the X variant's, not the line's
    assert caught.value.message.endswith(
        "; it can be written as json, tatham, janko, penpa or fpuzzles"
    ), caught.value.message
    assert client.convert(SOLO_X, "janko").text.startswith("9 9 X\n")


def test_no_format_or_an_unknown_one_is_refused(stub):
    puzzle = pb.PuzzleInput(text=pb.PuzzleText(content=KEEN))
    for value, words in ((0, "say which format"), (99, "unknown puzzle format 99")):
        request = service_pb2.ConvertPuzzleRequest(puzzle=puzzle, format=value)
        with pytest.raises(grpc.RpcError) as caught:
            stub.ConvertPuzzle(request, timeout=30)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert words in caught.value.details()


def test_an_unreadable_puzzle_is_refused_with_its_findings(client):
    with pytest.raises(NumgridError) as caught:
        client.convert("4:a__a_aa__a_3aba,s2m8s1a7m24a5", "janko")
    assert caught.value.code == "INVALID_ARGUMENT"
    assert "r3c0: the game ID has no clue" in caught.value.message


def test_generate_writes_the_formats_asked_for_and_refuses_one_the_kind_lacks(client, stub):
    made = list(client.generate("kenken", 4, 4, count=2, seed=5, formats=("tatham",)))
    assert [sorted(m.texts) for m in made] == [["tatham"], ["tatham"]]
    for m in made:
        assert client.convert(m.texts["tatham"], "json").puzzle == m.puzzle
    request = service_pb2.GenerateRequest(
        kind=pb.PUZZLE_KIND_KENKEN, rows=4, formats=[pb.PUZZLE_FORMAT_CSV]
    )
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.Generate(request, timeout=30))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _violations(caught.value) == [
        ("formats", "KenKen has no csv format: write it as one of json, tatham, janko" + _more())
    ]


def _more() -> str:
    """The link formats KenKen has besides its text formats, as the server lists them."""
    from numgrid.server.kinds import KINDS

    extra = [f for f in KINDS["kenken"].formats.FORMATS if f not in ("json", "tatham", "janko")]
    return "".join(f", {f}" for f in extra)


def test_an_x_puzzle_generated_comes_in_the_formats_that_hold_it(client):
    [made] = client.generate("sudoku", 4, 4, count=1, seed=2, diagonals=True)
    assert "line" not in made.texts and "grid" not in made.texts
    assert made.texts["janko"].startswith("4 4 X\n")


# ---------------------------------------------------------------- the CLI


def test_numgrid_convert_writes_links_one_a_line_and_reads_them_back(server_process, tmp_path):
    server = ("--server", server_process.target)
    ids = tmp_path / "ids.txt"
    ids.write_text(f"# two game IDs\n{KEEN}\n\n{TOWERS}\n")
    done = numgrid(*server, "convert", "--to", "janko", str(ids))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"# {ids}:2\n4 4\n")
    assert f"\n\n# {ids}:4\n4 4 4\n" in done.stdout
    back = numgrid(*server, "convert", "--to", "tatham", "-", stdin=ids.read_text())
    assert back.returncode == 0, back.stderr
    assert back.stdout.splitlines() == [KEEN, TOWERS]


def test_numgrid_convert_names_each_puzzle_it_cannot_write_and_writes_the_rest(
    server_process, tmp_path
):
    server = ("--server", server_process.target)
    ids = tmp_path / "ids.txt"
    ids.write_text(f"{KEEN}\n{SOLO_X}\n4:a__a_aa__a_3aba,s2m8s1a7m24a5\n")
    done = numgrid(*server, "convert", "--to", "janko", str(ids))
    assert done.returncode == 1
    assert done.stdout.count("# ") == 2
    assert f"numgrid: {ids}:3: r3c0: the game ID has no clue" in done.stderr
    lines = numgrid(*server, "--json", "convert", "--to", "line", str(ids))
    records = [json.loads(line) for line in lines.stdout.splitlines()]
    assert [r["status"] for r in records] == ["INVALID", "INVALID", "INVALID"]
    assert "KenKen has no line format" in records[0]["errors"][0]["message"]
    assert "holds no X rule" in records[1]["errors"][0]["message"]


def test_numgrid_convert_refuses_an_unknown_target_in_one_sentence():
    done = numgrid("convert", "--to", "puzzlnk", "-", stdin=KEEN)
    assert done.returncode == 2
    assert "--to: unknown format 'puzzlnk'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_link_pasted_for_a_file_and_a_file_of_links_are_read(server_process):
    server = ("--server", server_process.target)
    link = "https://puzz.link/p?sudoku/9/9/4i3m6h8p1j5h9h8j6i7g2n1g27h5g3j4g9n"
    done = numgrid(*server, "solve", link)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{link}: UNIQUE")
    every = numgrid(*server, "--json", "unique", "puzzles/links.links")
    records = [json.loads(line) for line in every.stdout.splitlines()]
    assert len(records) == 12 and {r["status"] for r in records} == {"UNIQUE"}
    assert {r["source"].split(":")[0] for r in records} == {"puzzles/links.links"}
