"""A thin, typed wrapper over the NumgridService stub: Python values in and out.

Every call has a deadline (the client's ``timeout``, or the call's own). A call that
finds the server UNAVAILABLE is retried by gRPC itself (the channel's service config
carries a ``retryPolicy`` for UNAVAILABLE only); nothing else is retried. A failed call
raises :class:`NumgridError`, with the BadRequest field violations read from the status.

Each RPC is written once, as a function below that builds its :class:`Call` (the
request, and how to read the answer: ``solve_call`` and ``solve_result_from``, ...);
both clients' methods are made from these (:func:`unary`, :func:`streamed`), so the
asyncio client
(:mod:`numgrid.client.aio`) differs only in how it waits.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from typing import Concatenate
from typing import Generic
from typing import ParamSpec
from typing import TypeVar
from typing import cast

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from grpc_status import rpc_status
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc as service_grpc
from numgrid.v1 import puzzle_pb2

from .channels import PLAINTEXT
from .channels import Credentials
from .channels import open_channel
from .types import Cell
from .types import Converted
from .types import Difficulty
from .types import EngineStat
from .types import Explanation
from .types import Finding
from .types import GeneratedPuzzle
from .types import Grid
from .types import GroupRef
from .types import GroupStatus
from .types import Hint
from .types import NumgridError
from .types import Picture
from .types import SolveResult
from .types import Step
from .types import Uniqueness
from .types import Validation
from .types import Violation

SERVICE = "numgrid.v1.NumgridService"
HEALTH_SERVICE = "grpc.health.v1.Health"
DEFAULT_RETRIES = 4  # gRPC caps attempts at 5: the first try and four retries
MAX_METADATA_BYTES = 4 * 1024 * 1024
MAX_MESSAGE_BYTES = 16 * 1024 * 1024  # the server's default limit too
# Every channel's: room for big answers and for big error details (a BadRequest with one
# violation per bad cell travels in the trailing metadata, which gRPC's default, 16 KiB,
# would drop), and flow control as the caller reads.
CHANNEL_OPTIONS = [
    ("grpc.max_metadata_size", MAX_METADATA_BYTES),
    ("grpc.absolute_max_metadata_size", MAX_METADATA_BYTES),
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    # HTTP/2 flow control as the caller reads: gRPC otherwise grows the window it gives
    # the server (BDP probing) whether or not the caller takes the messages, and a
    # Generate stream left unread would keep the server making puzzles into it.
    ("grpc.http2.bdp_probe", 0),
]

ENGINES = {
    "auto": puzzle_pb2.ENGINE_AUTO,
    "cpsat": puzzle_pb2.ENGINE_CPSAT,
    "native": puzzle_pb2.ENGINE_NATIVE,
    "cross-check": puzzle_pb2.ENGINE_CROSS_CHECK,
}
# The formats: each PuzzleFormat of the proto, by its name in lower case.
FORMATS: dict[str | None, puzzle_pb2.PuzzleFormat] = {
    None: puzzle_pb2.PUZZLE_FORMAT_UNSPECIFIED,
    "auto": puzzle_pb2.PUZZLE_FORMAT_UNSPECIFIED,
    **{
        value.name.removeprefix("PUZZLE_FORMAT_").lower(): cast(
            puzzle_pb2.PuzzleFormat, value.number
        )
        for value in puzzle_pb2.PuzzleFormat.DESCRIPTOR.values
        if value.number != puzzle_pb2.PUZZLE_FORMAT_UNSPECIFIED
    },
}
# The kinds: each field of the Puzzle oneof, in the proto's order, with its PuzzleKind.
KINDS: dict[str | None, puzzle_pb2.PuzzleKind] = {
    None: puzzle_pb2.PUZZLE_KIND_UNSPECIFIED,
    "auto": puzzle_pb2.PUZZLE_KIND_UNSPECIFIED,
    **{
        field.name: cast(
            puzzle_pb2.PuzzleKind,
            puzzle_pb2.PuzzleKind.Value(f"PUZZLE_KIND_{field.name.upper()}"),
        )
        for field in puzzle_pb2.Puzzle.DESCRIPTOR.oneofs_by_name["kind"].fields
    },
}
# The logical techniques, simplest first: "LAST_CELL", ..., "REGION_SUM", "TRIAL".
TECHNIQUES = tuple(
    v.name.removeprefix("TECHNIQUE_")
    for v in service_pb2.Technique.DESCRIPTOR.values
    if v.number != service_pb2.TECHNIQUE_UNSPECIFIED
)

PuzzleLike = str | puzzle_pb2.Puzzle | puzzle_pb2.PuzzleInput
P = ParamSpec("P")
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def service_config(retries: int) -> str:
    """The channel's service config: retry UNAVAILABLE (only) with exponential backoff."""
    policy = {
        "maxAttempts": retries + 1,
        "initialBackoff": "0.1s",
        "maxBackoff": "1s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": ["UNAVAILABLE"],
    }
    return json.dumps(
        {
            "methodConfig": [
                {
                    "name": [{"service": SERVICE}, {"service": HEALTH_SERVICE}],
                    "retryPolicy": policy,
                }
            ]
        }
    )


