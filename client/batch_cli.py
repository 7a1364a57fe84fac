"""``numgrid solve``, ``unique`` and ``explain`` over any number of puzzles: inputs, the
streamed batch, the order of the output, progress, report, resume. The commands
(:mod:`.commands.solve`, ...) take their options from :func:`many_options` and run
:func:`stream` or :func:`explain_each`; ``print`` reads its inputs with :func:`items`.

The inputs are files, directories (every puzzle file under them), JSONL files (one
``{"id", "format", "puzzle"}`` per line), dataset JSON files (``{"name", "count",
"data": {id: {"problem", ...}}}``, the shape of ``../shared/corpus/``) and ``-`` (stdin),
in any mix. Every puzzle gets an id, which is the ``source`` of its JSON line: the
file's path, the JSONL line's id, or the dataset's key.

``solve`` and ``unique`` send every puzzle, one or thousands, through one code path: the
puzzles are read as the streams have room for them and sent with
:func:`~numgrid.client.batch.check_many` (BatchCheckUniqueness), asking the server for
each puzzle as it read it (to draw it and write its solutions in the kind's own form)
and, with ``--grade``, for the grade of each UNIQUE one. ``explain`` calls Explain once
per puzzle. Each result is written to the report as it comes; the output (JSON lines or
text) is in the order of the inputs, whatever order the servers finish in, and is the
same for a puzzle whether it came alone or with a thousand others. After two or more
puzzles a summary line follows (stderr with ``--json``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import sys
import textwrap
import threading
import time
from collections import Counter
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from .batch import BatchItem
from .batch import BatchResult
from .batch import check_many
from .cli_args import positive_int
from .cli_args import positive_seconds
from .cli_output import FAILURE
from .cli_output import LINK
from .cli_output import MAX_ERRORS
from .cli_output import NOT_HAPPY
from .cli_output import OK
from .cli_output import PROG
from .cli_output import STDIN
from .cli_output import STDIN_SOURCE
from .cli_output import NoServer
from .cli_output import Outcome
from .cli_output import UsageError
from .cli_output import cells_text
from .cli_output import error
from .cli_output import error_lines
from .cli_output import finding_json
from .cli_output import grade
from .cli_output import read_input
from .cli_output import rejected
from .cli_output import stats_json
from .cli_output import stats_text
from .cli_output import stdout_ascii_only
from .cli_output import wrap
from .client import FORMATS
from .client import KINDS
from .commands.base import Connect
from .commands.base import Context
from .commands.base import OneFile
from .progress import ProgressBar
from .render import RENDERERS
from .render import solution_text
from .types import Grid
from .types import NumgridError

PUZZLE_SUFFIXES = (".txt", ".csv", ".json", ".jsonl")  # what a directory is searched for
SOLUTION_MARK = ".solution."  # `x.solution.txt` is a published solution, not a puzzle
STREAMED = ("solve", "unique")  # ... through BatchCheckUniqueness
COUNTS = {
    "solve": ("UNIQUE", "MULTIPLE", "NO_SOLUTION", "INVALID", "TIMEOUT", "ERROR"),
    "unique": ("UNIQUE", "MULTIPLE", "NO_SOLUTION", "INVALID", "TIMEOUT", "ERROR"),
    "explain": ("SOLVED", "STALLED", "INVALID", "TIMEOUT", "ERROR"),
}
COUNT_NAMES = {"NO_SOLUTION": "none"}
HAPPY = {"solve": "UNIQUE", "unique": "UNIQUE", "explain": "SOLVED"}
GRADES = ("EASY", "MEDIUM", "HARD", "EXPERT", "EXTREME")
CONNECT_TIMEOUT = 5.0  # seconds for the first server to answer before giving up
_NO_ANSWER = {  # the text of a result without a solution
    "NO_SOLUTION": "the puzzle has no solution",
    "TIMEOUT": "the time limit ran out before an answer",
}


# ---------------------------------------------------------------- options


def many_options(sub: argparse.ArgumentParser, name: str) -> None:
    """The options of ``solve``, ``unique`` and ``explain`` over any number of puzzles."""
    how = (
        "one Explain call per puzzle"
        if name == "explain"
        else "every puzzle, one or many, is streamed (BatchCheckUniqueness)"
    )
    group = sub.add_argument_group(
        "many puzzles",
        "FILE may also be a directory (its puzzle files), a JSONL file (one "
        '{"id", "format", "puzzle"} per line) or a dataset JSON ({"data": {id: {"problem"}}}); '
        f"{how}; the output is in the order of the inputs, and a summary line follows "
        "two or more puzzles",
    )
    happy = HAPPY[name]
    if name in STREAMED:
        group.add_argument(
            "--grade",
            action="store_true",
            help=f"also grade each {happy} puzzle (the server's logical solution: several "
            "times the cost of the check, see docs/batch.md); without it grade is null",
        )
    group.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help=f"leave the {happy} puzzles out of the human output (the summary counts them)",
    )
    group.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: for two or more puzzles when stderr is a "
        "terminal)",
    )
    if name not in STREAMED:
        return
    group.add_argument("--batch", action="store_true", help=argparse.SUPPRESS)  # always now
    group.add_argument("--report", metavar="FILE", help="append each result to FILE (JSONL)")
    group.add_argument(
        "--resume", action="store_true", help="skip the puzzles already in the --report FILE"
    )
    group.add_argument(
        "--deadline",
        metavar="SECONDS",
        type=positive_seconds,
        help="stop the whole batch after this long (the unchecked puzzles are left out)",
    )
    group.add_argument(
        "--streams",
        metavar="N",
        type=positive_int,
        help="calls at once (default: two per server)",
    )


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True)
class _Source:
    """One input argument, expanded: where its puzzles come from and how many."""

    path: str
    kind: str  # "file", "stdin", "jsonl", "dataset", "lines"
    count: int
    # a dataset's puzzles; lines: {"N": line}; stdin: {"text": its text}
    data: dict[str, Any] = field(default_factory=dict)
    name: str | None = None  # a dataset's name: the kind of its puzzles


def _is_dataset(value) -> bool:
    return isinstance(value, dict) and isinstance(value.get("data"), dict)


def _jsonl_count(path: str) -> int:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return sum(1 for line in f if line.strip())
    except OSError:
        return 1  # it is reported unreadable when its turn comes


def _classify(path: str, stdin: dict) -> _Source:
    if path == STDIN:  # read once, here: its text goes with the source
        with contextlib.suppress(UsageError):
            text = read_input(path, stdin)[1]
            lines = puzzle_lines(text)
            if lines is not None:
                return _Source(STDIN_SOURCE, "lines", len(lines), lines)
            return _Source(path, "stdin", 1, {"text": text})
        return _Source(path, "stdin", 1)
    if path.endswith(".jsonl"):
        return _Source(path, "jsonl", _jsonl_count(path))
    if path.endswith(".json"):
        # RecursionError: nested too deep for a dataset (then read as one puzzle, refused)
        with contextlib.suppress(UsageError, ValueError, RecursionError):
            value = json.loads(read_input(path, stdin)[1])
            if _is_dataset(value):
                name = value.get("name")
                named = name if isinstance(name, str) else None
                return _Source(path, "dataset", len(value["data"]), value["data"], named)
    if path.endswith((".txt", ".links", ".lines")):
        with contextlib.suppress(UsageError):
            lines = puzzle_lines(read_input(path, stdin)[1])
            if lines is not None:
                return _Source(path, "lines", len(lines), lines)
    return _Source(path, "file", 1)


_LINE = re.compile(r"^(?P<cells>[0-9A-Za-z._-]{16,})(?:\s*[:\s]\s*[0-9][0-9,;\s]*)?$")


def puzzle_lines(text: str) -> dict[str, str] | None:
    """A text of puzzles one a line as ``{"N": line}`` by line number (blank lines and
    ``#`` comments aside), or None for any other text. Two kinds of such texts: links
    and game IDs, two or more lines, half or more of them one; and the benchmark files:
    two or more lines, and a third of them or more, of one token each, of digits,
    letters, ``.``, ``-`` or ``_`` (a cage map followed by its sums) as long as a square
    grid's cells (16 or more: a 4x4's, a 9x9's, a 16x16's, mixed), but not a square grid
    written a row a line (as many rows as each is long). In both, any other line is
    kept: it is answered, as the bad puzzle it is, by its number, and the file's other
    puzzles are answered too."""
    found: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        body = line.strip()
        if body and not body.startswith("#"):
            found[str(number)] = body
    if len(found) < 2:
        return None
    if 2 * sum(1 for body in found.values() if LINK.match(body)) >= len(found):
        return found
    cells = [len(match["cells"]) if match else 0 for match in map(_LINE.match, found.values())]
    squares = sum(1 for k in cells if k and math.isqrt(k) ** 2 == k)
    if squares < 2 or 3 * squares < len(found):
        return None
    if len(set(cells)) == 1 and len(found) == cells[0]:
        return None  # a grid: N rows of N cells
    return found


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
    sources: list[_Source] = []
    stdin: dict[str, str] = {}
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            sources.extend(_classify(p, stdin) for p in _walk(path))
        else:
            sources.append(_classify(path, stdin))
    return sources


def _empty_extra(command: str) -> dict:
    """The keys a command's JSON line has besides the common ones, without values."""
    return {"grade": None, "difficulty": None} if command in STREAMED else {}


