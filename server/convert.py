"""Protobuf messages to and from the engine library's values, and errors to gRPC statuses.

A structured puzzle is turned into the kind's JSON text (the protobuf JSON of ``Puzzle``)
and read by the same parser as a text puzzle, so both pass exactly the same checks.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from typing import TypeVar
from typing import cast

import grpc
from google.protobuf.duration_pb2 import Duration
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from google.protobuf.message import DecodeError
from google.rpc import code_pb2
from google.rpc import error_details_pb2
from google.rpc import status_pb2
from grpc_status import rpc_status
from numgrid.server import generate
from numgrid.server import operations
from numgrid.server.chain import Grade
from numgrid.server.core import Board
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import PuzzleError
from numgrid.server.core import Severity
from numgrid.server.core import Stats
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import REGISTRY
from numgrid.server.kinds import Kind
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.base import CAGE_OPERATIONS
from numgrid.server.kinds.base import Spec
from numgrid.server.pictures import Highlight
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2

PUZZLE_FIELD = "puzzle"  # the PuzzleInput field of every request
# No text of a grid within the size limit is longer than this per cell, even as
# indented JSON; a longer one is refused before it is parsed.
TEXT_BYTES_PER_CELL = 256


# ---------------------------------------------------------------- bad requests


@dataclass(frozen=True)
class Violation:
    field: str  # path in the request, e.g. "puzzle.puzzle.<kind>.cages[3].cells[5]"
    description: str  # one plain sentence


# Default gRPC clients refuse trailers over 8 KiB (soft limit): the details stay within this many
# bytes, violations first, then findings, and a last violation says how many were left.
DETAILS_BUDGET = 6_000
# Characters of the status message, and of each violation: the client's trailer holds
# 8 KiB in all, and a message quoting its input could otherwise not reach it.
MESSAGE_LIMIT = 500


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class InvalidRequest(Exception):
    """A request the server cannot use: INVALID_ARGUMENT with a BadRequest detail, an
    ErrorInfo whose ``problems`` counts them all, and each finding as a
    ``numgrid.v1.Finding`` detail (code, cells, group) for machines, as many as fit."""

    def __init__(
        self,
        violations: Iterable[Violation],
        summary: str = "",
        findings: Iterable = (),
        reason: str = "INVALID_PUZZLE",
    ):
        self.violations = tuple(violations)
        self.findings = tuple(findings)
        self.reason = reason
        first = self.violations[0].description if self.violations else "invalid request"
        more = len(self.violations) - 1
        text = summary or (f"{first} (and {more} more)" if more else first)
        super().__init__(_cut(text, MESSAGE_LIMIT))

    def status(self) -> grpc.Status:
        bad = error_details_pb2.BadRequest()
        for v in self.violations:
            if bad.ByteSize() > DETAILS_BUDGET // 2:
                break
            bad.field_violations.add(
                field=_cut(v.field, MESSAGE_LIMIT), description=_cut(v.description, MESSAGE_LIMIT)
            )
        left = len(self.violations) - len(bad.field_violations)
        if left:
            last = bad.field_violations[-1].field
            bad.field_violations.add(field=last, description=f"... and {left} more not listed")
        status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=str(self))
        status.details.add().Pack(bad)
        problems = len(self.findings) or len(self.violations)
        info = error_details_pb2.ErrorInfo(
            reason=self.reason, domain="numgrid.v1", metadata={"problems": str(problems)}
        )
        status.details.add().Pack(info)
        for f in self.findings:
            detail = finding(f)
            if status.ByteSize() + detail.ByteSize() > DETAILS_BUDGET:
                break
            status.details.add().Pack(detail)
        return rpc_status.to_status(status)


def _invalid(field: str, description: str) -> InvalidRequest:
    return InvalidRequest([Violation(field, description)])


@dataclass(frozen=True)
class Undecodable:
    """What a request that could not be decoded arrives as (see :func:`lenient`)."""

    message_type: str
    error: str

    def invalid(self) -> InvalidRequest:
        description = f"the request is not a valid {self.message_type} message ({self.error})"
        return InvalidRequest([Violation("", description)], reason="UNDECODABLE_REQUEST")


def lenient(message_class) -> Callable[[bytes], object]:
    """A request deserializer that never raises: bytes that are not a message of the
    type (or text fields that are not UTF-8) give an :class:`Undecodable`, which the
    servicer answers INVALID_ARGUMENT, instead of gRPC's INTERNAL and a traceback."""
    name = message_class.DESCRIPTOR.full_name

    def parse(data: bytes):
        try:
            return message_class.FromString(data)
        except (DecodeError, ValueError, RecursionError) as e:
            return Undecodable(name, str(e) or type(e).__name__)

    return parse


