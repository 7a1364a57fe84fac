"""Request streams that send nothing (issue 29, item 3), against a real server: an idle
BatchCheckUniqueness or reflection stream is ended after ``--stream-idle`` seconds, so it
does not hold a batch place or a thread; one client may hold only its share of streams
(``--client-streams``), a further one refused at once with a retry hint, so sixty idle
reflection streams leave batches and health checks answered. A Generate stream goes only
as far ahead as a numgrid client reads (item 4)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2_grpc
from numgrid.client.client import NumgridClient
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from support.client import numgrid

NO_RETRIES = [("grpc.enable_retries", 0)]
KENKEN = "puzzles/kenken-4x4.txt"


def _silent():
    """A request stream that sends nothing until told to stop."""
    stop = threading.Event()

    def requests():
        stop.wait()
        return
        yield  # a generator

    return stop, requests()


def test_an_idle_batch_stream_is_ended_and_its_place_freed(launch_server):
    server = launch_server("--stream-idle", "1", "--threads", "3")  # one batch stream
    stops = []
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            stop, requests = _silent()
            stops.append(stop)
            idle = stub.BatchCheckUniqueness(requests, timeout=60)
            start = time.monotonic()
            try:
                list(idle)
                raise AssertionError("the idle stream was not ended")
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.CANCELLED
            assert time.monotonic() - start < 10
        done = numgrid("--server", server.target, "unique", KENKEN)
        assert done.returncode == 0, done.stderr
    finally:
        for stop in stops:
            stop.set()
        assert server.stop() == 0


def test_one_client_holds_only_its_share_of_streams(launch_server):
    server = launch_server("--client-streams", "2", "--stream-idle", "30")
    stops = []
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            held = []
            for _ in range(2):
                stop, requests = _silent()
                stops.append(stop)
                held.append(stub.BatchCheckUniqueness(requests, timeout=60))
            time.sleep(0.5)
            stop, requests = _silent()
            stops.append(stop)
            start = time.monotonic()
            try:
                list(stub.BatchCheckUniqueness(requests, timeout=60))
                raise AssertionError("a third stream was let in")
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "this client has 2 streams open" in e.details()
                assert ("grpc-retry-pushback-ms", "1000") in e.trailing_metadata()
            assert time.monotonic() - start < 2
            for stop in stops:
                stop.set()
            for call in held:
                assert list(call) == []
            ran = stub.BatchCheckUniqueness(
                iter([service_pb2.BatchCheckUniquenessRequest()]), timeout=30
            )
            assert list(ran) == []  # the places are free again
    finally:
        for stop in stops:
            stop.set()
        assert server.stop() == 0


def test_sixty_idle_reflection_streams_leave_health_answered(launch_server):
    server = launch_server("--stream-idle", "30")
    stops = []
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
            streams = []
            for _ in range(60):
                stop, requests = _silent()
                stops.append(stop)
                streams.append(reflection.ServerReflectionInfo(requests, timeout=60))
            time.sleep(1)
            health = health_pb2_grpc.HealthStub(channel)
            for _ in range(5):
                reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
                assert reply.status == health_pb2.HealthCheckResponse.SERVING
            with grpc.insecure_channel(server.target, options=NO_RETRIES) as other:
                stub = numgrid_service_pb2_grpc.NumgridServiceStub(other)
                text = {"text": {"content": Path(KENKEN).read_text()}}
                validated = stub.Validate(service_pb2.ValidateRequest(puzzle=text), timeout=5)
                assert not validated.board_findings
            for stop in stops:
                stop.set()
    finally:
        for stop in stops:
            stop.set()
        assert server.stop() == 0


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow
def test_generate_goes_only_as_far_ahead_as_a_numgrid_client_reads(launch_server):
    """Issue 29, item 4: a Generate stream whose caller took one puzzle and reads no more
    stops the server's work once the flow-control window is full (a few dozen small
    puzzles), where gRPC's growing window used to keep it generating for minutes."""
    server = launch_server()
    try:
        with NumgridClient(server.target) as client:
            stream = client.generate("kenken", 4, count=10_000, seed=1, timeout=120)
            first = next(iter(stream))
            assert first.index == 0
            time.sleep(6)  # the window fills and the server blocks sending
            before = _cpu_seconds(server.process.pid)
            time.sleep(3)
            used = _cpu_seconds(server.process.pid) - before
            assert used < 0.3, f"the server used {used:.2f} s of CPU for a stream not read"
            stream.close()
    finally:
        assert server.stop() == 0
