"""Explain every Kakurasu of the corpus logically and check every step against its solution.

    python benchmarks/explain_kakurasu.py [--limit N] [--max-technique NAME] [--corpus PATH]
                                          [--json]

Per puzzle: ``logic.explain`` from the empty grid; every placement (a cell shaded, or
left white) must agree with the published solution (any wrong step is a bug, and makes
the script exit 1). Reports how many chains complete the grid, how many without a trial,
the grades, the steps per technique, and the time per puzzle (total, median, p95, max).
A published solution that breaks the clues is reported as such (a transcription error in
the data), not counted as a wrong step.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from numgrid.server.core import Board
from numgrid.server.kinds.kakurasu import checks, formats, logic
from rich.console import Console
from rich.table import Table

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kakurasu.json"


def wrong_steps(steps, solution) -> list[str]:
    """The steps that place a value other than the solution's."""
    wrong = []
    for step in steps:
        bad = [f"{r},{c}={v}" for (r, c), v in step.placements if solution[r][c] != v]
        if bad:
            wrong.append(f"{step.technique.name} {' '.join(bad)}: {step.explanation}")
    return wrong


def explain_one(name: str, item: dict, max_technique: logic.Technique) -> dict:
    puzzle = formats.read_janko(item["problem"]).puzzle
    solution = formats.read_solution(item["solution"])
    if not checks.validate_board(Board(puzzle, solution)).solved:
        return {"name": name, "error": "published solution breaks the clues"}
    start = time.perf_counter()
    explanation = logic.explain(puzzle, max_technique=max_technique)
    seconds = time.perf_counter() - start
    counts = explanation.technique_counts
    return {
        "name": name,
        "size": f"{puzzle.rows}x{puzzle.cols}",
        "seconds": seconds,
        "steps": len(explanation.steps),
        "solved": explanation.solved,
        "trial": counts[logic.Technique.TRIAL] > 0,
        "grade": explanation.grade.name if explanation.grade else None,
        "counts": {t.name: n for t, n in counts.items()},
        "wrong": wrong_steps(explanation.steps, solution),
        "contradiction": explanation.contradiction,
    }


def summarise(results: list[dict]) -> dict:
    done = [r for r in results if "error" not in r]
    times = sorted(r["seconds"] for r in done) or [0.0]
    return {
        "puzzles": len(results),
        "published_solution_invalid": [r["name"] for r in results if "error" in r],
        "wrong_steps": sum(len(r["wrong"]) for r in done),
        "steps_checked": sum(r["steps"] for r in done),
        "completed": sum(r["solved"] for r in done),
        "completed_without_trial": sum(r["solved"] and not r["trial"] for r in done),
        "needed_trial": [r["name"] for r in done if r["trial"]],
        "stalled": [r["name"] for r in done if not r["solved"]],
        "grades": dict(Counter(r["grade"] or "none" for r in done).most_common()),
        "technique_steps": {
            t.name: sum(r["counts"][t.name] for r in done) for t in logic.Technique
        },
        "puzzles_using": {
            t.name: sum(1 for r in done if r["counts"][t.name]) for t in logic.Technique
        },
        "seconds": {
            "total": sum(times),
            "median": statistics.median(times),
            "p95": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
            "max": times[-1],
            "slowest": max(done, key=lambda r: r["seconds"])["name"] if done else "",
        },
    }


def report(console: Console, summary: dict, wrong: list[tuple[str, str]]) -> None:
    n = summary["puzzles"] - len(summary["published_solution_invalid"])
    table = Table(title="Logical Kakurasu explanations over the corpus", show_header=False)
    table.add_row("puzzles", str(summary["puzzles"]))
    if summary["published_solution_invalid"]:
        invalid = ", ".join(summary["published_solution_invalid"])
        table.add_row("published solution invalid", invalid)
    table.add_row("steps checked", str(summary["steps_checked"]))
    table.add_row("wrong steps", str(summary["wrong_steps"]))
    table.add_row("completed", f"{summary['completed']} / {n}")
    table.add_row("completed without trial", f"{summary['completed_without_trial']} / {n}")
    table.add_row("needed a trial", ", ".join(summary["needed_trial"]) or "-")
    table.add_row("stalled", ", ".join(summary["stalled"]) or "-")
    s = summary["seconds"]
    table.add_row(
        "time per puzzle",
        f"total {s['total']:.2f} s, median {1000 * s['median']:.1f} ms, "
        f"p95 {1000 * s['p95']:.1f} ms, max {1000 * s['max']:.1f} ms ({s['slowest']})",
    )
    console.print(table)
    grades = Table(title="Grades")
    for column in ("grade", "puzzles", "share"):
        grades.add_column(column, justify="left" if column == "grade" else "right")
    for grade in [*(g.name for g in logic.Grade), "none"]:
        count = summary["grades"].get(grade, 0)
        if count or grade != "none":
            grades.add_row(grade, str(count), f"{100 * count / n:.1f} %" if n else "-")
    console.print(grades)
    steps = Table(title="Steps per technique")
    for column in ("technique", "steps", "puzzles using it"):
        steps.add_column(column, justify="left" if column == "technique" else "right")
    for technique in logic.Technique:
        name = technique.name
        steps.add_row(
            name, str(summary["technique_steps"][name]), str(summary["puzzles_using"][name])
        )
    console.print(steps)
    for name, message in wrong[:20]:
        console.print(f"[red]WRONG[/red] {name}: {message}")


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
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    data = json.loads(args.corpus.read_text())["data"]
    max_technique = logic.Technique[args.max_technique]
    results = [explain_one(name, data[name], max_technique) for name in list(data)[: args.limit]]
    summary = summarise(results)
    wrong = [(r["name"], w) for r in results for w in r.get("wrong", ())]
    if args.json:
        print(json.dumps({"summary": summary, "puzzles": results}, indent=1))
    else:
        report(Console(), summary, wrong)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