class Order:
    """Outcomes in the order of the inputs, whatever order they are found in.

    The thread that reads the inputs numbers each puzzle as it is read (:meth:`item`) and
    files the outcomes found while reading (an unreadable file or line: :meth:`add`);
    the main thread hands in each result (:meth:`number` gives its place) and takes the
    outcomes that are next in order (:meth:`ready`), or all that are left (:meth:`rest`).
    """

    def __init__(self, command: str) -> None:
        self.command = command
        self._lock = threading.Lock()
        self._places: dict[str, int] = {}
        self._count = 0
        self._next = 0
        self._held: dict[int, Outcome] = {}
        self.found: deque[tuple[int, Outcome]] = deque()  # read, not sent: unreadable

    def _place(self) -> int:
        with self._lock:
            self._count += 1
            return self._count - 1

    def item(self, item: BatchItem) -> BatchItem:
        place = self._place()
        with self._lock:
            self._places[item.id] = place
        return item

    def add(self, source: str, message: str) -> None:
        out = Outcome(source, self.command, "UNREADABLE", FAILURE, errors=[error(message)])
        out.extra = _empty_extra(self.command)
        self.found.append((self._place(), out))

    def number(self, source: str) -> int:
        with self._lock:
            return self._places.pop(source)

    def drain(self) -> Iterator[tuple[int, Outcome]]:
        while self.found:
            yield self.found.popleft()

    def ready(self, place: int, out: Outcome) -> list[Outcome]:
        self._held[place] = out
        out_now = []
        while self._next in self._held:
            out_now.append(self._held.pop(self._next))
            self._next += 1
        return out_now

    def rest(self) -> list[Outcome]:
        """What is held back by a puzzle that never got an answer (a deadline, a failed
        batch), in order."""
        held = [self._held[k] for k in sorted(self._held)]
        self._held.clear()
        return held


