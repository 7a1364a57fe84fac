"""Overload: far more heavy calls than the server has room for, and health throughout.

    python benchmarks/overload.py [--burst 200] [--callers 120] [--seconds 30]
                                  [--procs 2] [--target HOST:PORT] [--json]

Without ``--target`` it starts a real ``numgrid-server`` (default flags) on a free
loopback port. Two phases, each with a health check every 50 ms from its own channel:

- **burst**: ``--burst`` heavy calls sent at once (a 30x30 Kakuro that no engine decides,
  CheckUniqueness with the native engine, 5 s deadline);
- **sustained**: ``--callers`` threads over ``--procs`` processes calling the same back
  to back for ``--seconds``.

A *refusal* is a RESOURCE_EXHAUSTED; it is numgrid's when it carries the
``grpc-retry-pushback-ms`` trailer (which gRPC's own "Concurrent RPC limit exceeded!"
lacks). Prints the refusals, their latency (p50/p99/max), how many were not numgrid's,
and the health checks' latency and failures. Exits 1 when a refusal's p99 passes 50 ms,
any refusal is not numgrid's, any health check fails, or a call ends in a status other
than OK, RESOURCE_EXHAUSTED or DEADLINE_EXCEEDED. The latest figures:
docs/performance.md, "Under signals, load and fuzzing".
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from servers import start_server

HEAVY = (Path(__file__).parents[1] / "tests" / "data" / "slow_30x30.txt").read_text()
DEADLINE = 5.0  # seconds, each heavy call
HEALTH_EVERY = 0.05
HEALTH_DEADLINE = 1.0
REFUSAL_P99 = 0.050  # seconds
ALLOWED = {"OK", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED"}
NO_RETRIES = [("grpc.enable_retries", 0)]


def heavy_request() -> service_pb2.CheckUniquenessRequest:
    return service_pb2.CheckUniquenessRequest(
        puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=HEAVY, format=pb.PUZZLE_FORMAT_JANKO)),
        options=service_pb2.SearchOptions(engine=pb.ENGINE_NATIVE),
    )


def outcome(error: grpc.RpcError | None, seconds: float) -> tuple[str, float, bool]:
    """(status, seconds, numgrid's refusal: True when it carries the retry trailer)."""
    if error is None:
        return "OK", seconds, False
    trailers = {m.key: m.value for m in error.trailing_metadata() or ()}
    return error.code().name, seconds, "grpc-retry-pushback-ms" in trailers


def call_heavy(stub) -> tuple[str, float, bool]:
    start = time.monotonic()
    try:
        stub.CheckUniqueness(heavy_request(), timeout=DEADLINE)
        return outcome(None, time.monotonic() - start)
    except grpc.RpcError as e:
        return outcome(e, time.monotonic() - start)


class Health(threading.Thread):
    """Checks health every :data:`HEALTH_EVERY` s on a channel of its own until stopped."""

    def __init__(self, target: str):
        super().__init__(daemon=True)
        self.target, self.stopped = target, threading.Event()
        self.seconds: list[float] = []
        self.failures: Counter[str] = Counter()

    def run(self) -> None:
        with grpc.insecure_channel(self.target, options=NO_RETRIES) as channel:
            stub: Any = health_pb2_grpc.HealthStub(channel)  # its stubs declare no methods
            while not self.stopped.wait(HEALTH_EVERY):
                start = time.monotonic()
                try:
                    reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=HEALTH_DEADLINE)
                    self.seconds.append(time.monotonic() - start)
                    if reply.status != health_pb2.HealthCheckResponse.SERVING:
                        self.failures["NOT_SERVING"] += 1
                except grpc.RpcError as e:
                    self.failures[e.code().name] += 1


def burst(target: str, n: int) -> list[tuple[str, float, bool]]:
    with grpc.insecure_channel(target, options=NO_RETRIES) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        starts, futures = [], []
        for _ in range(n):
            starts.append(time.monotonic())
            futures.append(stub.CheckUniqueness.future(heavy_request(), timeout=DEADLINE))
        ends = [0.0] * n  # each call's end, as it ends (not as it is collected)

        def finished(i: int):
            return lambda _future: ends.__setitem__(i, time.monotonic())

        for i, future in enumerate(futures):
            future.add_done_callback(finished(i))
        errors = [future.exception() for future in futures]  # waits for every call
        now = time.monotonic()  # for a callback not yet run
        timed = zip(errors, ends, starts, strict=True)
        return [outcome(e, (end or now) - start) for e, end, start in timed]


