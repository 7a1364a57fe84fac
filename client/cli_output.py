"""What every ``numgrid`` command prints and exits with: the exit codes, one puzzle's
:class:`Outcome` (its JSON line, its human text), the shapes of errors, statistics,
steps and grades, the reading of input files, and what a server's refusal means for a
puzzle.

A module of its own so that the commands (:mod:`.commands`, :mod:`.batch_cli`) share
one output without importing :mod:`.cli`, which imports them: it imports no other CLI
module.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from .types import Cell
from .types import Difficulty
from .types import EngineStat
from .types import Finding
from .types import GroupRef
from .types import NumgridError
from .types import Step
from .types import cell_name

PROG = "numgrid"
OK, NOT_HAPPY, FAILURE = 0, 1, 2
DEFAULT_DEADLINE = 300.0  # seconds; the server's own time cap usually stops a search first
MAX_ERRORS, MAX_WARNINGS = 20, 5  # lines of human output per puzzle; --json has them all
STDIN = "-"
STDIN_SOURCE = "<stdin>"
UNLISTED = "more_not_listed"  # code of the entry that counts what the server left out


def deadline(limit: float | None) -> float:
    """A call's deadline for a search of at most ``limit`` seconds (None: the server's)."""
    return DEFAULT_DEADLINE if limit is None else limit * 1.1 + 1.0


class UsageError(Exception):
    """Input the CLI cannot send: a missing or unreadable file. Exit 2."""


class NoServer(Exception):
    """The server cannot be reached (or the embedded one cannot start). Exit 2."""


# ---------------------------------------------------------------- one puzzle's outcome


@dataclass
class Outcome:
    """What one command found for one puzzle: a JSON line, human text and an exit code."""

    source: str
    command: str
    status: str
    code: int
    verdict: str | None = None
    solutions: list[str] = field(default_factory=list)
    differing_cells: list[Cell] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    stats: list[dict] = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    text: str = ""  # the human output below the status line
    records: list[dict] = field(default_factory=list)  # --json lines in place of as_json()

    def as_json(self) -> dict:
        out = {
            "source": self.source,
            "command": self.command,
            "status": self.status,
            "verdict": self.verdict,
            "solutions": self.solutions,
            "differing_cells": [list(c) for c in self.differing_cells],
            "errors": self.errors,
            "warnings": self.warnings,
            "stats": self.stats,
        }
        out.update(self.extra)
        return out


def error(
    message: str,
    cell: tuple[int, int | None] | None = None,
    *,
    code: str | None = None,
    group: str = "",
    cells: Sequence[Cell] = (),
    field: str = "",
) -> dict:
    """One entry of ``errors`` or ``warnings``: the same keys whatever its origin."""
    row, column = cell if cell else (None, None)
    return {
        "row": row,
        "column": column,
        "message": message,
        "code": code,
        "group": group,
        "cells": [list(c) for c in cells],
        "field": field,
    }


def finding_json(f: Finding) -> dict:
    return error(
        f.message, f.cells[0] if f.cells else None, code=f.code, group=f.group, cells=f.cells
    )


def stats_json(stats: Sequence[EngineStat]) -> list[dict]:
    return [{"engine": s.engine, "ms": round(s.seconds * 1000, 3), "nodes": s.nodes} for s in stats]


def wrap(prefix: str, message: str, width: int) -> str:
    """``prefix message`` wrapped to ``width``, continuation lines under the message."""
    return textwrap.fill(
        message,
        width=max(width, 40),
        initial_indent=prefix,
        subsequent_indent=" " * len(prefix),
        break_long_words=False,
        break_on_hyphens=False,
    )


def error_lines(errors: list[dict], width: int, limit: int, what: str = "errors") -> list[str]:
    """One line (wrapped) per error, ``r3c5: message``; past ``limit``, a count."""
    lines, unlisted = [], 0
    if errors and errors[-1]["code"] == UNLISTED:
        *errors, last = errors
        unlisted = int(last["message"].split()[2])  # "... and N more not listed"
    for e in errors[:limit]:
        message = e["message"]
        where = ""
        if e.get("row") is not None and e.get("column") is not None:
            where = cell_name((e["row"], e["column"]))
            message = message.removeprefix(f"{where}: ")
        lines.append(wrap(f"  {where}: " if where else "  ", message, width))
    hidden = len(errors[limit:]) + unlisted
    if hidden:
        where = "" if unlisted else " (--json lists them all)"
        lines.append(f"  ... and {hidden} more {what}{where}")
    return lines


def cells_text(cells: Sequence[Cell]) -> str:
    return " ".join(cell_name(c) for c in cells)


# ---------------------------------------------------------------- steps and grades


def _group_json(group: GroupRef) -> dict[str, Any]:
    out: dict[str, Any] = {"type": group.type, "clue": group.clue}
    if group.clue_cell is not None:
        out["clue_cell"] = list(group.clue_cell)
    if group.operation:
        out["operation"] = group.operation
    if group.type not in ("across", "down", "region"):  # named by a cell, not a number
        out["index"] = group.index
    return out


def step_json(step: Step) -> dict[str, Any]:
    """A logical step as JSON (``hint``'s ``step``, ``explain``'s lines)."""
    return {
        "technique": step.technique,
        "placements": [[c[0], c[1], d] for c, d in step.placements],
        "eliminations": [[c[0], c[1], d] for c, d in step.eliminations],
        "cells": [list(c) for c in step.cells],
        "groups": [_group_json(g) for g in step.groups],
        "explanation": step.explanation,
    }


def words(technique: str | None) -> str:
    """``"REGION_SUM"`` -> ``"region sum"``."""
    return (technique or "none").lower().replace("_", " ")


def _difficulty_json(d: Difficulty | None) -> dict | None:
    if d is None:
        return None
    return {
        "grade": d.grade,
        "hardest": d.hardest,
        "techniques": dict(d.counts),
        "solved_by_logic": d.solved_by_logic,
        "score": d.score,
    }


def grade(out: Outcome, d: Difficulty | None) -> str:
    """Put the grade in the JSON line (``grade``, ``difficulty``); the human line, or ""."""
    out.extra["grade"] = d.grade if d else None
    out.extra["difficulty"] = _difficulty_json(d)
    if d is None:
        return ""
    if d.grade is None:
        return "grade: none (the logical techniques do not complete the grid)\n"
    return f"grade: {d.grade} (hardest technique: {words(d.hardest)}), score {d.score}\n"


# ---------------------------------------------------------------- the server's refusals


def listed_errors(refusal: NumgridError) -> list[dict]:
    """The findings the server listed, and a last entry counting those it could not."""
    errors = [finding_json(f) for f in refusal.findings]
    unlisted = refusal.problems - len(errors)
    if errors and unlisted > 0:
        errors.append(error(f"... and {unlisted} more not listed", code=UNLISTED))
    return errors


def rejected(command: str, source: str, refusal: NumgridError, width: int) -> Outcome:
    """What the server's refusal of one puzzle means for that puzzle."""
    if refusal.code in ("UNAVAILABLE",):
        raise NoServer(refusal.message)
    if refusal.code == "DEADLINE_EXCEEDED":
        out = Outcome(source, command, "TIMEOUT", NOT_HAPPY)
        out.text = "the deadline passed before an answer"
        return out
    if refusal.code in ("INVALID_ARGUMENT", "RESOURCE_EXHAUSTED"):
        out = Outcome(source, command, "INVALID", NOT_HAPPY)
        out.errors = (
            listed_errors(refusal)
            or [
                error(
                    v.description,
                    None if v.row is None else (v.row, v.column),
                    cells=[v.cell] if v.cell else [],
                    field=v.field,
                )
                for v in refusal.violations
            ]
            or [error(refusal.message)]
        )
    else:
        out = Outcome(source, command, "ERROR", FAILURE)
        out.errors = [error(f"{source}: server error {refusal.code}: {refusal.message}")]
    out.text = "\n".join(error_lines(out.errors, width, MAX_ERRORS))
    return out


