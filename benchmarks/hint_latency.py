"""Latency of one Hint call from mid-solve positions of 12x12 puzzles, beside health Check.

    python benchmarks/hint_latency.py [--positions N] [--warmup N] [--puzzle ID|all]
                                      [--kind random|chain|both] [--seed N]
                                      [--target-ms MS] [--json]

Starts a real ``numgrid-server`` process (the console script beside this interpreter) on
a free loopback port. Builds ``--positions`` boards a player could have of a 12x12 corpus
puzzle (``--puzzle``, or ``all``: every 12x12 of the corpus in turn):

- ``random``: a random 10 % to 95 % of its published solution entered. Such a board
  nearly always has a run with one empty cell, so its next step is a LAST_CELL;
- ``chain``: the digits the logical chain (an Explain call, made before measuring) has
  placed after a random 5 % to 95 % of its steps: the next step needs whatever the chain
  needed there, up to region sums and trial offers;
- ``both`` (default): half and half, interleaved.

Then, one after the other on one channel, for each board: the gRPC health Check, Hint
(the next step, markup included) and Hint with ``placements_only`` (the next digit
placed), each sent as janko text. Prints p50/p95/p99 per call and their ratio to the
health check's, what the hints were, and PASS or FAIL against the acceptance bound:
p95 of a single Hint under ``--target-ms`` (50 ms). Exits 1 on FAIL.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from servers import start_server

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kakuro.json"
SHAPE = "12x12"
TARGET_MS = 50.0
CALLS = ("Health.Check", "Hint", "Hint placements_only")


def entered(problem: str, digits: dict[tuple[int, int], str]) -> str:
    """``problem`` (janko) with ``digits`` entered."""
    lines = problem.strip().splitlines()
    rows = [line.split() for line in lines[1:]]
    for (r, c), digit in digits.items():
        rows[r][c] = digit
    return "\n".join([lines[0], *(" ".join(row) for row in rows)]) + "\n"


def random_board(problem: str, solution: str, rng: random.Random) -> str:
    """``problem`` with a random 10-95 % of the solution's digits entered."""
    rows = [line.split() for line in problem.strip().splitlines()[1:]]
    digits = [line.split() for line in solution.strip().splitlines()[1:]]
    white = [(r, c) for r, row in enumerate(rows) for c, token in enumerate(row) if token == "0"]
    kept = rng.sample(white, round(len(white) * rng.uniform(0.10, 0.95)))
    return entered(problem, {(r, c): digits[r][c] for r, c in kept})


def chain_board(problem: str, steps, rng: random.Random) -> str:
    """``problem`` with the digits the first 5-95 % of the logical chain placed."""
    done = steps[: round(len(steps) * rng.uniform(0.05, 0.95))]
    return entered(
        problem,
        {(p.cell.row, p.cell.column): str(p.digit) for step in done for p in step.placements},
    )


