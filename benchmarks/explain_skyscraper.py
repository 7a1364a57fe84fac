"""Explain every Skyscraper of the corpus logically and check every step against its solution.

    python benchmarks/explain_skyscraper.py [--limit N] [--max-technique NAME]
                                            [--corpus PATH] [--json]

Per puzzle: ``logic.explain`` from its givens; every placement must agree with the
published solution and every elimination must remove a value that is not the
solution's (any wrong step is a bug, and makes the script exit 1). Reports how many
chains complete the grid, how many without a trial, the grades (by variant: plain,
empty lots, diagonal), the steps per technique, and the time per puzzle. A published
solution that breaks the rules is reported as such (a transcription error in the data),
not counted as a wrong step.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from numgrid.server.core import EMPTY
from numgrid.server.kinds.skyscraper import formats, logic
from numgrid.server.kinds.skyscraper.model import SIDES, visible
from rich.console import Console
from rich.table import Table

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "skyscraper.json"


def wrong_steps(steps, solution) -> list[str]:
    """The steps that place a value other than the solution's or remove the solution's."""
    wrong = []
    for step in steps:
        bad = [f"{r},{c}={v}" for (r, c), v in step.placements if solution[r][c] != v]
        bad += [f"{r},{c}!={v}" for (r, c), v in step.eliminations if solution[r][c] == v]
        if bad:
            wrong.append(f"{step.technique.name} {' '.join(bad)}: {step.explanation}")
    return wrong


def solution_ok(puzzle, solution) -> bool:
    """The rules, checked directly: each line holds 1..H once and N - H empty lots, the
    givens hold, and every clue sees its towers."""
    n = puzzle.size
    want = sorted([*range(1, puzzle.height + 1), *[EMPTY] * puzzle.empties])
    lines = [[solution[r][c] for r, c in line.cells] for line in puzzle.lines]
    if len(solution) != n or any(sorted(line) != want for line in lines):
        return False
    if any(puzzle.givens[r][c] not in (0, solution[r][c]) for r, c in puzzle.cells):
        return False
    return all(
        not clue or visible(solution[r][c] for r, c in side.cells(i, n)) == clue
        for side in SIDES
        for i, clue in enumerate(puzzle.clues(side))
    )


def variant(puzzle) -> str:
    return ("lots " if puzzle.empties else "") + ("diagonal" if puzzle.diagonals else "")


def explain_one(name: str, item: dict, max_technique) -> dict:
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
        "variant": variant(puzzle).strip() or "plain",
        "seconds": seconds,
        "steps": len(explanation.steps),
        "solved": explanation.solved,
        "trial": counts[logic.Technique.TRIAL] > 0,
        "grade": explanation.grade.name if explanation.grade else "none",
        "counts": {t.name: n for t, n in counts.items()},
        "wrong": wrong_steps(explanation.steps, solution),
    }


def summarise(results: list[dict]) -> dict:
    done = [r for r in results if "error" not in r]
    times = [r["seconds"] for r in done] or [0.0]
    return {
        "puzzles": len(results),
        "published_solution_invalid": [r["name"] for r in results if "error" in r],
        "steps_checked": sum(r["steps"] for r in done),
        "wrong_steps": sum(len(r["wrong"]) for r in done),
        "completed": sum(r["solved"] for r in done),
        "completed_without_trial": sum(r["solved"] and not r["trial"] for r in done),
        "needed_trial": [r["name"] for r in done if r["trial"]],
        "stalled": [r["name"] for r in done if not r["solved"]],
        "grades": {
            v: dict(Counter(r["grade"] for r in done if r["variant"] == v))
            for v in sorted({r["variant"] for r in done})
        },
        "technique_steps": dict(sum((Counter(r["counts"]) for r in done), Counter())),
        "puzzles_using": {
            t.name: sum(r["counts"][t.name] > 0 for r in done) for t in logic.Technique
        },
        "seconds": {
            "total": sum(times),
            "median": statistics.median(times),
            "max": max(times),
            "slowest": max(done, key=lambda r: r["seconds"])["name"] if done else "",
        },
    }


def report(console: Console, summary: dict, wrong: list[tuple[str, str]]) -> None:
    n = summary["puzzles"] - len(summary["published_solution_invalid"])
    table = Table(title="Logical Skyscraper explanations over the corpus", show_header=False)
    table.add_row("puzzles", str(summary["puzzles"]))
    if summary["published_solution_invalid"]:
        table.add_row(
            "published solution invalid", ", ".join(summary["published_solution_invalid"])
        )
    table.add_row("steps checked", str(summary["steps_checked"]))
    table.add_row("wrong steps", str(summary["wrong_steps"]))
    table.add_row("completed", f"{summary['completed']} / {n}")
    table.add_row("completed without trial", f"{summary['completed_without_trial']} / {n}")
    table.add_row("needed a trial", ", ".join(summary["needed_trial"]) or "-")
    table.add_row("stalled", ", ".join(summary["stalled"]) or "-")
    s = summary["seconds"]
    table.add_row(
        "time per puzzle",
        f"total {s['total']:.1f} s, median {1000 * s['median']:.0f} ms, "
        f"max {1000 * s['max']:.0f} ms ({s['slowest']})",
    )
    console.print(table)
    grades = Table(title="Grades by variant")
    grades.add_column("variant")
    names = [g.name for g in logic.Grade]
    for name in names:
        grades.add_column(name, justify="right")
    for kind, counted in summary["grades"].items():
        grades.add_row(kind, *(str(counted.get(name, 0)) for name in names))
    console.print(grades)
    steps = Table(title="Steps per technique")
    for column in ("technique", "steps", "puzzles using it"):
        steps.add_column(column, justify="left" if column == "technique" else "right")
    for t in logic.Technique:
        steps.add_row(
            t.name,
            str(summary["technique_steps"].get(t.name, 0)),
            str(summary["puzzles_using"][t.name]),
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


if __name__ == "__main__":
    sys.exit(main())
