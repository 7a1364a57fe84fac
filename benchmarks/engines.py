"""Uniqueness over a whole corpus (of any kind served) on each engine, beside puzzlekit.

    python benchmarks/engines.py [--kind kakuro|kenken|kakurasu|skyscraper|sudoku|jigsaw|killer]
                                 [--engines native,cpsat,cross-check]
                                 [--limit N] [--corpus PATH] [--json]

Each engine, and puzzlekit, lives in a worker process of its own; the workers take the
puzzles in turns of 25 (puzzles 1-25 on every engine, then 26-50, ...), so on a shared
machine they all see the same load. Timed per puzzle: parse plus
``engines.find(..., limit=2)``, or ``puzzlekit.solve(text, "kakuro")`` (``"ken_ken"``
for KenKen; solve only), after one untimed warm-up. The corpus is the kind's in
``shared/corpus/`` (as the tests find it) unless ``--corpus`` says otherwise; the
corpus puzzles its tests know as published X variants without saying so (the kind's
``unmarked_x`` facts) are read as X by our engines, and as given by puzzlekit. A worker's
``ru_maxrss`` is its peak memory. A solution other than the published one, or a
verdict other than UNIQUE, is printed, and from one of our engines makes the script
exit 1; the targets only report.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from numgrid.server.kinds import KINDS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.corpus import corpus_path
from support.facts import facts

PUZZLEKIT_NAME = {
    "kakuro": "kakuro",
    "kenken": "ken_ken",
    "kakurasu": "kakurasu",
    "skyscraper": "skyscraper",
    "sudoku": "sudoku",
    "jigsaw": "jigsaw_sudoku",
    "killer": "killer_sudoku",
}
ENGINES = ("native", "cpsat", "cross-check")
BASELINE = "puzzlekit"
MEMORY = (
    "peak RSS (ru_maxrss) of each engine's own worker process: interpreter, imports and "
    "the loaded corpus included; 'base MB' is that before the first puzzle"
)
RATIO_TARGETS = {  # of puzzlekit's solve-only total
    "kakuro": {"native": 0.25, "cpsat": 0.5},
    "kenken": {"native": 0.2},
    "kakurasu": {"native": 0.2},
    "skyscraper": {"native": 0.2},
    "sudoku": {},
    "jigsaw": {"native": 0.2},
    "killer": {"native": 0.1},
}
NATIVE_MAX_SECONDS = 0.1
MEMORY_LIMIT_MB = 300
CHUNK = 25  # puzzles an engine solves before the next engine takes the same ones


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6  # KiB on Linux


def _value(token: str, kind_name: str) -> int:
    """A cell of puzzlekit's solution as our grids have it (a Kakurasu's ``x``: 1, ``-``: -1;
    a Skyscraper's empty lot, ``0``: -1)."""
    if kind_name == "kakurasu":
        return 1 if token == "x" else -1
    if kind_name == "skyscraper":  # an empty lot is 0 there
        return int(token) or -1
    return 0 if token == "-" else int(token)


def _solver(name: str, kind_name: str):
    """``problem text -> (grid with 0 for black cells, what is wrong or "")``."""
    if name == BASELINE:
        import puzzlekit

        def solve(text: str, as_x: bool = False):
            found = puzzlekit.solve(text, PUZZLEKIT_NAME[kind_name])
            grid = found.solution_data["solution_grid"]
            rows = tuple(tuple(_value(t, kind_name) for t in row) for row in grid.matrix)
            return rows, "" if rows else "no solution"

        return solve
    from numgrid.server import engines
    from numgrid.server.core import Verdict

    kind, engine = KINDS[kind_name], engines.Engine(name)

    def find(text: str, as_x: bool = False):
        if as_x:  # the janko header of an X variant: 'N N X'
            header, rest = text.split("\n", 1)
            text = f"{header} X\n{rest}"
        answer = engines.find(kind, kind.formats.read(text, "janko").puzzle, engine=engine, limit=2)
        ok = answer.verdict is Verdict.UNIQUE
        return answer.solutions[0] if answer.solutions else (), "" if ok else answer.verdict.value

    return find


