"""Latency of Validate, Solve and CheckUniqueness beside a trivial RPC, over loopback.

    python benchmarks/latency.py [--iterations N] [--warmup N] [--puzzle ID]
                                 [--engine auto|native|cpsat|cross-check] [--json]

Starts a real ``numgrid-server`` process (the console script beside this interpreter)
on a free loopback port, then calls, one after the other on one channel, the gRPC
health Check and the three RPCs on one 12x12 corpus puzzle sent as janko text; each
round calls each RPC once, so load on the machine hits them alike. Prints p50 and p99
per RPC and their ratio to the health check's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from numgrid.client.client import ENGINES
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from servers import start_server

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kakuro.json"


def calls(channel: grpc.Channel, problem: str, engine: pb.Engine) -> dict:
    health: Any = health_pb2_grpc.HealthStub(channel)  # its stubs declare no methods
    stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
    source = pb.PuzzleInput(text=pb.PuzzleText(content=problem, format=pb.PUZZLE_FORMAT_JANKO))
    options = service_pb2.SearchOptions(engine=engine)
    check = health_pb2.HealthCheckRequest(service="")
    validate = service_pb2.ValidateRequest(puzzle=source)
    solve = service_pb2.SolveRequest(puzzle=source, options=options)
    unique = service_pb2.CheckUniquenessRequest(puzzle=source, options=options)
    return {
        "Health.Check": lambda: health.Check(check, timeout=10),
        "Validate": lambda: stub.Validate(validate, timeout=10),
        "Solve": lambda: stub.Solve(solve, timeout=10),
        "CheckUniqueness": lambda: stub.CheckUniqueness(unique, timeout=10),
    }


def measure(rpcs: dict, iterations: int, warmup: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {name: [] for name in rpcs}
    for i in range(warmup + iterations):
        for name, call in rpcs.items():
            start = time.perf_counter()
            call()
            if i >= warmup:
                samples[name].append((time.perf_counter() - start) * 1000)
    return samples


def summarize(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    out = {}
    for name, values in samples.items():
        q = statistics.quantiles(values, n=100, method="inclusive")
        out[name] = {"p50_ms": q[49], "p99_ms": q[98]}
    base = out["Health.Check"]
    for row in out.values():
        row["p50_ratio"] = row["p50_ms"] / base["p50_ms"]
        row["p99_ratio"] = row["p99_ms"] / base["p99_ms"]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--puzzle", default="162_12x12", help="corpus id of a 12x12 puzzle")
    parser.add_argument("--engine", choices=ENGINES, default="auto")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    problem = json.loads(CORPUS.read_text())["data"][args.puzzle]["problem"]
    process, target = start_server()
    try:
        with grpc.insecure_channel(target) as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            samples = measure(
                calls(channel, problem, ENGINES[args.engine]), args.iterations, args.warmup
            )
    finally:
        process.terminate()
        process.wait(30)
    table = summarize(samples)
    if args.json:
        meta = {"puzzle": args.puzzle, "engine": args.engine, "iterations": args.iterations}
        print(json.dumps({**meta, "rpcs": table}, indent=2))
        return 0
    print(
        f"{args.puzzle}, engine {args.engine}, {args.iterations} calls each "
        f"(+{args.warmup} warm-up), one channel over loopback"
    )
    print(f"{'rpc':<16} {'p50 ms':>8} {'p99 ms':>8} {'p50/health':>11} {'p99/health':>11}")
    for name, row in table.items():
        print(
            f"{name:<16} {row['p50_ms']:8.2f} {row['p99_ms']:8.2f} "
            f"{row['p50_ratio']:10.1f}x {row['p99_ratio']:10.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
