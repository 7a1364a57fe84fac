"""The gRPC servicer, kept thin: translate the request, bound the search, call
:mod:`~numgrid.server.operations`, translate the answer back.

Every search gets one :class:`~numgrid.server.core.Budget` whose deadline is the nearest
of the client's deadline, the server's time cap and the request's own ``time_limit``,
and which is cancelled when the RPC ends early (client cancellation, deadline, shutdown):
CP-SAT is stopped through ``Budget.on_cancel``, the native engine polls the budget.
A search that runs out of time answers VERDICT_TIMEOUT when the request's own
``time_limit`` was the nearest bound, and fails with DEADLINE_EXCEEDED otherwise.

Errors never surface as UNKNOWN: a bad request is INVALID_ARGUMENT with a
``google.rpc.BadRequest`` detail, an engine disagreement or any other failure INTERNAL.

Every call, batch streams included, goes through :meth:`NumgridServicer._observed`: its
request id (:mod:`.logs`), the in-flight gauge, the call's metrics (:mod:`.metrics`), and
one log line when it ends::

    method=Solve size=12x12 status=OK kind=KIND verdict=UNIQUE engine=native ms=3.1
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import AbstractContextManager
from contextlib import contextmanager
from dataclasses import dataclass

import grpc
from numgrid.server import admission
from numgrid.server import batch
from numgrid.server import convert
from numgrid.server import generate
from numgrid.server import logs
from numgrid.server import metrics
from numgrid.server import operations
from numgrid.server.config import ServerConfig
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Verdict
from numgrid.server.core import call_budget
from numgrid.server.engines import EngineDisagreement
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc

log = logging.getLogger("numgrid.server")
request_log = logging.getLogger("numgrid.server.requests")

# gRPC ends a call at its deadline by its own clock; time_remaining() may still show
# a few microseconds then. A call that ends this close to its deadline ran out of time.
_DEADLINE_SLOP = 0.05


class _Abort(Exception):
    """End the call with this status (raised by the methods, applied by the decorator)."""

    def __init__(self, code: grpc.StatusCode, details: str):
        super().__init__(details)
        self.code, self.details = code, details


@dataclass
class _Call:
    """What the log line and the metrics say about one call, filled in as it goes."""

    method: str
    code: grpc.StatusCode = grpc.StatusCode.OK
    size: str = "-"
    kind: str = metrics.UNKNOWN
    verdict: str = "-"
    engines: tuple[tuple[str, float], ...] = ()  # (engine, seconds) of each that ran
    tally: batch.Tally | None = None  # a batch call's

    def answered(self, response) -> None:
        """Take the verdict and the engines' time from a response that has them."""
        fields = response.DESCRIPTOR.fields_by_name
        if "verdict" in fields:
            self.verdict = metrics.verdict_name(response.verdict)
        if "stats" in fields:
            self.engines = metrics.engines(response.stats)

    def line(self, ms: float) -> str:
        if self.tally is not None:
            t = self.tally
            return (
                f"method={self.method} puzzles={t.results} rejected={t.rejected}"
                f" failed={t.failed} status={self.code.name} kind={t.kind} ms={ms:.1f}"
            )
        engine = "+".join(name for name, _ in self.engines) or "-"
        return (
            f"method={self.method} size={self.size} status={self.code.name} kind={self.kind}"
            f" verdict={self.verdict} engine={engine} ms={ms:.1f}"
        )


@dataclass(frozen=True)
class _Bound:
    """A search budget and which limit is the nearest: time_limit, deadline or cap."""

    budget: Budget
    binding: str
    seconds: float


def _ended_status(context) -> grpc.StatusCode:
    """How a call the client no longer waits for ended."""
    remaining = context.time_remaining()
    if remaining is not None and remaining < _DEADLINE_SLOP:
        return grpc.StatusCode.DEADLINE_EXCEEDED
    return grpc.StatusCode.CANCELLED


def _rpc(method):
    """A unary method: its exceptions mapped to statuses (:meth:`NumgridServicer._statuses`),
    one log line per call."""
    name = method.__name__

    @functools.wraps(method)
    def handler(self, request, context):
        with self._observed(name, context) as call, self._statuses(name, call, context):
            if isinstance(request, convert.Undecodable):
                raise request.invalid()
            with self.admission.slot(context.is_active), self._call_budget(context):
                response = method(self, request, context, call)
            call.answered(response)
            if not context.is_active():
                call.code = _ended_status(context)
            return response

    return handler


