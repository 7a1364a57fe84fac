"""``numgrid unique`` over many puzzles: inputs, the streamed batch, progress, report, resume.

The inputs are files, directories (every puzzle file under them), JSONL files (one
``{"id", "format", "puzzle"}`` per line) and dataset JSON files (``{"name", "count",
"data": {id: {"problem", ...}}}``, the shape of ``../shared/corpus/``). Every puzzle gets
an id, which is the ``source`` of its JSON line: the file's path, the JSONL line's id,
or the dataset's key. The puzzles are read as the streams have room for them and sent
with :func:`~numgrid.client.batch.check_many`; each result is printed (and written to
the report) as it comes, in the order the servers finish them.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass

from .batch import BatchItem, BatchResult, check_many
from .cli import (
    FAILURE,
    NOT_HAPPY,
    OK,
    PROG,
    STDIN,
    STDIN_SOURCE,
    NoServer,
    Outcome,
    UsageError,
    _cells_text,
    _error,
    _error_lines,
    _finding_json,
    _stats_json,
    _wrap,
    read_input,
)
from .client import FORMATS, KINDS
from .types import Grid, NumgridError

PUZZLE_SUFFIXES = (".txt", ".csv", ".json", ".jsonl")  # what a directory is searched for
SOLUTION_MARK = ".solution."  # `x.solution.txt` is a published solution, not a puzzle
COUNTS = ("UNIQUE", "MULTIPLE", "NO_SOLUTION", "INVALID", "TIMEOUT", "ERROR")
COUNT_NAMES = {"NO_SOLUTION": "none"}
CONNECT_TIMEOUT = 5.0  # seconds for the first server to answer before giving up


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True)
class _Source:
    """One input argument, expanded: where its puzzles come from and how many."""

    path: str
    kind: str  # "file", "stdin", "jsonl", "dataset"
    count: int
    data: dict | None = None  # a dataset's puzzles


def _is_dataset(value) -> bool:
    return isinstance(value, dict) and isinstance(value.get("data"), dict)


def _jsonl_count(path: str) -> int:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return sum(1 for line in f if line.strip())
    except OSError:
        return 1  # it is reported unreadable when its turn comes


def _classify(path: str) -> _Source:
    if path == STDIN:
        return _Source(path, "stdin", 1)
    if path.endswith(".jsonl"):
        return _Source(path, "jsonl", _jsonl_count(path))
    if path.endswith(".json"):
        with contextlib.suppress(UsageError, ValueError):
            value = json.loads(read_input(path, {})[1])
            if _is_dataset(value):
                return _Source(path, "dataset", len(value["data"]), value["data"])
    return _Source(path, "file", 1)


def _walk(directory: str) -> list[str]:
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or SOLUTION_MARK in name:
                continue
            if name.endswith(PUZZLE_SUFFIXES):
                found.append(os.path.join(root, name))
    return found


def expand(paths: list[str]) -> list[_Source]:
    """Every input argument as its sources; a directory as the puzzle files under it."""
    sources = []
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            sources.extend(_classify(p) for p in _walk(path))
        else:
            sources.append(_classify(path))
    return sources


def needs_batch(paths: list[str]) -> bool:
    """Inputs only a batch reads: a directory, a JSONL file or a dataset."""
    for path in paths:
        if path == STDIN:
            continue
        if os.path.isdir(path) or path.endswith(".jsonl"):
            return True
        if path.endswith(".json") and _looks_like_dataset(path):
            return True
    return False


def _looks_like_dataset(path: str) -> bool:
    """A dataset starts ``{"name": ..., "count": ..., "data": {``; a puzzle ``{"kakuro"``."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return False
    return '"data"' in head and '"kakuro"' not in head.split('"data"')[0]


class _Unanswered:
    """Outcomes found while reading the inputs (unreadable files and lines), collected
    from the thread that reads them, printed by the main thread."""

    def __init__(self) -> None:
        self.outcomes: deque[Outcome] = deque()

    def add(self, source: str, message: str) -> None:
        self.outcomes.append(
            Outcome(source, "unique", "UNREADABLE", FAILURE, errors=[_error(message)])
        )

    def drain(self) -> Iterator[Outcome]:
        while self.outcomes:
            yield self.outcomes.popleft()


def _jsonl_items(
    path: str, fmt: str | None, kind: str | None, problems: _Unanswered
) -> Iterator[BatchItem]:
    try:
        f = open(path, encoding="utf-8")  # noqa: SIM115 - read lazily, closed below
    except OSError as e:
        problems.add(path, f"cannot read {path}: {e.strerror or e}")
        return
    with f:
        number = 0
        while True:
            number += 1
            where = f"{path}:{number}"
            try:
                line = f.readline()
            except UnicodeDecodeError:
                problems.add(where, f"cannot read {where}: not UTF-8 text")
                return
            if not line:
                return
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as e:
                problems.add(where, f"{where}: not a JSON object: {e}")
                continue
            if not isinstance(record, dict):
                problems.add(where, f"{where}: not a JSON object")
                continue
            source = str(record["id"]) if record.get("id") is not None else where
            puzzle, line_format = record.get("puzzle"), record.get("format")
            if isinstance(puzzle, dict):  # a structured puzzle, as in a .json file
                puzzle, line_format = json.dumps(puzzle), line_format or "json"
            if not isinstance(puzzle, str):
                problems.add(source, f'{where}: no "puzzle" text')
                continue
            if line_format not in FORMATS:
                problems.add(source, f"{where}: unknown format {line_format!r}")
                continue
            line_kind = record.get("kind") or kind
            if line_kind not in KINDS:
                problems.add(source, f"{where}: unsupported kind {line_kind!r}")
                continue
            yield BatchItem(source, puzzle, line_format if line_format else fmt, line_kind)


def items(
    sources: list[_Source],
    fmt: str | None,
    kind: str | None,
    skip: set[str],
    problems: _Unanswered,
) -> Iterator[BatchItem]:
    """The puzzles of ``sources`` read lazily, ids in ``skip`` (and repeats) left out."""
    seen: set[str] = set()
    stdin: dict = {}

    def fresh(source_id: str) -> bool:
        if source_id in skip:
            return False
        if source_id in seen:
            print(f"{PROG}: {source_id} appears twice; checked once", file=sys.stderr)
            return False
        seen.add(source_id)
        return True

    for source in sources:
        if source.kind == "dataset":
            for key, entry in source.data.items():
                if not fresh(key):
                    continue
                problem = entry.get("problem") if isinstance(entry, dict) else None
                if not isinstance(problem, str):
                    problems.add(key, f'{source.path}: {key} has no "problem" text')
                    continue
                yield BatchItem(key, problem, "janko", kind)
        elif source.kind == "jsonl":
            for item in _jsonl_items(source.path, fmt, kind, problems):
                if fresh(item.id):
                    yield item
        else:
            name = STDIN_SOURCE if source.kind == "stdin" else source.path
            if not fresh(name):
                continue
            try:
                _, text = read_input(source.path, stdin)
            except UsageError as e:
                problems.add(name, str(e))
                continue
            yield BatchItem(name, text, fmt, kind)


def _ids(source: _Source) -> Iterator[str]:
    """The ids of a source's puzzles, as far as they can be known before reading them."""
    if source.kind == "dataset":
        yield from source.data
    elif source.kind == "file":
        yield source.path
    elif source.kind == "stdin":
        yield STDIN_SOURCE
    else:  # JSONL: the ids of the lines that have one
        with contextlib.suppress(OSError, UnicodeDecodeError), open(source.path) as f:
            for line in f:
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    record = json.loads(line)
                    if record.get("id") is not None:
                        yield str(record["id"])


# ---------------------------------------------------------------- report


def read_report(path: str) -> set[str]:
    """The ids (``source``) already in a report; a torn last line (an interrupted write)
    is cut off, so that the lines appended next start on a line of their own."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return set()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with open(path, "r+b") as f:
            f.truncate(cut)
        data = data[:cut]
    done = set()
    for line in data.decode("utf-8", errors="replace").splitlines():
        with contextlib.suppress(ValueError, TypeError):
            record = json.loads(line)
            if isinstance(record, dict) and isinstance(record.get("source"), str):
                done.add(record["source"])
    return done


# ---------------------------------------------------------------- results


def janko_solution(grid: Grid) -> str:
    """A solution as janko text without the puzzle (batch results carry no puzzle): ``-``
    where the grid has 0 (Kakuro black cells) or -1 (a cell decided empty: a Kakurasu's
    white one, shaded ones being 1), the digits elsewhere."""
    rows = len(grid)
    cols = len(grid[0]) if grid else 0
    lines = [f"{rows} {cols}"]
    lines += [" ".join(str(d) if d > 0 else "-" for d in row) for row in grid]
    return "\n".join(lines) + "\n"


def outcome(result: BatchResult, width: int, full: bool = True) -> Outcome:
    """The JSON line and human text of one result: the shape of ``numgrid unique``.
    Without ``full`` (no JSON line is written), only what the human output needs: the
    solutions and statistics are not read from the message."""
    status = result.status
    code = OK if status == "UNIQUE" else FAILURE if status == "ERROR" else NOT_HAPPY
    out = Outcome(result.id, "unique", status, code, verdict=result.verdict)
    if full:
        out.stats = _stats_json(result.stats)
        out.solutions = [janko_solution(g) for g in result.solutions]
        out.differing_cells = list(result.differing_cells)
        # The keys of a one-file `unique` line; a batch does not grade (its results
        # leave the difficulty out: the logical solution would cost more than the check).
        out.extra = {"grade": None, "difficulty": None}
    if status == "INVALID":
        out.errors = [_finding_json(f) for f in result.findings] or [_error(result.message)]
        out.text = "\n".join(_error_lines(out.errors, width, 3))
    elif status == "ERROR":
        out.errors = [_error(f"{result.id}: {result.message}")]
    elif status == "MULTIPLE":
        cells = _cells_text(result.differing_cells)
        out.text = _wrap(
            "  ", f"two solutions differ at {len(result.differing_cells)} cells: {cells}", width
        )
    elif status == "TIMEOUT":
        out.text = "  the time limit ran out before an answer"
    elif status == "NO_SOLUTION":
        out.text = "  the puzzle has no solution"
    return out


class _Progress:
    """A rich progress bar on stderr (done/total, rate, ETA, running counts), or nothing."""

    def __init__(self, total: int, show: bool):
        self.counts: Counter = Counter()
        self.total = total
        self._bar = None
        if not show:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.text import Text

        class Bar(Progress):
            """The bar's line, and the running counts on a line of their own."""

            counts = ""

            def get_renderables(self):
                yield self.make_tasks_table(self.tasks)
                yield Text(self.counts)

        self._bar = Bar(
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            redirect_stdout=False,
            redirect_stderr=False,
            refresh_per_second=8,
        )
        self._bar.counts = self.text()
        self._task = self._bar.add_task("unique", total=total, rate="")

    def text(self) -> str:
        return "  ".join(f"{COUNT_NAMES.get(k, k.lower())} {self.counts[k]}" for k in COUNTS)

    def __enter__(self) -> _Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, status: str) -> None:
        self.counts[status] += 1
        if self._bar is not None:
            speed = self._bar.tasks[0].speed
            rate = f"{speed:,.0f}/s" if speed else ""
            self._bar.counts = self.text()
            self._bar.update(self._task, advance=1, rate=rate)

    def error(self, text: str) -> None:
        """A line on stderr: above the bar when there is one."""
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=sys.stderr, flush=True)

    def print(self, text: str) -> None:
        """A human line: above the bar when stdout is the bar's terminal."""
        if self._bar is not None and sys.stdout.isatty():
            self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, flush=True)