# ---------------------------------------------------------------- reading puzzles


def _text_violations(findings, field: str) -> list[Violation]:
    """Text has no field per cell: one violation per finding, its message names the cells."""
    return [Violation(field, f.message) for f in findings]


def _structured_violations(findings, field: str, cell_field) -> list[Violation]:
    """One violation per finding and cell, at the cell's own field (``cell_field(cell)``)."""
    out = []
    for f in findings:
        if not f.cells:
            out.append(Violation(field, f.message))
        out.extend(Violation(f"{field}.{cell_field(cell)}", f.message) for cell in f.cells)
    return out


@dataclass(frozen=True)
class Read:
    kind: Kind[Any]
    board: Board
    warnings: tuple[Finding, ...]

    @property
    def size(self) -> str:
        return f"{self.board.puzzle.rows}x{self.board.puzzle.cols}"


def _enum_name(enum: EnumTypeWrapper, value: int, prefix: str) -> str | None:
    """``PUZZLE_FORMAT_CSV`` -> ``csv``; None for UNSPECIFIED; ValueError if unknown."""
    name = enum.Name(value)[len(prefix) :].lower()
    return None if name == "unspecified" else name


_E = TypeVar("_E", bound=int)


def _enum_value(enum: type[_E], name: str) -> _E:
    """``enum.Value(name)``, typed as the proto enum it is (protobuf's stubs say int)."""
    return cast(_E, cast(EnumTypeWrapper, enum).Value(name))


def read_input(source: puzzle_pb2.PuzzleInput, max_cells: int) -> Read:
    """The kind, board and warnings of a request's puzzle; InvalidRequest on any problem."""
    which = source.WhichOneof("source")
    if which == "text":
        return _read_text(source.text, f"{PUZZLE_FIELD}.text", max_cells)
    if which == "puzzle":
        return _read_structured(source.puzzle, f"{PUZZLE_FIELD}.puzzle", max_cells)
    raise _invalid(PUZZLE_FIELD, "no puzzle given: set puzzle.puzzle or puzzle.text")


def _read_text(text: puzzle_pb2.PuzzleText, field: str, max_cells: int) -> Read:
    if len(text.content) > max_cells * TEXT_BYTES_PER_CELL:  # before parsing megabytes
        raise _invalid(
            f"{field}.content",
            f"the text has {len(text.content)} characters, more than any grid of at most "
            f"{max_cells} cells needs ({max_cells * TEXT_BYTES_PER_CELL})",
        )
    try:
        kind_name = _enum_name(puzzle_pb2.PuzzleKind, text.kind, "PUZZLE_KIND_")
    except ValueError:
        raise _invalid(f"{field}.kind", f"unknown puzzle kind {text.kind}") from None
    try:
        fmt = _enum_name(puzzle_pb2.PuzzleFormat, text.format, "PUZZLE_FORMAT_")
    except ValueError:
        raise _invalid(f"{field}.format", f"unknown puzzle format {text.format}") from None
    if kind_name is not None and kind_name not in KINDS:
        raise _invalid(f"{field}.kind", f"unsupported kind {kind_name}: it is not served")
    try:
        if kind_name:
            kind = KINDS[kind_name]
        else:
            kind, found = detect_format(text.content, fmt)
            fmt = fmt or found
        if fmt is not None and fmt not in kind.formats.FORMATS:
            raise _invalid(f"{field}.format", kind.formats.FORMATS.missing(fmt))
        board, warnings = operations.read_board(kind, text.content, fmt, max_cells)
    except PuzzleError as e:
        violations = _text_violations(e.findings, f"{field}.content")
        raise InvalidRequest(violations, str(e), e.findings) from None
    return Read(kind, board, warnings)


