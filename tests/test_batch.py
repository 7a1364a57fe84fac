"""BatchCheckUniqueness and ``numgrid unique`` over many puzzles, with real processes on
loopback: one server, ``--workers 2``, two servers behind round_robin with one killed
part way, an interrupted CLI resumed, a deadline, a cancellation, a bad puzzle inside a
batch, and health while every worker is busy."""

from __future__ import annotations

import functools
import json
import os
import queue
import signal
import socket
import subprocess
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from grpc_status import rpc_status
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.client.batch import MAX_REQUEST_BYTES
from numgrid.client.batch import BatchItem
from numgrid.client.batch import _Feed
from numgrid.client.batch import _Stream
from numgrid.client.batch import batch_target
from numgrid.client.batch import check_many
from numgrid.client.batch import result_of
from numgrid.client.batch_cli import janko_solution
from numgrid.client.batch_cli import read_report
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from support.client import HARD
from support.client import NUMGRID
from support.client import PUZZLES
from support.client import REPO
from support.client import numgrid as run_numgrid
from support.client import sample
from support.corpus import corpus_path

CORPUS_ARG = os.path.relpath(corpus_path("kakuro"), REPO)  # the dataset, as a user names it
numgrid = functools.partial(run_numgrid, timeout=120)  # a batch takes longer


def published(text: str) -> list[str]:
    return text.split()


def sample_ids(corpus: dict, every: int = 15) -> list[str]:
    return sorted(corpus)[::every]


def report_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def batch_log(server) -> list[str]:
    return [line for line in server.log_lines() if "method=BatchCheckUniqueness" in line]


def logged_puzzles(server) -> int:
    return sum(int(line.split("puzzles=")[1].split()[0]) for line in batch_log(server))


def wait_for(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def workers2(launch_server):
    server = launch_server("--workers", "2")
    yield server
    assert server.stop() == 0


# ---------------------------------------------------------------- the RPC, one server


def test_a_batch_through_one_server(server_process, corpus):
    ids = sample_ids(corpus)
    items = [BatchItem(i, corpus[i]["problem"], "janko") for i in ids]
    results = list(check_many(server_process.target, items, timeout=60))
    assert sorted(r.id for r in results) == ids  # each id once
    for r in results:
        assert (r.status, r.verdict, len(r.solutions)) == ("UNIQUE", "UNIQUE", 1), r
        assert published(janko_solution(r.solutions[0])) == published(corpus[r.id]["solution"])
        assert r.stats and r.stats[0].engine == "native"


def test_no_server_at_the_address_is_a_clear_error():
    """Nothing listens on the port: UNAVAILABLE, naming the address and the wait."""
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        target = f"127.0.0.1:{s.getsockname()[1]}"
    items = [BatchItem("one", sample("kenken-4x4.txt"))]
    with pytest.raises(NumgridError) as refused:
        list(check_many(target, items, connect_timeout=0.5))
    assert refused.value.code == "UNAVAILABLE"
    assert refused.value.message == f"no server at {target} within 0.5 s"


def test_a_bad_puzzle_is_a_rejection_and_the_stream_goes_on(server_process, corpus):
    good = sample_ids(corpus, 100)
    items = [BatchItem(i, corpus[i]["problem"]) for i in good]
    items.insert(2, BatchItem("broken", sample("broken-clues.txt")))
    items.insert(4, BatchItem("garbage", "this is not a puzzle"))
    items.append(BatchItem("two", sample("multiple-4x4.txt")))
    items.append(BatchItem("none", sample("no-solution.txt")))
    by_id = {r.id: r for r in check_many(server_process.target, items, timeout=60)}
    assert sorted(by_id) == sorted(i.id for i in items)
    broken = by_id["broken"]
    assert broken.status == "INVALID" and broken.verdict is None
    assert {f.code for f in broken.findings} == {"impossible_clue", "run_without_clue"}
    assert all(f.cells for f in broken.findings)
    assert by_id["garbage"].status == "INVALID"
    assert "unsupported kind: " in by_id["garbage"].message
    two = by_id["two"]
    assert two.status == "MULTIPLE" and len(two.solutions) == 2
    assert two.differing_cells == ((1, 2), (1, 3), (2, 2), (2, 3))
    assert by_id["none"].status == "NO_SOLUTION"
    assert all(by_id[i].status == "UNIQUE" for i in good)


def test_a_time_limit_is_a_timeout_result_for_that_puzzle(server_process, corpus):
    first = sorted(corpus)[0]
    items = [BatchItem("hard", HARD), BatchItem(first, corpus[first]["problem"])]
    start = time.monotonic()
    results = {
        r.id: r
        for r in check_many(
            server_process.target, items, engine="native", time_limit=0.5, timeout=30
        )
    }
    assert time.monotonic() - start < 10
    assert results["hard"].status == "TIMEOUT"
    assert results[first].status == "UNIQUE"


def test_a_deadline_stops_the_batch(server_process):
    mark = server_process.log_mark()
    items = [BatchItem(f"hard-{n}", HARD) for n in range(20)]
    start = time.monotonic()
    with pytest.raises(NumgridError) as caught:
        list(check_many(server_process.target, items, engine="native", timeout=1.0))
    assert caught.value.code == "DEADLINE_EXCEEDED"
    assert time.monotonic() - start < 3
    # The server stopped the work at once: its calls ended with the deadline, and it is
    # free for the next call.
    wait_for(lambda: batch_log_since(server_process, mark), 5, "the batch's log lines")
    assert all("status=DEADLINE_EXCEEDED" in line for line in batch_log_since(server_process, mark))
    with NumgridClient(server_process.target, timeout=5) as client:
        begin = time.monotonic()
        assert client.health() == "SERVING"
        assert client.check_uniqueness(sample("kakuro-10x12.txt")).verdict == "UNIQUE"
        assert time.monotonic() - begin < 2


def batch_log_since(server, mark: int) -> list[str]:
    return [line for line in server.log_since(mark) if "method=BatchCheckUniqueness" in line]


def one_puzzle(**fields) -> service_pb2.BatchCheckUniquenessRequest:
    return service_pb2.BatchCheckUniquenessRequest(puzzles=[service_pb2.BatchPuzzle(**fields)])


def hard_requests(count: int):
    for n in range(count):
        yield one_puzzle(
            id=f"hard-{n}",
            puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=HARD)),
            options=service_pb2.SearchOptions(engine=pb.ENGINE_NATIVE),
        )


