"""Explain every puzzle of a kind's corpus logically and check every step against its solution.

    python benchmarks/explain.py [--kind {kakuro,kenken,skyscraper,kakurasu,killer}] [--limit N]
                                 [--max-technique NAME] [--hints N] [--corpus PATH] [--json]

``--kind`` defaults to kakuro; ``--corpus`` to ``../shared/corpus/KIND.json``;
``--max-technique`` (the hardest technique the chain may use, one of the kind's) to TRIAL.

Per puzzle: the kind's ``explain`` from the empty grid (a Skyscraper's givens held);
every placement must agree with the published solution and every elimination must
remove a value that is not the solution's (any wrong step is a bug, and makes the script
exit 1). Reports how many chains complete the grid, how many without a trial (and which
needed one), the grades, the grades and times by size (by variant for Skyscraper:
plain, empty lots, diagonal), the steps per technique and how many puzzles use each, and
the time per puzzle (total, median, p95, max, the slowest). A published solution that
breaks the rules is reported as such (a transcription error in the data), not counted
as a wrong step.

``--hints N`` also times ``next_step(..., placements_only=True)`` the way a Hint RPC
calls it: on N puzzles of the kind's hint size (Kakuro 12x12, KenKen 9x9, Skyscraper
6x6, Kakurasu 11x11), from the entries a player would have after 10, 30, 50, 70 and 90 %
of the chain (its placements so far), a fresh position each call.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import progress_bar
from numgrid.server.chain import Grade
from numgrid.server.core import Board
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import Kind
from rich.console import Console
from rich.table import Table

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpus"
HINT_TARGET_P95 = 0.050


def _size(puzzle) -> str:
    return f"{puzzle.rows}x{puzzle.cols}"


def _variant(puzzle) -> str:
    lots = "lots " if puzzle.empties else ""
    return (lots + ("diagonal" if puzzle.diagonals else "")).strip() or "plain"


@dataclass(frozen=True)
class Setup:
    """What this script shows of a kind beyond its interface."""

    title: str
    group: str  # the per-puzzle field and table the results are broken down by
    group_of: Callable[[object], str]
    hint_shape: tuple[int, int]


SETUPS = {
    "kakuro": Setup("Kakuro", "size", _size, (12, 12)),
    "kenken": Setup("KenKen", "size", _size, (9, 9)),
    "skyscraper": Setup("Skyscraper", "variant", _variant, (6, 6)),
    "kakurasu": Setup("Kakurasu", "size", _size, (11, 11)),
    "killer": Setup("Killer Sudoku", "size", _size, (9, 9)),
}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.1f} ms" if seconds < 0.1 else f"{1000 * seconds:.0f} ms"


def _group_key(group: str):
    """Sizes by rows then columns (``9x9`` before ``10x10``), variants by name."""
    parts = group.split("x")
    return (0, *map(int, parts)) if all(p.isdigit() for p in parts) else (1, group)


def read_solution(kind: Kind, text: str):
    """The published solution's grid, read by the kind."""
    return kind.formats.read_solution(text)


def _unmarked_x(kind: Kind) -> frozenset[str]:
    """The corpus puzzles the tests know as published X variants without saying so."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.facts import facts

    return facts(kind).unmarked_x


def solution_ok(kind: Kind, puzzle, solution) -> bool:
    """The rules, checked by the kind: the solution as entries is well formed (no
    given overwritten) and solves the board."""
    if any(finding.is_error for finding in kind.checks.check_puzzle(puzzle, solution, None)):
        return False
    return kind.checks.validate_board(Board(puzzle, solution), None).solved


def wrong_steps(steps, solution) -> list[str]:
    """The steps that place a value other than the solution's or remove the solution's."""
    wrong = []
    for step in steps:
        bad = [f"{r},{c}={v}" for (r, c), v in step.placements if solution[r][c] != v]
        bad += [f"{r},{c}!={v}" for (r, c), v in step.eliminations if solution[r][c] == v]
        if bad:
            wrong.append(f"{step.technique.name} {' '.join(bad)}: {step.explanation}")
    return wrong


def hint_positions(puzzle, steps) -> list:
    """Entries a player would have after 10 %, 30 %, .., 90 % of the chain's steps."""
    positions = []
    for fraction in (0.1, 0.3, 0.5, 0.7, 0.9):
        entries = [list(row) for row in puzzle.empty_grid()]
        for step in steps[: int(len(steps) * fraction)]:
            for (r, c), v in step.placements:
                entries[r][c] = v
        positions.append(entries)
    return positions