def channel_options(retries: int) -> list[tuple[str, object]]:
    """Retries (0 turns them off), and :data:`CHANNEL_OPTIONS`."""
    if retries < 0 or retries > DEFAULT_RETRIES:
        raise ValueError(f"retries must be 0 to {DEFAULT_RETRIES} (gRPC allows 5 attempts)")
    if retries == 0:
        return [("grpc.enable_retries", 0), *CHANNEL_OPTIONS]
    retry = [("grpc.enable_retries", 1), ("grpc.service_config", service_config(retries))]
    return retry + CHANNEL_OPTIONS


# ---------------------------------------------------------------- proto -> Python values


def _name(enum_type, value: int, prefix: str) -> str | None:
    """``VERDICT_UNIQUE`` -> ``"UNIQUE"``; the UNSPECIFIED value -> None; a value this
    client does not know (from a newer server) -> ``"UNKNOWN_<n>"``."""
    try:
        name = enum_type.Name(value)
    except ValueError:
        return f"UNKNOWN_{value}"
    return None if name.endswith("_UNSPECIFIED") else name.removeprefix(prefix)


def _verdict(value: int) -> str | None:
    return _name(puzzle_pb2.Verdict, value, "VERDICT_")


def _cells(refs) -> tuple[tuple[int, int], ...]:
    return tuple((ref.row, ref.column) for ref in refs)


def _grid(grid: puzzle_pb2.Grid) -> Grid:
    return tuple(tuple(row.values) for row in grid.rows)


def _finding(f: puzzle_pb2.Finding) -> Finding:
    severity = _name(puzzle_pb2.Severity, f.severity, "SEVERITY_") or "ERROR"
    return Finding(f.code, f.message, _cells(f.cells), severity.lower(), f.group)


def _stats(stats) -> tuple[EngineStat, ...]:
    return tuple(
        EngineStat(
            (_name(puzzle_pb2.Engine, s.engine, "ENGINE_") or "auto").lower().replace("_", "-"),
            s.elapsed.seconds + s.elapsed.nanos / 1e9,
            s.nodes,
        )
        for s in stats
    )


def _cell_status(value: int) -> str:
    return _name(service_pb2.CellStatus, value, "CELL_STATUS_") or ""


_OPERATIONS = {"ADD": "+", "SUBTRACT": "-", "MULTIPLY": "x", "DIVIDE": "/"}


def _group(r: service_pb2.GroupRef | service_pb2.GroupReport) -> GroupRef:
    operation = _name(puzzle_pb2.CageOperation, r.operation, "CAGE_OPERATION_")
    return GroupRef(
        type=(_name(service_pb2.GroupType, r.type, "GROUP_TYPE_") or "").lower(),
        clue_cell=(r.clue_cell.row, r.clue_cell.column) if r.HasField("clue_cell") else None,
        clue=r.clue,
        operation=_OPERATIONS.get(operation or "", operation or ""),
        index=r.index,
    )


def _group_status(r: service_pb2.GroupReport) -> GroupStatus:
    return GroupStatus(
        group=_group(r),
        cells=_cells(r.cells),
        state=_name(service_pb2.GroupState, r.state, "GROUP_STATE_") or "",
        total=r.total,
        duplicates=_cells(r.duplicates),
    )