@pytest.mark.parametrize("which", ["one process", "workers 2"])
def test_cancelling_a_batch_stops_its_work(server_process, workers2, which):
    server = server_process if which == "one process" else workers2
    mark = server.log_mark()
    with grpc.insecure_channel(server.target) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        call = stub.BatchCheckUniqueness(hard_requests(8), timeout=60)
        time.sleep(0.5)
        call.cancel()
        with pytest.raises(grpc.RpcError) as caught:
            list(call)
        assert caught.value.code() == grpc.StatusCode.CANCELLED
    wait_for(lambda: batch_log_since(server, mark), 5, "the cancelled call's log line")
    (line,) = batch_log_since(server, mark)
    assert "status=CANCELLED" in line and "puzzles=0" in line
    # The search stopped: the processes that ran it go quiet (a second with under 0.3 s of
    # CPU among the first four: a worker still starting up on a busy machine may finish
    # its imports first, while the eight searches, uncancelled, would run on for longer).
    pids = [server.process.pid, *children(server.process.pid)]
    spent = []
    for _ in range(4):
        before = sum(cpu_seconds(p) for p in pids)
        time.sleep(1.0)
        spent.append(sum(cpu_seconds(p) for p in pids) - before)
        if spent[-1] < 0.3:
            break
    assert spent[-1] < 0.3, spent


