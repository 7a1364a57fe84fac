"""Generation speed per kind, size and grade, beside Tatham's Keen, Towers and Solo.

    python benchmarks/generate.py [--kinds kenken,skyscraper,kakuro,kakurasu,sudoku,jigsaw]
                                  [--count 20] [--grades easy,hard] [--sizes kenken=6,9]
                                  [--seed 1] [--timeout 120] [--json]

For every setting, makes ``--count`` puzzles with ``generate.generate_one`` (in this
process: what the Generate RPC runs per puzzle, the cross-check by both engines
included), seeds ``seed, seed + 1, ...``, and reports puzzles per second, the median and
p95 seconds per puzzle, candidates per puzzle, and how many hit the grade and were
unique (the driver raises on any that is not). For KenKen, Skyscraper, Sudoku and Jigsaw
Sudoku it then runs ``sgt-keen``/``sgt-towers --generate COUNT {size}d{tier}``, ``sgt-solo
--generate COUNT 3x3d{tier}`` (Jigsaw: ``3x3jd{tier}``) with ``--time-generation``
(package ``sgt-puzzles``, installed with apt when missing) in the same run, which prints
each puzzle's own generation time, and prints our median over theirs (``ratio``) and our
mean over theirs (``mean ratio``: seconds per puzzle over the whole run) per setting. Our
grades pair with Tatham's tiers in order (Keen: EASY-e, MEDIUM-n, HARD-h, EXPERT-x,
EXTREME-u; Towers has no Normal tier, so MEDIUM has no peer there); with Solo's at the
nearest tier of docs/sudoku-grades.md (EASY-b, MEDIUM-a, HARD-e, EXPERT-u, and EXTREME-u,
Solo's hardest, though none of its puzzles needs our trial).

``floor ms``: the median time, on the finished puzzles, of the work every puzzle must
have whatever the maker does: the chain's explanation that grades it (with the target's
techniques) and the cross-check by both engines (its median alone in brackets). A maker
cannot take its kind below it.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time

from numgrid.server import engines
from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import SearchTimeout
from numgrid.server.generate import ceiling
from numgrid.server.generate import generate_one
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Spec
from rich.console import Console
from rich.table import Table
from tatham import program

SIZES = {
    "kenken": ["6", "9"],
    "skyscraper": ["5", "6"],
    "kakuro": ["12x12", "30x30"],
    "kakurasu": ["6", "8"],
    "sudoku": ["9"],
    "jigsaw": ["9"],
    "killer": ["9"],
}
PEERS = {
    "kenken": "sgt-keen",
    "skyscraper": "sgt-towers",
    "sudoku": "sgt-solo",
    "jigsaw": "sgt-solo",
    "killer": "sgt-solo",
}
TIERS = {
    "sgt-keen": {"EASY": "e", "MEDIUM": "n", "HARD": "h", "EXPERT": "x", "EXTREME": "u"},
    "sgt-towers": {"EASY": "e", "HARD": "h", "EXPERT": "x", "EXTREME": "u"},
    "sgt-solo": {"EASY": "b", "MEDIUM": "a", "HARD": "e", "EXPERT": "u", "EXTREME": "u"},
}
SOLO_BOXES = {4: "2x2", 6: "2x3", 9: "3x3", 16: "4x4"}  # Solo's parameters by size
SOLO_VARIANTS = {"jigsaw": "j", "killer": "k"}


def peer_params(kind: str, size: int, tier: str) -> str:
    """The peer's game parameters for a size and tier: ``6dh``, ``3x3de``, ``3x3jdu``,
    ``3x3kdb``."""
    if PEERS[kind] != "sgt-solo":
        return f"{size}d{tier}"
    return f"{SOLO_BOXES[size]}{SOLO_VARIANTS.get(kind, '')}d{tier}"


_TIME = re.compile(r"#\d+: ([0-9.]+)\s*$")


def tatham_times(name: str, params: str, count: int) -> list[float]:
    """Seconds per puzzle as the peer reports them itself (no process start-up)."""
    done = subprocess.run(
        [program(name), "--generate", str(count), params, "--time-generation"],
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    return [float(m.group(1)) for line in done.stdout.splitlines() if (m := _TIME.search(line))]


def size_of(text: str) -> tuple[int, int]:
    rows, _, cols = text.partition("x")
    return int(rows), int(cols or rows)


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


# A puzzle made: seconds, candidates, grade made, floor seconds, cross-check seconds
Made = tuple[float, int, Grade | None, float, float]


def ours(
    kind: str, size: tuple[int, int], grade: Grade, count: int, seed: int, timeout
) -> list[Made | None]:
    """Per puzzle: seconds, candidates, grade made, floor seconds; None for a puzzle not
    made in time."""
    made: list[Made | None] = []
    for s in range(seed, seed + count):
        start = time.perf_counter()
        try:
            g = generate_one(KINDS[kind], Spec(*size, grade), s, Budget.seconds(timeout))
        except SearchTimeout:
            made.append(None)
            continue
        seconds = time.perf_counter() - start
        made.append((seconds, g.attempts, g.difficulty.grade, *floor(kind, grade, g.puzzle)))
    return made


def floor(kind: str, grade: Grade, puzzle) -> tuple[float, float]:
    """Seconds of the work every made puzzle needs (graded by the chain, cross-checked),
    and of the cross-check alone."""
    start = time.perf_counter()
    limit = ceiling(KINDS[kind], grade)
    KINDS[kind].logic.explain(puzzle, None, limit, budget=Budget.seconds(60))
    checked = time.perf_counter()
    engines.cross_check(KINDS[kind], puzzle, limit=2, fixed=None, budget=Budget.seconds(60))
    end = time.perf_counter()
    return end - start, end - checked


def measure(args) -> list[dict]:
    rows = []
    for kind in args.kinds:
        sizes = args.sizes.get(kind, SIZES[kind])
        for size_text in sizes:
            size = size_of(size_text)
            for grade in args.grades:
                problems = KINDS[kind].maker.problems(Spec(*size, grade))
                if problems:
                    rows.append(
                        {
                            "kind": kind,
                            "size": size_text,
                            "grade": grade.name,
                            "skipped": problems[0][1],
                        }
                    )
                    continue
                made = ours(kind, size, grade, args.count, args.seed, args.timeout)
                done = [m for m in made if m is not None]
                seconds = [m[0] for m in done]
                row = {
                    "kind": kind,
                    "size": size_text,
                    "grade": grade.name,
                    "made": len(done),
                    "asked": len(made),
                    "per_second": len(done) / sum(seconds) if seconds else 0.0,
                    "median": statistics.median(seconds) if seconds else None,
                    "mean": statistics.fmean(seconds) if seconds else None,
                    "p95": p95(seconds) if seconds else None,
                    "floor": statistics.median(m[3] for m in done) if done else None,
                    "cross_check": statistics.median(m[4] for m in done) if done else None,
                    "candidates": statistics.median(m[1] for m in done) if done else None,
                    "on_grade": sum(m[2] == grade for m in done),
                }
                peer = PEERS.get(kind)
                tier = TIERS.get(peer, {}).get(grade.name) if peer else None
                if peer and tier and size[0] == size[1]:
                    params = peer_params(kind, size[0], tier)
                    theirs = tatham_times(peer, params, args.count)
                    row["peer"] = f"{peer} {params}"
                    row["peer_median"] = statistics.median(theirs)
                    row["peer_mean"] = statistics.fmean(theirs)
                    row["peer_p95"] = p95(theirs)
                    if row["median"] is not None:
                        row["ratio"] = row["median"] / row["peer_median"]
                        row["mean_ratio"] = row["mean"] / row["peer_mean"]
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.1f}" if seconds < 0.01 else f"{seconds * 1000:,.0f}"


def table(rows: list[dict], count: int) -> Table:
    out = Table(title=f"Generate: {count} puzzles per setting, seconds per puzzle")
    for name in (
        "kind",
        "size",
        "grade",
        "made",
        "on grade",
        "per s",
        "median ms",
        "mean ms",
        "p95 ms",
        "floor ms",
        "candidates",
        "peer",
        "peer median ms",
        "peer mean ms",
        "peer p95 ms",
        "ratio",
        "mean ratio",
    ):
        out.add_column(name, justify="left" if name in ("kind", "grade", "peer") else "right")
    for r in rows:
        if "skipped" in r:
            out.add_row(
                r["kind"],
                r["size"],
                r["grade"],
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "refused: " + r["skipped"][:60],
                "",
                "",
                "",
                "",
                "",
            )
            continue
        ratio, mean_ratio = r.get("ratio"), r.get("mean_ratio")
        out.add_row(
            r["kind"],
            r["size"],
            r["grade"],
            f"{r['made']}/{r['asked']}",
            f"{r['on_grade']}/{r['made']}",
            f"{r['per_second']:.1f}",
            _ms(r["median"]),
            _ms(r["mean"]),
            _ms(r["p95"]),
            f"{_ms(r['floor'])} ({_ms(r['cross_check'])})",
            f"{r['candidates']:g}" if r["candidates"] is not None else "-",
            r.get("peer", ""),
            _ms(r.get("peer_median")),
            _ms(r.get("peer_mean")),
            _ms(r.get("peer_p95")),
            "" if ratio is None else f"{ratio:.1f}x",
            "" if mean_ratio is None else f"{mean_ratio:.1f}x",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="kenken,skyscraper,kakuro,kakurasu,sudoku,jigsaw")
    parser.add_argument("--count", type=int, default=20, help="puzzles per setting")
    parser.add_argument("--grades", default="easy,medium,hard,expert,extreme")
    parser.add_argument("--sizes", default="", help="e.g. kenken=6,9;kakuro=12x12")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per puzzle")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    args.kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    args.grades = [Grade[g.strip().upper()] for g in args.grades.split(",")]
    args.sizes = {
        kind: sizes.split(",")
        for kind, _, sizes in (part.partition("=") for part in args.sizes.split(";") if part)
    }
    # Warm up: OR-Tools' import and the first model are not a puzzle's time.
    generate_one(KINDS["kenken"], Spec(4, 4, None), 0, Budget.seconds(60))
    rows = measure(args)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        console = Console()
        if not console.is_terminal:  # a file or a pipe: the whole table, unwrapped
            console = Console(width=190)
        console.print(table(rows, args.count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