def _read_structured(message: puzzle_pb2.Puzzle, field: str, max_cells: int) -> Read:
    which = message.WhichOneof("kind")
    if which is None:
        example = f"{field}.{REGISTRY[0].name}"
        raise _invalid(field, f"the puzzle is empty: set one kind, e.g. {example}")
    if which not in KINDS:
        raise _invalid(f"{field}.{which}", f"puzzle kind {which} is not served")
    kind = KINDS[which]
    structured = kind.wire
    field = f"{field}.{which}"
    inner = getattr(message, which)
    parts = structured.parts(inner, 2 * max_cells)
    if parts > 2 * max_cells:  # rows, cages, cells: what reading would walk through
        raise _invalid(
            field,
            f"the puzzle holds {parts} rows, cages or cells, more than any grid of at most "
            f"{max_cells} cells needs",
        )
    rows, cols = structured.shape(inner)
    if rows * cols > max_cells:  # before building anything from a huge message
        raise _invalid(
            field,
            f"grid of {rows}x{cols} = {rows * cols} cells is over the limit of {max_cells} cells",
        )
    try:
        board, warnings = operations.read_board(kind, structured.to_json(inner), "json", max_cells)
    except PuzzleError as e:

        def cell_field(cell: Cell) -> str:
            return structured.cell_field(inner, cell)

        violations = _structured_violations(e.findings, field, cell_field)
        raise InvalidRequest(violations, str(e), e.findings) from None
    return Read(kind, board, warnings)


# ---------------------------------------------------------------- options

_ENGINES = {
    puzzle_pb2.ENGINE_UNSPECIFIED: Engine.AUTO,
    puzzle_pb2.ENGINE_AUTO: Engine.AUTO,
    puzzle_pb2.ENGINE_CPSAT: Engine.CPSAT,
    puzzle_pb2.ENGINE_NATIVE: Engine.NATIVE,
    puzzle_pb2.ENGINE_CROSS_CHECK: Engine.CROSS_CHECK,
}
_ENGINE_OF_STATS = {"native": puzzle_pb2.ENGINE_NATIVE, "cpsat": puzzle_pb2.ENGINE_CPSAT}


@dataclass(frozen=True)
class Options:
    engine: Engine
    time_limit: float | None  # seconds; None: the server's cap
    hold_entries: bool


def options(message: service_pb2.SearchOptions, field: str = "options") -> Options:
    if message.engine not in _ENGINES:
        raise _invalid(f"{field}.engine", f"unknown engine {message.engine}")
    limit = _time_limit(message, f"{field}.time_limit")
    return Options(_ENGINES[message.engine], limit, message.hold_entries)


def _time_limit(
    message: service_pb2.SearchOptions | service_pb2.GenerateRequest, field: str
) -> float | None:
    """A request's ``time_limit`` in seconds (None: unset, the server's cap)."""
    if not message.HasField("time_limit"):
        return None
    limit = message.time_limit.ToNanoseconds() / 1e9
    if limit <= 0:
        raise _invalid(field, "the time limit must be positive")
    return limit


# ---------------------------------------------------------------- answers


def puzzle(read: Read) -> puzzle_pb2.Puzzle:
    return read.kind.wire.to_proto(read.board)


def cell(c: Cell) -> puzzle_pb2.CellRef:
    return puzzle_pb2.CellRef(row=c[0], column=c[1])


def cells(cs: Iterable[Cell]) -> list[puzzle_pb2.CellRef]:
    return [cell(c) for c in cs]


def grid(g) -> puzzle_pb2.Grid:
    return puzzle_pb2.Grid(rows=[puzzle_pb2.GridRow(values=row) for row in g])


def finding(f: Finding) -> puzzle_pb2.Finding:
    severity = (
        puzzle_pb2.SEVERITY_WARNING if f.severity is Severity.WARNING else puzzle_pb2.SEVERITY_ERROR
    )
    return puzzle_pb2.Finding(
        code=f.code, message=f.message, cells=cells(f.cells), severity=severity, group=f.group
    )


