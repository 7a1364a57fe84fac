"""Observability (issue 13): Prometheus metrics on ``--metrics-port`` and a request id in
every log line of a call. Each test runs a real ``numgrid-server`` and scrapes its
``/metrics`` over HTTP, as Prometheus would."""

from __future__ import annotations

import logging
import re
import socket
import threading
import time
import urllib.request

import grpc
import pytest
from numgrid.server import config
from numgrid.server import logs
from numgrid.server import operations
from numgrid.server.main import start_embedded
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from prometheus_client.parser import text_string_to_metric_families
from support import PUZZLES
from support.server import run_server
from test_service import slow_request
from test_service import text_input
from test_service import wait_for_log

KAKURO = (PUZZLES / "kakuro-10x12.txt").read_text()
KENKEN = (PUZZLES / "kenken-4x4.txt").read_text()
MULTIPLE = (PUZZLES / "multiple-4x4.txt").read_text()
NOT_A_PUZZLE = "this is no puzzle\n"
NO_RETRIES = [("grpc.enable_retries", 0)]
GENERATED_ID = re.compile(r"[0-9a-f]{16}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Scrape:
    """One scrape of ``/metrics``: ``scrape.value(sample_name, **labels)``."""

    def __init__(self, port: int):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
            assert reply.status == 200
            self.text = reply.read().decode()
        self.samples = {
            (s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(self.text)
            for s in family.samples
        }

    def value(self, name: str, **labels: str) -> float:
        """The sample with exactly these labels (``le`` included for a bucket); 0 when
        it was never set, as Prometheus reads a series that is not there yet."""
        return self.samples.get((name, frozenset(labels.items())), 0.0)

    def total(self, name: str, **labels: str) -> float:
        """The sum of the samples whose labels include these."""
        wanted = set(labels.items())
        return sum(v for (n, ls), v in self.samples.items() if n == name and wanted <= ls)


def moved(before: Scrape, after: Scrape, name: str, **labels: str) -> float:
    return after.value(name, **labels) - before.value(name, **labels)


@pytest.fixture(scope="module", params=["1", "2"], ids=["inline", "workers"])
def observed(request, launch_server):
    """A server with metrics on (``--workers 1``: batch puzzles in the RPC's thread; 2:
    in worker processes), its metrics port, and a stub."""
    port = free_port()
    server = launch_server("--metrics-port", str(port), "--workers", request.param)
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            yield server, port, numgrid_service_pb2_grpc.NumgridServiceStub(channel)
    finally:
        assert server.stop() == 0
    assert f"metrics on http://127.0.0.1:{port}/metrics" in server.log_path.read_text()


def solve(text: str) -> service_pb2.SolveRequest:
    return service_pb2.SolveRequest(puzzle=text_input(text))


def batch(*texts: str) -> service_pb2.BatchCheckUniquenessRequest:
    return service_pb2.BatchCheckUniquenessRequest(
        puzzles=[
            service_pb2.BatchPuzzle(id=f"p{i}", puzzle=text_input(t)) for i, t in enumerate(texts)
        ]
    )


# ---------------------------------------------------------------- metrics


def test_calls_are_counted_by_method_code_and_kind(observed):
    _server, port, stub = observed
    before = Scrape(port)
    assert stub.Solve(solve(KAKURO), timeout=30).verdict == pb.VERDICT_UNIQUE
    assert stub.Solve(solve(KENKEN), timeout=30).verdict == pb.VERDICT_UNIQUE
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(solve(NOT_A_PUZZLE), timeout=30)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    after = Scrape(port)

    requests = "numgrid_requests_total"
    assert moved(before, after, requests, method="Solve", code="OK", kind="kakuro") == 1
    assert moved(before, after, requests, method="Solve", code="OK", kind="kenken") == 1
    invalid = {"method": "Solve", "code": "INVALID_ARGUMENT", "kind": "unknown"}
    assert moved(before, after, requests, **invalid) == 1
    assert after.total(requests) - before.total(requests) == 3  # nothing else counted

    duration = "numgrid_request_duration_seconds"
    assert moved(before, after, f"{duration}_count", method="Solve", kind="kakuro") == 1
    assert moved(before, after, f"{duration}_sum", method="Solve", kind="kakuro") > 0
    # The buckets run from 1 ms to a minute; a 10x12 Kakuro takes well under 10 s.
    assert moved(before, after, f"{duration}_bucket", method="Solve", kind="kakuro", le="10.0")
    bounds = {
        dict(labels)["le"]
        for name, labels in after.samples
        if name == f"{duration}_bucket" and ("method", "Solve") in labels
    }
    assert {"0.001", "0.01", "0.1", "1.0", "10.0", "60.0", "+Inf"} <= bounds

    engine = "numgrid_engine_seconds_count"
    assert after.total(engine, kind="kakuro") - before.total(engine, kind="kakuro") >= 1
    assert after.total(engine, kind="kenken") - before.total(engine, kind="kenken") >= 1
    assert after.value("numgrid_requests_in_flight", method="Solve") == 0
    assert after.total("process_resident_memory_bytes") > 0  # the process collector


def test_batch_puzzles_are_counted_by_kind_and_verdict(observed):
    _server, port, stub = observed
    before = Scrape(port)
    request = batch(KAKURO, KENKEN, MULTIPLE, NOT_A_PUZZLE)
    replies = stub.BatchCheckUniqueness(iter([request]), timeout=60)
    results = [result for reply in replies for result in reply.results]
    assert sorted(r.id for r in results) == ["p0", "p1", "p2", "p3"]
    after = Scrape(port)

    puzzles = "numgrid_batch_puzzles_total"
    assert moved(before, after, puzzles, kind="kakuro", verdict="UNIQUE") == 1
    assert moved(before, after, puzzles, kind="kenken", verdict="UNIQUE") == 1
    assert moved(before, after, puzzles, kind="kakuro", verdict="MULTIPLE") == 1
    assert moved(before, after, puzzles, kind="unknown", verdict="REJECTED") == 1
    assert after.total(puzzles) - before.total(puzzles) == 4
    # The batch's puzzles' search time, from the workers' results too.
    engine = "numgrid_engine_seconds_count"
    assert after.total(engine, kind="kenken") - before.total(engine, kind="kenken") >= 1

    call = {"method": "BatchCheckUniqueness", "code": "OK", "kind": "mixed"}
    assert moved(before, after, "numgrid_requests_total", **call) == 1
    assert after.value("numgrid_requests_in_flight", method="BatchCheckUniqueness") == 0


def test_in_flight_counts_the_calls_being_handled(observed):
    _server, port, stub = observed
    running = stub.CheckUniqueness.future(
        slow_request("native", time_limit={"seconds": 2}), timeout=30
    )
    try:
        deadline = time.monotonic() + 10
        while Scrape(port).value("numgrid_requests_in_flight", method="CheckUniqueness") != 1:
            assert time.monotonic() < deadline, "the running call never showed in flight"
            time.sleep(0.05)
    finally:
        assert running.result().verdict == pb.VERDICT_TIMEOUT
    assert Scrape(port).value("numgrid_requests_in_flight", method="CheckUniqueness") == 0


def test_shed_calls_are_counted(launch_server):
    port = free_port()
    server = launch_server("--threads", "1", "--max-queued", "0", "--metrics-port", str(port))
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            request = slow_request("native", time_limit={"seconds": 1})
            running = stub.CheckUniqueness.future(request, timeout=30)
            time.sleep(0.5)
            with pytest.raises(grpc.RpcError) as caught:
                stub.CheckUniqueness(request, timeout=30)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            running.result()
        scrape = Scrape(port)
    finally:
        assert server.stop() == 0
    assert scrape.value("numgrid_requests_shed_total", method="CheckUniqueness") == 1
    shed = {"method": "CheckUniqueness", "code": "RESOURCE_EXHAUSTED", "kind": "unknown"}
    assert scrape.value("numgrid_requests_total", **shed) == 1
    ran = {"method": "CheckUniqueness", "code": "OK", "kind": "kakuro"}
    assert scrape.value("numgrid_requests_total", **ran) == 1


def test_the_metrics_port_is_off_by_default_and_read_from_the_environment(monkeypatch):
    assert config.from_args([]).metrics_port == 0
    monkeypatch.setenv("NUMGRID_METRICS_PORT", "9464")
    monkeypatch.setenv("NUMGRID_METRICS_HOST", "10.0.0.7")
    got = config.from_args([])
    assert (got.metrics_port, got.metrics_host) == (9464, "10.0.0.7")
    assert config.from_args(["--metrics-port", "9100"]).metrics_port == 9100


def test_a_metrics_port_in_use_stops_the_server_with_a_sentence(monkeypatch):
    monkeypatch.setenv("NUMGRID_HOST", "127.0.0.1")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_server("--port", "0", "--metrics-port", str(port))
    assert done.returncode == 1
    assert f"cannot serve metrics on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- request ids


def request_id_of(metadata) -> str | None:
    return dict(metadata or ()).get("x-request-id")


def test_the_callers_request_id_is_echoed_and_in_the_calls_log_line(observed):
    server, _port, stub = observed
    mark = server.log_mark()
    reply, call = stub.Solve.with_call(
        solve(KAKURO), timeout=30, metadata=(("x-request-id", "test-solve-42"),)
    )
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert request_id_of(call.initial_metadata()) == "test-solve-42"
    line = wait_for_log(server, mark, "[test-solve-42]")
    assert "numgrid.server.requests [test-solve-42]: method=Solve size=10x12 status=OK" in line
    assert "kind=kakuro verdict=UNIQUE engine=" in line
    assert re.search(r"engine=(native|cpsat)", line) and re.search(r"ms=[\d.]+$", line)

    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(solve(NOT_A_PUZZLE), timeout=30, metadata=(("x-request-id", "bad-1"),))
    assert request_id_of(caught.value.initial_metadata()) == "bad-1"
    line = wait_for_log(server, mark, "[bad-1]")
    assert "status=INVALID_ARGUMENT kind=unknown verdict=- engine=-" in line


def test_a_request_id_is_generated_when_none_is_sent(observed):
    server, _port, stub = observed
    mark = server.log_mark()
    ids = []
    for _ in range(2):
        _reply, call = stub.Solve.with_call(solve(KENKEN), timeout=30)
        ids.append(request_id_of(call.initial_metadata()))
    assert all(GENERATED_ID.fullmatch(i or "") for i in ids), ids
    assert ids[0] != ids[1]
    for request_id in ids:
        line = wait_for_log(server, mark, f"[{request_id}]")
        assert "method=Solve" in line and "kind=kenken verdict=UNIQUE" in line


def test_a_request_id_that_could_forge_a_log_field_is_replaced(observed):
    server, _port, stub = observed
    mark = server.log_mark()
    forged = "x] method=Evil status=OK"
    _reply, call = stub.Solve.with_call(
        solve(KENKEN), timeout=30, metadata=(("x-request-id", forged),)
    )
    given = request_id_of(call.initial_metadata())
    assert GENERATED_ID.fullmatch(given or ""), given
    wait_for_log(server, mark, f"[{given}]")
    assert not any("Evil" in line for line in server.log_since(mark))


def test_a_batch_calls_request_id_is_echoed_and_logged(observed):
    server, _port, stub = observed
    mark = server.log_mark()
    replies = stub.BatchCheckUniqueness(
        iter([batch(KAKURO, KAKURO)]), timeout=60, metadata=(("x-request-id", "batch-7"),)
    )
    assert sum(len(r.results) for r in replies) == 2
    assert request_id_of(replies.initial_metadata()) == "batch-7"
    line = wait_for_log(server, mark, "[batch-7]")
    assert "method=BatchCheckUniqueness puzzles=2 rejected=0 failed=0 status=OK" in line
    assert "kind=kakuro" in line


def test_concurrent_calls_keep_their_own_ids(observed):
    """Two calls handled at once, each in its own thread: each line has its own id."""
    server, _port, stub = observed
    mark = server.log_mark()
    outcome = {}

    def run(request_id: str) -> None:
        _reply, call = stub.CheckUniqueness.with_call(
            slow_request("native", time_limit={"seconds": 1}),
            timeout=30,
            metadata=(("x-request-id", request_id),),
        )
        outcome[request_id] = request_id_of(call.initial_metadata())

    threads = [threading.Thread(target=run, args=(f"both-{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcome == {"both-0": "both-0", "both-1": "both-1"}
    for request_id in outcome:
        line = wait_for_log(server, mark, f"[{request_id}]")
        assert "method=CheckUniqueness size=30x30 status=OK kind=kakuro verdict=TIMEOUT" in line
    assert any("numgrid.server [-]: serving on" in line for line in server.log_lines())


def test_a_line_logged_inside_a_call_carries_its_request_id(monkeypatch):
    """Not only the request line: whatever the call's thread logs (in-process)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    handler.addFilter(logs.RequestIdFilter())
    logger = logging.getLogger("numgrid.server")
    logger.addHandler(handler)
    real = operations.check_uniqueness

    def noisy(*args, **kwargs):
        logging.getLogger("numgrid.server.engines").warning("searching")
        return real(*args, **kwargs)

    monkeypatch.setattr(operations, "check_uniqueness", noisy)
    try:
        with (
            start_embedded() as server,
            grpc.insecure_channel(server.target) as channel,
        ):
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            request = service_pb2.CheckUniquenessRequest(puzzle=text_input(KENKEN))
            stub.CheckUniqueness(request, timeout=30, metadata=(("x-request-id", "inner-1"),))
            stub.CheckUniqueness(request, timeout=30)
        logging.getLogger("numgrid.server").warning("after")
    finally:
        logger.removeHandler(handler)
    ids = {r.getMessage(): [] for r in records}
    for r in records:
        ids[r.getMessage()].append(r.request_id)
    assert ids["searching"][0] == "inner-1"
    assert GENERATED_ID.fullmatch(ids["searching"][1])
    assert ids["after"] == ["-"]
