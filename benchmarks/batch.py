"""Batch uniqueness throughput over the Kakuro corpus, beside puzzlekit, in one run.

    python benchmarks/batch.py [--rounds N] [--inputs corpus,x10] [--modes ...]
                               [--puzzlekit full|distinct|skip] [--json]

Inputs: ``corpus`` is the 749 puzzles of ``../shared/corpus/kakuro.json``; ``x10`` is
the corpus and every puzzle transposed (across and down swapped: a different valid
puzzle), 1,498 distinct puzzles, each sent ten times under its own id (14,980).

Modes, each through :func:`numgrid.client.batch.check_many` (the CLI's path):
``embedded`` (the server in this process), ``one`` (one ``numgrid-server``),
``workers2`` (``--workers 2``), ``two`` (two servers, round_robin), and, not in the
default set, ``reuseport`` (two processes sharing a port with ``SO_REUSEPORT``, four
connections) and ``reuseport1`` (the same over one connection, as the CLI would).
``machine`` is the reference for ``workers2``: two plain processes doing a worker's work
(:func:`numgrid.server.batch.check_bytes`), one with all the puzzles, then two with half
each, at once: what two processes give on this machine with nothing in the way.

puzzlekit (``puzzlekit.solve(problem, "kakuro")``, solve only) runs on the same puzzles
in the same process; for ``x10`` it solves the distinct puzzles and the time is
multiplied by ten (``--puzzlekit full`` runs all).

Each mode's servers are started once and warmed up; the modes then take turns, round
after round, each run waiting (up to ``--quiet-wait`` seconds) for an idle CPU; the best
round counts and the median is shown too. The corpus gets three times ``--rounds``. CPU
is read from ``/proc`` (servers, workers and this client), in ms per puzzle. The latest
figures: docs/performance.md, "Batch throughput"; the analysis: docs/batch.md.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import grpc
from numgrid.client.batch import BatchItem
from numgrid.client.batch import batch_channel_options
from numgrid.client.batch import check_many
from servers import start_server

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "kakuro.json"
MODES = ("embedded", "one", "workers2", "two")
ALL_MODES = (*MODES, "reuseport", "reuseport1")
WARMUP = 300  # puzzles each mode checks before it is timed


# ---------------------------------------------------------------- inputs


def transpose_janko(text: str) -> str:
    """The janko text of the transposed puzzle: rows become columns, ``D,A`` becomes
    ``A,D`` (the clue below a cell becomes the clue to its right)."""
    head, *lines = text.strip().splitlines()
    rows, cols = map(int, head.split())
    grid = [line.split() for line in lines]

    def swap(token: str) -> str:
        if "," not in token:
            return token
        down, across = token.split(",")
        return f"{across},{down}"

    out = [f"{cols} {rows}"]
    out += [" ".join(swap(grid[r][c]) for r in range(rows)) for c in range(cols)]
    return "\n".join(out) + "\n"


def check_transposition(corpus: dict[str, dict]) -> None:
    """The text transposition reads as the library's ``Puzzle.transposed()``."""
    from numgrid.server.kinds import KINDS

    kakuro = KINDS["kakuro"]
    for key, entry in corpus.items():
        original = kakuro.formats.read(entry["problem"], "janko", 20_000).puzzle
        transposed = kakuro.formats.read(transpose_janko(entry["problem"]), "janko", 20_000).puzzle
        if transposed != original.transposed():
            sys.exit(f"transposing {key} as text differs from Puzzle.transposed()")


@dataclass
class Input:
    name: str
    items: list[BatchItem]
    distinct: list[str]  # the distinct puzzle texts (what puzzlekit solves)
    repeat: int  # how many times each distinct puzzle is sent
    rounds: int = 1  # times --rounds: a short run is noisier, and cheap to repeat