def verdict(v: Verdict | None) -> puzzle_pb2.Verdict:
    return (
        puzzle_pb2.VERDICT_UNSPECIFIED
        if v is None
        else _enum_value(puzzle_pb2.Verdict, f"VERDICT_{v.value}")
    )


def stats(all_stats: Iterable[Stats]) -> list[puzzle_pb2.EngineStats]:
    return [
        puzzle_pb2.EngineStats(
            engine=_ENGINE_OF_STATS.get(s.engine, puzzle_pb2.ENGINE_UNSPECIFIED),
            elapsed=_duration(s.seconds),
            nodes=s.nodes,
        )
        for s in all_stats
    ]


def _group_fields(group) -> dict:
    """What GroupRef and GroupReport say of a group (any kind's: a run, a line, a cage)."""
    out = {
        "type": _enum_value(service_pb2.GroupType, f"GROUP_TYPE_{group.type.name}"),
        "clue": group.clue or 0,
        "operation": CAGE_OPERATIONS[group.operation],
        "index": group.index,
    }
    if group.clue_cell is not None:
        out["clue_cell"] = cell(group.clue_cell)
    return out


def _group_report(rep) -> service_pb2.GroupReport:
    return service_pb2.GroupReport(
        **_group_fields(rep.group),
        cells=cells(rep.group.cells),
        state=_enum_value(service_pb2.GroupState, f"GROUP_STATE_{rep.state.value}"),
        total=rep.total,
        duplicates=cells(rep.duplicates),
    )


def validate_response(read: Read, result: operations.Validation) -> service_pb2.ValidateResponse:
    report = result.report
    return service_pb2.ValidateResponse(
        warnings=[finding(f) for f in read.warnings],
        board_findings=[finding(f) for f in report.findings],
        groups=[_group_report(r) for r in report.groups],
        cells=[
            service_pb2.CellReport(
                cell=cell(c), status=_enum_value(service_pb2.CellStatus, f"CELL_STATUS_{s.value}")
            )
            for c, s in report.cells.items()
        ],
        solved=report.solved,
        verdict=verdict(result.verdict),
        wrong_entries=cells(report.wrong_entries),
        stats=stats(result.stats),
        puzzle=puzzle(read),
    )


def solve_response(read: Read, answer, difficulty=None) -> service_pb2.SolveResponse:
    out = service_pb2.SolveResponse(
        verdict=verdict(answer.verdict), stats=stats(answer.stats), puzzle=puzzle(read)
    )
    if answer.solutions:
        out.solution.CopyFrom(grid(answer.solutions[0]))
    if difficulty is not None:
        out.difficulty.CopyFrom(difficulty_message(difficulty))
    return out


def uniqueness_result(answer) -> service_pb2.CheckUniquenessResponse:
    """The answer alone: what a batch sends back (no puzzle, no difficulty)."""
    return service_pb2.CheckUniquenessResponse(
        verdict=verdict(answer.verdict),
        solutions=[grid(s) for s in answer.solutions],
        differing_cells=cells(answer.differing),
        stats=stats(answer.stats),
    )


def uniqueness_response(read: Read, answer, difficulty=None) -> service_pb2.CheckUniquenessResponse:
    out = uniqueness_result(answer)
    out.puzzle.CopyFrom(puzzle(read))
    if difficulty is not None:
        out.difficulty.CopyFrom(difficulty_message(difficulty))
    return out


def hint_response(read: Read, hint: operations.Hint) -> service_pb2.HintResponse:
    kind = (
        _enum_value(service_pb2.HintKind, f"HINT_KIND_{hint.kind}")
        if hint.kind
        else service_pb2.HINT_KIND_UNSPECIFIED
    )
    return service_pb2.HintResponse(
        kind=kind,
        cells=cells(hint.cells),
        placements=[service_pb2.Placement(cell=cell(c), digit=d) for c, d in hint.placements],
        explanation=hint.explanation,
        findings=[finding(f) for f in hint.findings],
        verdict=verdict(hint.verdict),
        stats=stats(hint.stats),
        puzzle=puzzle(read),
        step=step(hint.step) if hint.step is not None else None,
    )


