"""Graceful shutdown under load (issue 12, finding 4), against a real server.

    python benchmarks/shutdown.py [--calls 20] [--puzzle 39_8x8] [--grace 10]
                                  [--late 0.2] [--json]

Starts ``numgrid-server --grace G``, sends ``--calls`` CheckUniqueness calls of a KenKen
corpus puzzle at once (more than its 8 threads: most wait), sends SIGTERM 0.5 s later,
and one more call ``--late`` seconds after the signal. Prints how each call ended, how
many the log names, and how long the server took to exit. Promise: every call sent
before SIGTERM answered OK within the grace and logged; the late one refused.
"""

from __future__ import annotations

import argparse
import json
import signal
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from servers import start_server

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kenken.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--puzzle", default="39_8x8", help="a KenKen corpus id")
    parser.add_argument("--grace", type=float, default=10.0)
    parser.add_argument("--late", type=float, default=0.2, help="seconds after SIGTERM")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    text = json.loads(CORPUS.read_text())["data"][args.puzzle]["problem"]
    request = service_pb2.CheckUniquenessRequest(
        puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=text))
    )
    log_path = Path(tempfile.mkdtemp(prefix="numgrid-shutdown-")) / "server.log"
    with log_path.open("w") as log:
        process, target = start_server("--grace", str(args.grace), stderr=log)
    channel = grpc.insecure_channel(target, options=[("grpc.enable_retries", 0)])
    stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
    grpc.channel_ready_future(channel).result(timeout=30)

    def call(_index: int) -> tuple[str, float]:
        try:
            stub.CheckUniqueness(request, timeout=120)
            code = "OK"
        except grpc.RpcError as e:
            code = e.code().name
        return code, time.monotonic()

    with ThreadPoolExecutor(args.calls + 1) as pool:
        in_flight = [pool.submit(call, i) for i in range(args.calls)]
        time.sleep(0.5)
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        time.sleep(args.late)
        late = pool.submit(call, -1)
        ended = [f.result() for f in in_flight]
        late_code, _ = late.result()
    process.wait(args.grace + 30)
    exited = time.monotonic() - signalled
    channel.close()
    lines = log_path.read_text().splitlines()
    report = {
        "calls": args.calls,
        "in_flight": dict(Counter(code for code, _ in ended)),
        "last_answer_s": round(max(t for _, t in ended) - signalled, 2),
        "late_call": late_code,
        "logged": sum("method=CheckUniqueness size=" in line for line in lines),
        "refused_logged": sum("(shutting down)" in line for line in lines),
        "intake_closed": next(
            (line.split()[-1] for line in lines if "intake closed" in line), None
        ),
        "exit_code": process.returncode,
        "exit_s": round(exited, 2),
        "tracebacks": sum("Traceback" in line for line in lines),
    }
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>15}: {value}")
    good = (
        report["in_flight"] == {"OK": args.calls}
        and late_code != "OK"
        and report["logged"] == args.calls
        and report["exit_code"] == 0
        and not report["tracebacks"]
    )
    return 0 if good else 1


if __name__ == "__main__":
    raise SystemExit(main())
