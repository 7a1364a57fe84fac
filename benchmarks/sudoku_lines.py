"""Uniqueness of the Sudoku benchmark files (one puzzle a line) with the native engine,
beside Norvig's solver or beside CP-SAT.

    python benchmarks/sudoku_lines.py [--norvig PATH/TO/sudoku.py] [--cpsat] [--floor]
                                      [FILE ...]

FILE defaults to ``shared/corpus/sudoku-17clue-sample.txt`` and ``sudoku-top1465.txt``;
a corpus ``.json`` (``sudoku.json``, ``jigsaw-sudoku.json``) is read too, each puzzle as
its janko text. The native engine proves uniqueness (limit 2, parse included); Norvig's
solver (``norvig/pytudes``, ``py/sudoku.py``, not part of this repository: give its
path) solves only (a line file's puzzles), in a process of its own. The engines take the
puzzles in turns of 25, one after the other (the machine is shared: each sees the load
the others do): the native engine and, with ``--cpsat``, CP-SAT (limit 2, parse
included) in this process, whose every answer must be the native engine's, and Norvig's
solver in its process. Each is timed in CPU seconds of its process and in wall seconds.
Every puzzle of a line file must be UNIQUE, else the script names it and exits 1.
``--floor`` times, per call through ``cpsat_runner``, what no Sudoku model can beat: a
model of one Boolean, and the first file's first 300 puzzles with every cell given (no
search), beside the native engine on those puzzles as given.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from numgrid.server.core import Budget
from numgrid.server.core import SearchResult
from numgrid.server.kinds import KINDS

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
FILES = ("sudoku-17clue-sample.txt", "sudoku-top1465.txt")
TURN = 25  # puzzles an engine takes before the other's turn
# Norvig's solver in a process of its own: each turn, lines to solve and an empty line;
# it answers its CPU and wall seconds for them (what the solver prints goes to stderr).
NORVIG = """
import importlib.util, sys, time
answer, sys.stdout = sys.stdout, sys.stderr
spec = importlib.util.spec_from_file_location("norvig", sys.argv[1])
norvig = importlib.util.module_from_spec(spec)
spec.loader.exec_module(norvig)
turn = []
for line in sys.stdin:
    if line.strip():
        turn.append(line.strip())
        continue
    cpu, wall = time.process_time(), time.perf_counter()
    for text in turn:
        assert norvig.solve(text), text
    print(time.process_time() - cpu, time.perf_counter() - wall, file=answer, flush=True)
    turn = []