def positions(stub, corpus: dict, which: str, kind: str, count: int, seed: int) -> list[str]:
    """``count`` boards, of the kinds asked for."""
    ids = sorted(k for k in corpus if k.endswith(f"_{SHAPE}")) if which == "all" else [which]
    if not ids or any(not k.endswith(f"_{SHAPE}") or k not in corpus for k in ids):
        sys.exit(f"--puzzle must be a {SHAPE} corpus id or 'all', not {which!r}")
    rng = random.Random(seed)
    chains: dict[str, list] = {}
    out = []
    for i in range(count):
        key = ids[(i // 2 if kind == "both" else i) % len(ids)]
        problem = corpus[key]["problem"]
        if kind == "random" or (kind == "both" and i % 2 == 0):
            out.append(random_board(problem, corpus[key]["solution"], rng))
            continue
        if key not in chains:
            source = pb.PuzzleInput(text=pb.PuzzleText(content=problem))
            reply = stub.Explain(service_pb2.ExplainRequest(puzzle=source), timeout=60)
            chains[key] = list(reply.steps)
        out.append(chain_board(problem, chains[key], rng))
    return out


def measure(channel, boards, warmup: int) -> tuple[dict[str, list[float]], Counter]:
    health: Any = health_pb2_grpc.HealthStub(channel)  # its stubs declare no methods
    stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
    check = health_pb2.HealthCheckRequest(service="")
    samples: dict[str, list[float]] = {name: [] for name in CALLS}
    kinds: Counter = Counter()
    for i, board in enumerate(boards[:warmup] + boards):
        source = pb.PuzzleInput(text=pb.PuzzleText(content=board, format=pb.PUZZLE_FORMAT_JANKO))
        calls: dict[str, Callable[..., Any]] = {
            "Health.Check": lambda: health.Check(check, timeout=10),
            "Hint": lambda source=source: stub.Hint(
                service_pb2.HintRequest(puzzle=source), timeout=10
            ),
            "Hint placements_only": lambda source=source: stub.Hint(
                service_pb2.HintRequest(puzzle=source, placements_only=True), timeout=10
            ),
        }
        for name, call in calls.items():
            start = time.perf_counter()
            reply = call()
            elapsed = (time.perf_counter() - start) * 1000
            if i >= warmup:
                samples[name].append(elapsed)
                if name != "Health.Check":
                    kind = service_pb2.HintKind.Name(reply.kind).removeprefix("HINT_KIND_")
                    technique = service_pb2.Technique.Name(reply.step.technique)
                    kinds[(name, kind, technique.removeprefix("TECHNIQUE_"))] += 1
    return samples, kinds


def summarize(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    out = {}
    for name, values in samples.items():
        q = statistics.quantiles(values, n=100, method="inclusive")
        out[name] = {"p50_ms": q[49], "p95_ms": q[94], "p99_ms": q[98], "max_ms": max(values)}
    base = out["Health.Check"]
    for row in out.values():
        for p in ("p50", "p95", "p99"):
            row[f"{p}_ratio"] = row[f"{p}_ms"] / base[f"{p}_ms"]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500, help="boards measured")
    parser.add_argument("--warmup", type=int, default=20, help="boards called first, unmeasured")
    parser.add_argument("--puzzle", default="162_12x12", help="a 12x12 corpus id, or all")
    parser.add_argument("--kind", choices=("random", "chain", "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target-ms", type=float, default=TARGET_MS, help="the p95 bound")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    corpus = json.loads(CORPUS.read_text())["data"]
    process, target = start_server()
    try:
        with grpc.insecure_channel(target) as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            boards = positions(stub, corpus, args.puzzle, args.kind, args.positions, args.seed)
            samples, kinds = measure(channel, boards, args.warmup)
    finally:
        process.terminate()
        process.wait(30)
    table = summarize(samples)
    verdicts = {
        name: table[name]["p95_ms"] < args.target_ms for name in CALLS if name.startswith("Hint")
    }
    passed = all(verdicts.values())
    if args.json:
        meta = {
            "puzzle": args.puzzle,
            "kind": args.kind,
            "positions": args.positions,
            "seed": args.seed,
            "target_p95_ms": args.target_ms,
        }
        answers = [
            {"call": name, "kind": kind, "technique": technique, "count": n}
            for (name, kind, technique), n in sorted(kinds.items())
        ]
        print(
            json.dumps(
                {**meta, "calls": table, "answers": answers, "pass": passed, "per_call": verdicts},
                indent=2,
            )
        )
        return 0 if passed else 1
    print(
        f"{args.puzzle} ({SHAPE}), {args.positions} mid-solve positions ({args.kind}, "
        f"+{args.warmup} warm-up), one channel over loopback"
    )
    header = f"{'call':<22} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}"
    print(f"{header} {'p50/health':>10} {'p95/health':>10} {'p99/health':>10}")
    for name, row in table.items():
        print(
            f"{name:<22} {row['p50_ms']:7.2f} {row['p95_ms']:7.2f} {row['p99_ms']:7.2f} "
            f"{row['max_ms']:7.2f} {row['p50_ratio']:9.1f}x {row['p95_ratio']:9.1f}x "
            f"{row['p99_ratio']:9.1f}x"
        )
    print("answers:")
    for (name, kind, technique), n in sorted(kinds.items()):
        print(f"  {name:<22} {kind:<8} {technique:<24} {n:5d}")
    for name, ok in verdicts.items():
        p95 = table[name]["p95_ms"]
        print(f"{'PASS' if ok else 'FAIL'}: {name} p95 {p95:.1f} ms < {args.target_ms:g} ms")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
