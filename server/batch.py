"""BatchCheckUniqueness: a stream of puzzles in, one result per puzzle out, as each is done.

A request message carries one or more puzzles; a response message carries every result
finished since the previous one (a gRPC message costs a few thread wake-ups on each side:
the batch pays them per message, not per puzzle). The servicer method stays thin;
everything the batch does is here, without gRPC types beyond the ``context`` it is
handed (``time_remaining``, ``add_callback``):

- :func:`check_one` answers one puzzle: a result (with ``puzzle`` and ``difficulty``
  only when asked for), a *rejection* for its id when it cannot be read, or a TIMEOUT
  result past its own time (the request's ``time_limit`` or the server's cap): one bad
  or hard puzzle never ends the batch;
- :func:`serve_inline` (``--workers 1``) checks the puzzles one after the other in the
  RPC's own thread;
- :class:`WorkerPool` (``--workers N``) is N processes, started with ``spawn`` (gRPC and
  ``fork`` do not mix) and kept for the server's life; :func:`serve_pooled` keeps a
  bounded window of the call's puzzles in flight and sends results as they complete. A
  worker that dies is replaced; the puzzle it held gets a *failure* saying so.

A call that ends early (the client cancels, its deadline passes, the server stops) takes
its queued puzzles out of the pool and stops the ones running. docs/batch.md has the
whole story.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import queue
import signal
import threading
import time
from collections import OrderedDict
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from multiprocessing.connection import Connection

from google.protobuf.unknown_fields import UnknownFieldSet
from numgrid.server import convert
from numgrid.server import metrics
from numgrid.server import operations
from numgrid.server.core import Budget
from numgrid.server.core import SearchTimeout
from numgrid.server.core import call_budget
from numgrid.server.engines import EngineDisagreement
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2

log = logging.getLogger("numgrid.server.batch")

_NO_DEADLINE = 1e8  # time_remaining() of a call without a deadline is about 9.2e18 s
# The code of a rejection's finding that is about the request, not the puzzle's cells.
BAD_REQUEST = "bad_request"


@dataclass(frozen=True)
class Limits:
    """What bounds each puzzle: the size limit and the server's time cap."""

    max_cells: int
    time_cap: float


# ---------------------------------------------------------------- one puzzle


def _rejection(message: str, findings: Iterable[puzzle_pb2.Finding]):
    return service_pb2.PuzzleRejection(message=message, findings=list(findings))


def _invalid(error: convert.InvalidRequest) -> service_pb2.PuzzleRejection:
    """Every finding, with its cells; a request fault that is not a finding (no puzzle,
    an unknown format, a grid over the size limit) as a finding with its description."""
    if error.findings:
        return _rejection(str(error), (convert.finding(f) for f in error.findings))
    return _rejection(
        str(error),
        (
            puzzle_pb2.Finding(code=BAD_REQUEST, message=f"{v.field}: {v.description}")
            for v in error.violations
        ),
    )


def failure(puzzle_id: str, message: str) -> service_pb2.BatchPuzzleResult:
    """The server's fault, not the puzzle's, for one id: the batch goes on."""
    return service_pb2.BatchPuzzleResult(
        id=puzzle_id, failure=service_pb2.PuzzleFailure(message=message)
    )


def check_one(
    request: service_pb2.BatchPuzzle,
    limits: Limits,
    *,
    deadline: float | None = None,
    track: Callable[[Budget], None] | None = None,
) -> service_pb2.BatchPuzzleResult:
    """The result for one puzzle of a batch; never raises for a bad puzzle.

    ``deadline`` is the call's (``time.monotonic()`` clock, shared by every process of
    the machine); ``track`` is handed the puzzle's budget before the search starts, so
    that the caller can cancel it.
    """
    return check_noted(request, limits, deadline=deadline, track=track)[0]


def check_noted(
    request: service_pb2.BatchPuzzle,
    limits: Limits,
    *,
    deadline: float | None = None,
    track: Callable[[Budget], None] | None = None,
) -> tuple[service_pb2.BatchPuzzleResult, metrics.Note]:
    """:func:`check_one`, and what the metrics count of it (kind, verdict, engines)."""
    result, kind = _check(request, limits, deadline, track)
    return result, metrics.puzzle_note(result, kind)