def _technique(value: int) -> str | None:
    return _name(service_pb2.Technique, value, "TECHNIQUE_")


def technique_value(name: str | None) -> service_pb2.Technique:
    """``"REGION_SUM"`` (any case, ``-`` for ``_``) -> the Technique; None -> unspecified."""
    if name is None:
        return service_pb2.TECHNIQUE_UNSPECIFIED
    key = name.upper().replace("-", "_")
    if key not in TECHNIQUES:
        raise ValueError(f"unknown technique {name!r}; known: {', '.join(TECHNIQUES)}")
    return cast(service_pb2.Technique, service_pb2.Technique.Value(f"TECHNIQUE_{key}"))


def _step(s: service_pb2.Step) -> Step:
    return Step(
        technique=_technique(s.technique) or "",
        placements=tuple(((p.cell.row, p.cell.column), p.digit) for p in s.placements),
        eliminations=tuple(((e.cell.row, e.cell.column), e.digit) for e in s.eliminations),
        groups=tuple(_group(g) for g in s.groups),
        cells=_cells(s.cells),
        explanation=s.explanation,
    )


def _difficulty(d: service_pb2.Difficulty) -> Difficulty:
    return Difficulty(
        grade=_name(service_pb2.Grade, d.grade, "GRADE_"),
        hardest=_technique(d.hardest),
        counts={_technique(c.technique) or "": c.count for c in d.counts},
        solved_by_logic=d.solved_by_logic,
        score=d.score,
    )


def error_from_rpc(error: grpc.RpcError) -> NumgridError:
    """Turn a failed call into a NumgridError, reading the BadRequest detail if any."""
    code = error.code() if hasattr(error, "code") else None
    message = error.details() if hasattr(error, "details") else str(error)
    violations: list[Violation] = []
    findings: list[Finding] = []
    problems = None
    retry_after = None
    try:
        status = rpc_status.from_call(cast(grpc.Call, error))  # a failed call is a Call
    except (ValueError, AttributeError):
        status = None
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                violations.extend(
                    Violation.parse(v.field, v.description) for v in bad.field_violations
                )
            elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                if info.metadata.get("problems", "").isdecimal():
                    problems = int(info.metadata["problems"])
            elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                retry = error_details_pb2.RetryInfo()
                detail.Unpack(retry)
                retry_after = retry.retry_delay.ToTimedelta().total_seconds()
            elif detail.Is(puzzle_pb2.Finding.DESCRIPTOR):
                found = puzzle_pb2.Finding()
                detail.Unpack(found)
                findings.append(_finding(found))
    name = code.name if code else "UNKNOWN"
    return NumgridError(name, message or "", violations, findings, problems, retry_after)


# ---------------------------------------------------------------- requests and answers
# One place for what every RPC sends and what its answer means, for both clients.


def puzzle_input(
    puzzle: PuzzleLike, *, format: str | None = None, kind: str | None = None
) -> puzzle_pb2.PuzzleInput:
    """The PuzzleInput for text (in ``format``, None or "auto" to detect) or a Puzzle."""
    if isinstance(puzzle, puzzle_pb2.PuzzleInput):
        return puzzle
    if isinstance(puzzle, puzzle_pb2.Puzzle):
        return puzzle_pb2.PuzzleInput(puzzle=puzzle)
    if isinstance(puzzle, str):
        if format not in FORMATS:
            known = ", ".join(str(k) for k in FORMATS if k)
            raise ValueError(f"unknown format {format!r}; known: {known}")
        if kind not in KINDS:
            known = ", ".join(str(k) for k in KINDS if k)
            raise ValueError(f"unsupported kind {kind!r}; known: {known}")
        return puzzle_pb2.PuzzleInput(
            text=puzzle_pb2.PuzzleText(content=puzzle, format=FORMATS[format], kind=KINDS[kind])
        )
    raise TypeError(f"a puzzle is text or a numgrid.v1.Puzzle, not {type(puzzle).__name__}")


def search_options(
    engine: str = "auto", time_limit: float | None = None, hold_entries: bool = False
) -> service_pb2.SearchOptions:
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    options = service_pb2.SearchOptions(engine=ENGINES[engine], hold_entries=hold_entries)
    if time_limit is not None:
        _hold_limit(options, time_limit)
    return options