def _jsonl_items(
    path: str, fmt: str | None, kind: str | None, problems: Order
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
    problems: Order,
) -> Iterator[BatchItem]:
    """The puzzles of ``sources`` read lazily and numbered in order, ids in ``skip`` (and
    repeats) left out; what cannot be read goes to ``problems``."""
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
            own = kind if kind not in (None, "auto") else dataset_kind(source.name)
            for key, entry in source.data.items():
                if not fresh(key):
                    continue
                if own == "":
                    known = ", ".join(sorted(k for k in KINDS if k and k != "auto"))
                    problems.add(
                        key,
                        f"{source.path}: unsupported kind {source.name!r} (the dataset's name): "
                        f"numgrid reads {known}",
                    )
                    continue
                problem = entry.get("problem") if isinstance(entry, dict) else None
                if not isinstance(problem, str):
                    problems.add(key, f'{source.path}: {key} has no "problem" text')
                    continue
                yield problems.item(BatchItem(key, problem, "janko", own))
        elif source.kind == "lines":
            for number, line in source.data.items():
                name = f"{source.path}:{number}"
                if fresh(name):
                    yield problems.item(BatchItem(name, line, fmt, kind))
        elif source.kind == "jsonl":
            for item in _jsonl_items(source.path, fmt, kind, problems):
                if fresh(item.id):
                    yield problems.item(item)
        else:
            name = STDIN_SOURCE if source.kind == "stdin" else source.path
            if not fresh(name):
                continue
            try:
                text = source.data.get("text") or read_input(source.path, stdin)[1]
            except UsageError as e:
                problems.add(name, str(e))
                continue
            yield problems.item(BatchItem(name, text, fmt, kind))