def _check(request, limits, deadline, track) -> tuple[service_pb2.BatchPuzzleResult, str]:
    """:func:`check_one`, and the puzzle's kind (``unknown`` when it was not read)."""
    out = service_pb2.BatchPuzzleResult(id=request.id)
    try:
        options = convert.options(request.options)
        with call_budget(Budget(deadline)):  # reading a large cage's layouts takes long
            read = convert.read_input(request.puzzle, limits.max_cells)
    except convert.InvalidRequest as e:
        out.rejection.CopyFrom(_invalid(e))
        return out, metrics.UNKNOWN
    except SearchTimeout:  # the call is over: no one reads this
        return failure(request.id, "the call's deadline ran out while it was read"), metrics.UNKNOWN
    except Exception as e:  # a bug: this puzzle's failure, not the whole stream's
        log.exception("BatchCheckUniqueness %s failed", request.id)
        return failure(request.id, f"internal error: {type(e).__name__}: {e}"), metrics.UNKNOWN
    kind = read.kind.name
    seconds = limits.time_cap if options.time_limit is None else options.time_limit
    end = time.monotonic() + min(seconds, limits.time_cap)
    budget = Budget(end if deadline is None else min(end, deadline))
    if track is not None:
        track(budget)
    try:
        answer = operations.check_uniqueness(
            read.kind,
            read.board,
            engine=options.engine,
            budget=budget,
            hold_entries=options.hold_entries,
        )
        out.result.CopyFrom(_answer(request, read, answer, budget, options.hold_entries))
    except EngineDisagreement as e:
        log.error("BatchCheckUniqueness %s: %s", request.id, e)
        return failure(request.id, f"engine bug, please report it: {e}"), kind
    except Exception as e:
        log.exception("BatchCheckUniqueness %s failed", request.id)
        return failure(request.id, f"internal error: {type(e).__name__}: {e}"), kind
    return out, kind


def _answer(request, read, answer, budget: Budget, hold_entries: bool):
    """The check's answer, with what the puzzle asked for besides: its grade (``grade``;
    the unary calls' own :func:`operations.difficulty`, in the puzzle's budget, so the
    same grade) and the puzzle as read (``include_puzzle``)."""
    result = convert.uniqueness_result(answer)
    if request.include_puzzle:
        result.puzzle.CopyFrom(convert.puzzle(read))
    if request.grade:
        difficulty = operations.difficulty(
            read.kind, read.board, answer, budget=budget, hold_entries=hold_entries
        )
        if difficulty is not None:
            result.difficulty.CopyFrom(convert.difficulty_message(difficulty))
    return result


def check_bytes(
    request: bytes, limits: Limits, deadline: float | None, track=None
) -> tuple[bytes, metrics.Note]:
    """:func:`check_noted` on a serialized puzzle, the result serialized: what a worker
    process does with each job."""
    try:
        message = service_pb2.BatchPuzzle.FromString(request)
    except Exception as e:  # the main process sent what it received; should not happen
        result = failure("", f"cannot parse the request: {e}")
        return result.SerializeToString(), metrics.puzzle_note(result, metrics.UNKNOWN)
    result, note = check_noted(message, limits, deadline=deadline, track=track)
    return result.SerializeToString(), note


# ---------------------------------------------------------------- a call

_OLD_REQUEST_FIELDS = frozenset({1, 2, 3})  # one puzzle per message, before batching


def puzzles_of(request: service_pb2.BatchCheckUniquenessRequest):
    """The puzzles of a request message. A message in the shape from before puzzles were
    batched (a client built from an older proto) would read as no puzzles at all: it is
    an InvalidRequest instead, so that such a client learns why; so is a message that
    could not be decoded at all."""
    if isinstance(request, convert.Undecodable):
        raise request.invalid()
    if request.puzzles or not request.ByteSize():
        return request.puzzles
    if any(f.field_number in _OLD_REQUEST_FIELDS for f in UnknownFieldSet(request)):
        description = (
            "this request has the older shape (one puzzle in fields 1-3); "
            "send the puzzles in `puzzles` (field 4)"
        )
        raise convert.InvalidRequest(
            [convert.Violation("id", description)], reason="OLD_REQUEST_SHAPE"
        )
    return request.puzzles


def call_remaining(context) -> float | None:
    """Seconds until the call's deadline; None without one (gRPC then says about 9.2e18)."""
    remaining = context.time_remaining()
    return None if remaining is None or remaining >= _NO_DEADLINE else remaining


def call_deadline(context) -> float | None:
    """The call's deadline on the ``time.monotonic()`` clock; None without one."""
    remaining = call_remaining(context)
    return None if remaining is None else time.monotonic() + remaining