def _hold_limit(
    request: service_pb2.SearchOptions | service_pb2.GenerateRequest, seconds: float
) -> None:
    """``seconds`` as the request's ``time_limit``, at most :data:`LONGEST` (a larger
    Duration overflows)."""
    request.time_limit.FromTimedelta(timedelta(seconds=min(seconds, LONGEST)))


# ---------------------------------------------------------------- the calls
# Each RPC once, for both clients: a function takes the method's arguments and builds
# the Call (the request, and how to read the answer); the clients' methods are made
# from these functions (unary, streamed) and differ only in how they wait.


@dataclass(frozen=True)
class Call(Generic[T]):
    """One call to make: the method (of NumgridService, or of the health service), its
    request, how to read an answer, and the deadline (None: the client's own)."""

    method: str
    request: Message
    read: Callable[[Any], T]
    timeout: float | None = None
    service: str = "numgrid"  # or "health"

    def deadline(self, default: float | None) -> float | None:
        """Its seconds (else the client's ``default``), at most :data:`LONGEST`: a larger
        one means "long", where gRPC would overflow or end the call at once."""
        seconds = default if self.timeout is None else self.timeout
        return None if seconds is None else min(seconds, LONGEST)


LONGEST = 30 * 24 * 3600.0  # a month: the longest deadline a call is given


def client_method(method: F, build: Callable[..., Any], answer: str) -> F:
    """``method`` as a client's method made from ``build`` (a ``*_call`` function): its
    name and docstring, and its signature (``self``, then the call's arguments; the
    answer, ``answer`` formatted with the call's answer type, as its return)."""
    signature = inspect.signature(build)
    read = str(signature.return_annotation).removeprefix("Call[").removesuffix("]")
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__name__ = build.__name__.removesuffix("_call")
    method.__doc__ = build.__doc__
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[self, *signature.parameters.values()],
        return_annotation=answer.format(read),
    )
    return method