# ---------------------------------------------------------------- logic: steps and grades
#
# A kind's techniques and grades are IntEnums named as numgrid.v1.Technique and
# numgrid.v1.Grade without their prefixes, so they are matched by name.


def technique(value: enum.IntEnum) -> service_pb2.Technique:
    return _enum_value(service_pb2.Technique, f"TECHNIQUE_{value.name}")


def technique_of(kind: Kind, value: int, field: str):
    """The kind's technique for a request's ``Technique``; None when unspecified."""
    try:
        name = service_pb2.Technique.Name(value).removeprefix("TECHNIQUE_")
    except ValueError:
        raise _invalid(field, f"unknown technique {value}") from None
    if name == "UNSPECIFIED":
        return None
    if name not in kind.logic.Technique.__members__:
        raise _invalid(field, f"{kind.name} has no technique {name}")
    return kind.logic.Technique[name]


def step(s) -> service_pb2.Step:
    return service_pb2.Step(
        technique=technique(s.technique),
        placements=[service_pb2.Placement(cell=cell(c), digit=d) for c, d in s.placements],
        eliminations=[service_pb2.Elimination(cell=cell(c), digit=d) for c, d in s.eliminations],
        groups=[service_pb2.GroupRef(**_group_fields(g)) for g in s.groups],
        cells=cells(s.cells),
        explanation=s.explanation,
    )


def difficulty_message(d: operations.Difficulty) -> service_pb2.Difficulty:
    return service_pb2.Difficulty(
        grade=(
            _enum_value(service_pb2.Grade, f"GRADE_{d.grade.name}")
            if d.grade is not None
            else service_pb2.GRADE_UNSPECIFIED
        ),
        hardest=(
            technique(d.hardest) if d.hardest is not None else service_pb2.TECHNIQUE_UNSPECIFIED
        ),
        counts=[
            service_pb2.TechniqueCount(technique=technique(t), count=n)
            for t, n in sorted(d.counts.items())
        ],
        solved_by_logic=d.solved_by_logic,
        score=d.score,
    )


def explain_response(read: Read, explained: operations.Explained) -> service_pb2.ExplainResponse:
    return service_pb2.ExplainResponse(
        steps=[step(s) for s in explained.steps],
        solved=explained.solved,
        difficulty=difficulty_message(explained.difficulty),
        puzzle=puzzle(read),
    )


def entries_rejected(error: PuzzleError) -> InvalidRequest:
    """Entries the logical solver cannot start from (a rule broken, no completion)."""
    violations = [Violation(PUZZLE_FIELD, f.message) for f in error.findings]
    return InvalidRequest(violations, str(error), error.findings)


# ---------------------------------------------------------------- pictures

_HIGHLIGHTS = {
    service_pb2.HIGHLIGHT_UNSPECIFIED: Highlight.HINT,
    service_pb2.HIGHLIGHT_HINT: Highlight.HINT,
    service_pb2.HIGHLIGHT_MISTAKE: Highlight.MISTAKE,
}
_PICTURE_FORMATS = (service_pb2.PICTURE_FORMAT_UNSPECIFIED, service_pb2.PICTURE_FORMAT_SVG)


def highlights(messages, read: Read, field: str = "highlights") -> dict[Cell, Highlight]:
    """A Render request's highlighted cells; InvalidRequest naming every one off the
    grid, given twice, or of an unknown highlight."""
    rows, cols = read.board.puzzle.rows, read.board.puzzle.cols
    out: dict[Cell, Highlight] = {}
    violations = []
    for i, message in enumerate(messages):
        c = (message.cell.row, message.cell.column)
        where = f"{field}[{i}]"
        if not (0 <= c[0] < rows and 0 <= c[1] < cols):
            violations.append(
                Violation(f"{where}.cell", f"r{c[0]}c{c[1]} is not on the {rows}x{cols} grid")
            )
        elif message.highlight not in _HIGHLIGHTS:
            violations.append(
                Violation(f"{where}.highlight", f"unknown highlight {message.highlight}")
            )
        elif c in out:
            violations.append(Violation(f"{where}.cell", f"r{c[0]}c{c[1]} is highlighted twice"))
        else:
            out[c] = _HIGHLIGHTS[message.highlight]
    if violations:
        raise InvalidRequest(violations, reason="INVALID_HIGHLIGHT")
    return out