@pytest.mark.parametrize("which", ["one process", "workers 2"])
def test_one_message_carries_several_puzzles(server_process, workers2, corpus, which):
    """A request message of several puzzles gets a result for each, whatever the server
    packs them in; every response message carries at least one."""
    server = server_process if which == "one process" else workers2
    key = sample_ids(corpus)[0]
    texts = {
        key: corpus[key]["problem"],
        "broken": sample("broken-clues.txt"),
        "two": sample("multiple-4x4.txt"),
        **{f"{key}-{n}": corpus[key]["problem"] for n in range(5)},
    }
    puzzles = [
        service_pb2.BatchPuzzle(id=i, puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=t)))
        for i, t in texts.items()
    ]
    requests = [
        service_pb2.BatchCheckUniquenessRequest(puzzles=puzzles[:3]),
        service_pb2.BatchCheckUniquenessRequest(),  # none: allowed, nothing to answer
        service_pb2.BatchCheckUniquenessRequest(puzzles=puzzles[3:]),
    ]
    with grpc.insecure_channel(server.target) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        responses = list(stub.BatchCheckUniqueness(iter(requests), timeout=60))
    assert all(len(r.results) >= 1 for r in responses)
    results = {r.id: r for response in responses for r in response.results}
    assert sorted(results) == sorted(texts)
    assert sum(len(r.results) for r in responses) == len(texts)
    assert results[key].result.verdict == pb.VERDICT_UNIQUE
    assert results["two"].result.verdict == pb.VERDICT_MULTIPLE
    assert results["broken"].WhichOneof("outcome") == "rejection"
    assert all(
        results[f"{key}-{n}"].result.solutions == results[key].result.solutions for n in range(5)
    )