def _folded(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def dataset_kind(name: str | None) -> str | None:
    """The kind a dataset's ``name`` says: a kind's name or its title, spaces and case
    aside. "" for a name that holds a kind's but is none (a variant of a kind read, e.g.
    a variant word beside a kind's title): a kind not read, whose puzzles are
    never read as another kind. None without a name or for any other name (the text
    decides)."""
    if name is None:
        return None
    named: dict[str, str] = {}
    for kind in KINDS:
        if kind and kind != "auto":
            named[_folded(kind)] = kind
            drawing = RENDERERS.get(kind)
            if drawing is not None:
                named[_folded(drawing.title)] = kind
    folded = _folded(name)
    if folded in named:
        return named[folded]
    return "" if any(known in folded for known in named) else None


def _ids(source: _Source) -> Iterator[str]:
    """The ids of a source's puzzles, as far as they can be known before reading them."""
    if source.kind == "dataset":
        yield from source.data
    elif source.kind == "lines":
        yield from (f"{source.path}:{number}" for number in source.data)
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
    """A solution as janko text without the puzzle (a result from a server that does not
    send the puzzle back): ``-`` where the grid has 0 (a black cell) or -1 (a cell decided
    empty, e.g. a white one where shaded ones are 1), the digits elsewhere."""
    rows = len(grid)
    cols = len(grid[0]) if grid else 0
    lines = [f"{rows} {cols}"]
    lines += [" ".join(str(d) if d > 0 else "-" for d in row) for row in grid]
    return "\n".join(lines) + "\n"


def outcome(result: BatchResult, ctx: Context, full: bool = True) -> Outcome:
    """The JSON line and human text of one result of ``solve`` or ``unique`` (the command
    is ``ctx.args.command``): the same whatever the number of puzzles. Without ``full``
    (the outcome is neither printed nor written) only the status and grade are read."""
    command, status = ctx.args.command, result.status
    code = OK if status == "UNIQUE" else FAILURE if status == "ERROR" else NOT_HAPPY
    out = Outcome(result.id, command, status, code, verdict=result.verdict)
    out.extra = _empty_extra(command)
    graded = grade(out, result.difficulty)  # null unless asked for (--grade) and UNIQUE
    if not full:
        return out
    if status == "INVALID":
        out.errors = [finding_json(f) for f in result.findings] or [error(result.message)]
        out.text = "\n".join(error_lines(out.errors, ctx.width, MAX_ERRORS))
        return out
    if status == "ERROR":
        out.errors = [error(f"{result.id}: {result.message}")]
        return out
    out.stats = stats_json(result.stats)
    puzzle = result.puzzle  # None from a server older than include_puzzle

    def written(grid: Grid) -> str:
        return janko_solution(grid) if puzzle is None else solution_text(puzzle, grid)

    solutions = result.solutions if command == "unique" else result.solutions[:1]
    out.solutions = [written(g) for g in solutions]
    if command == "unique":
        out.differing_cells = list(result.differing_cells)
    if command == "unique" and status == "MULTIPLE" and len(solutions) >= 2:
        cells = result.differing_cells
        parts = [
            wrap("", f"two solutions differ at {len(cells)} cells: {cells_text(cells)}", ctx.width)
        ]
        if puzzle is not None:
            for i, grid in enumerate(solutions[:2], 1):
                parts.append(f"solution {i}:\n" + ctx.board(puzzle, grid, cells))
        out.text = "\n".join(parts)
    elif command == "solve" and solutions:
        lead = {"UNIQUE": "the solution", "MULTIPLE": "one of several solutions"}
        out.text = f"{lead.get(status, 'a solution')}:"
        out.text += "\n" + (ctx.board(puzzle, solutions[0]) if puzzle else out.solutions[0])
    else:
        out.text = _NO_ANSWER.get(status, "")
    out.text = graded + out.text
    return out


def human(out: Outcome, width: int) -> str:
    """The human output of one puzzle: ``source: STATUS (stats)``, then its text."""
    head = f"{out.source}: {out.status}"
    if out.stats:  # on the same line if it fits, else on the next
        stats = f"({stats_text(out.stats)})"
        head += f" {stats}" if len(head) + 1 + len(stats) <= width else f"\n  {stats}"
    return head + (f"\n{out.text.rstrip(chr(10))}" if out.text else "")


class _Progress:
    """The bar (:class:`~.progress.ProgressBar`) with the running counts by status, and
    the grades of the puzzles graded."""

    def __init__(self, total: int, show: bool, statuses: tuple[str, ...], name: str):
        self.counts: Counter = Counter()
        self.grades: Counter = Counter()
        self.total, self.statuses = total, statuses
        self.bar = ProgressBar(total, show, name, counts=self.text())
        self.error, self.print = self.bar.error, self.bar.print

    def text(self) -> str:
        return "  ".join(f"{COUNT_NAMES.get(k, k.lower())} {self.counts[k]}" for k in self.statuses)

    def __enter__(self) -> _Progress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)

    def advance(self, out: Outcome) -> None:
        self.counts[out.status] += 1
        if out.status in ("UNIQUE", "SOLVED"):  # explain: the grade is in its last record
            self.grades[(out.records[-1] if out.records else out.extra).get("grade")] += 1
        self.bar.advance(self.text())


