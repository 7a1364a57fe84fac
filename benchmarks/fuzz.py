"""Fuzz a real server: random and mutated requests to every RPC, each with a short deadline.

    python benchmarks/fuzz.py [--tries 100000] [--seed S] [--concurrency 8]
                              [--target HOST:PORT] [--server-log FILE] [--json]
    python benchmarks/fuzz.py --seed S --replay I [--target HOST:PORT]

Without ``--target`` it starts a real ``numgrid-server`` on a free loopback port, its log
captured to a file, and stops it with SIGTERM at the end. Every try draws from
``random.Random(f"{seed}:{try}")`` (so ``--seed S --replay I`` reproduces any one try,
whatever the concurrency) one of: a unary request (66 %) with text in every kind's
formats or a structured puzzle, mostly mutated from ``puzzles/`` and ``tests/data/``; a
BatchCheckUniqueness stream of such puzzles (12 %); a Generate request (4 %); or raw
bytes through ``unary_unary`` / ``stream_stream`` (15 %: random, cut short, changed, not
UTF-8); or a stream left hanging (3 %): a BatchCheckUniqueness that sends nothing, or a
Generate of many puzzles whose client reads none. The inputs are those of
``tests/test_fuzz.py`` (``tests/fuzzing.py``). Each call has a deadline drawn from
0.2-2 s and its try as its ``x-request-id``, so the server's log line of each call tells
when the server ended it. Prints the count of each status, and exits 1 if any of:

- a call ended INTERNAL or UNKNOWN, or ended past its deadline + 200 ms, on the client or
  on the server (its log line);
- an error's trailers were too large for the client, or an INVALID_ARGUMENT came
  without a message;
- a batch result was a PuzzleFailure (the server's fault, not the puzzle's);
- the server's log holds a "Traceback", a handler past the longest deadline + 1 s, or
  the server died or did not stop cleanly (when started here).

SIGTERM or Ctrl-C stops it early: the calls in flight finish, the server is stopped and
the figures so far are printed (exit 2 when nothing above failed). The latest figures:
docs/performance.md, "Under signals, load and fuzzing".
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import Future
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import TypedDict
from typing import cast

import grpc
from common import progress_bar
from google.protobuf import text_format
from google.protobuf.message import Message
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from rich.console import Console
from rich.progress import TextColumn
from rich.table import Table
from servers import start_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import fuzzing  # tests/fuzzing.py: the inputs, shared with the tests

SERVICE = "/numgrid.v1.NumgridService"
REQUEST_ID = "x-request-id"  # the server logs each call under it
DEADLINE = (0.2, 2.0)  # seconds, drawn uniformly per call
OVERRUN = 0.2  # seconds past its deadline a call may take, measured client-side
SERVER_OVERRUN = 1.0  # seconds past the longest deadline a handler may log
BATCH = "BatchCheckUniqueness"
# (what, weight): unary requests of each method, batch streams, raw bytes
GENERATE = "Generate"
MIX: tuple[tuple[str, float], ...]
MIX = (("request", 66), ("batch", 12), ("generate", 4), ("raw", 12), ("raw-batch", 3))
MIX += (("idle-batch", 1.5), ("unread-generate", 1.5))
_LOGGED_MS = re.compile(r"\[fuzz-(\d+)\]: method=(\w+) .*status=(\w+).* ms=([\d.]+)")


@dataclass
class Try:
    index: int
    what: str  # "request", "batch", "raw", "raw-batch", "idle-batch", "unread-generate"
    method: str
    # a request, a batch's messages, bytes, or None (an idle batch: it sends nothing)
    payload: Message | Sequence[Message] | bytes | None
    deadline: float


def draw(seed: int, index: int) -> Try:
    """Try ``index`` of run ``seed``: the same whatever ran before it."""
    rng = random.Random(f"{seed}:{index}")
    what = rng.choices([w for w, _ in MIX], [n for _, n in MIX])[0]
    deadline = rng.uniform(*DEADLINE)
    if what == "request":
        method = rng.choice(fuzzing.METHODS)
        return Try(index, what, method, fuzzing.request(rng, method, intact=0.3), deadline)
    if what == "batch":
        return Try(index, what, BATCH, fuzzing.batch_messages(rng, intact=0.3), deadline)
    if what == "generate":
        if rng.random() < 0.3:
            return Try(
                index, "raw-generate", GENERATE, fuzzing.raw_payload(rng, GENERATE), deadline
            )
        return Try(index, what, GENERATE, fuzzing.generate_request(rng), deadline)
    if what == "idle-batch":
        return Try(index, what, BATCH, None, deadline)
    if what == "unread-generate":
        value = rng.choice([v for v in pb.PuzzleKind.values() if v])  # 4 rows: some refuse
        kind = cast(pb.PuzzleKind, value)  # values() are plain ints to the stubs
        request = service_pb2.GenerateRequest(kind=kind, rows=4, count=10_000, seed=index)
        return Try(index, what, GENERATE, request, deadline)
    method = BATCH if what == "raw-batch" else rng.choice(fuzzing.METHODS)
    return Try(index, what, method, fuzzing.raw_payload(rng, method), deadline)


def _silent(seconds: float):
    """A request stream that sends nothing for ``seconds``."""
    time.sleep(seconds)
    return
    yield  # a generator


@dataclass
class Outcome:
    code: str  # a grpc.StatusCode name, or a category of our own (see classify)
    details: str
    seconds: float
    batch: Counter = field(default_factory=Counter)  # a batch's results by outcome


def classify(error: grpc.RpcError) -> tuple[str, str]:
    code, details = error.code().name, error.details() or ""
    if code == "RESOURCE_EXHAUSTED" and "metadata size" in details:
        return "TRAILERS_TOO_LARGE", details
    if code == "INVALID_ARGUMENT" and not details.strip():
        return "INVALID_WITHOUT_MESSAGE", details
    return code, details


class CallOptions(TypedDict):
    timeout: float
    metadata: tuple[tuple[str, str], ...]


def call(channel: grpc.Channel, stub, t: Try) -> Outcome:
    batch: Counter[str] = Counter()
    start = time.monotonic()
    given: CallOptions = {"timeout": t.deadline, "metadata": ((REQUEST_ID, f"fuzz-{t.index}"),)}
    try:
        if t.what == "request":
            getattr(stub, t.method)(t.payload, **given)
        elif t.what == "batch":
            assert isinstance(t.payload, list)  # draw's batch_messages
            for response in stub.BatchCheckUniqueness(iter(t.payload), **given):
                batch.update(r.WhichOneof("outcome") for r in response.results)
        elif t.what == "idle-batch":
            for _ in stub.BatchCheckUniqueness(_silent(t.deadline + 1), **given):
                pass
        elif t.what == "generate":
            for _ in stub.Generate(t.payload, **given):
                pass
        elif t.what == "unread-generate":  # opened, then never read until the deadline
            stream = stub.Generate(t.payload, **given)
            time.sleep(t.deadline + 0.05)
            for _ in stream:
                pass
        elif t.what == "raw-generate":
            assert isinstance(t.payload, bytes)  # draw's raw_payload
            # without (de)serializers a multicallable sends and returns the bytes as they are
            raw_generate: grpc.UnaryStreamMultiCallable[bytes, bytes]
            raw_generate = channel.unary_stream(f"{SERVICE}/{GENERATE}")
            for _ in raw_generate(t.payload, **given):
                pass
        elif t.what == "raw":
            assert isinstance(t.payload, bytes)
            raw: grpc.UnaryUnaryMultiCallable[bytes, bytes]
            raw = channel.unary_unary(f"{SERVICE}/{t.method}")
            raw(t.payload, **given)
        else:
            assert isinstance(t.payload, bytes)
            raw_batch: grpc.StreamStreamMultiCallable[bytes, bytes]
            raw_batch = channel.stream_stream(f"{SERVICE}/{BATCH}")
            for _ in raw_batch(iter([t.payload]), **given):
                pass
        code, details = "OK", ""
    except grpc.RpcError as e:
        code, details = classify(e)
    return Outcome(code, details, time.monotonic() - start, batch)


@dataclass
class Tally:
    done: int = 0
    by_method: dict = field(default_factory=lambda: defaultdict(Counter))
    codes: Counter = field(default_factory=Counter)
    overruns: list = field(default_factory=list)  # (index, method, seconds, deadline)
    batch: Counter = field(default_factory=Counter)  # batch results by outcome
    examples: dict = field(default_factory=dict)  # code -> [(index, method, details)]
    worst_overrun: float = 0.0
    deadlines: dict = field(default_factory=dict)  # try -> its deadline, for the server's log

    def add(self, t: Try, o: Outcome) -> None:
        self.done += 1
        self.deadlines[t.index] = t.deadline
        label = t.method if t.what in ("request", "batch") else f"{t.what} {t.method}"
        self.by_method[label][o.code] += 1
        self.codes[o.code] += 1
        self.batch.update(o.batch)
        late = o.seconds - t.deadline
        self.worst_overrun = max(self.worst_overrun, late)
        if late > OVERRUN:
            self.overruns.append((t.index, label, round(o.seconds, 3), round(t.deadline, 3)))
        if o.code in BAD_CODES or o.batch["failure"]:
            self.examples.setdefault(o.code, [])
            if len(self.examples[o.code]) < 5:
                self.examples[o.code].append((t.index, label, o.details[:300]))


BAD_CODES = ("INTERNAL", "UNKNOWN", "TRAILERS_TOO_LARGE", "INVALID_WITHOUT_MESSAGE")


def run(
    target: str, seed: int, tries: int, concurrency: int, console: Console, stop: threading.Event
) -> Tally:
    """The tries, ``concurrency`` at a time, until all are done or ``stop`` is set (then
    the calls in flight finish)."""
    tally = Tally()
    lock = threading.Lock()
    # Build the inputs' seeds now, not in the first tries' threads: eight threads building
    # them at once held the GIL while the first calls were timed (one call seen 291 ms
    # past its deadline, 7 ms when replayed alone).
    fuzzing.structured_seeds()
    fuzzing.any_seed(random.Random(seed))
    options = [("grpc.max_send_message_length", 64 * 1024 * 1024)]
    with grpc.insecure_channel(target, options=options) as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)

        def one(index: int) -> None:
            t = draw(seed, index)
            o = call(channel, stub, t)
            with lock:
                tally.add(t, o)

        status_column = TextColumn("{task.fields[status]}")
        with (
            progress_bar("[bold]fuzz", console, status_column, transient=False) as progress,
            ThreadPoolExecutor(concurrency) as pool,
        ):
            task = progress.add_task("fuzz", total=tries, status="")
            pending: set[Future[None]] = set()
            submitted = 0
            while (submitted < tries and not stop.is_set()) or pending:
                while submitted < tries and not stop.is_set() and len(pending) < 2 * concurrency:
                    pending.add(pool.submit(one, submitted))
                    submitted += 1
                done, pending = wait(pending, timeout=1, return_when=FIRST_COMPLETED)
                for future in done:
                    future.result()  # a bug of this script: let it show
                with lock:
                    bad = sum(tally.codes[c] for c in BAD_CODES)
                    status = f"bad {bad}  overruns {len(tally.overruns)}"
                progress.update(task, advance=len(done), status=status)
    return tally


def server_log_figures(path: Path, longest: float, deadlines: dict[int, float]) -> dict:
    """Tracebacks, INTERNAL/UNKNOWN lines, handlers slower than ``longest`` seconds, and
    the calls the server ended past their try's deadline + :data:`OVERRUN`."""
    tracebacks = logged_bad = slow = 0
    slowest = worst_late = 0.0
    late: list[tuple[int, str, str, float]] = []
    with path.open(errors="replace") as log:
        for line in log:
            if "Traceback" in line:
                tracebacks += 1
            match = _LOGGED_MS.search(line)
            if match:
                index, method, status, ms = match.groups()
                if status in ("INTERNAL", "UNKNOWN"):
                    logged_bad += 1
                seconds = float(ms) / 1000
                slowest = max(slowest, seconds)
                slow += seconds > longest
                past = seconds - deadlines.get(int(index), seconds)  # none: not ours
                worst_late = max(worst_late, past)
                if past > OVERRUN:
                    late.append((int(index), method, status, round(past, 3)))
    return {
        "tracebacks": tracebacks,
        "logged_internal_or_unknown": logged_bad,
        "handlers_past_longest_deadline": slow,
        "slowest_handler_ms": round(slowest * 1000, 1),
        "server_overruns": len(late),
        "server_worst_overrun_ms": round(worst_late * 1000, 1),
        "server_overrun_examples": late[:10],
    }