def picture_format(value: int, field: str = "format") -> None:
    """InvalidRequest unless the picture's format is one the server draws (SVG)."""
    if value not in _PICTURE_FORMATS:
        raise _invalid(field, f"unknown picture format {value}: the server draws SVG")


def no_unique_solution(verdict: Verdict | None) -> InvalidRequest:
    """show_solution of a puzzle without a unique solution."""
    why = "several solutions" if verdict is Verdict.MULTIPLE else "no solution"
    return InvalidRequest(
        [Violation("show_solution", f"the puzzle has {why}, so there is no solution to draw")],
        reason="NO_UNIQUE_SOLUTION",
    )


def render_response(read: Read, rendered: operations.Rendered) -> service_pb2.RenderResponse:
    picture = rendered.picture
    assert picture is not None  # the service refuses a render without one, before this
    out = service_pb2.RenderResponse(
        svg=picture.svg, width=picture.width, height=picture.height, puzzle=puzzle(read)
    )
    if rendered.solution is not None:
        out.solution.CopyFrom(grid(rendered.solution))
    return out


# ---------------------------------------------------------------- Generate


@dataclass(frozen=True)
class GenerateParams:
    kind: Kind
    spec: Spec
    count: int
    seed: int  # the first puzzle's
    formats: tuple[str, ...] | None  # of the texts; None: every one that holds the puzzle
    time_limit: float | None = None  # each puzzle's, seconds; None: the server's cap

    @property
    def size(self) -> str:
        return f"{self.spec.rows}x{self.spec.cols}"


_SPEC_FIELDS = {"rows": "rows", "cols": "columns"}  # Spec's names to the request's


def served_kind(value: int) -> str | None:
    """The name of a served kind for a ``PuzzleKind`` value; None for any other."""
    try:
        name = _enum_name(puzzle_pb2.PuzzleKind, value, "PUZZLE_KIND_")
    except ValueError:
        return None
    return name if name in KINDS else None


def generate_request(message: service_pb2.GenerateRequest, max_cells: int) -> GenerateParams:
    """The kind, spec, count and seed of a Generate request; InvalidRequest naming every
    parameter no puzzle can meet, with a sentence each."""
    try:
        kind_name = _enum_name(puzzle_pb2.PuzzleKind, message.kind, "PUZZLE_KIND_")
    except ValueError:
        raise _invalid("kind", f"unknown puzzle kind {message.kind}") from None
    if kind_name is None or kind_name not in KINDS:
        served = ", ".join(sorted(KINDS))
        raise _invalid("kind", f"say which kind of puzzle to make: one of {served}")
    try:
        grade_name = _enum_name(service_pb2.Grade, message.grade, "GRADE_")
    except ValueError:
        raise _invalid("grade", f"unknown grade {message.grade}") from None
    rows, cols = message.rows, message.columns or message.rows
    seed = message.seed if message.HasField("seed") else generate.new_seed()
    count = message.count or 1
    spec = Spec(
        rows,
        cols,
        None if grade_name is None else Grade[grade_name.upper()],
        message.density,
        message.single_cell_runs,
        message.diagonals,
    )
    kind = KINDS[kind_name]
    violations = []
    formats = _format_names(message.formats, "formats")
    violations += [
        Violation("formats", kind.formats.FORMATS.missing(fmt))
        for fmt in formats
        if fmt not in kind.formats.FORMATS
    ]
    if rows <= 0 or cols <= 0:
        violations.append(Violation("rows", f"the size must be positive, not {rows}x{cols}"))
    elif rows * cols > max_cells:
        violations.append(
            Violation("rows", f"{rows}x{cols} = {rows * cols} cells, over the limit of {max_cells}")
        )
    if not 0 <= seed <= generate.MAX_SEED - max(count, 1):
        violations.append(Violation("seed", f"the seed must be 0 to 2^63 - count, not {seed}"))
    try:
        time_limit = _time_limit(message, "time_limit")
    except InvalidRequest as e:  # named beside the others
        violations += e.violations
        time_limit = None
    if not violations:
        problems = generate.problems(kind, spec, count)
        violations = [Violation(_SPEC_FIELDS.get(f, f), text) for f, text in problems]
    if violations:
        raise InvalidRequest(violations, reason="UNREACHABLE_SPEC")
    return GenerateParams(kind, spec, count, seed, tuple(formats) or None, time_limit)


