"""Explain every Kakuro of the corpus logically and check every step against its solution.

    python benchmarks/explain_corpus.py [--limit N] [--max-technique NAME] [--hints N]
                                        [--corpus PATH] [--json]

Per puzzle: ``logic.explain`` from the empty grid; every placement must agree with the
published solution and every elimination must remove a digit that is not the solution's
(any wrong step is a bug, and makes the script exit 1). Reports how many chains complete
the grid, how many without a trial, the grades, and the time per puzzle (total, median,
p95, max). A published solution that breaks the rules is reported as such (a
transcription error in the data), not counted as a wrong step.

``--hints N`` also times ``next_step(..., placements_only=True)`` the way a Hint RPC
calls it: on N puzzles of 12x12, from the entries a player would have after 10, 30, 50,
70 and 90 % of the chain (its placements so far), a fresh position each call.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from numgrid.server.core import Board
from numgrid.server.kinds.kakuro import formats, logic
from numgrid.server.kinds.kakuro.checks import validate_board
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kakuro.json"
HINT_SHAPE = (12, 12)
HINT_TARGET_P95 = 0.050


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _wrong_steps(steps, solution) -> list[str]:
    wrong = []
    for step in steps:
        bad = [f"{r},{c}={d}" for (r, c), d in step.placements if solution[r][c] != d]
        bad += [f"{r},{c}!={d}" for (r, c), d in step.eliminations if solution[r][c] == d]
        if bad:
            wrong.append(f"{step.technique.name} {' '.join(bad)}: {step.explanation}")
    return wrong


def hint_positions(puzzle, steps) -> list:
    """Entries a player would have after 10 %, 30 %, .., 90 % of the chain's steps."""
    positions = []
    for fraction in (0.1, 0.3, 0.5, 0.7, 0.9):
        entries = [list(row) for row in puzzle.empty_grid()]
        for step in steps[: int(len(steps) * fraction)]:
            for (r, c), d in step.placements:
                entries[r][c] = d
        positions.append(entries)
    return positions


def explain_one(name: str, item: dict, max_technique: logic.Technique, hints: bool) -> dict:
    board = formats.read_janko(item["problem"])
    solution = formats.read_solution(item["solution"])
    if not validate_board(Board(board.puzzle, solution)).solved:
        return {"name": name, "error": "published solution breaks the rules"}
    start = time.perf_counter()
    explanation = logic.explain(board.puzzle, max_technique=max_technique)
    seconds = time.perf_counter() - start
    counts = explanation.technique_counts
    shape = (board.puzzle.rows, board.puzzle.cols)
    return {
        "name": name,
        "shape": list(shape),
        "seconds": seconds,
        "steps": len(explanation.steps),
        "solved": explanation.solved,
        "trial": counts[logic.Technique.TRIAL] > 0,
        "grade": explanation.grade.name if explanation.grade else None,
        "counts": {t.name: n for t, n in counts.items()},
        "wrong": _wrong_steps(explanation.steps, solution),
        "contradiction": explanation.contradiction,
        "_hints": hint_positions(board.puzzle, explanation.steps)
        if hints and shape == HINT_SHAPE and explanation.solved
        else [],
    }