def children(pid: int) -> list[int]:
    """The worker processes of a server (not multiprocessing's resource tracker)."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(c) for c in f.read().split()]
    return [c for c in found if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


# ---------------------------------------------------------------- --workers 2


def test_workers_give_the_same_results(server_process, workers2, corpus):
    ids = sample_ids(corpus, 10)
    items = [BatchItem(i, corpus[i]["problem"]) for i in ids]
    items += [
        BatchItem("broken", sample("broken-clues.txt")),
        BatchItem("two", sample("multiple-4x4.txt")),
        BatchItem("none", sample("no-solution.txt")),
    ]

    def answers(server) -> dict:
        return {
            r.id: (r.status, r.solutions, r.differing_cells, r.findings)
            for r in check_many(server.target, items, timeout=60)
        }

    assert answers(workers2) == answers(server_process)
    assert len(children(workers2.process.pid)) == 2  # the worker processes


def test_health_answers_while_every_worker_is_busy(workers2):
    """Four slow puzzles keep both worker processes busy for ~3 s; health checks sent
    meanwhile are answered by the main process at once."""
    with grpc.insecure_channel(workers2.target) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        requests = [
            one_puzzle(
                id=f"hard-{n}",
                puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=HARD)),
                options=service_pb2.SearchOptions(
                    engine=pb.ENGINE_NATIVE, time_limit={"seconds": 1, "nanos": 500_000_000}
                ),
            )
            for n in range(4)
        ]
        results: list = []
        worker = threading.Thread(
            target=lambda: results.extend(stub.BatchCheckUniqueness(iter(requests), timeout=30))
        )
        pids = children(workers2.process.pid)
        before = sum(cpu_seconds(p) for p in pids)
        worker.start()
        time.sleep(0.5)
        latencies = []
        for _ in range(20):
            start = time.monotonic()
            reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
            latencies.append(time.monotonic() - start)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
            time.sleep(0.05)
        worker.join(30)
        busy = sum(cpu_seconds(p) for p in pids) - before  # over the whole batch
    verdicts = [r.result.verdict for response in results for r in response.results]
    assert verdicts == [pb.VERDICT_TIMEOUT] * 4
    assert busy > 1.0, f"the workers were not busy ({busy:.2f} s of CPU)"
    assert max(latencies) < 0.25, latencies


@pytest.mark.slow
def test_a_worker_that_dies_is_replaced(launch_server, corpus):
    server = launch_server("--workers", "2")
    try:
        first, _ = children(server.process.pid)
        items = [BatchItem(f"hard-{n}", HARD) for n in range(2)]
        items += [BatchItem(i, corpus[i]["problem"]) for i in sample_ids(corpus, 50)]
        results: dict = {}

        def run():
            for r in check_many(
                server.target, items, engine="native", time_limit=5, timeout=60, streams=1
            ):
                results[r.id] = r

        idle = cpu_seconds(first)
        thread = threading.Thread(target=run)
        thread.start()
        # kill it mid-puzzle, whatever the machine's load: once it has worked a while
        wait_for(lambda: cpu_seconds(first) - idle > 0.3, 30, "the first worker busy")
        os.kill(first, signal.SIGKILL)
        thread.join(60)
        statuses = Counter(r.status for r in results.values())
        assert len(results) == len(items)
        assert statuses["ERROR"] == 1, statuses  # the puzzle the dead worker held
        (dead,) = [r for r in results.values() if r.status == "ERROR"]
        assert "worker process checking this puzzle died" in dead.message
        assert dead.response.WhichOneof("outcome") == "failure"
        assert statuses["UNIQUE"] == len(items) - 2
        wait_for(lambda: len(children(server.process.pid)) == 2, 10, "a new worker")
        assert first not in children(server.process.pid)
        assert any("worker process 0 died" in line or "died" in line for line in server.log_lines())
    finally:
        assert server.stop() == 0


# ---------------------------------------------------------------- several servers


@pytest.mark.slow
def test_a_server_killed_part_way_loses_no_puzzle(launch_server, corpus, tmp_path):
    """Two servers behind round_robin; one is killed (SIGKILL) part way: every id is in
    the report exactly once, with the published solution."""
    a, b = launch_server(), launch_server()
    report = tmp_path / "report.jsonl"
    cli = None
    try:
        idle = cpu_seconds(b.process.pid)
        cli = subprocess.Popen(
            [
                str(NUMGRID),
                "unique",
                "--server",
                f"{a.target},{b.target}",
                "--report",
                str(report),
                CORPUS_ARG,
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_for(
            lambda: cpu_seconds(b.process.pid) - idle > 0.3 and len(report_lines(report)) > 100,
            60,
            "both servers at work",
        )
        b.process.send_signal(signal.SIGKILL)
        answered_before_kill = len(report_lines(report))
        out, err = cli.communicate(timeout=90)
        assert cli.returncode == 0, err
    finally:
        if cli is not None and cli.poll() is None:
            cli.kill()
            cli.wait()
        b.stop(signal.SIGKILL)
        stopped = a.stop()
    assert stopped == 0
    assert answered_before_kill < len(corpus)
    lines = report_lines(report)
    counts = Counter(line["source"] for line in lines)
    assert set(counts) == set(corpus) and set(counts.values()) == {1}
    for line in lines:
        assert line["status"] == "UNIQUE", line
        assert published(line["solutions"][0]) == published(corpus[line["source"]]["solution"])
    assert "re-sent" in out  # the dead server's unanswered puzzles went to the other
    assert logged_puzzles(a) < len(corpus)  # b answered some before it died


@pytest.mark.slow
def test_a_frozen_server_is_noticed_by_keepalive(launch_server, corpus):
    """A server that stops answering without closing its connections (SIGSTOP: the
    kernel still acknowledges TCP) is found out by the keepalive pings; its puzzles go
    to the other server, and every id is answered once."""
    a, b = launch_server(), launch_server()
    items = [BatchItem(k, e["problem"]) for k, e in corpus.items()]
    results: dict = {}
    failures: list = []

    def run() -> None:
        try:
            for r in check_many(f"{a.target},{b.target}", items, keepalive=5, timeout=120):
                assert r.id not in results
                results[r.id] = r
        except Exception as e:  # seen by the main thread
            failures.append(e)

    thread = threading.Thread(target=run)
    try:
        idle = cpu_seconds(b.process.pid)
        thread.start()
        wait_for(
            lambda: cpu_seconds(b.process.pid) - idle > 0.3 and len(results) > 100,
            60,
            "both servers at work",
        )
        b.process.send_signal(signal.SIGSTOP)
        frozen_at, answered = time.monotonic(), len(results)
        thread.join(90)
        assert not thread.is_alive() and not failures, failures
        assert answered < len(items)
        assert time.monotonic() - frozen_at < 60
    finally:
        b.process.send_signal(signal.SIGCONT)
        b.stop(signal.SIGKILL)
        stopped = a.stop()
    assert stopped == 0
    assert set(results) == set(corpus)
    assert Counter(r.status for r in results.values()) == {"UNIQUE": len(items)}
    assert any(r.attempts > 1 for r in results.values())  # b's puzzles were sent again


@pytest.mark.slow
def test_resume_after_an_interrupted_run(server_process, corpus, tmp_path):
    report = tmp_path / "report.jsonl"
    args = ["unique", "--server", server_process.target, "--report", str(report), CORPUS_ARG]
    first = subprocess.Popen(
        [str(NUMGRID), *args], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for(lambda: len(report_lines(report)) >= 100, 60, "a hundred answers")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    before = {line["source"] for line in report_lines(report)}
    assert 100 <= len(before) < len(corpus)
    with report.open("a") as f:
        f.write('{"source": "torn')  # as if killed in the middle of a line
    resumed = numgrid(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(before)} already in the report" in resumed.stdout
    lines = report_lines(report)
    assert report.read_text().endswith("}\n") and len(lines) == len(report.read_text().splitlines())
    counts = Counter(line["source"] for line in lines)
    assert set(counts) == set(corpus) and set(counts.values()) == {1}
    assert all(line["status"] == "UNIQUE" for line in lines)


# ---------------------------------------------------------------- the CLI's inputs


def test_directories_jsonl_and_datasets(server_process, corpus, tmp_path):
    ids = sample_ids(corpus, 150)
    dataset = tmp_path / "mini.json"
    dataset.write_text(
        json.dumps({"name": "mini", "count": 2, "data": {i: corpus[i] for i in ids[:2]}})
    )
    jsonl = tmp_path / "lines.jsonl"
    jsonl.write_text(
        "\n".join(
            [
                json.dumps({"id": "csv", "format": "csv", "puzzle": sample("kakuro-10x12.csv")}),
                json.dumps({"id": "auto", "puzzle": sample("multiple-4x4.txt")}),
                "{not json",
                json.dumps({"id": "nothing"}),
                "",
            ]
        )
    )
    done = numgrid(
        "unique", "--server", server_process.target, "--json", str(dataset), str(jsonl), "puzzles"
    )
    records = [json.loads(line) for line in done.stdout.splitlines()]  # pure JSONL
    by_source = {r["source"]: r for r in records}
    puzzle_files = sorted(
        str(p.relative_to(REPO)) for p in PUZZLES.iterdir() if ".solution." not in p.name
    )
    puzzle_files = [p for p in puzzle_files if p.endswith((".txt", ".csv", ".json"))]
    expected = {*ids[:2], "csv", "auto", f"{jsonl}:3", "nothing", *puzzle_files}
    assert set(by_source) == expected and len(records) == len(expected)
    assert all(by_source[i]["status"] == "UNIQUE" for i in ids[:2])
    assert by_source["csv"]["status"] == "UNIQUE"
    assert by_source["auto"]["status"] == "MULTIPLE"
    assert by_source[f"{jsonl}:3"]["status"] == by_source["nothing"]["status"] == "UNREADABLE"
    assert by_source["puzzles/Game03.csv"]["status"] == "INVALID"
    assert by_source["puzzles/Game03.csv"]["errors"][0]["row"] == 11
    assert done.returncode == 2  # the worst: two lines could not be read
    assert "puzzles in" in done.stderr  # the summary, off stdout


def sample_puzzles() -> int:
    """The puzzle files in ``puzzles/`` a batch reads; all UNIQUE but five (one MULTIPLE,
    two NO_SOLUTION, two INVALID)."""
    return sum(
        p.suffix in (".txt", ".csv", ".json") and ".solution." not in p.name
        for p in PUZZLES.iterdir()
    )


def test_progress_bar_keeps_stdout_pure(server_process):
    done = numgrid("unique", "--server", server_process.target, "--json", "--progress", "puzzles")
    assert all(json.loads(line)["command"] == "unique" for line in done.stdout.splitlines())
    unique = f"unique {sample_puzzles() - 5}"
    assert unique in done.stderr and "multiple 1" in done.stderr and "/s" in done.stderr


def test_human_output_of_a_batch(server_process):
    done = numgrid("unique", "--server", server_process.target, "--quiet", "puzzles")
    assert done.returncode == 1
    out = done.stdout
    assert "puzzles/multiple-4x4.txt: MULTIPLE" in out and "differ at 4 cells" in out
    assert "puzzles/no-solution.txt: NO_SOLUTION" in out
    assert "kakuro-10x12.txt" not in out  # --quiet: unique puzzles are counted, not listed
    count = sample_puzzles()
    assert f"{count} of {count} puzzles" in out
    assert f"unique {count - 5}, multiple 1, none 2, invalid 2" in out
    every = numgrid("unique", "--server", server_process.target, "puzzles").stdout
    assert "puzzles/kakuro-10x12.txt: UNIQUE (native " in every  # without: every puzzle
    counts = " ".join(out.split("/s): ")[-1].split())
    assert " ".join(every.split()).endswith(f"/s): {counts}")  # the same summary


def test_a_deadline_on_the_cli_batch(server, tmp_path):
    jsonl = tmp_path / "hard.jsonl"
    jsonl.write_text(
        "\n".join(json.dumps({"id": f"hard-{n}", "puzzle": HARD}) for n in range(10)) + "\n"
    )
    report = tmp_path / "report.jsonl"
    start = time.monotonic()
    flags = ["--engine", "native", "--deadline", "1", "--report", str(report)]
    done = numgrid("unique", *server, *flags, str(jsonl))
    assert time.monotonic() - start < 10
    assert done.returncode == 2
    assert "the deadline passed with 10 of 10 puzzles unchecked" in done.stderr
    assert report_lines(report) == []  # nothing answered, nothing written: --resume redoes all


def test_resume_needs_a_report(server_process):
    done = numgrid("unique", "--server", server_process.target, "--resume", "puzzles")
    assert done.returncode == 2 and "--resume needs --report FILE" in done.stderr


def test_no_server_for_a_batch():
    done = numgrid("unique", "--server", "127.0.0.1:1,127.0.0.1:2", "puzzles", timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert "cannot reach the server at 127.0.0.1:1,127.0.0.1:2" in done.stderr


# ---------------------------------------------------------------- small parts


def _stream(items: list[BatchItem], per_stream: int) -> _Stream:
    """A client's stream (its first) of a batch of ``items``, ``per_stream`` puzzles a
    call, its window eight puzzles wide, without a channel: its messages are read here."""
    batch = SimpleNamespace(
        window=8,
        per_stream=per_stream,
        feed=_Feed(items, service_pb2.SearchOptions()),
        events=queue.SimpleQueue(),
    )
    return _Stream(batch, 1, initial=8)


def test_a_stream_sends_what_its_window_has_room_for_in_one_message():
    """A full window's worth goes out as one message; after answers, what they freed."""
    items = [BatchItem(f"p{n}", sample("multiple-4x4.txt")) for n in range(20)]
    stream = _stream(items, per_stream=14)
    messages = stream._requests()
    assert [p.id for p in next(messages).puzzles] == [f"p{n}" for n in range(8)]
    for _ in range(4):
        stream.window.answered()
    assert [p.id for p in next(messages).puzzles] == [f"p{n}" for n in range(8, 12)]
    for _ in range(8):
        stream.window.answered()
    # per_stream ends the call after 14 puzzles: the rest is for the next call.
    assert [p.id for p in next(messages).puzzles] == ["p12", "p13"]
    assert next(messages, None) is None
    assert sorted(stream.in_flight) == sorted(f"p{n}" for n in range(14))