def explain_one(kind: Kind, name: str, item: dict, max_technique, hints: bool) -> dict:
    setup = SETUPS[kind.name]
    puzzle = kind.formats.read(item["problem"], "janko", None).puzzle
    if name in _unmarked_x(kind):  # published with the X rule the data leaves out
        puzzle = dataclasses.replace(puzzle, diagonals=True)
    solution = read_solution(kind, item["solution"])
    if not solution_ok(kind, puzzle, solution):
        return {"name": name, "error": "published solution breaks the rules"}
    start = time.perf_counter()
    explanation = kind.logic.explain(puzzle, None, max_technique, budget=None)
    seconds = time.perf_counter() - start
    counts = explanation.technique_counts
    shape = (puzzle.rows, puzzle.cols)
    return {
        "name": name,
        "shape": list(shape),
        setup.group: setup.group_of(puzzle),
        "seconds": seconds,
        "steps": len(explanation.steps),
        "solved": explanation.solved,
        "trial": counts[kind.logic.Technique["TRIAL"]] > 0,
        "grade": explanation.grade.name if explanation.grade else None,
        "counts": {t.name: n for t, n in counts.items()},
        "wrong": wrong_steps(explanation.steps, solution),
        "contradiction": explanation.contradiction,
        "_hints": hint_positions(puzzle, explanation.steps)
        if hints and shape == setup.hint_shape and explanation.solved
        else [],
    }


def hint_times(kind: Kind, item: dict, positions: list) -> list[float]:
    puzzle = kind.formats.read(item["problem"], "janko", None).puzzle
    hardest = kind.logic.Technique["TRIAL"]
    times = []
    for entries in positions:
        start = time.perf_counter()
        kind.logic.next_step(puzzle, entries, hardest, True, budget=None)
        times.append(time.perf_counter() - start)
    return times


def summarise(kind: Kind, results: list[dict]) -> dict:
    group = SETUPS[kind.name].group
    done = [r for r in results if "error" not in r]
    times = [r["seconds"] for r in done]
    groups: dict[str, list[dict]] = {}
    for r in sorted(done, key=lambda r: _group_key(r[group])):
        groups.setdefault(r[group], []).append(r)
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
            t.name: sum(r["counts"][t.name] for r in done) for t in kind.logic.Technique
        },
        "puzzles_using": {
            t.name: sum(1 for r in done if r["counts"][t.name]) for t in kind.logic.Technique
        },
        "seconds": {
            "total": sum(times),
            "median": statistics.median(times) if times else 0.0,
            "p95": _percentile(times, 0.95),
            "max": max(times, default=0.0),
            "slowest": max(done, key=lambda r: r["seconds"])["name"] if done else "",
        },
        f"by_{group}": {
            key: {
                "puzzles": len(rs),
                "grades": dict(Counter(r["grade"] or "none" for r in rs)),
                "median_seconds": statistics.median(r["seconds"] for r in rs),
                "max_seconds": max(r["seconds"] for r in rs),
                "median_steps": statistics.median(r["steps"] for r in rs),
            }
            for key, rs in groups.items()
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=list(SETUPS), default="kakuro")
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--corpus", type=Path, default=None, help="default: the kind's corpus")
    parser.add_argument(
        "--max-technique",
        default="TRIAL",
        metavar="NAME",
        help="hardest technique the chain may use (one of the kind's; default TRIAL)",
    )
    parser.add_argument("--hints", type=int, default=0, metavar="N", help="time hints on N")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    kind = KINDS[args.kind]
    names_of_techniques = [t.name for t in kind.logic.Technique]
    if args.max_technique not in names_of_techniques:
        parser.error(
            f"--max-technique: {args.max_technique!r} is no {args.kind} technique "
            f"(choose from {', '.join(names_of_techniques)})"
        )
    max_technique = kind.logic.Technique[args.max_technique]
    corpus = args.corpus or CORPORA / f"{kind.name}.json"
    if not corpus.is_file() and args.corpus is None:  # a dataset named as the kind
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from support.corpus import corpus_path

        corpus = corpus_path(kind.name)
    console = Console(stderr=args.json)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 120  # a file or pipe: room for the by-size table's columns
    data = json.loads(corpus.read_text())["data"]
    names = list(data)[: args.limit]

    results = []
    hint_seconds: list[float] = []
    with progress_bar("{task.description}", console, transient=args.json) as progress:
        task = progress.add_task("explaining", total=len(names))
        for name in names:
            results.append(explain_one(kind, name, data[name], max_technique, args.hints > 0))
            progress.advance(task)
        if args.hints:
            chosen = [r for r in results if r.get("_hints")][: args.hints]
            task = progress.add_task("hints", total=len(chosen))
            gc.collect()
            for r in chosen:
                hint_seconds += hint_times(kind, data[r["name"]], r["_hints"])
                progress.advance(task)

    summary = summarise(kind, results)
    if hint_seconds:
        summary["hint_seconds"] = {
            "positions": len(hint_seconds),
            "median": statistics.median(hint_seconds),
            "p95": _percentile(hint_seconds, 0.95),
            "max": max(hint_seconds),
        }
    wrong = [(r["name"], w) for r in results for w in r.get("wrong", ())]
    if args.json:
        per_puzzle = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
        print(json.dumps({"summary": summary, "puzzles": per_puzzle}, indent=1))
    else:
        report(console, kind, summary, wrong)
    return 1 if wrong else 0