"""


class Norvig:
    """Norvig's solver taking its turns in a process of its own: its totals as
    :class:`Engine`'s."""

    def __init__(self, path: Path) -> None:
        self.name = "norvig"
        self.cpu = self.wall = 0.0
        self.process = subprocess.Popen(
            [sys.executable, "-c", NORVIG, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def turn(self, texts: list[str]) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write("\n".join(texts) + "\n\n")
            self.process.stdin.flush()
            cpu, wall = map(float, self.process.stdout.readline().split())
        except (BrokenPipeError, ValueError):  # it ended, its error on stderr
            raise SystemExit(f"Norvig's solver failed (exit {self.process.wait()})") from None
        self.cpu += cpu
        self.wall += wall

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        if self.process.wait() != 0:
            raise SystemExit("Norvig's solver failed")


def lines(path: Path) -> list[str]:
    return [
        line.strip()
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


def puzzles(path: Path) -> tuple[str, str, list[tuple[str, str]]]:
    """The kind, the format and the (name, text) of each puzzle of a file."""
    if path.suffix == ".json":
        kind = "jigsaw" if "jigsaw" in path.name else "sudoku"
        data = json.loads(path.read_text())["data"]
        return kind, "janko", [(name, entry["problem"]) for name, entry in data.items()]
    return "sudoku", "line", [(f"line {n}", text) for n, text in enumerate(lines(path), 1)]


class Engine:
    """One engine's totals over a file: CPU and wall seconds, the slowest puzzle."""

    def __init__(self, name: str, search: Callable[[Any, Any], SearchResult]) -> None:
        self.name, self.search = name, search
        self.cpu = self.wall = 0.0
        self.slowest = (0.0, "")

    def run(self, kind: Any, fmt: str, name: str, text: str) -> SearchResult:
        cpu, wall = time.process_time(), time.perf_counter()
        found = self.search(kind, kind.formats.read(text, fmt, None).puzzle)
        took = time.perf_counter() - wall
        self.cpu += time.process_time() - cpu
        self.wall += took
        self.slowest = max(self.slowest, (took, name))
        return found

    def line(self, path: Path, count: int) -> str:
        took, name = self.slowest
        return (
            f"{path.name}: {self.name} {count / self.cpu:.0f}/s CPU ({self.cpu:.2f} s), "
            f"{count / self.wall:.0f}/s wall; slowest {name} ({took * 1000:.0f} ms)"
        )


def native_search(kind: Any, puzzle: Any) -> SearchResult:
    result: SearchResult = kind.native.search(puzzle, limit=2)
    return result


def cpsat_search(kind: Any, puzzle: Any) -> SearchResult:
    from numgrid.server import cpsat_runner

    return cpsat_runner.search(kind, puzzle, limit=2, fixed=None, budget=Budget.seconds(60))


def measure(
    path: Path, cpsat: bool, norvig: Norvig | None = None
) -> tuple[list[Engine], Counter[str], int]:
    """The engines' totals over a file (Norvig's solver's in ``norvig``), the native
    engine's verdicts, and how many puzzles failed: not UNIQUE in a line file, or
    CP-SAT's answer other than native's."""
    kind_name, fmt, items = puzzles(path)
    kind = KINDS[kind_name]
    engines = [Engine("native", native_search)]
    if cpsat:
        kind.cpsat_module()  # OR-Tools' import (half a second) is not a puzzle's
        engines.append(Engine("cpsat", cpsat_search))
    bad, verdicts = 0, Counter[str]()
    for start in range(0, len(items), TURN):
        turn = items[start : start + TURN]
        answers = [[engine.run(kind, fmt, name, text) for name, text in turn] for engine in engines]
        if norvig is not None:
            norvig.turn([text for _, text in turn])
        for k, (name, _) in enumerate(turn):
            found = [answer[k] for answer in answers]
            verdicts[found[0].verdict().value] += 1
            if fmt == "line" and {f.verdict().value for f in found} != {"UNIQUE"}:
                print(f"{path.name}: {name}: {', '.join(f.verdict().value for f in found)}")
                bad += 1
            if len(found) == 2 and (
                found[0].verdict() is not found[1].verdict()
                or (len(found[0].solutions) < 2 and found[0].solutions != found[1].solutions)
            ):
                print(f"{path.name}: {name}: native and CP-SAT differ")
                bad += 1
    return engines, verdicts, bad


def floor(path: Path) -> str:
    """CP-SAT's cost per call of a model of one Boolean and of full grids, and the native
    engine's of the puzzles (parse included), in CPU ms: rounds taken in turn."""
    from numgrid.server import cpsat_runner
    from numgrid.server.kinds.units.cpsat import OneHot

    kind = KINDS["sudoku"]
    texts = lines(path)[:300]
    full = [
        "".join(
            str(v)
            for row in native_search(kind, kind.formats.read(t, "line", None).puzzle).solutions[0]
            for v in row
        )
        for t in texts
    ]

    class Tuned(cpsat_runner.LeanModel):
        parameters = OneHot.parameters

    class One:  # a kind whose model is one Boolean
        rows = cols = 1

        def cpsat_model(self, puzzle: Any, fixed: Any) -> Any:
            model = Tuned()
            return model, {(0, 0): model.new_bool_var("")}

    one: Any = One()

    def per_call(run: Callable[[], Any], count: int) -> float:
        cpu = time.process_time()
        run()
        return (time.process_time() - cpu) / count * 1000

    def ones() -> None:
        for _ in texts:
            cpsat_runner.search(one, one, limit=2, fixed=None, budget=Budget.seconds(60))

    def grids(items: list[str], search: Callable[[Any, Any], SearchResult]) -> None:
        for text in items:
            search(kind, kind.formats.read(text, "line", None).puzzle)

    rounds = [
        (
            per_call(ones, len(texts)),
            per_call(lambda: grids(full, cpsat_search), len(full)),
            per_call(lambda: grids(texts, cpsat_search), len(texts)),
            per_call(lambda: grids(texts, native_search), len(texts)),
        )
        for _ in range(3)
    ]
    names = ("one Boolean", "9x9 all given", f"{path.name}", f"native {path.name}")
    return "floor, CPU ms a call (3 rounds): " + "; ".join(
        f"{name} {', '.join(f'{r[k]:.2f}' for r in rounds)}" for k, name in enumerate(names)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--norvig", type=Path, help="a copy of norvig/pytudes py/sudoku.py")
    parser.add_argument("--cpsat", action="store_true", help="CP-SAT beside native")
    parser.add_argument("--floor", action="store_true", help="CP-SAT's cost without search")
    args = parser.parse_args()
    failed = 0
    paths = args.files or [CORPUS / name for name in FILES]
    if args.floor:
        KINDS["sudoku"].cpsat_module()
        print(floor(paths[0]))
    for path in paths:
        line_file = path.suffix != ".json"
        norvig = Norvig(args.norvig) if args.norvig and line_file else None
        engines, verdicts, bad = measure(path, args.cpsat, norvig)
        count = sum(verdicts.values())
        failed += bad
        for engine in engines:
            print(engine.line(path, count))
        if args.cpsat:
            native, cpsat = engines
            print(
                f"{path.name}: cpsat/native time: {cpsat.cpu / native.cpu:.1f}x CPU, "
                f"{cpsat.wall / native.wall:.1f}x wall; "
                + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
                + (f"; {bad} differ" if bad else "; every answer the same")
            )
        if norvig is not None:
            norvig.close()
            cpu, wall = engines[0].cpu, engines[0].wall
            print(
                f"{path.name}: norvig {count / norvig.cpu:.0f}/s CPU, "
                f"{count / norvig.wall:.0f}/s wall; native/norvig rate: "
                f"{norvig.cpu / cpu:.1f}x CPU, {norvig.wall / wall:.1f}x wall"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