def test_a_server_fault_on_one_puzzle_is_a_failure_result(monkeypatch):
    """Not a rejection (the puzzle is fine) and not the end of the batch: a failure for
    that id, which the client reports as ERROR with the server's sentence."""
    from numgrid.server import batch as server_batch

    def broken(*args, **kwargs):
        raise RuntimeError("out of cheese")

    monkeypatch.setattr(server_batch.operations, "check_uniqueness", broken)
    puzzle = service_pb2.BatchPuzzle(
        id="p1", puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=sample("multiple-4x4.txt")))
    )
    result = server_batch.check_one(puzzle, server_batch.Limits(20_000, 5.0))
    assert result.id == "p1" and result.WhichOneof("outcome") == "failure"
    assert result.failure.message == "internal error: RuntimeError: out of cheese"
    reported = result_of(result)
    assert (reported.status, reported.verdict) == ("ERROR", None)
    assert reported.message == result.failure.message and reported.findings == ()


def test_a_message_stops_growing_at_its_byte_cap():
    """Big puzzles go a few to a message (never over the cap unless one alone is), and
    none is skipped or sent twice."""
    big = "x" * 100_000  # the client does not read puzzles: any text will do here
    items = [BatchItem(f"p{n}", big, "janko") for n in range(7)]
    stream = _stream(items, per_stream=100)
    sizes, ids = [], []
    for message in stream._requests():
        assert message.ByteSize() <= MAX_REQUEST_BYTES + 100  # the message's own framing
        sizes.append(len(message.puzzles))
        ids += [p.id for p in message.puzzles]
        for _ in message.puzzles:
            stream.window.answered()
    assert sizes == [2, 2, 2, 1]
    assert ids == [f"p{n}" for n in range(7)]


