"""Load test: N concurrent clients against a real server, and its RSS after a warm-up.

    python benchmarks/load.py [--clients 32] [--seconds 60] [--procs 2] [--deadline S]
                              [--target HOST:PORT [--server-pid PID]]
                              [--server-flags='--threads 8'] [--server-env KEY=VALUE ...]
                              [--server-cmd 'python launcher.py'] [--server-log FILE]
                              [--warmup 120] [--max-drift PCT] [--seed N] [--json]

Without ``--target`` it starts a real ``numgrid-server`` (the console script beside this
interpreter, or ``--server-cmd``) on a free loopback port and stops it at the end. The
clients are threads spread over ``--procs`` client processes (one interpreter per client
would starve the server on 2 cores), each with its own channel, calling back to back,
every call with a deadline. The mix, on random puzzles of the Kakuro and KenKen corpora:
Validate 25 %, Solve and CheckUniqueness 20 % each (all engines), Hint 20 % (mid-solve
boards), Explain 10 %, and invalid input 5 % (INVALID_ARGUMENT expected).

The same load runs ``--warmup`` seconds (120) before the ``--seconds`` measured, so
that drift is measured on a server whose bounded caches and allocator arenas have met
the corpus. Prints the calls, statuses, p50/p99/max per method and kind, and the
server's RSS sampled every second. Drift is against the *warm* RSS, the median of the
warm-up's last :data:`WARM_SAMPLES` samples (the first sample with ``--warmup 0``):
``end drift`` = last sample / warm - 1, ``max drift`` = highest sample after the
warm-up / warm - 1.

Exits 1 on any error but the expected ones (INVALID_ARGUMENT for invalid input;
RESOURCE_EXHAUSTED, load shed, is counted apart as "shed"), on a wrong answer, or when
the max drift passes ``--max-drift`` (10 %; 0 turns the check off). The latest figures:
docs/performance.md, "Under signals, load and fuzzing".
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import queue
import random
import shlex
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections import defaultdict
from ctypes import c_double
from multiprocessing.synchronize import Event
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
SERVER = Path(sys.executable).parent / "numgrid-server"
METHODS = ("Validate", "Solve", "CheckUniqueness", "Hint", "Explain")
# (what, weight): the share of calls of each sort
MIX: tuple[tuple[str, int], ...]
MIX = (("Validate", 25), ("Solve", 20), ("CheckUniqueness", 20), ("Hint", 20))
MIX += (("Explain", 10), ("invalid", 5))
ENGINE_MIX = (("auto", 70), ("native", 10), ("cpsat", 15), ("cross-check", 5))
EXPECTED = "INVALID_ARGUMENT"  # for invalid input
SHED = "RESOURCE_EXHAUSTED"
WRONG = "WRONG_ANSWER"  # an OK answer that is not the published one, or OK on invalid input
# per-process counters shared with the parent, for the live display
CALLS, ERRORS, SHEDS = 0, 1, 2


# -- puzzles and boards (client processes) ------------------------------------------------


def _rows(text: str) -> tuple[str, list[list[str]]]:
    lines = text.strip().splitlines()
    return lines[0], [line.split() for line in lines[1:]]


class Kakuro:
    kind = "kakuro"

    def __init__(self, pid: str, problem: str, solution: str):
        self.id = pid
        self.header, self.rows = _rows(problem)
        _, digits = _rows(solution)
        self.solution = [[int(t) if t.isdigit() else 0 for t in row] for row in digits]
        self.cells = [
            (r, c) for r, row in enumerate(self.rows) for c, t in enumerate(row) if t == "0"
        ]
        self.empty = self.text({})

    def text(self, digits: dict[tuple[int, int], int]) -> str:
        rows = [list(row) for row in self.rows]
        for (r, c), d in digits.items():
            rows[r][c] = str(d)
        return "\n".join([self.header, *(" ".join(row) for row in rows)]) + "\n"

    def digit_out_of_range(self) -> str:
        r, c = self.cells[0]
        rows = [list(row) for row in self.rows]
        rows[r][c] = "12"
        return "\n".join([self.header, *(" ".join(row) for row in rows)]) + "\n"


class KenKen:
    kind = "kenken"

    def __init__(self, pid: str, problem: str, solution: str):
        self.id = pid
        self.header, rows = _rows(problem)
        self.n = len(rows) // 2
        self.rows = rows[: 2 * self.n]
        _, digits = _rows(solution)
        self.solution = [[int(t) for t in row] for row in digits]
        self.cells = [(r, c) for r in range(self.n) for c in range(self.n)]
        self.empty = self.text({})

    def text(self, digits: dict[tuple[int, int], int]) -> str:
        lines = [self.header, *(" ".join(row) for row in self.rows)]
        if digits:
            entries = [["."] * self.n for _ in range(self.n)]
            for (r, c), d in digits.items():
                entries[r][c] = str(d)
            lines.extend(" ".join(row) for row in entries)
        return "\n".join(lines) + "\n"

    def digit_out_of_range(self) -> str:
        return self.text({(0, 0): self.n + 1})


def load_corpus() -> list[Kakuro | KenKen]:
    puzzles: list[Kakuro | KenKen] = []
    for name, cls in (("kakuro.json", Kakuro), ("kenken.json", KenKen)):
        data = json.loads((CORPUS / name).read_text())["data"]
        puzzles.extend(cls(k, v["problem"], v["solution"]) for k, v in sorted(data.items()))
    return puzzles


def board(puzzle, rng: random.Random, low: float, high: float) -> tuple[str, bool]:
    """The puzzle with a random ``low``-``high`` share of its solution entered and, one
    time in five, one entered digit wrong; and whether one is wrong."""
    kept = rng.sample(puzzle.cells, round(len(puzzle.cells) * rng.uniform(low, high)))
    digits = {(r, c): puzzle.solution[r][c] for r, c in kept}
    wrong = bool(kept) and rng.random() < 0.2
    if wrong:
        r, c = rng.choice(kept)
        top = 9 if puzzle.kind == "kakuro" else puzzle.n
        digits[r, c] = rng.choice([d for d in range(1, top + 1) if d != digits[r, c]])
    return puzzle.text(digits), wrong


def _pick(rng: random.Random, weighted) -> str:
    names, weights = zip(*weighted, strict=True)
    return rng.choices(names, weights)[0]


# -- one client process ------------------------------------------------------------------


def client_process(
    index: int,
    clients: int,
    target: str,
    deadline: float,
    seed: int,
    ready: mp.Queue,
    go: Event,
    end_at: c_double,  # a Value made with lock=False: the bare ctypes value
    counters,
    results: mp.Queue,
) -> None:
    """``clients`` client threads, each with its own channel, calling until ``end_at``;
    puts its tallies on ``results`` when they are done."""
    import grpc
    from google.protobuf.message import Message
    from numgrid.v1 import numgrid_service_pb2 as service_pb2
    from numgrid.v1 import numgrid_service_pb2_grpc
    from numgrid.v1 import puzzle_pb2 as pb

    puzzles = load_corpus()
    by_kind = {k: [p for p in puzzles if p.kind == k] for k in ("kakuro", "kenken")}
    broken = (Path(__file__).resolve().parents[1] / "puzzles" / "broken-clues.txt").read_text()
    engines = {
        "auto": pb.ENGINE_AUTO,
        "native": pb.ENGINE_NATIVE,
        "cpsat": pb.ENGINE_CPSAT,
        "cross-check": pb.ENGINE_CROSS_CHECK,
    }
    kinds = {"kakuro": pb.PUZZLE_KIND_KAKURO, "kenken": pb.PUZZLE_KIND_KENKEN}
    requests = {
        "Validate": service_pb2.ValidateRequest,
        "Solve": service_pb2.SolveRequest,
        "CheckUniqueness": service_pb2.CheckUniquenessRequest,
        "Hint": service_pb2.HintRequest,
        "Explain": service_pb2.ExplainRequest,
    }
    lock = threading.Lock()
    latencies: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)  # of unexpected statuses

    def source(text: str, kind: str) -> pb.PuzzleInput:
        return pb.PuzzleInput(
            text=pb.PuzzleText(content=text, format=pb.PUZZLE_FORMAT_JANKO, kind=kinds[kind])
        )

    def grid_of(grid: pb.Grid) -> list[list[int]]:
        return [list(row.values) for row in grid.rows]

    def valid_call(stub, rng: random.Random, method: str, puzzle):
        """(the call, a check of its answer: None when right, else what is wrong)."""
        kind = puzzle.kind
        options = service_pb2.SearchOptions(engine=engines[_pick(rng, ENGINE_MIX)])
        request: Message
        if method == "Validate":
            text, _ = board(puzzle, rng, 0.0, 1.0)
            compare = rng.random() < 0.5
            request = service_pb2.ValidateRequest(
                puzzle=source(text, kind), compare_with_solution=compare, options=options
            )
        elif method in ("Solve", "CheckUniqueness"):
            request = requests[method](puzzle=source(puzzle.empty, kind), options=options)
        elif method == "Hint":
            text, _ = board(puzzle, rng, 0.1, 0.9)
            request = service_pb2.HintRequest(
                puzzle=source(text, kind), options=options, placements_only=rng.random() < 1 / 3
            )
        else:
            request = service_pb2.ExplainRequest(puzzle=source(puzzle.empty, kind))
        call = getattr(stub, method)

        def check(answer) -> str | None:
            if method == "Solve":
                if answer.verdict != pb.VERDICT_UNIQUE:
                    return f"verdict {answer.verdict}"
                if grid_of(answer.solution) != puzzle.solution:
                    return "not the published solution"
            if method == "CheckUniqueness" and answer.verdict != pb.VERDICT_UNIQUE:
                return f"verdict {answer.verdict}"
            return None

        return (lambda: call(request, timeout=deadline)), check

    def invalid_call(channel, stub, rng: random.Random, method: str):
        puzzle = rng.choice(puzzles)
        which = rng.randrange(4)
        if which == 3:  # bytes that are no request message
            raw = channel.unary_unary(
                f"/numgrid.v1.NumgridService/{method}",
                request_serializer=None,
                response_deserializer=None,
            )
            junk = b"\xff\xff\xff\x0f" + rng.randbytes(16)
            return lambda: raw(junk, timeout=deadline)
        text, kind = (
            (broken, "kakuro"),
            ("this is not a puzzle\n", rng.choice(("kakuro", "kenken"))),
            (puzzle.digit_out_of_range(), puzzle.kind),
        )[which]
        request = requests[method](puzzle=source(text, kind))
        call = getattr(stub, method)
        return lambda: call(request, timeout=deadline)

    def client(number: int) -> None:
        rng = random.Random(seed * 1_000_003 + index * 1009 + number)
        options = [
            ("grpc.max_receive_message_length", 64 * 1024 * 1024),
            ("grpc.max_metadata_size", 4 * 1024 * 1024),
        ]
        with grpc.insecure_channel(target, options=options) as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            ready.put(index)
            go.wait()
            my_lat: dict[str, list[float]] = defaultdict(list)
            my_status: dict[str, Counter] = defaultdict(Counter)
            while time.time() < end_at.value:
                what = _pick(rng, MIX)
                check = None
                if what == "invalid":
                    method = rng.choice(METHODS)
                    label = "invalid input"
                    call = invalid_call(channel, stub, rng, method)
                else:
                    method = what
                    puzzle = rng.choice(by_kind[rng.choice(("kakuro", "kenken"))])
                    label = f"{method} {puzzle.kind}"
                    call, check = valid_call(stub, rng, method, puzzle)
                start = time.perf_counter()
                detail, pause = "", 0.0
                try:
                    answer = call()
                    status = "OK"
                except grpc.RpcError as e:
                    status, detail = e.code().name, e.details() or ""
                    if status == SHED:  # back off as the server asks (at most 1 s)
                        trailers = {m.key: m.value for m in e.trailing_metadata() or ()}
                        pause = min(1.0, int(trailers.get("grpc-retry-pushback-ms", 100)) / 1000)
                elapsed = (time.perf_counter() - start) * 1000
                if status == "OK":  # invalid input answered OK, or a wrong answer
                    detail = "invalid input answered OK" if check is None else check(answer)
                    if detail is not None:
                        status = WRONG
                if status != SHED:  # a refusal's latency is not the method's
                    my_lat[label].append(elapsed)
                my_status[label][status] += 1
                expected = status == "OK" or (label == "invalid input" and status == EXPECTED)
                with lock:
                    counters[3 * index + CALLS] += 1
                    if status == SHED:
                        counters[3 * index + SHEDS] += 1
                    elif not expected:
                        counters[3 * index + ERRORS] += 1
                        if len(examples[status]) < 3:
                            examples[status].append(f"{label}: {detail[:300]}")
                if pause:
                    time.sleep(pause)
        with lock:
            for k, times in my_lat.items():
                latencies[k].extend(times)
            for k, counts in my_status.items():
                statuses[k].update(counts)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put((index, dict(latencies), {k: dict(v) for k, v in statuses.items()}, dict(examples)))


# -- the server and its RSS --------------------------------------------------------------


def start_server(
    command: list[str], flags: list[str], env: dict[str, str], log: str | None
) -> tuple[subprocess.Popen, str]:
    """As ``servers.start_server``, with another command and environment allowed."""
    stderr = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 (the server's life)
    process = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env={**os.environ, **env},
    )
    assert process.stdout is not None  # stdout=PIPE
    line = process.stdout.readline()
    if "listening on" not in line:
        process.kill()
        sys.exit(f"numgrid-server did not start: {line!r}")
    return process, line.split()[-1]


def proc_status(pid: int) -> dict[str, float] | None:
    """VmRSS, RssAnon (MiB) and thread count of a process; None once it is gone."""
    out = {}
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon"):
            out[key] = int(value.split()[0]) / 1024
        elif key == "Threads":
            out[key] = int(value)
    return out


# -- the report ---------------------------------------------------------------------------


def quantiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        v = values[0] if values else 0.0
        return {"p50_ms": v, "p99_ms": v, "max_ms": v}
    q = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50_ms": q[49], "p99_ms": q[98], "max_ms": max(values)}


WARM_SAMPLES = 10  # the warm RSS: the median of the warm-up's last ten samples


def rss_summary(samples: list[dict], start: dict | None, warmup_s: float) -> dict:
    """``samples``: {"t", "rss_mb", "anon_mb", "threads"} from t = 0 (load starts).

    The warm RSS is the median of the warm-up's last :data:`WARM_SAMPLES` samples (the
    first sample with no warm-up), not one sample, which may fall on a transient rise
    or dip; the end and the maximum are single samples, spikes included."""
    after = [s for s in samples if s["t"] >= warmup_s]
    if not after:  # the server went away, or no sample was taken after the warm-up
        return {}
    before = [s for s in samples if s["t"] < warmup_s][-WARM_SAMPLES:] or after[:1]
    warm_mb = statistics.median(s["rss_mb"] for s in before)
    end = samples[-1]
    top = max(after, key=lambda s: s["rss_mb"])
    out = {
        "start_mb": start["VmRSS"] if start else None,
        "warm_mb": warm_mb,
        "warm_t": after[0]["t"],
        "warm_samples": len(before),
        "warm_from_t": before[0]["t"],
        "warm_to_t": before[-1]["t"],
        "end_mb": end["rss_mb"],
        "max_mb": top["rss_mb"],
        "max_t": top["t"],
        "drift_end_pct": 100 * (end["rss_mb"] / warm_mb - 1),
        "drift_max_pct": 100 * (top["rss_mb"] / warm_mb - 1),
        "anon_warm_mb": statistics.median(s["anon_mb"] for s in before),
        "anon_end_mb": end["anon_mb"],
        "threads_end": end["threads"],
    }
    return out


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    c = report["config"]
    console.print(
        f"{c['clients']} clients ({c['procs']} processes) x {c['seconds']:g} s (after "
        f"{c['warmup_s']:g} s of warm-up) against "
        f"{c['target']}{' (started here)' if c['started'] else ''}, deadline {c['deadline']} s"
        + (f", server flags {c['server_flags']!r}" if c["server_flags"] else "")
        + (f", env {c['server_env']}" if c["server_env"] else "")
    )
    console.print(
        f"calls {report['calls']} in {report['elapsed_s']:.1f} s = "
        f"{report['calls_per_s']:.1f}/s; statuses: "
        + ", ".join(f"{k} {v}" for k, v in sorted(report["statuses"].items()))
    )
    console.print(
        f"expected INVALID_ARGUMENT {report['expected']}, shed {report['shed']}, "
        f"errors {sum(report['errors'].values())}"
        + (f" ({report['errors']})" if report["errors"] else "")
    )
    table = Table(title="Latency per method and kind (calls answered, shed ones aside)")
    for name in ("call", "calls", "OK", "expected", "shed", "errors", "p50 ms", "p99 ms", "max ms"):
        table.add_column(name, justify="left" if name == "call" else "right")
    for label, row in report["methods"].items():
        st = row["statuses"]
        expected = st.get(EXPECTED, 0) if label == "invalid input" else 0
        table.add_row(
            label,
            str(row["calls"]),
            str(st.get("OK", 0)),
            str(expected),
            str(st.get(SHED, 0)),
            str(row["calls"] - st.get("OK", 0) - expected - st.get(SHED, 0)),
            f"{row['p50_ms']:.1f}",
            f"{row['p99_ms']:.1f}",
            f"{row['max_ms']:.1f}",
        )
    console.print(table)
    rss = report["rss"]
    if rss:
        samples = report["rss_samples"]
        console.print("Server VmRSS, MiB, one sample a second from the start of the load:")
        for i in range(0, len(samples), 10):
            chunk = samples[i : i + 10]
            console.print(
                f"  t={chunk[0]['t']:5.1f}s " + " ".join(f"{s['rss_mb']:6.1f}" for s in chunk)
            )
        start = f"{rss['start_mb']:.1f}" if rss["start_mb"] is not None else "-"
        console.print(
            f"RSS start (idle, before load) {start} MiB, warm (median of "
            f"{rss['warm_samples']} samples, t={rss['warm_from_t']:.0f}-"
            f"{rss['warm_to_t']:.0f} s; the window starts at t={rss['warm_t']:.0f} s) "
            f"{rss['warm_mb']:.1f}, end {rss['end_mb']:.1f}, max {rss['max_mb']:.1f} "
            f"(t={rss['max_t']:.0f} s); drift end {rss['drift_end_pct']:+.1f} %, "
            f"max {rss['drift_max_pct']:+.1f} % (vs warm); RssAnon warm "
            f"{rss['anon_warm_mb']:.1f} -> end {rss['anon_end_mb']:.1f}; "
            f"threads {rss['threads_end']}"
        )
    for line in report["checks"]:
        console.print(line)


# -- main ---------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured, after --warmup (60)")
    parser.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--deadline", type=float, default=30.0, help="per call, seconds")
    parser.add_argument("--target", help="HOST:PORT of a running server (none is started)")
    parser.add_argument("--server-pid", type=int, help="with --target: whose RSS to sample")
    parser.add_argument(
        "--server-flags", default="", help="flags for the server started, e.g. '--threads 4'"
    )
    parser.add_argument(
        "--server-env", action="append", default=[], metavar="KEY=VALUE", help="repeatable"
    )
    parser.add_argument("--server-cmd", help="command instead of numgrid-server (shell words)")
    parser.add_argument("--server-log", help="write the server's stderr here")
    parser.add_argument(
        "--warmup",
        type=float,
        default=120.0,
        help="seconds of load before the measured ones (120; 0: drift from the idle server)",
    )
    parser.add_argument("--max-drift", type=float, default=10.0, help="%% (0: no check)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds must be more than 0 and --warmup 0 or more")
    procs = max(1, min(args.procs, args.clients))
    env = dict(item.split("=", 1) for item in args.server_env)

    process = None
    pid = args.server_pid
    if args.target:
        target = args.target
    else:
        command = shlex.split(args.server_cmd) if args.server_cmd else [str(SERVER)]
        process, target = start_server(
            command, shlex.split(args.server_flags), env, args.server_log
        )
        pid = process.pid
    try:
        report = run(args, procs, target, pid)
    finally:
        if process is not None:
            process.terminate()
            process.wait(60)
    report["config"].update(
        started=process is not None, server_flags=args.server_flags, server_env=env
    )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0 if report["pass"] else 1


def run(args, procs: int, target: str, pid: int | None) -> dict:
    from rich.progress import BarColumn
    from rich.progress import Progress
    from rich.progress import TextColumn
    from rich.progress import TimeElapsedColumn

    ctx = mp.get_context("spawn")  # no fork of a process that has loaded gRPC
    ready, results = ctx.Queue(), ctx.Queue()
    go = ctx.Event()
    end_at = ctx.Value("d", float("inf"), lock=False)
    counters = ctx.Array("q", 3 * procs, lock=False)
    shares = [args.clients // procs + (i < args.clients % procs) for i in range(procs)]
    workers = [
        ctx.Process(
            target=client_process,
            args=(i, n, target, args.deadline, args.seed, ready, go, end_at, counters, results),
            daemon=True,
        )
        for i, n in enumerate(shares)
    ]
    for w in workers:
        w.start()
    for _ in range(args.clients):  # every client connected
        try:
            ready.get(timeout=120)
        except queue.Empty:
            sys.exit("the clients did not connect within 120 s")
    time.sleep(1.0)  # let the server settle after the connections
    start_status = proc_status(pid) if pid else None
    t0 = time.time()
    total_s = args.warmup + args.seconds
    end_at.value = t0 + total_s
    go.set()

    samples: list[dict] = []
    progress = Progress(
        TextColumn("load"),
        BarColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[stats]}"),
        transient=True,
        disable=not sys.stderr.isatty(),
    )
    task = progress.add_task("load", total=total_s, stats="")
    last_calls, next_sample = 0, t0
    with progress:
        while True:
            now = time.time()
            if now >= next_sample:
                next_sample += 1.0
                t = now - t0
                status = proc_status(pid) if pid else None
                if status:
                    samples.append(
                        {
                            "t": round(t, 2),
                            "rss_mb": status["VmRSS"],
                            "anon_mb": status["RssAnon"],
                            "threads": status["Threads"],
                        }
                    )
                calls = sum(counters[3 * i + CALLS] for i in range(procs))
                errors = sum(counters[3 * i + ERRORS] for i in range(procs))
                shed = sum(counters[3 * i + SHEDS] for i in range(procs))
                rss_now = f"RSS {status['VmRSS']:.1f} MiB " if status else ""
                progress.update(
                    task,
                    completed=min(t, total_s),
                    stats=f"calls {calls} ({calls - last_calls}/s) errors {errors} "
                    f"shed {shed} {rss_now}",
                )
                last_calls = calls
            if now >= end_at.value:
                break
            time.sleep(max(0.0, min(next_sample, end_at.value) - time.time()))
    latencies: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    for _ in workers:
        try:
            _, lat, stat, found = results.get(timeout=args.deadline + 60)
        except queue.Empty:
            sys.exit("a client process did not report")
        for k, v in found.items():
            examples[k].extend(v)
        for k, v in lat.items():
            latencies[k].extend(v)
        for k, v in stat.items():
            statuses[k].update(v)
    elapsed = time.time() - t0
    for w in workers:
        w.join(10)

    total: Counter[str] = Counter()
    for v in statuses.values():
        total.update(v)
    invalid = statuses.get("invalid input", Counter())
    expected = invalid.get(EXPECTED, 0)
    shed = total.get(SHED, 0)
    errors = Counter(
        {
            k: v - (expected if k == EXPECTED else 0)
            for k, v in total.items()
            if k not in ("OK", SHED) and v - (expected if k == EXPECTED else 0)
        }
    )
    calls = sum(total.values())
    order = [f"{m} {k}" for m in METHODS for k in ("kakuro", "kenken")] + ["invalid input"]
    methods = {
        label: {
            "calls": sum(statuses[label].values()),
            **quantiles(latencies[label]),
            "statuses": dict(statuses[label]),
        }
        for label in order
        if statuses.get(label)
    }
    rss = rss_summary(samples, start_status, args.warmup)
    checks = []
    ok = True
    if errors:
        ok = False
        checks.append(f"FAIL errors: {dict(errors)}")
        checks.extend(f"  {k}: {e}" for k, v in examples.items() for e in v)
    else:
        checks.append("PASS no errors (expected INVALID_ARGUMENT and shed calls aside)")
    if args.max_drift and rss:
        good = rss["drift_max_pct"] < args.max_drift
        ok &= good
        checks.append(
            f"{'PASS' if good else 'FAIL'} RSS max drift after warm-up "
            f"{rss['drift_max_pct']:+.1f} % < {args.max_drift:g} %"
        )
    elif args.max_drift and pid:
        ok = False
        checks.append("FAIL no RSS sample after the warm-up (did the server exit?)")
    return {
        "config": {
            "clients": args.clients,
            "procs": procs,
            "seconds": args.seconds,
            "deadline": args.deadline,
            "target": target,
            "server_pid": pid,
            "warmup_s": args.warmup,
            "seed": args.seed,
        },
        "calls": calls,
        "elapsed_s": elapsed,
        "calls_per_s": calls / elapsed,
        "statuses": dict(total),
        "expected": expected,
        "shed": shed,
        "errors": dict(errors),
        "error_examples": dict(examples),
        "methods": methods,
        "rss": rss,
        "rss_samples": samples,
        "checks": checks,
        "pass": ok,
    }


if __name__ == "__main__":
    sys.exit(main())