def report(console: Console, kind: Kind, summary: dict, wrong: list[tuple[str, str]]) -> None:
    setup = SETUPS[kind.name]
    n = summary["puzzles"] - len(summary["published_solution_invalid"])
    table = Table(title=f"Logical {setup.title} explanations over the corpus", show_header=False)
    table.add_row("puzzles", str(summary["puzzles"]))
    if summary["published_solution_invalid"]:
        invalid = ", ".join(summary["published_solution_invalid"])
        table.add_row("published solution invalid", invalid)
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
        f"total {s['total']:.2f} s, median {_ms(s['median'])}, p95 {_ms(s['p95'])}, "
        f"max {_ms(s['max'])} ({s['slowest']})",
    )
    if "hint_seconds" in summary:
        h = summary["hint_seconds"]
        verdict = "ok" if h["p95"] < HINT_TARGET_P95 else "OVER TARGET"
        rows, cols = setup.hint_shape
        table.add_row(
            f"hint (placements_only), {rows}x{cols}",
            f"{h['positions']} positions: median {1000 * h['median']:.1f} ms, "
            f"p95 {1000 * h['p95']:.1f} ms, max {1000 * h['max']:.1f} ms "
            f"(target p95 < {1000 * HINT_TARGET_P95:.0f} ms: {verdict})",
        )
    console.print(table)

    grade_names = [g.name for g in Grade]
    grades = Table(title="Grades")
    for column in ("grade", "puzzles", "share"):
        grades.add_column(column, justify="left" if column == "grade" else "right")
    for grade in [*grade_names, "none"]:
        count = summary["grades"].get(grade, 0)
        if count or grade != "none":
            grades.add_row(grade, str(count), f"{100 * count / n:.1f} %" if n else "-")
    console.print(grades)

    by_group = summary[f"by_{setup.group}"]
    if summary["grades"].get("none"):
        grade_names.append("none")
    groups = Table(title=f"By {setup.group}")
    for column in (setup.group, "puzzles", *grade_names, "median", "max", "steps"):
        groups.add_column(
            column, justify="left" if column == setup.group else "right", no_wrap=True
        )
    for key, row in by_group.items():
        groups.add_row(
            key,
            str(row["puzzles"]),
            *(str(row["grades"].get(g, 0)) for g in grade_names),
            _ms(row["median_seconds"]),
            _ms(row["max_seconds"]),
            f"{row['median_steps']:.0f}",
        )
    console.print(groups)

    steps = Table(title="Steps per technique (all puzzles)")
    for column in ("technique", "steps", "puzzles using it"):
        steps.add_column(column, justify="left" if column == "technique" else "right")
    for technique in kind.logic.Technique:
        name = technique.name
        steps.add_row(
            name, str(summary["technique_steps"][name]), str(summary["puzzles_using"][name])
        )
    console.print(steps)
    for name, message in wrong[:20]:
        console.print(f"[red]WRONG[/red] {name}: {message}")


if __name__ == "__main__":
    sys.exit(main())
