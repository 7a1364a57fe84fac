"""CP-SAT parameters of a kind's model, side by side, on puzzles the generator makes.

    python benchmarks/cpsat_parameters.py [--kind killer] [--grades medium,expert]
                                          [--seeds 8] [--rounds 3] [--with-lp] [--json]

Makes ``--seeds`` 9x9 puzzles per grade (seeds 1..N, the Generate driver's own puzzles,
cross-checked), then solves each to its second solution as the engines do
(``cpsat_runner.search``, ``limit=2``) under each variant in turn (its settings on top
of the model's own parameters): puzzle by puzzle, every variant one after another, so a
machine slowing down mid-run slows them all. Prints per variant the median, sum and
maximum over all solves; a puzzle not found UNIQUE exits 1. ``--with-lp`` adds the LP
relaxation variants (minutes: 50-80x slower on Killers).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from numgrid.server import cpsat_runner
from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.generate import generate_one
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Spec
from rich.console import Console
from rich.table import Table

# CP-SAT's defaults for the switches the model's own parameters set
OFF = {"cp_model_presolve": False, "use_sat_inprocessing": False, "max_presolve_iterations": 3}
BOTH = {**OFF, "cp_model_presolve": True, "use_sat_inprocessing": True}
# name: settings on top of the model's own parameters (each says every switch, so a
# variant means the same whatever the model's own are)
VARIANTS: dict[str, dict[str, Any]] = {
    "presolve and inprocessing off": OFF,
    "presolve on": {**OFF, "cp_model_presolve": True},
    "inprocessing on": {**OFF, "use_sat_inprocessing": True},
    "presolve and inprocessing on": BOTH,
    "presolve (one pass) and inprocessing on": {**BOTH, "max_presolve_iterations": 1},
    "presolve on, probing level 1": {**OFF, "cp_model_presolve": True, "cp_model_probing_level": 1},
}
LP_VARIANTS: dict[str, dict[str, Any]] = {
    "LP relaxation (linearization 1)": {**OFF, "linearization_level": 1},
    "linearization 1 and presolve": {**OFF, "linearization_level": 1, "cp_model_presolve": True},
    "linearization 2": {**OFF, "linearization_level": 2},
}


def model_class(kind_name: str, puzzle: Any) -> type[cpsat_runner.LeanModel]:
    """The class whose ``parameters`` the runner reads for this kind's models."""
    model, _ = KINDS[kind_name].cpsat_model(puzzle, None)
    return type(model)


def measure(
    kind_name: str, grades: list[Grade], seeds: int, rounds: int, variants: dict[str, dict]
) -> dict[str, list[float]]:
    kind = KINDS[kind_name]
    puzzles = [
        generate_one(kind, Spec(9, 9, grade), seed, Budget.seconds(120)).puzzle
        for grade in grades
        for seed in range(1, seeds + 1)
    ]
    cls = model_class(kind_name, puzzles[0])
    own = cls.parameters
    times: dict[str, list[float]] = {name: [] for name in variants}
    try:
        for _ in range(rounds):
            for puzzle in puzzles:
                for name, settings in variants.items():
                    cls.parameters = {**own, **settings}
                    start = time.perf_counter()
                    found = cpsat_runner.search(
                        kind, puzzle, limit=2, fixed=None, budget=Budget.seconds(60)
                    )
                    times[name].append(time.perf_counter() - start)
                    if len(found.solutions) != 1:
                        sys.exit(f"{name}: {len(found.solutions)} solutions to a made puzzle")
    finally:
        cls.parameters = own
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--kind", default="killer", choices=sorted(KINDS))
    parser.add_argument("--grades", default="medium,expert")
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--with-lp", action="store_true", help="the LP relaxation too (slow)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    grades = [Grade[g.strip().upper()] for g in args.grades.split(",")]
    variants = {**VARIANTS, **(LP_VARIANTS if args.with_lp else {})}
    times = measure(args.kind, grades, args.seeds, args.rounds, variants)
    rows = {
        name: {
            "median_ms": statistics.median(ts) * 1000,
            "sum_s": sum(ts),
            "max_ms": max(ts) * 1000,
        }
        for name, ts in times.items()
    }
    if args.json:
        print(json.dumps(rows))
        return 0
    solves = len(next(iter(times.values())))
    table = Table(title=f"{args.kind} CP-SAT, {solves} solves a variant")
    for column in ("parameters", "median ms", "sum s", "max ms"):
        table.add_column(column, justify="left" if column == "parameters" else "right")
    for name, row in rows.items():
        table.add_row(
            name, f"{row['median_ms']:.1f}", f"{row['sum_s']:.2f}", f"{row['max_ms']:.0f}"
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
