"""Text as people and spreadsheets write it, and text written to hurt: a UTF-8 byte-order
mark, semicolon-separated CSV, and numbers too long for Python's int() are all read or
refused with a finding, in every kind and format (never a ValueError, never INTERNAL)."""

from __future__ import annotations

import grpc
import pytest
from numgrid.server import convert
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from support import PUZZLES
from support.client import numgrid
from support.client import sample

BOM = "\ufeff"
HUGE = "1" * 4301  # one digit past Python's int() limit for decimal text
SAMPLES = {  # (kind, format): a sample file of it
    ("kakuro", "janko"): "kakuro-10x12.txt",
    ("kakuro", "csv"): "kakuro-10x12.csv",
    ("kakuro", "json"): "kakuro-10x12.json",
    ("kenken", "janko"): "kenken-4x4.txt",
    ("kenken", "json"): "kenken-4x4.json",
    ("kenken", "tatham"): "kenken-6x6.keen",
}


@pytest.mark.parametrize(("kind", "fmt"), sorted(SAMPLES))
def test_a_byte_order_mark_is_read_past_in_every_format(kind, fmt):
    text = sample(SAMPLES[kind, fmt])
    plain = KINDS[kind].formats.read(text, fmt, 20_000)
    assert detect(BOM + text) is KINDS[kind]
    assert KINDS[kind].formats.read(BOM + text, None, 20_000) == plain
    assert KINDS[kind].formats.read(BOM + text, fmt, 20_000) == plain


def test_semicolon_separated_csv_reads_as_csv():
    kakuro = KINDS["kakuro"]
    text = sample("kakuro-10x12.csv")
    semicolons = text.replace(",", ";")
    assert kakuro.formats.sniff(semicolons) == "csv"
    assert kakuro.formats.read(semicolons, None, 20_000) == kakuro.formats.read(text, "csv", 20_000)


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("kakuro", f"{HUGE} 2\n- -\n"),  # janko header
        ("kakuro", f"2 2\n- ,{HUGE}\n- -\n"),  # janko clue
        ("kakuro", f"10000,1{HUGE}\n0,0\n"),  # csv cell
        ("kakuro", '{"kakuro": {"rows": [{"cells": [{"down": ' + HUGE + "}]}]}}"),
        ("kenken", f"{HUGE} {HUGE}\n"),
        ("kenken", f"2 2\n{HUGE}+ .\n3+ .\n1 1\n2 2\n"),
        ("kenken", f"4:{HUGE},a7"),
        ("kenken", f"4:_a__b3__a_3a__,a{HUGE}m4a5m24s2d2s1"),
        ("kenken", '{"kenken": {"size": ' + HUGE + "}}"),
    ],
)
def test_numbers_past_the_int_limit_are_findings(kind, text):
    with pytest.raises(PuzzleError) as caught:
        KINDS[kind].formats.read(text, None, 20_000)
    assert caught.value.findings
    assert all(len(f.message) < 400 for f in caught.value.findings)  # not the number echoed


def test_the_service_and_cli_refuse_a_huge_number_as_invalid(server_process, tmp_path):
    with grpc.insecure_channel(server_process.target) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        source = pb.PuzzleInput(text=pb.PuzzleText(content=f"{HUGE} 2\n- -\n"))
        with pytest.raises(grpc.RpcError) as caught:
            stub.Validate(service_pb2.ValidateRequest(puzzle=source), timeout=10)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    path = tmp_path / "h.txt"
    path.write_text(f"{HUGE} 2\n- -\n")
    done = numgrid("--server", server_process.target, "validate", str(path))
    assert done.returncode == 1 and "INVALID" in done.stdout


def _raw(channel, method: str, streaming: bool = False):
    path = f"/numgrid.v1.NumgridService/{method}"
    return channel.stream_stream(path) if streaming else channel.unary_unary(path)


def _non_utf8_solve_request() -> bytes:
    """A SolveRequest whose puzzle text is not UTF-8 (protobuf strings must be)."""
    request = service_pb2.SolveRequest(
        puzzle=pb.PuzzleInput(text=pb.PuzzleText(content="ABCDEFGH"))
    )
    return request.SerializeToString().replace(b"ABCDEFGH", b"\xff\xfe\xff\xfe\xff\xfe\xff\xfe")