@dataclass
class Tally:
    """What one call did, for its log line and metrics."""

    results: int = 0
    rejected: int = 0
    failed: int = 0
    kinds: set[str] = field(default_factory=set)  # of the puzzles checked

    def count(self, response: service_pb2.BatchCheckUniquenessResponse) -> None:
        """The results sent."""
        self.results += len(response.results)
        for result in response.results:
            outcome = result.WhichOneof("outcome")
            self.rejected += outcome == "rejection"
            self.failed += outcome == "failure"

    def checked(self, note: metrics.Note) -> None:
        """A puzzle checked (any thread): into the metrics."""
        self.kinds.add(note[0])
        metrics.observe_puzzle(note)

    @property
    def kind(self) -> str:
        """The kind of the call's puzzles: one, ``mixed``, or ``unknown`` (none read)."""
        known = self.kinds - {metrics.UNKNOWN}
        if len(known) > 1:
            return metrics.MIXED
        return next(iter(known), metrics.UNKNOWN)


class _Cancel:
    """The budget of the puzzle being checked in this process, cancelled when the call ends."""

    def __init__(self) -> None:
        self.ended = threading.Event()
        self._budget: Budget | None = None
        self._lock = threading.Lock()

    def track(self, budget: Budget) -> None:
        with self._lock:
            self._budget = budget
            ended = self.ended.is_set()
        if ended:
            budget.cancel()

    def __call__(self) -> None:
        with self._lock:
            self.ended.set()
            budget = self._budget
        if budget is not None:
            budget.cancel()


def serve_inline(
    requests: Iterator, context, limits: Limits, tally: Tally
) -> Iterator[service_pb2.BatchCheckUniquenessResponse]:
    """One puzzle at a time in this thread, each result sent as it is done."""
    cancel = _Cancel()
    if not context.add_callback(cancel):
        return  # the call has already ended
    deadline = call_deadline(context)
    requests = iter(requests)
    while not cancel.ended.is_set():
        try:
            request = next(requests)
        except StopIteration:
            return
        except Exception:  # the request stream fails when the call is cancelled
            if cancel.ended.is_set() or not context.is_active():
                return
            raise
        for puzzle in puzzles_of(request):
            result, note = check_noted(puzzle, limits, deadline=deadline, track=cancel.track)
            if cancel.ended.is_set():  # stopped by the call's end: not an answer
                return
            tally.checked(note)
            response = service_pb2.BatchCheckUniquenessResponse(results=[result])
            tally.count(response)
            yield response


# ---------------------------------------------------------------- the worker processes

_JOB, _STOP = 0, 1
_RECENT_CANCELS = 1024  # calls a worker remembers as cancelled (for jobs still queued)