def test_results_share_a_message_up_to_its_byte_cap():
    from numgrid.server.batch import _END
    from numgrid.server.batch import _Ready

    results = queue.SimpleQueue()
    for item in (b"a" * 60, b"b" * 60, b"c" * 30, b"d" * 500, _END):
        results.put(item)
    ready = _Ready(results, most_bytes=100)
    assert ready.take() == [b"a" * 60]
    assert ready.take() == [b"b" * 60, b"c" * 30]
    assert ready.take() == [b"d" * 500, _END]  # bigger than the cap: alone (and the end)


def _raw_batch_call(target: str, messages: list[bytes]) -> list[bytes]:
    with grpc.insecure_channel(target) as channel:
        call = channel.stream_stream("/numgrid.v1.NumgridService/BatchCheckUniqueness")
        return list(call(iter(messages), timeout=30))


# A request and a result in the shape from before batching: fields 1 (id), 2 (puzzle)
# and 3 (rejection), one per message.
OLD_REQUEST = service_pb2.BatchPuzzle(
    id="p1", puzzle=pb.PuzzleInput(text=pb.PuzzleText(content="4 4\n"))
).SerializeToString()
OLD_RESULT = service_pb2.BatchPuzzleResult(
    id="p1", rejection=service_pb2.PuzzleRejection(message="no puzzle")
).SerializeToString()