def summary(
    counts: Counter,
    total: int,
    seconds: float,
    skipped: int,
    resent: int = 0,
    statuses: tuple[str, ...] = COUNTS["unique"],
    grades: Counter | None = None,
) -> str:
    done = sum(counts.values())
    parts = [f"{COUNT_NAMES.get(k, k.lower())} {counts[k]}" for k in statuses]
    if counts["UNREADABLE"]:
        parts.append(f"unreadable {counts['UNREADABLE']}")
    rate = done / seconds if seconds > 0 else 0.0
    text = f"{done} of {total} puzzles in {seconds:.1f} s ({rate:,.0f}/s): " + ", ".join(parts)
    if grades:  # UNIQUE (or SOLVED) puzzles by grade; "ungraded": logic stalls or time ran out
        named = [f"{g.lower()} {grades[g]}" for g in GRADES]
        if grades[None]:
            named.append(f"ungraded {grades[None]}")
        text += "; grades: " + ", ".join(named)
    if skipped:
        text += f"; {skipped} already in the report"
    if resent:
        text += f"; {resent} re-sent after a stream failed"
    return text


# ---------------------------------------------------------------- the commands


class _Run:
    """What ``solve``, ``unique`` and ``explain`` share: the inputs in order, the output
    in order, the report, the progress bar, the exit code and the summary."""

    def __init__(self, args: argparse.Namespace, connect: Connect, width: int):
        self.args, self.connect, self.width = args, connect, width
        self.command = args.command
        report: str | None = getattr(args, "report", None)
        done_before: set[str] = set()
        if getattr(args, "resume", False):
            if not report:
                raise UsageError("--resume needs --report FILE")
            done_before = read_report(report)
        sources = expand(args.files)
        self.total = sum(s.count for s in sources)
        self.skipped = 0
        if done_before:  # count what is left
            self.skipped = sum(1 for s in sources for key in _ids(s) if key in done_before)
            self.total -= self.skipped
        self.order = Order(self.command)
        fmt = None if args.format == "auto" else args.format
        kind = None if args.kind == "auto" else args.kind
        self.todo = items(sources, fmt, kind, done_before, self.order)
        self.quiet = getattr(args, "quiet", False)
        # The bar: asked for, or by default when stderr is a terminal and there are several.
        progress = args.progress
        self.show = progress if progress is not None else self.total > 1 and sys.stderr.isatty()
        try:
            self.report = open(report, "a", encoding="utf-8") if report else None  # noqa: SIM115
        except OSError as e:
            raise UsageError(f"cannot write {report}: {e.strerror or e}") from None
        self.ctx = Context(args, connect, width, stdout_ascii_only())
        self.worst = OK
        self.printed = 0
        self.lock = threading.Lock()
        self.progress = _Progress(self.total, self.show, COUNTS[self.command], self.command)

    def needed(self, happy: bool) -> bool:
        """Whether a puzzle's outcome is printed or written (else its status is enough)."""
        return self.args.json or self.report is not None or not (happy and self.quiet)

    def found(self, place: int, out: Outcome) -> None:
        """One puzzle's outcome, in any order: counted and reported now, printed in order."""
        with self.lock:
            self.worst = max(self.worst, out.code)
            self.progress.advance(out)
            if self.report is not None:
                for record in out.records or [out.as_json()]:
                    self.report.write(json.dumps(record) + "\n")
                self.report.flush()
            if out.status in ("UNREADABLE", "ERROR"):
                self.progress.error(f"{PROG}: {out.errors[0]['message']}")
            for ready in self.order.ready(place, out):
                self.show_one(ready)

    def show_one(self, out: Outcome) -> None:
        if self.args.json:
            self.progress.print("\n".join(json.dumps(r) for r in out.records or [out.as_json()]))
        elif out.code != FAILURE and not (self.quiet and out.status == HAPPY[self.command]):
            text = human(out, self.width)
            self.progress.print(f"\n{text}" if self.printed else text)
            self.printed += 1

    def early(self) -> None:
        """The outcomes found while reading the inputs (unreadable ones) so far."""
        for place, out in self.order.drain():
            self.found(place, out)

    def finish(self, seconds: float, resent: int = 0) -> int:
        self.early()
        for out in self.order.rest():
            self.show_one(out)
        if self.report is not None:
            self.report.close()
        counts = self.progress.counts
        if sum(counts.values()) + self.skipped > 1 or self.total > 1:
            grades = self.progress.grades if self._grading() else None
            text = summary(
                counts, self.total, seconds, self.skipped, resent, COUNTS[self.command], grades
            )
            text = textwrap.fill(  # to the width, its lines after the first indented,
                re.sub(r"(\w) (\d)", "\\1\xa0\\2", text),  # never between a name and its count
                width=max(self.width, 40),
                subsequent_indent="  ",
                break_long_words=False,
                break_on_hyphens=False,
            ).replace("\xa0", " ")
            if self.printed:  # a blank line between the last puzzle and the summary
                text = "\n" + text
            print(text, file=sys.stderr if self.args.json else sys.stdout, flush=True)
        return self.worst

    def _grading(self) -> bool:
        return self.command == "explain" or bool(getattr(self.args, "grade", False))