@pytest.mark.parametrize(
    ("method", "payload"),
    [
        ("Solve", b"\xff\xff\xff\xff"),
        ("Validate", b"\x0a\x05\x0a"),  # a field whose length runs past the end
        ("Solve", _non_utf8_solve_request()),
    ],
)
def test_bytes_that_are_no_request_are_invalid_argument(server_process, method, payload):
    mark = server_process.log_mark()
    with (
        grpc.insecure_channel(server_process.target) as channel,
        pytest.raises(grpc.RpcError) as caught,
    ):
        _raw(channel, method)(payload, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "is not a valid numgrid.v1." in caught.value.details()
    log = "\n".join(server_process.log_since(mark))
    assert "Traceback" not in log and "Exception deserializing" not in log


def test_a_batch_message_that_is_no_request_ends_the_stream_invalid(server_process):
    with (
        grpc.insecure_channel(server_process.target) as channel,
        pytest.raises(grpc.RpcError) as caught,
    ):
        call = _raw(channel, "BatchCheckUniqueness", streaming=True)
        list(call(iter([b"\xff\xff\xff\xff"]), timeout=10))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize(
    "puzzle",
    [
        pb.Puzzle(kakuro=pb.KakuroPuzzle(rows=[pb.KakuroRow() for _ in range(100_000)])),
        pb.Puzzle(kenken=pb.KenKenPuzzle(size=4, cages=[pb.Cage(cells=[pb.CellRef()] * 50_000)])),
        pb.Puzzle(kenken=pb.KenKenPuzzle(size=4, cages=[pb.Cage()] * 50_000)),
    ],
    ids=["kakuro-empty-rows", "kenken-cage-cells", "kenken-cages"],
)
def test_a_structured_puzzle_too_big_to_walk_is_refused_before_it_is_read(puzzle):
    # Rows without cells passed the rows x widest-row limit (0 cells) and then cost
    # seconds of server time; each message is refused from its counts alone.
    with pytest.raises(convert.InvalidRequest) as caught:
        convert.read_input(pb.PuzzleInput(puzzle=puzzle), 20_000)
    assert "more than any grid of at most 20000 cells needs" in str(caught.value)


def test_janko_text_is_read_no_further_than_its_header_promises():
    """5 MB of rows under a 2x2 header (within the text limit for 20,000 cells): one
    finding for the count and the first rows' own, not a finding per row."""
    body = ("- " * 200 + "\n") * 12_000
    with pytest.raises(PuzzleError) as caught:
        KINDS["kakuro"].formats.read("2 2\n" + body, "janko")
    codes = [f.code for f in caught.value.findings]
    assert codes == ["row_count", "ragged_row", "ragged_row"]
    assert "header says 2 rows but 12000 follow" in caught.value.findings[0].message
    assert "row 0 has 200 cells, expected 2" in caught.value.findings[1].message


def test_a_structured_cell_at_a_negative_row_is_named_not_crashed_on():
    """Found by the fuzzer: a Killer cage listing r-2147483648c2 twice; naming that
    cell's field indexed the givens' rows from the end (IndexError: INTERNAL)."""
    far = pb.CellRef(row=-(2**31), column=2)
    givens = pb.Grid(rows=[pb.GridRow(values=[1, 0, 0, 0])])
    killer = pb.KillerPuzzle(size=4, givens=givens, cages=[pb.KillerCage(sum=3, cells=[far, far])])
    with pytest.raises(convert.InvalidRequest) as caught:
        convert.read_input(pb.PuzzleInput(puzzle=pb.Puzzle(killer=killer)), 20_000)
    fields = [v.field for v in caught.value.violations]
    assert "puzzle.puzzle.killer.cages[0].cells[0]" in fields, fields


def _fullwidth(text: str, last: bool) -> str:
    """``text`` with its first (or last) ASCII digit written fullwidth (U+FF10 to U+FF19)."""
    digits = [k for k, ch in enumerate(text) if ch.isascii() and ch.isdigit()]
    k = digits[-1] if last else digits[0]
    return text[:k] + chr(ord(text[k]) + 0xFEE0) + text[k + 1 :]


ONE_PUZZLE = sorted(
    p.name
    for p in PUZZLES.iterdir()
    if p.suffix in {".txt", ".csv", ".json", ".keen", ".towers", ".sdk", ".jigsaw"}
    and not p.name.endswith(".solution.txt")
    and p.name not in {"broken-clues.txt", "Game03.csv"}  # refused as they are (README)
)


@pytest.mark.parametrize("name", ONE_PUZZLE)
@pytest.mark.parametrize("last", [False, True], ids=["first digit", "last digit"])
def test_a_fullwidth_digit_is_refused_in_every_kind_and_format(name, last):
    text = sample(name)
    kind = detect(text)
    kind.formats.read(text, None, 20_000)
    with pytest.raises(PuzzleError):
        kind.formats.read(_fullwidth(text, last), None, 20_000)