def worker(name: str, kind_name: str, corpus: Path) -> None:
    """Solve the puzzles ``first`` to ``end`` of each line on stdin; one JSON line each."""
    read_solution = KINDS[kind_name].formats.read_solution
    solve = _solver(name, kind_name)
    puzzles = list(json.loads(corpus.read_text())["data"].items())
    unmarked_x = facts(KINDS[kind_name]).unmarked_x
    print(json.dumps({"base_mb": _rss_mb()}), flush=True)
    solve(puzzles[0][1]["problem"])  # untimed warm-up: lazy imports, first-solve set-up
    for line in sys.stdin:
        first, end = map(int, line.split())
        for pid, entry in puzzles[first:end]:
            start = time.perf_counter()
            try:
                grid, problem = solve(entry["problem"], pid in unmarked_x)
            except Exception as e:  # reported as a mismatch, never hidden
                grid, problem = (), f"{type(e).__name__}: {e}"
            seconds = time.perf_counter() - start
            if not problem and grid != read_solution(entry["solution"]):
                problem = "solution differs from the published one"
            print(json.dumps({"id": pid, "s": seconds, "problem": problem}), flush=True)
    print(json.dumps({"peak_mb": _rss_mb()}), flush=True)


def _reply(proc: subprocess.Popen[str]) -> dict | None:
    assert proc.stdout is not None  # started with stdout=PIPE
    line = proc.stdout.readline()
    return json.loads(line) if line else None  # None: the worker died