# ---------------------------------------------------------------- input and output


# A link (puzz.link, penpa-edit, f-puzzles, SudokuWiki: any URL) or a Tatham game ID
# ("3x3:...", "6dh:...", "5:2/3/..."): on a line of a file, or pasted for a FILE.
LINK = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S+$|^\d+(?:x\d+)?[a-z]*[:#]\S+$")


def read_input(path: str, stdin_cache: dict) -> tuple[str, str]:
    """``(source, text)`` of a file, of stdin for ``-``, or of a link or game ID pasted
    in a file's place (no such file); UsageError if unreadable."""
    if path != STDIN and LINK.match(path) and not os.path.exists(path):
        return path, path
    if path == STDIN:
        if "text" not in stdin_cache:
            try:
                stdin_cache["text"] = sys.stdin.read()
            except (OSError, UnicodeDecodeError) as e:
                raise UsageError(f"cannot read stdin: {e}") from None
        return STDIN_SOURCE, stdin_cache["text"]
    try:
        with open(path, encoding="utf-8") as f:
            return path, f.read()
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None


def print_human(out: Outcome, width: int) -> None:
    head = f"{out.source}: {out.status}"
    if out.stats:  # on the same line if it fits, else on the next
        stats = f"({stats_text(out.stats)})"
        head += f" {stats}" if len(head) + 1 + len(stats) <= width else f"\n  {stats}"
    print(head)
    if out.text:
        print(out.text.rstrip("\n"))


def stats_text(stats: list[dict]) -> str:
    def one(s: dict) -> str:
        nodes = f"{s['nodes']:,} node{'' if s['nodes'] == 1 else 's'}"
        return f"{s['engine']} {s['ms']:.0f} ms, {nodes}"

    return "; ".join(one(s) for s in stats)


def stdout_ascii_only() -> bool:
    try:
        "▓\\".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False