def _worker_main(jobs, cancels, results, limits: Limits) -> None:
    """A worker process: jobs in from ``jobs``, serialized results out to ``results``.

    The main thread reads the jobs and checks the puzzles; a second thread reads
    ``cancels``, so that a cancel reaches the puzzle being checked at once. The main
    process going away (the pipes' end) stops the worker, its puzzle cancelled.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server to handle
    cancelled: OrderedDict[int | None, None] = OrderedDict()  # call ids; None: all of them
    lock = threading.Lock()
    running: list = [None, None]  # call id, budget

    def track(budget: Budget) -> None:
        with lock:
            running[1] = budget
            stop = running[0] in cancelled
        if stop:
            budget.cancel()

    def cancel_running() -> None:
        budget = running[1]
        if budget is not None:
            budget.cancel()

    def read_cancels() -> None:
        while True:
            try:
                call = cancels.recv()
            except (EOFError, OSError):  # the main process is gone
                with lock:
                    cancelled[None] = None  # nothing more is started
                    cancel_running()
                return
            with lock:
                cancelled[call] = None
                while len(cancelled) > _RECENT_CANCELS:
                    cancelled.popitem(last=False)
                if running[0] == call:
                    cancel_running()

    threading.Thread(target=read_cancels, name="numgrid-worker-cancels", daemon=True).start()
    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            return
        if job[0] != _JOB:
            return
        _, call, seq, request, deadline = job
        with lock:
            skip = call in cancelled or None in cancelled
            running[0], running[1] = call, None
        payload, note = (None, None) if skip else check_bytes(request, limits, deadline, track)
        with lock:
            running[0] = running[1] = None
        try:
            results.send((call, seq, payload, note))
        except (OSError, ValueError):
            return


@dataclass
class _Job:
    call: int
    seq: int
    request: bytes
    deadline: float | None


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    jobs: Connection  # main -> worker
    cancels: Connection  # main -> worker
    results: Connection  # worker -> main
    outstanding: dict[tuple[int, int], _Job] = field(default_factory=dict)  # (call, seq)
    alive: bool = True


# What a call's results queue receives from the pool: (seq, serialized result, its note).
Deliver = Callable[[int, bytes, metrics.Note], None]


class WorkerPool:
    """N worker processes behind the servicer, shared by every batch call.

    Each worker holds at most ``prefetch`` jobs (the one it checks and the next ones,
    so that it never waits for the main process); the jobs beyond that wait here, in
    a queue bounded by the calls' windows.
    """

    def __init__(self, workers: int, limits: Limits, *, prefetch: int = 2):
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.size, self.limits, self.prefetch = workers, limits, prefetch
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._calls: dict[int, Deliver] = {}
        self._next_call = 0
        self._waiting: deque[_Job] = deque()
        self._closed = False
        self._workers = [self._start_worker(i) for i in range(workers)]

    # ------------------------------------------------------------ processes

    def _start_worker(self, index: int) -> _Worker:
        jobs_out, jobs_in = self._context.Pipe(duplex=False)  # (reader, writer)
        cancels_out, cancels_in = self._context.Pipe(duplex=False)
        results_out, results_in = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_worker_main,
            args=(jobs_out, cancels_out, results_in, self.limits),
            name=f"numgrid-worker-{index}",
            daemon=True,
        )
        process.start()
        for end in (jobs_out, cancels_out, results_in):  # the worker's ends: EOF reaches
            end.close()  # each side when the other dies
        worker = _Worker(process, jobs_in, cancels_in, results_out)
        threading.Thread(
            target=self._collect, args=(worker, index), name=f"numgrid-collect-{index}", daemon=True
        ).start()
        return worker

    def _collect(self, worker: _Worker, index: int) -> None:
        """Route the worker's results to their calls; on its death, answer for the jobs it
        held and start another."""
        while True:
            try:
                call, seq, payload, note = worker.results.recv()
            except (EOFError, OSError):
                break
            with self._lock:
                job = worker.outstanding.pop((call, seq), None)
                deliver = self._calls.get(call)
                self._dispatch()
            if deliver is not None and payload is not None and job is not None:
                deliver(seq, payload, note)
        worker.process.join(timeout=5)
        with self._lock:
            worker.alive = False
            lost = list(worker.outstanding.values())
            worker.outstanding.clear()
            closed = self._closed
        if closed:
            return
        code = worker.process.exitcode
        log.error("worker process %d died (exit code %s); starting another", index, code)
        for job in lost:
            with self._lock:
                deliver = self._calls.get(job.call)
            if deliver is not None:
                request_id = _request_id(job.request)
                message = f"the worker process checking this puzzle died (exit code {code})"
                result = failure(request_id, message)
                note = metrics.puzzle_note(result, metrics.UNKNOWN)
                deliver(job.seq, result.SerializeToString(), note)
        replacement = self._start_worker(index)
        with self._lock:
            self._workers[index] = replacement
            self._dispatch()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the workers (each finishes or cancels its puzzle first)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            workers = list(self._workers)
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.jobs.send((_STOP,))
        end = time.monotonic() + timeout
        for worker in workers:
            worker.process.join(max(0.0, end - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.jobs.close()
            worker.cancels.close()

    # ------------------------------------------------------------ calls

    def open(self, deliver: Deliver) -> int:
        """A new call whose results go to ``deliver(seq, result_bytes, note)``; its id."""
        with self._lock:
            self._next_call += 1
            self._calls[self._next_call] = deliver
            return self._next_call

    def submit(self, call: int, seq: int, request: bytes, deadline: float | None) -> None:
        with self._lock:
            if call not in self._calls:
                return
            self._waiting.append(_Job(call, seq, request, deadline))
            self._dispatch()

    def end(self, call: int) -> None:
        """The call is over: drop its queued jobs, cancel the ones in the workers."""
        with self._lock:
            if self._calls.pop(call, None) is None:
                return
            self._waiting = deque(job for job in self._waiting if job.call != call)
            holding = [
                w for w in self._workers if w.alive and any(k[0] == call for k in w.outstanding)
            ]
            for worker in holding:
                with contextlib.suppress(OSError, ValueError):
                    worker.cancels.send(call)

    def _dispatch(self) -> None:
        """Hand waiting jobs to the least busy workers with room (the lock is held)."""
        while self._waiting:
            ready = [w for w in self._workers if w.alive and len(w.outstanding) < self.prefetch]
            if not ready:
                return
            worker = min(ready, key=lambda w: len(w.outstanding))
            job = self._waiting.popleft()
            worker.outstanding[(job.call, job.seq)] = job
            # If it died, its collector answers for the job.
            with contextlib.suppress(OSError, ValueError):
                worker.jobs.send((_JOB, job.call, job.seq, job.request, job.deadline))


def _request_id(request: bytes) -> str:
    try:
        return service_pb2.BatchPuzzle.FromString(request).id
    except Exception:
        return ""


_END = object()
# What one response message carries at most: the results ready at once, within reason.
MAX_RESULTS_PER_MESSAGE = 64
MAX_RESULT_BYTES_PER_MESSAGE = 1 << 20


class _Ready:
    """The results of a call as messages: the next one waited for, and those already
    there with it, up to a message's worth (a result bigger than that goes alone)."""

    def __init__(self, results: queue.SimpleQueue, most_bytes: int):
        self.results, self.most_bytes = results, most_bytes
        self._next = None  # a result that did not fit the previous message

    def take(self) -> list:
        """Serialized results; an ``_END`` comes last when there is one."""
        out, size = [], 0
        item, self._next = (self.results.get() if self._next is None else self._next), None
        while True:
            if item is _END:
                out.append(item)
                return out
            if out and size + len(item) > self.most_bytes:
                self._next = item
                return out
            out.append(item)
            size += len(item)
            if len(out) >= MAX_RESULTS_PER_MESSAGE:
                return out
            try:
                item = self.results.get_nowait()
            except queue.Empty:
                return out


