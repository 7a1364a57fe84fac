"""Latency of one hint from mid-solve positions of 9x9 corpus puzzles, in process or
over a real server.

    python benchmarks/units_hint_latency.py [--positions N] [--seed S] [--file F ...]
                                            [--server] [--target-ms MS] [--json]

For ``--positions`` boards (default 300), picks a puzzle of the one-a-line files (by
default ``sudoku-17clue-sample.txt`` and ``sudoku-top1465.txt`` of the shared corpus),
explains it once, and takes the candidates the chain has reached after a random 5 % to
95 % of its steps: the position a player who followed the hints would have (one that
its one-candidate cells would complete is drawn again). Then times,
from those candidates (the position rebuilt each call, as a Hint request does), the next
step and the next step with ``placements_only`` (the next digit placed). Prints p50,
p95, p99 and the slowest per call with the technique it needed, and PASS or FAIL against
``--target-ms`` (20 ms) for the p95 of either call. Exits 1 on FAIL. ``--clock cpu``
times this process's CPU instead of the wall clock: on a machine shared with other
work, the wall clock also counts the time others hold the cores.

``--server`` starts a real ``numgrid-server`` on a free loopback port instead and times
Hint calls (wall clock, one after the other on one channel): each board is the puzzle
with the digits its chain had placed by then entered (JSON text, as a client sends it),
so the server derives the candidates itself, as it does for any Hint request.

``--kind KIND`` (with ``--server``) takes the boards from that kind's corpus instead (e.g.
``killer``: the 9x9 puzzles of ``killer-sudoku.json``), each explained once in this
process by the kind's own chain.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from typing import cast

from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.shape import shape

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "units"))
import units_support  # tests/units/units_support.py: shared with the tests

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FILES = ("sudoku-17clue-sample.txt", "sudoku-top1465.txt")
TARGET_MS = 20.0


Position = tuple[Any, dict, dict, str]  # (puzzle, candidates, digits placed, its line)


def positions(files: list[Path], count: int, rng: random.Random) -> list[Position]:
    """Boards mid-solve: the chain's candidates and the digits it had placed."""
    grid = shape(9, (3, 3))
    lines = [line for path in files for line in units_support.lines(path)]
    out: list[Position] = []
    while len(out) < count:
        line = rng.choice(lines)
        puzzle = units_support.puzzle(line, grid)
        steps = ladder.explain(puzzle).steps
        pos = ladder.position(puzzle, unique=True)
        placed: dict[tuple[int, int], int] = {}
        for step in steps[: int(len(steps) * rng.uniform(0.05, 0.95))]:
            pos.apply(step)
            placed.update(step.placements)
        candidates = pos.candidates()
        if not ladder.position(puzzle, candidates).solved:  # its last singles placed
            out.append((puzzle, candidates, placed, line))
    return out


def _entered(kind: Any, puzzle: Any, placed: dict) -> str:
    """The puzzle with the digits ``placed`` entered, as JSON text."""
    from numgrid.server.core import Board

    n = puzzle.rows
    entries = tuple(tuple(placed.get((r, c), 0) for c in range(n)) for r in range(n))
    return kind.formats.write(Board(puzzle, entries), "json")


def line_boards(boards: list[Position]) -> list[str]:
    """The boards of the one-a-line files as JSON texts with their digits entered."""
    from numgrid.server.kinds import KINDS

    sudoku = KINDS["sudoku"]
    return [
        _entered(sudoku, sudoku.formats.read(line, "line").puzzle, placed)
        for _, _, placed, line in boards
    ]


def corpus_boards(kind_name: str, count: int, rng: random.Random) -> list[str]:
    """Boards mid-solve of ``kind_name``'s 9x9 corpus puzzles, as JSON texts: the digits
    its chain had placed after a random 5 % to 95 % of its steps."""
    from numgrid.server import operations
    from numgrid.server.core import Board
    from numgrid.server.core import Budget
    from numgrid.server.kinds import KINDS

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.corpus import corpus_ids
    from support.corpus import corpus_puzzle

    kind = KINDS[kind_name]
    read = (corpus_puzzle(kind_name, key)[0] for key in corpus_ids(kind_name))
    nines = [puzzle for puzzle in read if puzzle.rows == 9]
    out: list[str] = []
    while len(out) < count:
        puzzle = rng.choice(nines)
        steps = operations.explain(kind, Board.empty(puzzle), budget=Budget()).steps
        placed: dict = {}
        for step in steps[: int(len(steps) * rng.uniform(0.05, 0.95))]:
            placed.update(step.placements)
        if len(placed) < 81:
            out.append(_entered(kind, puzzle, placed))
    return out