def hint_times(item: dict, positions: list) -> list[float]:
    puzzle = formats.read_janko(item["problem"]).puzzle
    times = []
    for entries in positions:
        start = time.perf_counter()
        logic.next_step(puzzle, entries, placements_only=True)
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--max-technique",
        default="TRIAL",
        choices=[t.name for t in logic.Technique],
        help="hardest technique the chain may use",
    )
    parser.add_argument("--hints", type=int, default=0, metavar="N", help="time hints on N")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    console = Console(stderr=args.json)
    data = json.loads(args.corpus.read_text())["data"]
    names = list(data)[: args.limit]
    max_technique = logic.Technique[args.max_technique]

    results = []
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=args.json,
    ) as progress:
        task = progress.add_task("explaining", total=len(names))
        for name in names:
            results.append(explain_one(name, data[name], max_technique, args.hints > 0))
            progress.advance(task)
        hint_seconds: list[float] = []
        if args.hints:
            chosen = [r for r in results if r.get("_hints")][: args.hints]
            task = progress.add_task("hints", total=len(chosen))
            gc.collect()
            for r in chosen:
                hint_seconds += hint_times(data[r["name"]], r["_hints"])
                progress.advance(task)

    bad_data = [r for r in results if "error" in r]
    done = [r for r in results if "error" not in r]
    times = [r["seconds"] for r in done]
    wrong = [(r["name"], w) for r in done for w in r["wrong"]]
    summary = {
        "puzzles": len(results),
        "published_solution_invalid": [r["name"] for r in bad_data],
        "wrong_steps": len(wrong),
        "steps_checked": sum(r["steps"] for r in done),
        "completed": sum(r["solved"] for r in done),
        "completed_without_trial": sum(r["solved"] and not r["trial"] for r in done),
        "needed_trial": [r["name"] for r in done if r["trial"]],
        "stalled": [r["name"] for r in done if not r["solved"]],
        "grades": dict(Counter(r["grade"] or "none" for r in done).most_common()),
        "technique_steps": dict(sum((Counter(r["counts"]) for r in done), Counter()).most_common()),
        "seconds": {
            "total": sum(times),
            "median": statistics.median(times) if times else 0.0,
            "p95": _percentile(times, 0.95),
            "max": max(times, default=0.0),
            "slowest": max(done, key=lambda r: r["seconds"])["name"] if done else "",
        },
    }
    if hint_seconds:
        summary["hint_seconds"] = {
            "positions": len(hint_seconds),
            "median": statistics.median(hint_seconds),
            "p95": _percentile(hint_seconds, 0.95),
            "max": max(hint_seconds),
        }
    if args.json:
        per_puzzle = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
        print(json.dumps({"summary": summary, "puzzles": per_puzzle}, indent=1))
    else:
        _report(console, summary, wrong)
    return 1 if wrong else 0


def _report(console: Console, summary: dict, wrong: list[tuple[str, str]]) -> None:
    n = summary["puzzles"] - len(summary["published_solution_invalid"])
    table = Table(title="Logical explanations over the corpus", show_header=False)
    table.add_row("puzzles", str(summary["puzzles"]))
    if summary["published_solution_invalid"]:
        table.add_row(
            "published solution invalid", ", ".join(summary["published_solution_invalid"])
        )
    table.add_row("steps checked", str(summary["steps_checked"]))
    table.add_row("wrong steps", str(summary["wrong_steps"]))
    pct = 100 * summary["completed_without_trial"] / n if n else 0.0
    table.add_row("completed", f"{summary['completed']} / {n}")
    table.add_row(
        "completed without trial", f"{summary['completed_without_trial']} / {n} ({pct:.1f} %)"
    )
    table.add_row("needed a trial", ", ".join(summary["needed_trial"]) or "-")
    table.add_row("stalled", ", ".join(summary["stalled"]) or "-")
    s = summary["seconds"]
    table.add_row(
        "time per puzzle",
        f"total {s['total']:.1f} s, median {1000 * s['median']:.0f} ms, "
        f"p95 {1000 * s['p95']:.0f} ms, max {1000 * s['max']:.0f} ms ({s['slowest']})",
    )
    if "hint_seconds" in summary:
        h = summary["hint_seconds"]
        verdict = "ok" if h["p95"] < HINT_TARGET_P95 else "OVER TARGET"
        table.add_row(
            f"hint (placements_only), {HINT_SHAPE[0]}x{HINT_SHAPE[1]}",
            f"{h['positions']} positions: median {1000 * h['median']:.1f} ms, "
            f"p95 {1000 * h['p95']:.1f} ms, max {1000 * h['max']:.1f} ms "
            f"(target p95 < {1000 * HINT_TARGET_P95:.0f} ms: {verdict})",
        )
    console.print(table)
    grades = Table(title="Grades")
    grades.add_column("grade")
    grades.add_column("puzzles", justify="right")
    grades.add_column("share", justify="right")
    for grade in [*(g.name for g in logic.Grade), "none"]:
        count = summary["grades"].get(grade, 0)
        if count or grade != "none":
            grades.add_row(grade, str(count), f"{100 * count / n:.1f} %" if n else "-")
    console.print(grades)
    steps = Table(title="Steps per technique (all puzzles)")
    steps.add_column("technique")
    steps.add_column("steps", justify="right")
    for technique in logic.Technique:
        steps.add_row(technique.name, str(summary["technique_steps"].get(technique.name, 0)))
    console.print(steps)
    for name, message in wrong[:20]:
        console.print(f"[red]WRONG[/red] {name}: {message}")


if __name__ == "__main__":
    sys.exit(main())