def inputs(corpus: dict[str, dict], names: list[str]) -> list[Input]:
    out = []
    if "corpus" in names:
        items = [BatchItem(k, e["problem"], "janko") for k, e in corpus.items()]
        out.append(Input("corpus", items, [e["problem"] for e in corpus.values()], 1, 3))
    if "x10" in names:
        both = {k: e["problem"] for k, e in corpus.items()}
        both.update({f"{k}~T": transpose_janko(e["problem"]) for k, e in corpus.items()})
        items = [
            BatchItem(f"{k}#{n}", text, "janko") for n in range(10) for k, text in both.items()
        ]
        out.append(Input("x10", items, list(both.values()), 10))
    return out


# ---------------------------------------------------------------- CPU


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """A process and its descendants."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return found


# ---------------------------------------------------------------- servers


def start_logged_server(*flags: str, logdir: Path) -> tuple[subprocess.Popen, str]:
    """A server whose log is kept in ``logdir``, for a look after a surprising run."""
    log = (logdir / f"server-{len(list(logdir.iterdir()))}.log").open("w")
    return start_server(*flags, stderr=log)


def serve_reuseport(port: int) -> None:
    """``--serve-reuseport PORT``: one server process on a port shared with SO_REUSEPORT,
    built as ``numgrid-server`` builds its own."""
    from numgrid.server.config import ServerConfig
    from numgrid.server.main import build_server

    config = ServerConfig(host="127.0.0.1", port=port)
    built = build_server(config, log_requests=False, reuseport=True)
    built.server.start()
    print(f"numgrid-server listening on 127.0.0.1:{port}", flush=True)
    built.server.wait_for_termination()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Shared:
    """One iterator shared by several batches (each pulls as it has room)."""

    def __init__(self, items):
        self._items, self._lock = iter(items), threading.Lock()

    def __iter__(self):
        return self

    def __next__(self):
        with self._lock:
            return next(self._items)


@dataclass
class Mode:
    name: str
    run: Callable[[list[BatchItem]], Iterator]  # items -> results
    pids: list[int] = field(default_factory=list)  # the server processes
    stop: Callable[[], None] = lambda: None


def make_mode(name: str, logdir: Path) -> Mode:
    if name == "embedded":
        from numgrid.server.main import start_embedded

        embedded = start_embedded()
        return Mode(name, lambda items: check_many(embedded.target, items), [], embedded.stop)
    if name in ("one", "workers2", "two"):
        flags = ("--workers", "2") if name == "workers2" else ()
        count = 2 if name == "two" else 1
        servers = [start_logged_server(*flags, logdir=logdir) for _ in range(count)]
        target = ",".join(t for _, t in servers)

        def stop() -> None:
            for process, _ in servers:
                process.terminate()
                process.wait(30)

        return Mode(
            name, lambda items: check_many(target, items), [p.pid for p, _ in servers], stop
        )
    if name in ("reuseport", "reuseport1"):
        port = free_port()
        processes = []
        for _ in range(2):
            p = subprocess.Popen(
                [sys.executable, __file__, "--serve-reuseport", str(port)],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            assert p.stdout is not None  # stdout=PIPE
            p.stdout.readline()
            processes.append(p)
        connections = 4 if name == "reuseport" else 0
        channels = [
            grpc.insecure_channel(
                f"127.0.0.1:{port}", options=[*batch_channel_options(), ("numgrid.conn", n)]
            )
            for n in range(connections)
        ]

        def run(items):
            if not channels:
                yield from check_many(f"127.0.0.1:{port}", items)
                return
            shared = _Shared(items)
            with ThreadPoolExecutor(connections) as pool:
                parts = pool.map(
                    lambda ch: list(check_many("127.0.0.1:1", shared, streams=1, channel=ch)),
                    channels,
                )
                for part in parts:
                    yield from part

        def stop() -> None:
            for ch in channels:
                ch.close()
            for p in processes:
                p.terminate()
                p.wait(30)

        return Mode(name, run, [p.pid for p in processes], stop)
    raise ValueError(name)


# ---------------------------------------------------------------- the machine's own scaling


def check_all(payloads: list[bytes]) -> float:
    """What a worker process does with each of ``payloads``; the seconds it took."""
    from numgrid.server.batch import Limits
    from numgrid.server.batch import check_bytes
    from numgrid.server.config import ServerConfig

    config = ServerConfig()
    limits = Limits(config.max_cells, config.time_cap_seconds)
    start = time.perf_counter()
    for payload in payloads:
        check_bytes(payload, limits, None)
    return time.perf_counter() - start


class Machine:
    """Two spawned processes that time the work alone, then both at once."""

    def __init__(self) -> None:
        import multiprocessing

        self.pool = multiprocessing.get_context("spawn").Pool(2)

    @staticmethod
    def payloads(items: list[BatchItem]) -> list[bytes]:
        from numgrid.client.client import NumgridClient
        from numgrid.v1 import numgrid_service_pb2 as service_pb2

        return [
            service_pb2.BatchPuzzle(
                id=item.id, puzzle=NumgridClient.puzzle_input(item.puzzle, format=item.format)
            ).SerializeToString()
            for item in items
        ]

    def one(self, payloads: list[bytes]) -> float:
        return self.pool.apply(check_all, (payloads,))

    def two(self, payloads: list[bytes]) -> float:
        """Both processes at once, half the puzzles each; the time until both are done."""
        start = time.perf_counter()
        self.pool.map(check_all, [payloads[0::2], payloads[1::2]], chunksize=1)
        return time.perf_counter() - start

    def close(self) -> None:
        self.pool.terminate()


# ---------------------------------------------------------------- timing


@dataclass
class Timing:
    seconds: float
    server_cpu: float
    client_cpu: float
    statuses: Counter
    quiet: bool = True  # the machine was idle when the run started


def timed(mode: Mode, items: list[BatchItem], progress=None) -> Timing:
    pids = [q for p in mode.pids for q in family(p)]
    server0 = sum(cpu_seconds(p) for p in pids)
    client0 = cpu_seconds(os.getpid())
    start = time.perf_counter()
    statuses: Counter = Counter()
    for result in mode.run(items):
        statuses[result.status] += 1
        if progress is not None:
            progress()
    seconds = time.perf_counter() - start
    server = sum(cpu_seconds(p) for p in pids) - server0
    client = cpu_seconds(os.getpid()) - client0
    if mode.name == "embedded":  # one process: count it all as the server's
        server, client = client, 0.0
    return Timing(seconds, server, client, statuses)


def time_puzzlekit(texts: list[str], progress=None) -> float:
    import puzzlekit

    start = time.perf_counter()
    for text in texts:
        puzzlekit.solve(text, "kakuro")
        if progress is not None:
            progress()
    return time.perf_counter() - start


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def busy(seconds: float = 1.0) -> float:
    """The share of the machine's CPU in use over ``seconds`` (our servers are idle now)."""

    def read() -> tuple[int, int]:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
        return sum(values), values[3] + values[4]  # all, idle + iowait

    total0, idle0 = read()
    time.sleep(seconds)
    total1, idle1 = read()
    return 1 - (idle1 - idle0) / max(1, total1 - total0)