class NumgridServicer(numgrid_service_pb2_grpc.NumgridServiceServicer):
    def __init__(self, config: ServerConfig, *, log_requests: bool = True):
        self.config = config
        self.log_requests = log_requests
        self.batch = batch.Batcher(
            config.workers,
            batch.Limits(config.max_cells, config.time_cap_seconds),
            max_message_bytes=config.max_message_bytes,
        )
        self.admission = admission.Admission(config.threads, config.max_queued)
        # Called when the server finds its own code broken (health turns NOT_SERVING).
        self.broken: Callable[[str], None] = lambda reason: None
        # A batch stream holds its thread for as long as it lasts, and its puzzles go
        # to the batch's own workers: a bound of its own.
        self.batch_streams = max(1, config.threads - 2)
        self.batch_calls = threading.BoundedSemaphore(self.batch_streams)

    # ------------------------------------------------------------ helpers

    @contextmanager
    def _observed(self, method: str, context) -> Iterator[_Call]:
        """The call's request id (in its log lines and initial metadata), the in-flight
        gauge; when it ends, its metrics and its log line (``call.code`` and the rest
        set by the body)."""
        call = _Call(method)
        logs.begin(context)
        start = time.perf_counter()
        in_flight = metrics.IN_FLIGHT.labels(method)
        in_flight.inc()
        try:
            yield call
        finally:
            seconds = time.perf_counter() - start
            in_flight.dec()
            kind = call.kind if call.tally is None else call.tally.kind
            metrics.observe_call(method, call.code.name, kind, seconds)
            metrics.observe_engines(kind, call.engines)
            if self.log_requests:
                request_log.info("%s", call.line(seconds * 1000))
            logs.end()

    @contextmanager
    def _statuses(self, name: str, call: _Call, context) -> Iterator[None]:
        """End the call with the status its exception means, never UNKNOWN."""
        try:
            yield
        except convert.InvalidRequest as e:
            call.code = grpc.StatusCode.INVALID_ARGUMENT
            context.abort_with_status(e.status())
        except _Abort as e:
            call.code = e.code
            context.abort(e.code, e.details)
        except admission.Overloaded as e:
            call.code = grpc.StatusCode.RESOURCE_EXHAUSTED
            context.abort_with_status(e.status())
        except admission.GaveUp:
            call.code = _ended_status(context)
            context.abort(call.code, "the call ended while it waited for a free thread")
        except SearchTimeout:  # out of time outside a search: reading, checking
            call.code = (
                grpc.StatusCode.DEADLINE_EXCEEDED if context.is_active() else _ended_status(context)
            )
            context.abort(call.code, "the call ran out of time before an answer")
        except (EngineDisagreement, generate.GenerationBug) as e:
            call.code = grpc.StatusCode.INTERNAL
            log.error("%s: %s", name, e)
            context.abort(call.code, f"engine bug, please report it: {e}")
        except Exception as e:
            call.code = grpc.StatusCode.INTERNAL
            log.exception("%s failed", name)
            if isinstance(e, ImportError):  # the installed code changed under the server
                self.broken(f"{type(e).__name__}: {e}")
            context.abort(call.code, f"internal error in {name}: {type(e).__name__}: {e}")

    def _read(self, source, call: _Call) -> convert.Read:
        read = convert.read_input(source, self.config.max_cells)
        call.size, call.kind = read.size, read.kind.name
        return read

    def _bound(self, context, time_limit: float | None) -> _Bound:
        limits = {}
        if time_limit is not None:
            limits["time_limit"] = time_limit  # first: it wins a tie
        remaining = batch.call_remaining(context)
        if remaining is not None:
            limits["deadline"] = remaining
        limits["cap"] = self.config.time_cap_seconds
        # to the microsecond: a time limit travels as a Duration of whole microseconds,
        # so one a client asked to equal the cap (the CLI's embedded server) still ties
        binding = min(limits, key=lambda name: round(limits[name], 6))
        budget = Budget.seconds(limits[binding])
        if not context.add_callback(budget.cancel):
            budget.cancel()  # the call has already ended
        return _Bound(budget, binding, limits[binding])

    def _call_budget(self, context) -> AbstractContextManager[None]:
        """The call's deadline (or the server's time cap) for the work no search budget
        is handed to (:func:`~numgrid.server.core.poll_call`)."""
        return call_budget(self._bound(context, None).budget)

    def _check_time(self, verdict: Verdict | None, bound: _Bound, context) -> None:
        """Past the request's own time limit, TIMEOUT is the answer; otherwise fail."""
        if verdict is not Verdict.TIMEOUT:
            return
        if bound.budget.cancelled.is_set():
            code = _ended_status(context)
            if code is grpc.StatusCode.DEADLINE_EXCEEDED:
                raise _Abort(code, "the deadline ran out before an answer")
            raise _Abort(code, "the call was cancelled before an answer")
        if bound.binding == "time_limit":
            return
        if bound.binding == "cap":
            raise _Abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"the time cap of {bound.seconds:g} s ran out before an answer",
            )
        raise _Abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline ran out before an answer")

    # ------------------------------------------------------------ RPCs

    def _start(self, request, context, call):
        """An RPC's options, its puzzle as read, and the time it has."""
        options = convert.options(request.options)
        read = self._read(request.puzzle, call)
        return options, read, self._bound(context, options.time_limit)

    @_rpc
    def Validate(self, request, context, call):
        options, read, bound = self._start(request, context, call)
        result = operations.validate(
            read.kind,
            read.board,
            compare=request.compare_with_solution,
            engine=options.engine,
            budget=bound.budget,
        )
        self._check_time(result.verdict, bound, context)
        return convert.validate_response(read, result)

    def _search(self, request, context, call):
        """Solve and CheckUniqueness: the search, then the grade of a unique answer."""
        options, read, bound = self._start(request, context, call)
        answer = operations.check_uniqueness(
            read.kind,
            read.board,
            engine=options.engine,
            budget=bound.budget,
            hold_entries=options.hold_entries,
        )
        self._check_time(answer.verdict, bound, context)
        difficulty = operations.difficulty(
            read.kind,
            read.board,
            answer,
            budget=bound.budget,
            hold_entries=options.hold_entries,
        )
        return read, answer, difficulty

    @_rpc
    def Solve(self, request, context, call):
        return convert.solve_response(*self._search(request, context, call))

    @_rpc
    def Hint(self, request, context, call):
        options, read, bound = self._start(request, context, call)
        max_technique = convert.technique_of(read.kind, request.max_technique, "max_technique")
        hint = operations.hint(
            read.kind,
            read.board,
            engine=options.engine,
            budget=bound.budget,
            max_technique=max_technique,
            placements_only=request.placements_only,
        )
        self._check_time(hint.verdict, bound, context)
        return convert.hint_response(read, hint)

    @_rpc
    def CheckUniqueness(self, request, context, call):
        return convert.uniqueness_response(*self._search(request, context, call))

    @_rpc
    def Explain(self, request, context, call):
        read = self._read(request.puzzle, call)
        max_technique = convert.technique_of(read.kind, request.max_technique, "max_technique")
        bound = self._bound(context, None)
        try:
            explained = operations.explain(
                read.kind, read.board, max_technique=max_technique, budget=bound.budget
            )
        except PuzzleError as e:
            raise convert.entries_rejected(e) from None
        except SearchTimeout:
            explained = None
        # No time_limit in an Explain request: running out of time is DEADLINE_EXCEEDED.
        self._check_time(Verdict.TIMEOUT if explained is None else None, bound, context)
        return convert.explain_response(read, explained)

    @_rpc
    def Render(self, request, context, call):
        convert.picture_format(request.format)  # before the puzzle is read: cheap first
        options, read, bound = self._start(request, context, call)
        highlights = convert.highlights(request.highlights, read)
        rendered = operations.render(
            read.kind,
            read.board,
            show_entries=request.show_entries,
            show_solution=request.show_solution,
            highlights=highlights,
            engine=options.engine,
            budget=bound.budget,
            hold_entries=options.hold_entries,
        )
        self._check_time(rendered.verdict, bound, context)
        if rendered.verdict is Verdict.TIMEOUT:  # the request's own time_limit: no picture
            raise _Abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                "options.time_limit ran out before the solution to draw was found",
            )
        if rendered.picture is None:
            raise convert.no_unique_solution(rendered.verdict)
        return convert.render_response(read, rendered)

    @_rpc
    def ConvertPuzzle(self, request, context, call):
        return convert.convert_response(self._read(request.puzzle, call), request)

    def Generate(self, request, context):
        """Puzzles one after the other (:mod:`~numgrid.server.generate`), each sent when
        made. Each gets the server's time cap, within the call's deadline; a puzzle not
        made in time ends the call with DEADLINE_EXCEEDED, the ones sent stand."""
        with self._observed("Generate", context) as call, self._statuses("Generate", call, context):
            if isinstance(request, convert.Undecodable):
                raise request.invalid()
            call.kind = convert.served_kind(request.kind) or call.kind  # logged if refused
            params = convert.generate_request(request, self.config.max_cells)
            call.size = params.size
            with self.admission.slot(context.is_active), self._call_budget(context):
                for index in range(params.count):
                    made = self._generate_one(params, index, context)
                    response = convert.generate_response(params.kind, made, index, params.formats)
                    call.verdict = Verdict.UNIQUE.value
                    call.answered(response)  # the cross-check's engines
                    try:
                        yield response
                    except GeneratorExit:  # the call ended while a puzzle was on its way
                        call.code = _ended_status(context)
                        raise
            if not context.is_active():
                call.code = _ended_status(context)

    def _generate_one(self, params: convert.GenerateParams, index: int, context):
        bound = self._bound(context, params.time_limit)
        try:
            # each puzzle's own budget for the work outside its searches too: the stream's
            # (from its start) would end a later puzzle early
            with call_budget(bound.budget):
                return generate.generate_one(
                    params.kind, params.spec, params.seed + index, bound.budget
                )
        except SearchTimeout:
            if bound.binding != "deadline" and not bound.budget.cancelled.is_set():
                what = "time cap" if bound.binding == "cap" else "time limit"
                raise _Abort(
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                    f"puzzle {index} (seed {params.seed + index}) was not made within the"
                    f" {what} of {bound.seconds:g} s: try another grade or size",
                ) from None
            self._check_time(Verdict.TIMEOUT, bound, context)  # the deadline: it raises
            raise

    def BatchCheckUniqueness(self, request_iterator, context):
        """One result per puzzle as each is done (:mod:`~numgrid.server.batch`); one log
        line per call: ``method=BatchCheckUniqueness puzzles=749 rejected=0 failed=0
        status=OK kind=KIND ms=812.4``."""
        with self._observed("BatchCheckUniqueness", context) as call:
            tally = call.tally = batch.Tally()
            if not self.batch_calls.acquire(blocking=False):
                call.code = grpc.StatusCode.RESOURCE_EXHAUSTED
                context.abort(
                    call.code, "too many batch calls at once: retry, or open fewer streams"
                )
            try:
                yield from self.batch.serve(request_iterator, context, tally)
                if not context.is_active():
                    call.code = _ended_status(context)
            except GeneratorExit:  # the call ended while a result was on its way
                call.code = _ended_status(context)
                raise
            except convert.InvalidRequest as e:  # a message the batch cannot read at all
                call.code = grpc.StatusCode.INVALID_ARGUMENT
                context.abort_with_status(e.status())
            except Exception as e:
                call.code = grpc.StatusCode.INTERNAL
                log.exception("BatchCheckUniqueness failed")
                context.abort(
                    call.code,
                    f"internal error in BatchCheckUniqueness: {type(e).__name__}: {e}",
                )
            finally:
                self.batch_calls.release()


def add_to_server(servicer: NumgridServicer, server: grpc.Server) -> None:
    """Register ``servicer`` as the generated ``add_NumgridServiceServicer_to_server``
    does, with two changes: requests are decoded by :func:`convert.lenient`, so a request
    that cannot be decoded is INVALID_ARGUMENT, not INTERNAL with a logged traceback; and
    the methods are not *registered* with the core, so that their calls are taken in the
    order they arrived, which graceful shutdown relies on (:mod:`.shutdown`)."""
    service = service_pb2.DESCRIPTOR.services_by_name["NumgridService"]
    handlers = {}
    for method in service.methods:
        request = getattr(service_pb2, method.input_type.name)
        response = getattr(service_pb2, method.output_type.name)
        make = {
            (False, False): grpc.unary_unary_rpc_method_handler,
            (False, True): grpc.unary_stream_rpc_method_handler,
            (True, True): grpc.stream_stream_rpc_method_handler,
        }[method.client_streaming, method.server_streaming]
        handlers[method.name] = make(
            getattr(servicer, method.name),
            request_deserializer=convert.lenient(request),
            response_serializer=response.SerializeToString,
        )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(service.full_name, handlers),)
    )