def summary(counts: Counter, total: int, seconds: float, skipped: int, resent: int = 0) -> str:
    done = sum(counts.values())
    parts = [f"{COUNT_NAMES.get(k, k.lower())} {counts[k]}" for k in COUNTS]
    if counts["UNREADABLE"]:
        parts.append(f"unreadable {counts['UNREADABLE']}")
    rate = done / seconds if seconds > 0 else 0.0
    text = f"{done} of {total} puzzles in {seconds:.1f} s ({rate:,.0f}/s): " + ", ".join(parts)
    if skipped:
        text += f"; {skipped} already in the report"
    if resent:
        text += f"; {resent} re-sent after a stream failed"
    return text


# ---------------------------------------------------------------- the command


def run(args, connect, width: int) -> int:
    """``numgrid unique`` as a batch; returns the exit code."""
    if args.resume and not args.report:
        raise UsageError("--resume needs --report FILE")
    done_before = read_report(args.report) if args.resume else set()
    sources = expand(args.files)
    total = sum(s.count for s in sources)
    skipped = 0
    if done_before:  # count what is left
        skipped = sum(1 for s in sources for key in _ids(s) if key in done_before)
        total -= skipped
    problems = _Unanswered()
    fmt = None if args.format == "auto" else args.format
    kind = None if args.kind == "auto" else args.kind
    todo = items(sources, fmt, kind, done_before, problems)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    try:
        report = open(args.report, "a", encoding="utf-8") if args.report else None  # noqa: SIM115
    except OSError as e:
        raise UsageError(f"cannot write {args.report}: {e.strerror or e}") from None
    worst, resent = OK, 0
    full = args.json or report is not None  # JSON lines are written
    start = time.monotonic()
    lock = threading.Lock()
    try:
        with _Progress(total, show) as progress:

            def emit(out: Outcome) -> None:
                nonlocal worst
                with lock:
                    worst = max(worst, out.code)
                    progress.advance(out.status)
                    line = json.dumps(out.as_json()) if full else ""
                    if report is not None:
                        report.write(line + "\n")
                        report.flush()
                    if out.status in ("UNREADABLE", "ERROR"):
                        progress.error(f"{PROG}: {out.errors[0]['message']}")
                    if args.json:
                        print(line, flush=True)
                    elif out.status != "UNIQUE" and out.code != FAILURE:
                        head = f"{out.source}: {out.status}"
                        progress.print(head + (f"\n{out.text}" if out.text else ""))

            client = connect()
            results = check_many(
                args.server or client.target,
                todo,
                credentials=client.credentials,
                engine=args.engine,
                time_limit=args.timeout,
                timeout=args.deadline,
                streams=args.streams,
                connect_timeout=CONNECT_TIMEOUT,
            )
            try:
                with contextlib.closing(results):
                    for result in results:
                        for early in problems.drain():
                            emit(early)
                        resent += result.attempts > 1
                        emit(outcome(result, width, full))
            except NumgridError as e:
                for early in problems.drain():
                    emit(early)
                if e.code == "UNAVAILABLE":
                    raise NoServer(e.message) from None
                left = total - sum(progress.counts.values())
                if e.code == "DEADLINE_EXCEEDED":
                    print(
                        f"{PROG}: the deadline passed with {left} of {total} puzzles unchecked"
                        + (" (--resume checks them)" if report else ""),
                        file=sys.stderr,
                    )
                else:
                    print(f"{PROG}: the batch failed: {e.code}: {e.message}", file=sys.stderr)
                worst = FAILURE
            for early in problems.drain():
                emit(early)
    finally:
        if report is not None:
            report.close()
    text = summary(progress.counts, total, time.monotonic() - start, skipped, resent)
    print(text, file=sys.stderr if args.json else sys.stdout, flush=True)
    return worst