def wait_quiet(limit: float, threshold: float = 0.15) -> bool:
    """Wait (up to ``limit`` seconds) until other jobs leave the machine alone; whether
    they did."""
    end = time.monotonic() + limit
    while busy() > threshold:
        if time.monotonic() > end:
            return False
    return True


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="timed runs per mode of x10; the corpus, whose runs last a second or two, "
        "gets three times as many",
    )
    p.add_argument("--inputs", default="corpus,x10", help="corpus, x10 or both")
    p.add_argument("--modes", default=",".join(MODES), help=f"any of {', '.join(ALL_MODES)}")
    p.add_argument("--puzzlekit", choices=["distinct", "full", "skip"], default="distinct")
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument(
        "--quiet-wait",
        type=float,
        default=60.0,
        help="seconds to wait before each run for the machine to be idle (other jobs)",
    )
    p.add_argument("--serve-reuseport", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve_reuseport:
        serve_reuseport(args.serve_reuseport)
        return 0
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in ALL_MODES:
            p.error(f"unknown mode {m}")
    corpus = json.loads(CORPUS.read_text())["data"]
    check_transposition(corpus)
    runs = inputs(corpus, args.inputs.split(","))
    from common import progress_bar
    from rich.console import Console

    console = Console(stderr=True)
    bar = progress_bar("{task.description:<24}", console, disable=args.no_progress, transient=True)
    load_start = load()
    logdir = Path(tempfile.mkdtemp(prefix="numgrid-bench-"))
    figures: dict = {"load_start": load_start, "cores": os.cpu_count(), "inputs": {}}
    started = {m: make_mode(m, logdir) for m in modes}
    machine = Machine() if "workers2" in modes else None
    try:
        with bar:
            warm = runs[0].items[:WARMUP]
            for m in modes:
                list(started[m].run(warm))
            if machine is not None:
                machine.two(Machine.payloads(warm))
            for run in runs:
                timings: dict[str, list[Timing]] = {m: [] for m in modes}
                alone: list[float] = []
                together: list[float] = []
                payloads = Machine.payloads(run.items) if machine else []
                for n in range(args.rounds * run.rounds):
                    for m in modes:
                        quiet = wait_quiet(args.quiet_wait)
                        task = bar.add_task(f"{run.name} {m} {n + 1}", total=len(run.items))
                        timing = timed(started[m], run.items, lambda t=task: bar.advance(t))
                        timing.quiet = quiet
                        timings[m].append(timing)
                        bar.remove_task(task)
                    if machine is not None:
                        task = bar.add_task(f"{run.name} machine {n + 1}", total=None)
                        wait_quiet(args.quiet_wait)
                        alone.append(machine.one(payloads))
                        wait_quiet(args.quiet_wait)
                        together.append(machine.two(payloads))
                        bar.remove_task(task)
                pk = None
                if args.puzzlekit != "skip":
                    texts = run.distinct * (run.repeat if args.puzzlekit == "full" else 1)
                    task = bar.add_task(f"{run.name} puzzlekit", total=len(texts))
                    seconds = time_puzzlekit(texts, lambda t=task: bar.advance(t))
                    bar.remove_task(task)
                    scale = run.repeat if args.puzzlekit == "distinct" else 1
                    pk = {"seconds": seconds * scale, "measured": len(texts), "scale": scale}
                figures["inputs"][run.name] = summarise(run, timings, pk)
                if machine is not None:
                    figures["inputs"][run.name]["machine"] = {
                        "one_seconds": round(min(alone), 3),
                        "two_seconds": round(min(together), 3),
                        "ratio": round(min(alone) / min(together), 2),
                        "round_ratios": [
                            round(a / t, 2) for a, t in zip(alone, together, strict=True)
                        ],
                    }
    finally:
        if machine is not None:
            machine.close()
        for mode in started.values():
            mode.stop()
    figures["load_end"] = load()
    figures["verdicts"] = verdicts(figures)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_table(figures)
    return 0 if all(v["pass"] for v in figures["verdicts"]) else 1


def summarise(run: Input, timings: dict[str, list[Timing]], puzzlekit: dict | None) -> dict:
    n = len(run.items)
    out: dict = {"puzzles": n, "distinct": len(run.distinct), "modes": {}}
    for m, ts in timings.items():
        best = min(ts, key=lambda t: t.seconds)
        out["modes"][m] = {
            "seconds": round(best.seconds, 3),
            "median_seconds": round(statistics.median(t.seconds for t in ts), 3),
            "per_second": round(n / best.seconds, 1),
            "server_cpu_ms": round(best.server_cpu * 1000 / n, 3),
            "client_cpu_ms": round(best.client_cpu * 1000 / n, 3),
            "statuses": dict(best.statuses),
            "rounds_started_quiet": f"{sum(t.quiet for t in ts)}/{len(ts)}",
            "all_unique": best.statuses == Counter({"UNIQUE": n}),
        }
    if puzzlekit:
        out["puzzlekit"] = {
            **puzzlekit,
            "seconds": round(puzzlekit["seconds"], 3),
            "per_second": round(n / puzzlekit["seconds"], 1),
        }
    return out


def verdicts(figures: dict) -> list[dict]:
    out = []
    for name, run in figures["inputs"].items():
        modes = run["modes"]
        if "one" in modes and "workers2" in modes:
            ratio = modes["workers2"]["per_second"] / modes["one"]["per_second"]
            out.append(
                {
                    "what": f"{name}: --workers 2 / one process throughput",
                    "value": round(ratio, 2),
                    "target": ">= 1.8",
                    "pass": ratio >= 1.8,
                }
            )
        if name == "corpus" and "puzzlekit" in run:
            grpc_modes = [m for m in ("workers2", "two", "one") if m in modes]
            if grpc_modes:
                m = grpc_modes[0]
                ratio = modes[m]["seconds"] / run["puzzlekit"]["seconds"]
                out.append(
                    {
                        "what": f"corpus through gRPC ({m}) / puzzlekit solve-only time",
                        "value": round(ratio, 3),
                        "target": "< 0.25",
                        "pass": ratio < 0.25,
                    }
                )
        for m, fig in modes.items():
            if not fig["all_unique"]:
                out.append(
                    {"what": f"{name} {m}: every puzzle UNIQUE", "value": fig["statuses"]}
                    | {"target": "all UNIQUE", "pass": False}
                )
    return out


def print_table(figures: dict) -> None:
    print(f"{figures['cores']} cores; load average at start {figures['load_start']}")
    for name, run in figures["inputs"].items():
        print(f"\n{name}: {run['puzzles']:,} puzzles ({run['distinct']:,} distinct)")
        print(
            f"{'mode':<11}{'seconds':>9}{'median':>9}{'puzzles/s':>11}"
            f"{'server CPU':>12}{'client CPU':>12}{'quiet':>7}  (CPU: ms per puzzle)"
        )
        for m, fig in run["modes"].items():
            print(
                f"{m:<11}{fig['seconds']:>9.2f}{fig['median_seconds']:>9.2f}"
                f"{fig['per_second']:>11.0f}{fig['server_cpu_ms']:>12.2f}{fig['client_cpu_ms']:>12.2f}"
                f"{fig['rounds_started_quiet']:>7}"
                + ("" if fig["all_unique"] else f"  NOT ALL UNIQUE: {fig['statuses']}")
            )
        if "machine" in run:
            mc = run["machine"]
            print(
                f"{'machine':<11}a worker's work in plain processes: one alone "
                f"{mc['one_seconds']:.2f} s, two at once {mc['two_seconds']:.2f} s: "
                f"{mc['ratio']:.2f}x (rounds: {', '.join(f'{r:.2f}' for r in mc['round_ratios'])})"
            )
        if "puzzlekit" in run:
            pk = run["puzzlekit"]
            how = (
                f" ({pk['measured']:,} distinct solved, time x{pk['scale']})"
                if pk["scale"] > 1
                else ""
            )
            print(f"{'puzzlekit':<11}{pk['seconds']:>9.2f}{'':>9}{pk['per_second']:>11.0f}{how}")
    print()
    for v in figures["verdicts"]:
        state = "PASS" if v["pass"] else "FAIL"
        print(f"{state}  {v['what']}: {v['value']} (target {v['target']})")
    print(f"load average at end {figures['load_end']}")


if __name__ == "__main__":
    sys.exit(main())