def _duration(seconds: float) -> Duration:
    out = Duration()
    out.FromNanoseconds(round(seconds * 1e9))
    return out


def generate_response(
    kind: Kind, made: generate.Generated, index: int, formats: tuple[str, ...] | None = None
) -> service_pb2.GenerateResponse:
    """Puzzle ``index`` as made, its texts in ``formats`` (None: every format of its kind
    that holds it; one asked for that cannot is INVALID_ARGUMENT)."""
    board = Board.empty(made.puzzle)
    if formats is None:
        texts = []
        for fmt in kind.formats.FORMATS:
            with contextlib.suppress(InvalidRequest):  # e.g. a line holds no X rule
                texts.append(written(kind, board, fmt, "formats"))
    else:
        texts = [written(kind, board, fmt, "formats") for fmt in formats]
    return service_pb2.GenerateResponse(
        puzzle=kind.wire.to_proto(board),
        texts=texts,
        solution=grid(made.solution),
        solution_text=kind.formats.write_solution(made.puzzle, made.solution),
        difficulty=difficulty_message(made.difficulty),
        seed=made.seed,
        index=index,
        attempts=made.attempts,
        repairs=made.repairs,
        elapsed=_duration(made.seconds),
        stats=stats(made.stats),
    )


# ---------------------------------------------------------------- ConvertPuzzle


def _format_names(values: Iterable[int], field: str) -> list[str]:
    """The names of PuzzleFormat values a request asks for; InvalidRequest for an unknown
    or unspecified one."""
    names = []
    for value in values:
        try:
            name = _enum_name(puzzle_pb2.PuzzleFormat, value, "PUZZLE_FORMAT_")
        except ValueError:
            raise _invalid(field, f"unknown puzzle format {value}") from None
        if name is None:
            raise _invalid(field, "say which format to write: PUZZLE_FORMAT_UNSPECIFIED is none")
        names.append(name)
    return names


def written(kind: Kind, board: Board, fmt: str, field: str) -> puzzle_pb2.PuzzleText:
    """The board written in ``fmt``; InvalidRequest (on ``field``) when the kind has no
    such format or the format cannot hold this puzzle (a variant, a size), with why."""
    if fmt not in kind.formats.FORMATS:
        raise _invalid(field, kind.formats.FORMATS.missing(fmt))
    try:
        content = kind.formats.write(board, fmt)
    except PuzzleError as e:
        violations = [Violation(field, f"{fmt}: {f.message}") for f in e.findings]
        raise InvalidRequest(violations, findings=e.findings, reason="FORMAT_CANNOT_HOLD") from None
    return puzzle_pb2.PuzzleText(
        content=content,
        format=_enum_value(puzzle_pb2.PuzzleFormat, f"PUZZLE_FORMAT_{fmt.upper()}"),
        kind=_enum_value(puzzle_pb2.PuzzleKind, f"PUZZLE_KIND_{kind.name.upper()}"),
    )


def convert_response(
    read: Read, message: service_pb2.ConvertPuzzleRequest
) -> service_pb2.ConvertPuzzleResponse:
    """The puzzle read, written in the format the request asks for."""
    (fmt,) = _format_names([message.format], "format")
    return service_pb2.ConvertPuzzleResponse(
        text=written(read.kind, read.board, fmt, "format"), puzzle=puzzle(read)
    )
