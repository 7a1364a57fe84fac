"""Explain every KenKen of the corpus logically and check every step against its solution.

    python benchmarks/explain_kenken.py [--limit N] [--max-technique NAME] [--corpus PATH]
                                        [--json]

Per puzzle: ``logic.explain`` from the empty grid; every placement must agree with the
published solution and every elimination must remove a digit that is not the solution's
(any wrong step is a bug, and makes the script exit 1). Reports how many chains complete
the grid, how many without a trial, the grades, the steps per technique, and the time
per puzzle (total, median, p95, max, and the slowest by size). A published solution that
breaks the rules is reported as such (a transcription error in the data), not counted as
a wrong step.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from numgrid.server.kinds.kenken import arith, formats, logic
from rich.console import Console
from rich.table import Table

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kenken.json"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def wrong_steps(steps, solution) -> list[str]:
    """The steps that place a digit other than the solution's or remove the solution's."""
    wrong = []
    for step in steps:
        bad = [f"{r},{c}={d}" for (r, c), d in step.placements if solution[r][c] != d]
        bad += [f"{r},{c}!={d}" for (r, c), d in step.eliminations if solution[r][c] == d]
        if bad:
            wrong.append(f"{step.technique.name} {' '.join(bad)}: {step.explanation}")
    return wrong


def solution_ok(puzzle, solution) -> bool:
    """The rules, checked directly: a latin square whose cages give their targets."""
    n = puzzle.size
    if len(solution) != n or any(sorted(row) != list(range(1, n + 1)) for row in solution):
        return False
    if any(sorted(col) != list(range(1, n + 1)) for col in zip(*solution, strict=True)):
        return False
    return all(
        arith.gives(cage.operation, [solution[r][c] for r, c in cage.cells], cage.target)
        for cage in puzzle.cages
    )


def explain_one(name: str, item: dict, max_technique: logic.Technique) -> dict:
    puzzle = formats.read_janko(item["problem"]).puzzle
    solution = formats.read_solution(item["solution"])
    if not solution_ok(puzzle, solution):
        return {"name": name, "error": "published solution breaks the rules"}
    start = time.perf_counter()
    explanation = logic.explain(puzzle, max_technique=max_technique)
    seconds = time.perf_counter() - start
    counts = explanation.technique_counts
    return {
        "name": name,
        "size": puzzle.size,
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
    bad_data = [r for r in results if "error" in r]
    done = [r for r in results if "error" not in r]
    times = [r["seconds"] for r in done]
    by_size: dict[int, list[dict]] = {}
    for r in done:
        by_size.setdefault(r["size"], []).append(r)
    return {
        "puzzles": len(results),
        "published_solution_invalid": [r["name"] for r in bad_data],
        "wrong_steps": sum(len(r["wrong"]) for r in done),
        "steps_checked": sum(r["steps"] for r in done),
        "completed": sum(r["solved"] for r in done),
        "completed_without_trial": sum(r["solved"] and not r["trial"] for r in done),
        "needed_trial": [r["name"] for r in done if r["trial"]],
        "stalled": [r["name"] for r in done if not r["solved"]],
        "grades": dict(Counter(r["grade"] or "none" for r in done).most_common()),
        "technique_steps": dict(sum((Counter(r["counts"]) for r in done), Counter()).most_common()),
        "puzzles_using": {
            t.name: sum(1 for r in done if r["counts"][t.name]) for t in logic.Technique
        },
        "seconds": {
            "total": sum(times),
            "median": statistics.median(times) if times else 0.0,
            "p95": _percentile(times, 0.95),
            "max": max(times, default=0.0),
            "slowest": max(done, key=lambda r: r["seconds"])["name"] if done else "",
        },
        "by_size": {
            size: {
                "puzzles": len(rs),
                "grades": dict(Counter(r["grade"] or "none" for r in rs)),
                "median_seconds": statistics.median(r["seconds"] for r in rs),
                "max_seconds": max(r["seconds"] for r in rs),
                "median_steps": statistics.median(r["steps"] for r in rs),
            }
            for size, rs in sorted(by_size.items())
        },
    }


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
    names = list(data)[: args.limit]
    max_technique = logic.Technique[args.max_technique]
    results = [explain_one(name, data[name], max_technique) for name in names]
    summary = summarise(results)
    wrong = [(r["name"], w) for r in results for w in r.get("wrong", ())]
    if args.json:
        print(json.dumps({"summary": summary, "puzzles": results}, indent=1))
    else:
        report(Console(), summary, wrong)
    return 1 if wrong else 0


def report(console: Console, summary: dict, wrong: list[tuple[str, str]]) -> None:
    n = summary["puzzles"] - len(summary["published_solution_invalid"])
    table = Table(title="Logical KenKen explanations over the corpus", show_header=False)
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
    sizes = Table(title="By size")
    for column in ("size", "puzzles", *(g.name for g in logic.Grade), "median", "max", "steps"):
        sizes.add_column(column, justify="right")
    for size, row in summary["by_size"].items():
        sizes.add_row(
            f"{size}x{size}",
            str(row["puzzles"]),
            *(str(row["grades"].get(g.name, 0)) for g in logic.Grade),
            f"{1000 * row['median_seconds']:.0f} ms",
            f"{1000 * row['max_seconds']:.0f} ms",
            f"{row['median_steps']:.0f}",
        )
    console.print(sizes)
    steps = Table(title="Steps per technique (all puzzles)")
    steps.add_column("technique")
    steps.add_column("steps", justify="right")
    steps.add_column("puzzles using it", justify="right")
    for technique in logic.Technique:
        steps.add_row(
            technique.name,
            str(summary["technique_steps"].get(technique.name, 0)),
            str(summary["puzzles_using"][technique.name]),
        )
    console.print(steps)
    for name, message in wrong[:20]:
        console.print(f"[red]WRONG[/red] {name}: {message}")


if __name__ == "__main__":
    sys.exit(main())
