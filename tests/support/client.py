"""What the client and CLI tests share: sample files, puzzles built for a purpose, and a
fake server whose answers (failures, delays) the test chooses."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
from grpc_health.v1 import health
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc as service_grpc
from numgrid.v1 import puzzle_pb2

from support import PUZZLES
from support import REPO
from support.corpus import corpus

NUMGRID = Path(sys.executable).with_name("numgrid")  # the console script, as installed
WIDTH = 80  # the terminal width the CLI is run at
# What every JSON line of the CLI's solve and unique holds
LINE_KEYS = {
    "source",
    "command",
    "status",
    "verdict",
    "solutions",
    "differing_cells",
    "errors",
    "warnings",
    "stats",
}


def numgrid(*args: str, stdin: str | None = None, env: dict | None = None, timeout: float = 60):
    """Run the console script in the repository, 80 columns wide, without NUMGRID_SERVER."""
    environ = {k: v for k, v in os.environ.items() if k != "NUMGRID_SERVER"}
    environ.update({"COLUMNS": str(WIDTH), **(env or {})})
    done = subprocess.run(
        [str(NUMGRID), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environ,
        cwd=REPO,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert "internal error" not in done.stderr, done.stderr
    return done


def sample(name: str) -> str:
    return (PUZZLES / name).read_text()


def parse_solution(text: str) -> tuple[tuple[int, ...], ...]:
    """A janko solution text as a grid, 0 for black cells."""
    return tuple(
        tuple(0 if t == "-" else int(t) for t in line.split())
        for line in text.strip().splitlines()[1:]
    )


def published_solution(name: str) -> tuple[tuple[int, ...], ...]:
    return parse_solution(sample(name))


def filled(problem: str, solution: str, keep=lambda r, c: True) -> str:
    """The janko ``problem`` with the digits of ``solution`` entered where ``keep(r, c)``."""
    lines = problem.strip().splitlines()
    grid = parse_solution(solution)
    out = [lines[0]]
    for r, line in enumerate(lines[1:]):
        tokens = line.split()
        out.append(
            " ".join(
                str(grid[r][c]) if t == "0" and keep(r, c) else t for c, t in enumerate(tokens)
            )
        )
    return "\n".join(out) + "\n"


def corpus_entry(key: str) -> tuple[str, str]:
    entry = corpus("kakuro")[key]
    return entry["problem"], entry["solution"]


def open_block(row_sums: list[int], col_sums: list[int]) -> str:
    lines = [f"{len(row_sums) + 1} {len(col_sums) + 1}"]
    lines.append("- " + " ".join(f"{s}," for s in col_sums))
    lines += [f",{s} " + " ".join("0" * len(col_sums)) for s in row_sums]
    return "\n".join(lines) + "\n"


# An 8x8 block with no solution that the native engine cannot settle within seconds
# (CP-SAT proves it in well under a second): a search that is sure to run out of time.
HARD = open_block([36, 43, 39, 42, 42, 38, 41, 44], [41, 37, 43, 44, 37, 38, 44, 41])


def too_big(rows: int = 200, cols: int = 200) -> str:
    """A well-formed janko text over the server's default limit of 20,000 cells."""
    lines = [f"{rows} {cols}", " ".join(["-"] * cols)]
    lines += [",3 " + " ".join(["0"] * (cols - 1))] * (rows - 1)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- a fake server


def _tiny_puzzle() -> puzzle_pb2.Puzzle:
    black = puzzle_pb2.KakuroCell(black=True)
    return puzzle_pb2.Puzzle(
        kakuro=puzzle_pb2.KakuroPuzzle(
            rows=[
                puzzle_pb2.KakuroRow(cells=[black, puzzle_pb2.KakuroCell(black=True, down=1)]),
                puzzle_pb2.KakuroRow(
                    cells=[puzzle_pb2.KakuroCell(black=True, across=1), puzzle_pb2.KakuroCell()]
                ),
            ]
        )
    )


class FakeService(service_grpc.NumgridServiceServicer):
    """Fails the first ``failures`` calls with ``code``, sleeps ``delay`` s, then answers."""

    def __init__(self, code: grpc.StatusCode | None = None, failures: int = 0, delay: float = 0):
        self.code, self.failures, self.delay = code, failures, delay
        self.calls = 0
        self._lock = threading.Lock()

    def _serve(self, context, response):
        with self._lock:
            self.calls += 1
            calls = self.calls
        if self.code is not None and calls <= self.failures:
            context.abort(self.code, f"fake failure {calls}")
        end = time.monotonic() + self.delay
        while time.monotonic() < end and context.is_active():
            time.sleep(0.01)
        return response

    def Solve(self, request, context):
        solution = puzzle_pb2.Grid(
            rows=[puzzle_pb2.GridRow(values=[0, 0]), puzzle_pb2.GridRow(values=[0, 1])]
        )
        response = service_pb2.SolveResponse(
            verdict=puzzle_pb2.VERDICT_UNIQUE, solution=solution, puzzle=_tiny_puzzle()
        )
        return self._serve(context, response)

    def CheckUniqueness(self, request, context):
        response = service_pb2.CheckUniquenessResponse(
            verdict=puzzle_pb2.VERDICT_UNIQUE, puzzle=_tiny_puzzle()
        )
        return self._serve(context, response)

    def Validate(self, request, context):
        return self._serve(context, service_pb2.ValidateResponse(puzzle=_tiny_puzzle()))

    def Hint(self, request, context):
        response = service_pb2.HintResponse(
            kind=service_pb2.HINT_KIND_SOLVED, explanation="solved", puzzle=_tiny_puzzle()
        )
        return self._serve(context, response)


class FakeServer:
    """A real gRPC server on loopback with a :class:`FakeService`; a context manager."""

    def __init__(self, service: FakeService, health_status: str = "SERVING"):
        self.service = service
        self.server = grpc.server(ThreadPoolExecutor(max_workers=4))
        service_grpc.add_NumgridServiceServicer_to_server(service, self.server)
        self.health = health.HealthServicer()
        self.health.set("", health_pb2.HealthCheckResponse.ServingStatus.Value(health_status))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> FakeServer:
        self.server.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.stop(0).wait()