def replay(seed: int, index: int, target: str | None) -> int:
    """Show try ``index`` of run ``seed`` and send it once."""
    t = draw(seed, index)
    print(f"try {index} of seed {seed}: {t.what} {t.method}, deadline {t.deadline:.3f}s")
    if isinstance(t.payload, bytes):
        print(f"bytes ({len(t.payload)}): {t.payload[:2000]!r}")
    elif t.payload is None:  # an idle batch (see _silent)
        print(f"no messages: a stream that sends none for {t.deadline + 1:.3f}s")
    else:
        messages = [t.payload] if isinstance(t.payload, Message) else t.payload
        for message in messages:
            text = text_format.MessageToString(message, as_utf8=True)
            print(text[:4000] + (f"... ({len(text)} characters)" if len(text) > 4000 else ""))
    process = None
    if target is None:
        process, target = start_server()
    try:
        with grpc.insecure_channel(target) as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            o = call(channel, stub, t)
    finally:
        if process is not None:
            process.terminate()
            process.wait(30)
    print(f"-> {o.code} in {o.seconds:.3f}s: {o.details[:2000]}")
    return 0


def summary_table(tally: Tally) -> Table:
    codes = sorted(tally.codes, key=lambda c: (c != "OK", -tally.codes[c]))
    table = Table(title="Status per method")
    table.add_column("method")
    for code in codes:
        table.add_column(code, justify="right")
    table.add_column("total", justify="right")
    for method in sorted(tally.by_method):
        counts = tally.by_method[method]
        table.add_row(method, *(str(counts[c]) for c in codes), str(sum(counts.values())))
    table.add_row("[bold]all", *(str(tally.codes[c]) for c in codes), str(tally.codes.total()))
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=None, help="default: from the clock")
    parser.add_argument("--concurrency", type=int, default=8, help="calls in flight")
    parser.add_argument("--target", help="HOST:PORT of a running server (else one is started)")
    parser.add_argument("--server-log", help="where the started server's log goes")
    parser.add_argument("--replay", type=int, metavar="I", help="show and send try I only")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else time.time_ns() % 1_000_000_007
    if args.replay is not None:
        return replay(seed, args.replay, args.target)

    console = Console(stderr=True)
    process = log_path = log_file = None
    target = args.target
    if target is None:
        default_log = Path(tempfile.mkdtemp(prefix="numgrid-fuzz-")) / "server.log"
        log_path = Path(args.server_log) if args.server_log else default_log
        log_file = log_path.open("w")
        process, target = start_server(stderr=log_file)
        console.print(f"numgrid-server on {target}, log {log_path}")
    console.print(f"seed {seed}: {args.tries} tries, {args.concurrency} at a time")
    stop = threading.Event()

    def on_signal(signum, _frame) -> None:  # finish the calls in flight, then report
        console.print(f"signal {signum}: stopping after the calls in flight")
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    start = time.monotonic()
    try:
        tally = run(target, seed, args.tries, args.concurrency, console, stop)
    finally:
        seconds = time.monotonic() - start
        server_alive = exit_code = None
        if process is not None:
            server_alive = process.poll() is None
            process.send_signal(signal.SIGTERM)
            try:
                exit_code = process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                exit_code = process.wait()
            assert log_file is not None  # opened for the server started here
            log_file.close()

    figures = {
        "seed": seed,
        "tries": args.tries,
        "tries_done": tally.done,
        "interrupted": stop.is_set(),
        "concurrency": args.concurrency,
        "seconds": round(seconds, 1),
        "statuses": dict(tally.codes.most_common()),
        "by_method": {m: dict(c) for m, c in sorted(tally.by_method.items())},
        "internal_or_unknown": tally.codes["INTERNAL"] + tally.codes["UNKNOWN"],
        "trailers_too_large": tally.codes["TRAILERS_TOO_LARGE"],
        "invalid_without_message": tally.codes["INVALID_WITHOUT_MESSAGE"],
        "batch_results": dict(tally.batch),
        "batch_failures": tally.batch["failure"],
        "overruns": len(tally.overruns),
        "worst_overrun_ms": round(tally.worst_overrun * 1000, 1),
        "overrun_examples": tally.overruns[:10],
        "bad_examples": tally.examples,
    }
    if log_path is not None:
        figures["server_log"] = str(log_path)
        figures.update(server_log_figures(log_path, DEADLINE[1] + SERVER_OVERRUN, tally.deadlines))
        figures["server_alive_at_end"] = server_alive
        figures["server_exit_code"] = exit_code
    failed = (
        figures["internal_or_unknown"]
        or figures["trailers_too_large"]
        or figures["invalid_without_message"]
        or figures["batch_failures"]
        or figures["overruns"]
        or figures.get("tracebacks")
        or figures.get("logged_internal_or_unknown")
        or figures.get("handlers_past_longest_deadline")
        or figures.get("server_overruns")
        or figures.get("server_alive_at_end") is False
        or figures.get("server_exit_code") not in (None, 0)
    )
    figures["failed"] = bool(failed)
    code = 1 if failed else 2 if stop.is_set() else 0
    if args.json:
        print(json.dumps(figures, indent=2))
        return code

    out = Console() if sys.stdout.isatty() else Console(width=120)
    out.print(summary_table(tally))
    done = f"{tally.done} of {args.tries}" if stop.is_set() else str(tally.done)
    checks = Table(title=f"seed {seed}, {done} tries in {seconds:.0f} s")
    checks.add_column("check")
    checks.add_column("count", justify="right")
    rows = [
        ("INTERNAL or UNKNOWN", figures["internal_or_unknown"]),
        ("trailers too large for the client", figures["trailers_too_large"]),
        ("INVALID_ARGUMENT without a message", figures["invalid_without_message"]),
        (
            "batch results: result / rejection",
            f"{tally.batch['result']} / {tally.batch['rejection']}",
        ),
        ("batch results that are PuzzleFailure", figures["batch_failures"]),
        (f"calls past deadline + {OVERRUN * 1000:.0f} ms", figures["overruns"]),
        ("worst call past its deadline (ms)", figures["worst_overrun_ms"]),
    ]
    if log_path is not None:
        rows += [
            ("Traceback lines in the server log", figures["tracebacks"]),
            ("INTERNAL or UNKNOWN in the server log", figures["logged_internal_or_unknown"]),
            (
                f"handlers past {DEADLINE[1] + SERVER_OVERRUN:g} s (server log)",
                figures["handlers_past_longest_deadline"],
            ),
            ("slowest handler (ms, server log)", figures["slowest_handler_ms"]),
            (
                f"calls the server ended past deadline + {OVERRUN * 1000:.0f} ms",
                figures["server_overruns"],
            ),
            ("worst past its deadline on the server (ms)", figures["server_worst_overrun_ms"]),
            ("server alive at the end / exit code", f"{server_alive} / {exit_code}"),
        ]
    for name, value in rows:
        checks.add_row(name, str(value))
    out.print(checks)
    for code, examples in tally.examples.items():
        for index, method, details in examples:
            out.print(f"{code} {method} try {index}: {details}", markup=False)
    for index, method, took, deadline in tally.overruns[:10]:
        out.print(f"overrun {method} try {index}: {took}s on a {deadline}s deadline")
    for index, method, status, past in figures.get("server_overrun_examples", []):
        out.print(f"server overrun {method} try {index}: {status}, {past}s past its deadline")
    if failed:
        out.print(f"replay one: python benchmarks/fuzz.py --seed {seed} --replay TRY")
    return code


if __name__ == "__main__":
    sys.exit(main())