def stream(args: argparse.Namespace, connect: Connect, width: int) -> int:
    """``solve`` and ``unique`` over the inputs: every puzzle through
    BatchCheckUniqueness; the exit code."""
    state = _Run(args, connect, width)
    start, resent = time.monotonic(), 0
    try:
        with state.progress as progress:
            client = state.connect()
            if args.server:
                _reachable(client)
            results = check_many(
                args.server or client.target,
                state.todo,
                credentials=client.credentials,
                engine=args.engine,
                time_limit=args.timeout,
                grade=args.grade,
                include_puzzle=True,  # drawn, and its solutions in the kind's own text
                timeout=args.deadline,
                streams=args.streams,
                connect_timeout=CONNECT_TIMEOUT,
            )
            try:
                with contextlib.closing(results):
                    for result in results:
                        state.early()
                        resent += result.attempts > 1
                        full = state.needed(result.status == "UNIQUE")
                        place = state.order.number(result.id)
                        state.found(place, outcome(result, state.ctx, full))
            except NumgridError as e:
                state.early()
                if e.code == "UNAVAILABLE":
                    raise NoServer(e.message) from None
                left = state.total - sum(progress.counts.values())
                if e.code == "DEADLINE_EXCEEDED":
                    print(
                        f"{PROG}: the deadline passed with {left} of {state.total} puzzles "
                        "unchecked" + (" (--resume checks them)" if state.report else ""),
                        file=sys.stderr,
                    )
                else:
                    print(f"{PROG}: the batch failed: {e.code}: {e.message}", file=sys.stderr)
                state.worst = FAILURE
            state.early()
    finally:
        if state.report is not None:
            state.report.close()
    return state.finish(time.monotonic() - start, resent)


def _reachable(client) -> None:
    """NoServer at once, as for one call, when no server answers: a batch would wait up to
    CONNECT_TIMEOUT for one to come up, and then say less."""
    try:
        client.health(timeout=CONNECT_TIMEOUT)
    except NumgridError as e:
        if e.code in ("UNAVAILABLE", "DEADLINE_EXCEEDED"):
            raise NoServer(e.message) from None


def explain_each(args: argparse.Namespace, connect: Connect, width: int, one: OneFile) -> int:
    """``explain`` over the inputs: ``one`` (an Explain call) per puzzle, in order; the
    exit code."""
    state = _Run(args, connect, width)
    start = time.monotonic()
    try:
        with state.progress:
            for item in state.todo:
                state.early()
                ctx = state.ctx
                if item.format or item.kind:  # a dataset's or a JSONL line's own
                    named = {"format": item.format or args.format, "kind": item.kind or args.kind}
                    ctx = Context(
                        argparse.Namespace(**{**vars(args), **named}),
                        state.connect,
                        state.width,
                        ctx.ascii_only,
                    )
                try:
                    out = one(ctx, item.id, item.puzzle)
                except NumgridError as e:
                    out = rejected("explain", item.id, e, state.width)
                state.found(state.order.number(item.id), out)
    finally:
        if state.report is not None:
            state.report.close()
    return state.finish(time.monotonic() - start)