def _callers(target: str, threads: int, seconds: float, results) -> None:
    """A client process: ``threads`` callers sharing one channel, for ``seconds``."""
    mine: list[tuple[str, float, bool]] = []
    lock = threading.Lock()
    end = time.monotonic() + seconds
    with grpc.insecure_channel(target, options=NO_RETRIES) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)

        def loop() -> None:
            while time.monotonic() < end:
                result = call_heavy(stub)
                with lock:
                    mine.append(result)

        workers = [threading.Thread(target=loop) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    results.put(mine)


def sustained(target: str, callers: int, seconds: float, procs: int) -> list:
    results: mp.Queue = mp.Queue()
    shares = [callers // procs + (i < callers % procs) for i in range(procs)]
    processes = [
        mp.Process(target=_callers, args=(target, share, seconds, results)) for share in shares
    ]
    for p in processes:
        p.start()
    outcomes = [o for _ in processes for o in results.get()]
    for p in processes:
        p.join()
    return outcomes


def quantiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"n": len(values), "p50_ms": at(0.5), "p99_ms": at(0.99), "max_ms": at(1.0)}


def summary(outcomes: list[tuple[str, float, bool]], health: Health) -> dict:
    refusals = [o for o in outcomes if o[0] == "RESOURCE_EXHAUSTED"]
    return {
        "calls": len(outcomes),
        "statuses": dict(Counter(o[0] for o in outcomes)),
        "refusals": quantiles([o[1] for o in refusals]),
        "refusals_not_numgrids": sum(not o[2] for o in refusals),
        "health": quantiles(health.seconds),
        "health_failures": dict(health.failures),
    }


def failures(phase: dict) -> list[str]:
    found = []
    if phase["refusals"].get("p99_ms", 0) > REFUSAL_P99 * 1000:
        found.append(f"refusal p99 {phase['refusals']['p99_ms']} ms > {REFUSAL_P99 * 1000:g}")
    if phase["refusals_not_numgrids"]:
        found.append(f"{phase['refusals_not_numgrids']} refusals without numgrid's retry hint")
    if phase["health_failures"]:
        found.append(f"health failed: {phase['health_failures']}")
    others = {s: n for s, n in phase["statuses"].items() if s not in ALLOWED}
    if others:
        found.append(f"unexpected statuses: {others}")
    return found


def run_phase(target: str, work) -> dict:
    health = Health(target)
    health.start()
    outcomes = work()
    health.stopped.set()
    health.join()
    return summary(outcomes, health)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=200, help="heavy calls sent at once")
    parser.add_argument("--callers", type=int, default=120, help="threads calling back to back")
    parser.add_argument("--seconds", type=float, default=30.0, help="of the sustained phase")
    parser.add_argument("--procs", type=int, default=2, help="client processes for the callers")
    parser.add_argument("--target", help="HOST:PORT of a running server (else one is started)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = parser.parse_args(argv)

    server = None
    target = args.target
    if target is None:
        server, target = start_server()
    try:
        phases = {
            "burst": run_phase(target, lambda: burst(target, args.burst)),
            "sustained": run_phase(
                target, lambda: sustained(target, args.callers, args.seconds, args.procs)
            ),
        }
    finally:
        if server is not None:
            server.terminate()
            server.wait(30)
    problems = [f"{name}: {p}" for name, phase in phases.items() for p in failures(phase)]
    if args.json:
        print(json.dumps({"phases": phases, "failures": problems}, indent=2))
    else:
        for name, phase in phases.items():
            r, h = phase["refusals"], phase["health"]
            print(
                f"{name:9} calls {phase['calls']:5}  {phase['statuses']}\n"
                f"          refusals {r.get('n', 0)}: p50 {r.get('p50_ms')} ms,"
                f" p99 {r.get('p99_ms')} ms, max {r.get('max_ms')} ms;"
                f" not numgrid's {phase['refusals_not_numgrids']}\n"
                f"          health {h.get('n', 0)}: p50 {h.get('p50_ms')} ms,"
                f" p99 {h.get('p99_ms')} ms, max {h.get('max_ms')} ms;"
                f" failed {phase['health_failures'] or 0}"
            )
        for p in problems:
            print("FAIL", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