@pytest.mark.parametrize("which", ["one process", "workers 2"])
def test_a_request_in_the_older_shape_is_invalid_argument(server_process, workers2, which):
    server = server_process if which == "one process" else workers2
    with pytest.raises(grpc.RpcError) as caught:
        _raw_batch_call(server.target, [OLD_REQUEST])
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "older shape" in caught.value.details()
    status = rpc_status.from_call(caught.value)
    bad = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(bad)
    assert bad.field_violations[0].field == "id"


def test_a_server_in_the_older_shape_is_a_clear_error():
    """A client meeting a server built from the older proto says so, at once."""

    def old_server(requests, context):
        for _ in requests:
            yield OLD_RESULT

    server = grpc.server(ThreadPoolExecutor(4))
    handler = grpc.stream_stream_rpc_method_handler(old_server)
    server.add_generic_rpc_handlers(
        [
            grpc.method_handlers_generic_handler(
                "numgrid.v1.NumgridService", {"BatchCheckUniqueness": handler}
            )
        ]
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        start = time.monotonic()
        with pytest.raises(NumgridError) as caught:
            list(
                check_many(
                    f"127.0.0.1:{port}", [BatchItem("p1", sample("multiple-4x4.txt"))], timeout=20
                )
            )
        assert caught.value.code == "FAILED_PRECONDITION"
        assert "older shape" in caught.value.message
        assert time.monotonic() - start < 10
    finally:
        server.stop(None)


def test_targets():
    assert batch_target("127.0.0.1:50051") == ("127.0.0.1:50051", 1)
    assert batch_target("127.0.0.1:1,127.0.0.1:2") == ("ipv4:///127.0.0.1:1,127.0.0.1:2", 2)
    assert batch_target("[::1]:1,[::1]:2") == ("ipv6:///[::1]:1,[::1]:2", 2)
    assert batch_target("localhost:1,127.0.0.1:2") == ("ipv4:///127.0.0.1:1,127.0.0.1:2", 2)
    assert batch_target("dns:///localhost:50051")[0] == "dns:///localhost:50051"
    with pytest.raises(ValueError):
        batch_target("127.0.0.1:1,[::1]:2")
    with pytest.raises(ValueError):
        batch_target("nohost,127.0.0.1:2")


def test_read_report_cuts_a_torn_line(tmp_path):
    report = tmp_path / "r.jsonl"
    report.write_text('{"source": "a", "status": "UNIQUE"}\n{"source": "b", "sta')
    assert read_report(str(report)) == {"a"}
    assert report.read_text() == '{"source": "a", "status": "UNIQUE"}\n'
    assert read_report(str(tmp_path / "missing.jsonl")) == set()


def test_janko_solution_from_the_grid_alone():
    grid = ((0, 0, 0), (0, 1, 2), (0, 2, 1))
    assert janko_solution(grid) == "3 3\n- - -\n- 1 2\n- 2 1\n"