def serve_pooled(
    requests: Iterator,
    context,
    pool: WorkerPool,
    window: int,
    tally: Tally,
    most_bytes: int = MAX_RESULT_BYTES_PER_MESSAGE,
) -> Iterator[service_pb2.BatchCheckUniquenessResponse]:
    """At most ``window`` of the call's puzzles in the pool at once; results as they come."""
    results: queue.SimpleQueue = queue.SimpleQueue()

    def deliver(_seq: int, payload: bytes, note: metrics.Note) -> None:
        tally.checked(note)
        results.put(payload)

    call = pool.open(deliver)
    ended = threading.Event()

    def on_end() -> None:
        ended.set()
        pool.end(call)
        results.put(_END)

    if not context.add_callback(on_end):
        pool.end(call)
        return
    deadline = call_deadline(context)
    slots = threading.Semaphore(window)
    sent = [0]
    done_reading = threading.Event()
    failure: list[BaseException] = []

    def read() -> None:
        try:
            for request in requests:
                for puzzle in puzzles_of(request):
                    while not slots.acquire(timeout=0.5):
                        if ended.is_set():
                            return
                    if ended.is_set():
                        return
                    sent[0] += 1
                    pool.submit(call, sent[0], puzzle.SerializeToString(), deadline)
        except Exception as e:  # the request stream fails when the call is cancelled
            if context.is_active():  # ... anything else is a bug, not to be hidden
                failure.append(e)
            ended.set()
        finally:
            done_reading.set()
            results.put(_END)  # wake the response side to look at the count

    reader = threading.Thread(target=read, name="numgrid-batch-reader", daemon=True)
    reader.start()
    ready = _Ready(results, most_bytes)
    received = 0
    try:
        while True:
            payloads = [item for item in ready.take() if item is not _END]
            if payloads:
                received += len(payloads)
                for _ in payloads:
                    slots.release()
                response = service_pb2.BatchCheckUniquenessResponse()
                for payload in payloads:
                    response.results.add().MergeFromString(payload)
                tally.count(response)
                yield response
            if failure:
                raise failure[0]
            if ended.is_set():
                return
            if done_reading.is_set() and received == sent[0]:
                return
    finally:
        pool.end(call)


# ---------------------------------------------------------------- the servicer's side


class Batcher:
    """What the servicer's BatchCheckUniqueness runs: in-process with one worker, else a
    :class:`WorkerPool` of ``workers`` processes (started here, closed at exit)."""

    def __init__(
        self,
        workers: int,
        limits: Limits,
        *,
        window: int | None = None,
        max_message_bytes: int = 4 << 20,
    ):
        self.workers, self.limits = workers, limits
        # Results share a message only well within the server's message limit.
        self.most_bytes = min(MAX_RESULT_BYTES_PER_MESSAGE, max_message_bytes // 2)
        self.pool = WorkerPool(workers, limits) if workers > 1 else None
        # Every worker holds its prefetched jobs and more wait their turn here, so that
        # the reader rarely waits for a slot (a thread wake-up per puzzle saved): a
        # client's own window is then what bounds the call.
        self.window = window or (max(16, 4 * workers) if self.pool else 1)
        if self.pool is not None:
            atexit.register(self.pool.close)

    def serve(self, requests: Iterator, context, tally: Tally) -> Iterator:
        if self.pool is None:
            return serve_inline(requests, context, self.limits, tally)
        return serve_pooled(requests, context, self.pool, self.window, tally, self.most_bytes)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            atexit.unregister(self.pool.close)