def served(texts: list[str], kind_name: str) -> dict[str, Any]:
    """Hint and Hint with placements_only over a real server, per board."""
    import grpc
    from numgrid.v1 import numgrid_service_pb2 as service_pb2
    from numgrid.v1 import numgrid_service_pb2_grpc
    from numgrid.v1 import puzzle_pb2 as pb
    from servers import start_server

    # Value() is a plain int to the stubs (as in numgrid.client.client.KINDS)
    kind_value = cast(pb.PuzzleKind, pb.PuzzleKind.Value(f"PUZZLE_KIND_{kind_name.upper()}"))
    process, target = start_server()
    try:
        with grpc.insecure_channel(target) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)

            def hint(text: str, only: bool) -> str:
                source = pb.PuzzleInput(text=pb.PuzzleText(content=text, kind=kind_value))
                request = service_pb2.HintRequest(puzzle=source, placements_only=only)
                reply = stub.Hint(request, timeout=10)
                return (
                    service_pb2.Technique.Name(reply.step.technique)
                    if reply.HasField("step")
                    else "none"
                )

            for text in texts[:20]:  # warm-up: the server's first calls load its engines
                hint(text, False)
            return timed(texts, hint, time.perf_counter)
    finally:
        process.terminate()
        process.wait(10)


def timed(items: list[Any], call: Any, clock: Any) -> dict[str, Any]:
    """Per call (``call(item, placements_only)`` -> the technique's name): percentiles,
    the slowest and the techniques used."""
    results: dict[str, Any] = {}
    for name, only in (("next step", False), ("placements only", True)):
        times: list[float] = []
        used: Counter[str] = Counter()
        slowest = (0.0, "")
        for item in items:
            start = clock()
            technique = call(item, only)
            ms = (clock() - start) * 1000
            times.append(ms)
            used[technique] += 1
            if ms > slowest[0]:
                slowest = (ms, technique)
        results[name] = {
            "p50": statistics.median(times),
            "p95": percentile(times, 0.95),
            "p99": percentile(times, 0.99),
            "max": slowest[0],
            "slowest technique": slowest[1],
            "techniques": dict(used.most_common()),
        }
    return results


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(boards: list[Position], clock: Any) -> dict[str, Any]:
    def call(board: Position, only: bool) -> str:
        step = ladder.next_step(board[0], board[1], placements_only=only)
        return step.technique.name if step is not None else "none"

    return timed(boards, call, clock)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", action="append", help="a one-a-line file (repeatable)")
    parser.add_argument("--target-ms", type=float, default=TARGET_MS)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall time, or this process's CPU time (fairer on a machine shared with others)",
    )
    parser.add_argument("--server", action="store_true", help="Hint calls to a real server")
    parser.add_argument("--kind", help="with --server: boards of this kind's corpus")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.kind and not args.server:
        parser.error("--kind goes with --server")
    rng = random.Random(args.seed)
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    if args.kind:
        results = served(corpus_boards(args.kind, args.positions, rng), args.kind)
    else:
        files = [Path(f) for f in args.file] if args.file else [CORPUS / f for f in FILES]
        boards = positions(files, args.positions, rng)
        results = served(line_boards(boards), "sudoku") if args.server else measure(boards, clock)
    ok = all(r["p95"] < args.target_ms for r in results.values())
    if args.json:
        print(json.dumps({"results": results, "pass": ok}, indent=1))
    else:
        for name, r in results.items():
            print(
                f"{name:16} p50 {r['p50']:6.2f} ms  p95 {r['p95']:6.2f} ms  "
                f"p99 {r['p99']:6.2f} ms  max {r['max']:7.1f} ms ({r['slowest technique']})"
            )
            print(f"{'':16} {r['techniques']}")
        how = "Hint over a real server, wall" if args.server else args.clock
        print(f"{'PASS' if ok else 'FAIL'}: p95 under {args.target_ms:g} ms ({how} time)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