def unary(build: Callable[P, Call[T]]) -> Callable[Concatenate[Any, P], T]:
    """A method of :class:`NumgridClient` that answers once."""

    def method(client: NumgridClient, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return client._answer(functools.partial(build, *args, **kwargs))

    return client_method(method, build, "{}")


def streamed(build: Callable[P, Call[T]]) -> Callable[Concatenate[Any, P], Iterator[T]]:
    """A method of :class:`NumgridClient` that yields each answer as it comes."""

    def method(client: NumgridClient, /, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
        yield from client._stream(functools.partial(build, *args, **kwargs))

    return client_method(method, build, "Iterator[{}]")


def validate_call(
    puzzle: PuzzleLike,
    *,
    format: str | None = None,
    kind: str | None = None,
    compare_with_solution: bool = False,
    engine: str = "auto",
    time_limit: float | None = None,
    timeout: float | None = None,
) -> Call[Validation]:
    """Check a puzzle and the player's board; optionally compare with the solution."""
    request = service_pb2.ValidateRequest(
        puzzle=puzzle_input(puzzle, format=format, kind=kind),
        compare_with_solution=compare_with_solution,
        options=search_options(engine, time_limit),
    )
    return Call("Validate", request, validation_from, timeout)


def validation_from(r: service_pb2.ValidateResponse) -> Validation:
    return Validation(
        warnings=tuple(_finding(f) for f in r.warnings),
        board_findings=tuple(_finding(f) for f in r.board_findings),
        groups=tuple(_group_status(g) for g in r.groups),
        cells=tuple(((c.cell.row, c.cell.column), _cell_status(c.status)) for c in r.cells),
        solved=r.solved,
        verdict=_verdict(r.verdict),
        wrong_entries=_cells(r.wrong_entries),
        stats=_stats(r.stats),
        puzzle=r.puzzle,
    )


def solve_call(
    puzzle: PuzzleLike,
    *,
    format: str | None = None,
    kind: str | None = None,
    engine: str = "auto",
    time_limit: float | None = None,
    hold_entries: bool = False,
    timeout: float | None = None,
) -> Call[SolveResult]:
    """Find the solution (``solution`` is None for NO_SOLUTION and TIMEOUT)."""
    request = service_pb2.SolveRequest(
        puzzle=puzzle_input(puzzle, format=format, kind=kind),
        options=search_options(engine, time_limit, hold_entries),
    )
    return Call("Solve", request, solve_result_from, timeout)


def solve_result_from(r: service_pb2.SolveResponse) -> SolveResult:
    return SolveResult(
        verdict=_verdict(r.verdict) or "",
        solution=_grid(r.solution) if r.HasField("solution") else None,
        stats=_stats(r.stats),
        puzzle=r.puzzle,
        difficulty=_difficulty(r.difficulty) if r.HasField("difficulty") else None,
    )


def hint_call(
    puzzle: PuzzleLike,
    *,
    format: str | None = None,
    kind: str | None = None,
    engine: str = "auto",
    time_limit: float | None = None,
    timeout: float | None = None,
    max_technique: str | None = None,
    placements_only: bool = False,
) -> Call[Hint]:
    """The next step for the player whose entries are in ``puzzle``: a mistake, or the
    simplest logical step with techniques up to ``max_technique`` (None: all but
    ``"TRIAL"``); with ``placements_only``, a step that places a digit."""
    request = service_pb2.HintRequest(
        puzzle=puzzle_input(puzzle, format=format, kind=kind),
        options=search_options(engine, time_limit),
        max_technique=technique_value(max_technique),
        placements_only=placements_only,
    )
    return Call("Hint", request, hint_from, timeout)


def hint_from(r: service_pb2.HintResponse) -> Hint:
    return Hint(
        kind=_name(service_pb2.HintKind, r.kind, "HINT_KIND_") or "",
        cells=_cells(r.cells),
        placements=tuple(((p.cell.row, p.cell.column), p.digit) for p in r.placements),
        explanation=r.explanation,
        findings=tuple(_finding(f) for f in r.findings),
        verdict=_verdict(r.verdict),
        stats=_stats(r.stats),
        puzzle=r.puzzle,
        step=_step(r.step) if r.HasField("step") else None,
    )


def explain_call(
    puzzle: PuzzleLike,
    *,
    format: str | None = None,
    kind: str | None = None,
    max_technique: str | None = None,
    timeout: float | None = None,
) -> Call[Explanation]:
    """Every logical step from the puzzle's entries (an empty grid if none), with
    techniques up to ``max_technique`` (None: all, ``"TRIAL"`` included)."""
    request = service_pb2.ExplainRequest(
        puzzle=puzzle_input(puzzle, format=format, kind=kind),
        max_technique=technique_value(max_technique),
    )
    return Call("Explain", request, explanation_from, timeout)


def explanation_from(r: service_pb2.ExplainResponse) -> Explanation:
    return Explanation(
        steps=tuple(_step(s) for s in r.steps),
        solved=r.solved,
        difficulty=_difficulty(r.difficulty),
        puzzle=r.puzzle,
    )


def check_uniqueness_call(
    puzzle: PuzzleLike,
    *,
    format: str | None = None,
    kind: str | None = None,
    engine: str = "auto",
    time_limit: float | None = None,
    hold_entries: bool = False,
    timeout: float | None = None,
) -> Call[Uniqueness]:
    """UNIQUE (one solution), MULTIPLE (two, and where they differ), NO_SOLUTION, TIMEOUT."""
    request = service_pb2.CheckUniquenessRequest(
        puzzle=puzzle_input(puzzle, format=format, kind=kind),
        options=search_options(engine, time_limit, hold_entries),
    )
    return Call("CheckUniqueness", request, uniqueness_from, timeout)


def uniqueness_from(r: service_pb2.CheckUniquenessResponse) -> Uniqueness:
    return Uniqueness(
        verdict=_verdict(r.verdict) or "",
        solutions=tuple(_grid(g) for g in r.solutions),
        differing_cells=_cells(r.differing_cells),
        stats=_stats(r.stats),
        puzzle=r.puzzle,
        difficulty=_difficulty(r.difficulty) if r.HasField("difficulty") else None,
    )


HIGHLIGHTS = {
    "hint": service_pb2.HIGHLIGHT_HINT,
    "mistake": service_pb2.HIGHLIGHT_MISTAKE,
}


def render_call(
    puzzle: PuzzleLike,
    *,
    format: str | None = None,
    kind: str | None = None,
    show_entries: bool = False,
    show_solution: bool = False,
    highlights: Mapping[Cell, str] | None = None,
    engine: str = "auto",
    time_limit: float | None = None,
    timeout: float | None = None,
) -> Call[Picture]:
    """The puzzle drawn by the server as an SVG picture: with the player's entries
    (``show_entries``), its unique solution (``show_solution``; a puzzle without one
    is INVALID_ARGUMENT), cells highlighted (``{(row, column): "hint" or
    "mistake"}``)."""
    cells = []
    for (row, column), why in (highlights or {}).items():
        if why not in HIGHLIGHTS:
            raise ValueError(f"unknown highlight {why!r}; known: {', '.join(HIGHLIGHTS)}")
        cells.append(
            service_pb2.HighlightedCell(
                cell=puzzle_pb2.CellRef(row=row, column=column), highlight=HIGHLIGHTS[why]
            )
        )
    request = service_pb2.RenderRequest(
        puzzle=puzzle_input(puzzle, format=format, kind=kind),
        show_entries=show_entries,
        show_solution=show_solution,
        highlights=cells,
        options=search_options(engine, time_limit),
        format=service_pb2.PICTURE_FORMAT_SVG,
    )
    return Call("Render", request, picture_from, timeout)


def picture_from(r: service_pb2.RenderResponse) -> Picture:
    return Picture(
        svg=r.svg,
        width=r.width,
        height=r.height,
        puzzle=r.puzzle,
        solution=_grid(r.solution) if r.HasField("solution") else None,
    )


GRADES = ("EASY", "MEDIUM", "HARD", "EXPERT", "EXTREME")


def generate_call(
    kind: str,
    rows: int,
    columns: int = 0,
    *,
    grade: str | None = None,
    count: int = 1,
    seed: int | None = None,
    density: float = 0.0,
    single_cell_runs: bool = False,
    diagonals: bool = False,
    formats: Sequence[str] = (),
    time_limit: float | None = None,
    timeout: float | None = None,
) -> Call[GeneratedPuzzle]:
    """New puzzles, each as soon as the server has made it: unique (proven by both
    engines), of ``grade`` (one of :data:`GRADES`, any case; None: any), puzzle *i*
    reproducible from ``seed + i``. ``time_limit`` bounds each puzzle (within the server's
    time cap), ``timeout`` the whole stream; closing the iterator cancels the call.
    ``rows`` and ``columns`` count what the kind counts (a clue row and column, e.g.);
    ``density`` is the share of white cells, for the kinds that take it (0: the default);
    ``diagonals`` asks for the X variant, for the kinds that have one; ``formats`` names
    the texts wanted (empty: every one of the kind)."""
    if kind not in KINDS or kind in (None, "auto"):
        known = ", ".join(sorted(str(k) for k in KINDS if k and k != "auto"))
        raise ValueError(f"unknown kind {kind!r}; known: {known}")
    grade_value = service_pb2.GRADE_UNSPECIFIED
    if grade is not None:
        if grade.upper() not in GRADES:
            raise ValueError(f"unknown grade {grade!r}; known: {', '.join(GRADES).lower()}")
        grade_value = cast(service_pb2.Grade, service_pb2.Grade.Value(f"GRADE_{grade.upper()}"))
    request = service_pb2.GenerateRequest(
        kind=KINDS[kind],
        rows=rows,
        columns=columns,
        grade=grade_value,
        count=count,
        density=density,
        single_cell_runs=single_cell_runs,
        diagonals=diagonals,
        formats=[format_value(name) for name in formats],
    )
    if seed is not None:
        request.seed = seed
    if time_limit is not None:
        _hold_limit(request, time_limit)
    return Call("Generate", request, generated_from, timeout)


def format_value(name: str) -> puzzle_pb2.PuzzleFormat:
    """A format's PuzzleFormat value; ValueError naming the known ones."""
    if name in (None, "auto") or name not in FORMATS:
        known = ", ".join(str(k) for k in FORMATS if k and k != "auto")
        raise ValueError(f"unknown format {name!r}; known: {known}")
    return FORMATS[name]


def convert_call(
    puzzle: PuzzleLike,
    to: str,
    *,
    format: str | None = None,
    kind: str | None = None,
    timeout: float | None = None,
) -> Call[Converted]:
    """The puzzle written in format ``to``: a link (``puzzlink``, ``penpa``,
    ``fpuzzles``, ``sudokuwiki``), a Tatham game ID (``tatham``) or a text format."""
    request = service_pb2.ConvertPuzzleRequest(
        puzzle=puzzle_input(puzzle, format=format, kind=kind), format=format_value(to)
    )
    return Call("ConvertPuzzle", request, converted_from, timeout)


def converted_from(r: service_pb2.ConvertPuzzleResponse) -> Converted:
    return Converted(
        text=r.text.content,
        format=(_name(puzzle_pb2.PuzzleFormat, r.text.format, "PUZZLE_FORMAT_") or "").lower(),
        kind=r.puzzle.WhichOneof("kind") or "",
        puzzle=r.puzzle,
    )


def generated_from(r: service_pb2.GenerateResponse) -> GeneratedPuzzle:
    texts = {
        (_name(puzzle_pb2.PuzzleFormat, t.format, "PUZZLE_FORMAT_") or "").lower(): t.content
        for t in r.texts
    }
    return GeneratedPuzzle(
        index=r.index,
        seed=r.seed,
        texts=texts,
        solution=_grid(r.solution),
        solution_text=r.solution_text,
        difficulty=_difficulty(r.difficulty),
        attempts=r.attempts,
        repairs=r.repairs,
        seconds=r.elapsed.seconds + r.elapsed.nanos / 1e9,
        stats=_stats(r.stats),
        puzzle=r.puzzle,
    )


def health_call(service: str = "", *, timeout: float | None = None) -> Call[str]:
    """The standard gRPC health status: ``"SERVING"``, ``"NOT_SERVING"``, ..."""
    request = health_pb2.HealthCheckRequest(service=service)
    return Call("Check", request, health_status_from, timeout, service="health")


def health_status_from(r: health_pb2.HealthCheckResponse) -> str:
    return health_pb2.HealthCheckResponse.ServingStatus.Name(r.status)


# ---------------------------------------------------------------- the client


class NumgridClient:
    """Client of a numgrid server at ``target`` (``"host:port"``); a context manager.

    ``timeout`` is the default deadline of every call in seconds (None: no deadline);
    ``retries`` is how many times gRPC retries a call that found the server UNAVAILABLE
    (0 to 4; 0 turns retries off); ``credentials``: TLS and a bearer token
    (:mod:`.channels`). :class:`numgrid.client.aio.AsyncNumgridClient` is the same
    client for asyncio.
    """

    puzzle_input = staticmethod(puzzle_input)
    search_options = staticmethod(search_options)

    def __init__(
        self,
        target: str,
        *,
        timeout: float | None = None,
        retries: int = DEFAULT_RETRIES,
        channel: grpc.Channel | None = None,
        credentials: Credentials = PLAINTEXT,
    ):
        self.target = target
        self.timeout = timeout
        self.credentials = credentials
        self.options = channel_options(retries)
        self._channel = channel or open_channel(target, self.options, credentials)
        self._stub = service_grpc.NumgridServiceStub(self._channel)
        self._health: Any = health_pb2_grpc.HealthStub(self._channel)  # stubs: no methods

    def __enter__(self) -> NumgridClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def _method(self, call: Call[Any]) -> Any:
        return getattr(self._health if call.service == "health" else self._stub, call.method)

    def _answer(self, make: Callable[[], Call[T]]) -> T:
        call = make()
        try:
            return call.read(self._method(call)(call.request, timeout=call.deadline(self.timeout)))
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None

    def _stream(self, make: Callable[[], Call[T]]) -> Iterator[T]:
        call = make()
        stream = self._method(call)(call.request, timeout=call.deadline(self.timeout))
        try:
            for response in stream:
                yield call.read(response)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        finally:
            stream.cancel()

    # ------------------------------------------------------------ the RPCs

    validate = unary(validate_call)
    solve = unary(solve_call)
    hint = unary(hint_call)
    explain = unary(explain_call)
    check_uniqueness = unary(check_uniqueness_call)
    render = unary(render_call)
    generate = streamed(generate_call)
    convert = unary(convert_call)
    health = unary(health_call)