def measure(
    names: list[str], kind_name: str, corpus: Path, count: int, progress
) -> dict[str, dict]:
    command = [sys.executable, __file__, "--kind", kind_name, "--corpus", str(corpus)]
    workers = {
        name: subprocess.Popen(
            [*command, "--worker", name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in names
    }
    out: dict[str, dict[str, Any]] = {
        name: {"mismatches": [], "times": {}, "verified": 0, "base_mb": 0.0} for name in names
    }
    for name, proc in workers.items():
        out[name] |= _reply(proc) or {}
    task = progress.add_task("puzzles", total=count)
    for k, first in enumerate(range(0, count, CHUNK)):
        end = min(first + CHUNK, count)
        for name in names[k % len(names) :] + names[: k % len(names)]:
            proc = workers[name]
            assert proc.stdin is not None  # started with stdin=PIPE
            try:
                proc.stdin.write(f"{first} {end}\n")
                proc.stdin.flush()
            except BrokenPipeError:  # the worker died; reported below
                continue
            for _ in range(first, end):
                if (rec := _reply(proc)) is None:
                    break
                out[name]["times"][rec["id"]] = rec["s"]
                out[name]["verified"] += not rec["problem"]
                if rec["problem"]:
                    out[name]["mismatches"].append(f"{rec['id']}: {rec['problem']}")
                    progress.console.print(
                        f"[bold red]MISMATCH {name} {rec['id']}: {rec['problem']}"
                    )
        progress.advance(task, end - first)
    for name, proc in workers.items():
        out[name]["peak_mb"] = math.nan  # unknown if the worker died
        if proc.poll() is None:
            assert proc.stdin is not None
            proc.stdin.close()
            out[name] |= _reply(proc) or {}
        if proc.wait():
            done = len(out[name]["times"])
            out[name]["mismatches"].append(
                f"worker exited with status {proc.returncode} after {done}"
            )
    return {name: summary(r) for name, r in out.items()}


def summary(r: dict) -> dict:
    times = r.pop("times")
    ordered = sorted(times.values()) or [0.0]
    max_id = max(times, key=times.get, default="")
    return r | {
        "puzzles": len(times),
        "total_s": sum(ordered),
        "median_s": statistics.median(ordered),
        "p99_s": ordered[math.ceil(0.99 * len(ordered)) - 1],
        "max_s": ordered[-1],
        "max_id": max_id,
    }


def targets(
    results: dict[str, dict], count: int, kind_name: str = "kakuro"
) -> list[tuple[bool, str, str]]:
    """``(passed, target, measured)`` for each target that this run can judge."""
    found = []

    def judge(name: str, passed: bool, target: str, measured: str) -> None:
        if results[name]["puzzles"] < count or results[BASELINE]["puzzles"] < count:
            passed, measured = False, f"not judged, a worker died ({measured})"
        found.append((passed, target, measured))

    for name, limit in RATIO_TARGETS[kind_name].items():
        if name in results:
            ratio = results[name]["ratio"]
            judge(name, ratio <= limit, f"{name} total <= {limit}x puzzlekit", f"{ratio:.3f}x")
    if "native" in results:
        r = results["native"]
        shown = f"{r['max_s'] * 1e3:.1f} ms ({r['max_id']})"
        judge("native", r["max_s"] <= NATIVE_MAX_SECONDS, "native: no puzzle over 100 ms", shown)
    for name, r in results.items():
        if name != BASELINE:
            target = f"{name} peak memory < {MEMORY_LIMIT_MB} MB"
            judge(name, r["peak_mb"] < MEMORY_LIMIT_MB, target, f"{r['peak_mb']:.0f} MB")
    return found


def report(results: dict[str, dict], checks: list, console, kind_name: str = "kakuro") -> None:
    from rich.table import Table

    title = f"{KINDS[kind_name].title} uniqueness (limit=2); puzzlekit: solve only"
    table = Table(title=title, title_justify="left")
    for col in ("engine", "total s", "ratio", "median ms", "p99 ms", "max ms", "max puzzle"):
        table.add_column(col, justify="left" if col in ("engine", "max puzzle") else "right")
    for col in ("verified", "peak MB", "base MB"):
        table.add_column(col, justify="right")
    for name, r in results.items():
        table.add_row(
            name,
            f"{r['total_s']:.2f}",
            f"{r['ratio']:.3f}x",
            f"{r['median_s'] * 1e3:.1f}",
            f"{r['p99_s'] * 1e3:.1f}",
            f"{r['max_s'] * 1e3:.1f}",
            r["max_id"],
            f"{r['verified']}/{r['puzzles']}",
            f"{r['peak_mb']:.0f}",
            f"{r['base_mb']:.0f}",
        )
    console.print(table)
    console.print(f"Memory: {MEMORY}.")
    for passed, target, measured in checks:
        console.print(f"{'[green]PASS' if passed else '[red]FAIL'}[/] {target}: {measured}")
    for name, r in results.items():
        for m in r["mismatches"]:
            console.print(f"[bold red]MISMATCH {name} {m}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated")
    parser.add_argument("--limit", type=int, help="only the first N puzzles")
    parser.add_argument("--kind", choices=sorted(KINDS), default="kakuro")
    parser.add_argument("--corpus", type=Path, help="default: shared/corpus/<kind>.json")
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.corpus = args.corpus or corpus_path(args.kind)
    if args.worker:
        worker(args.worker, args.kind, args.corpus)
        return 0
    from rich.console import Console
    from rich.progress import BarColumn
    from rich.progress import MofNCompleteColumn
    from rich.progress import Progress
    from rich.progress import TimeElapsedColumn

    names = [n.strip() for n in args.engines.split(",") if n.strip()]
    if unknown := set(names) - set(ENGINES):
        parser.error(f"unknown engine(s) {', '.join(sorted(unknown))}; known: {', '.join(ENGINES)}")
    count = len(json.loads(args.corpus.read_text())["data"])
    count = min(count, args.limit or count)
    console = Console(stderr=args.json, width=max(Console().width, 120))
    load = [os.getloadavg()[0]]
    columns = (*Progress.get_default_columns()[:2], BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=console) as progress:
        results = measure([BASELINE, *names], args.kind, args.corpus, count, progress)
    load.append(os.getloadavg()[0])
    for r in results.values():
        r["ratio"] = r["total_s"] / (results[BASELINE]["total_s"] or math.inf)
    checks = targets(results, count, args.kind)
    # puzzlekit's wrong answers are its own (reported, its 'verified' column counts them)
    failed = any(r["mismatches"] for name, r in results.items() if name != BASELINE)
    if args.json:
        listed = [{"pass": p, "target": t, "measured": m} for p, t, m in checks]
        payload = {"memory": MEMORY, "load_average": load, "engines": results, "targets": listed}
        print(json.dumps(payload, indent=2))
    else:
        report(results, checks, console, args.kind)
        console.print(f"Load average (1 min) before and after: {load[0]:.2f}, {load[1]:.2f}.")
    if failed:
        console.print("[bold red]FAILED: see the mismatches above")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
