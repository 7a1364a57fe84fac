"""Batch uniqueness from the client: many puzzles, several streams, one or more servers.

>>> from numgrid.client.batch import BatchItem, check_many
>>> items = [BatchItem("a", open("a.txt").read()), BatchItem("b", open("b.txt").read())]
>>> for result in check_many("127.0.0.1:50051", items):  # doctest: +SKIP
...     print(result.id, result.status)

:func:`check_many` streams the puzzles over ``BatchCheckUniqueness`` calls and yields one
:class:`BatchResult` per puzzle as the servers finish them (in any order), each id once.

- **Servers.** ``target`` is one ``host:port``, a list ``host1:port,host2:port`` or any
  gRPC target such as ``dns:///numgrid:50051``; calls are balanced by gRPC's
  ``round_robin``.
- **Streams.** ``streams`` calls at once take puzzles from one shared feed as they have
  room (at most ``window`` unanswered each) and are replaced after ``per_stream``
  puzzles (the first after ``FIRST_QUOTA``), so they spread over the servers again.
- **Failures.** A failed stream's unanswered puzzles go back to the front of the feed;
  a puzzle whose stream failed ``max_attempts`` times gets an ERROR result; ``patience``
  seconds without an answer raise UNAVAILABLE; keepalive pings find a frozen server.
- **Time and memory.** ``timeout`` is the whole batch's deadline (DEADLINE_EXCEEDED),
  ``time_limit`` each puzzle's own; ``items`` is read lazily.

The whole story, with the defaults: docs/batch.md.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import queue
import socket
import threading
import time
from collections import deque
from collections.abc import Generator
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from typing import Any

import grpc
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc as service_grpc
from numgrid.v1 import puzzle_pb2

from .channels import PLAINTEXT
from .channels import Credentials
from .channels import answers
from .channels import open_channel
from .client import CHANNEL_OPTIONS
from .client import PuzzleLike
from .client import _cells
from .client import _difficulty
from .client import _finding
from .client import _grid
from .client import _stats
from .client import _verdict
from .client import puzzle_input
from .client import search_options
from .types import Cell
from .types import Difficulty
from .types import EngineStat
from .types import Finding
from .types import Grid
from .types import NumgridError

MAX_PUZZLES_PER_MESSAGE = 32
FIRST_QUOTA = 32  # puzzles the first streams take (they may all be on the first server up)
MAX_REQUEST_BYTES = 256 * 1024  # the puzzles of one message, unless one alone is more
# Keepalive pings of a batch's channel: every 20 s, 10 s for the answer. A server accepts
# pings this often (numgrid-server allows one every 4 s: MIN_PING_INTERVAL in server/main.py).
KEEPALIVE, KEEPALIVE_TIMEOUT = 20.0, 10.0
RETRYABLE = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.CANCELLED,  # not ours: the server stopped, or a proxy
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.UNKNOWN,  # a connection torn mid-call is sometimes reported so
        grpc.StatusCode.INTERNAL,  # e.g. RST_STREAM from a server that died
    }
)


@dataclass(frozen=True)
class BatchItem:
    """One puzzle to check: the caller's id (unique in the batch) and the puzzle, text
    in ``format`` of ``kind`` (None: detected) or a structured ``numgrid.v1.Puzzle``."""

    id: str
    puzzle: PuzzleLike
    format: str | None = None
    kind: str | None = None


@dataclass(frozen=True)
class BatchResult:
    """What came of one puzzle. ``status`` is the verdict (UNIQUE, MULTIPLE, NO_SOLUTION,
    TIMEOUT), INVALID when the server rejected the puzzle, ERROR when it failed on it.

    The solutions, differing cells, statistics and findings are read from the message
    when first asked for: a caller that only counts verdicts does not pay for them.
    """

    id: str
    status: str
    verdict: str | None = None
    message: str = ""  # why it was rejected or failed
    attempts: int = 1  # streams it was sent on
    response: service_pb2.BatchPuzzleResult | None = field(default=None, repr=False, compare=False)

    def _result(self) -> service_pb2.CheckUniquenessResponse | None:
        """The verdict's message; None for a puzzle rejected or failed."""
        if self.response is None or not self.response.HasField("result"):
            return None
        return self.response.result

    @cached_property
    def solutions(self) -> tuple[Grid, ...]:
        result = self._result()
        return () if result is None else tuple(_grid(g) for g in result.solutions)

    @cached_property
    def differing_cells(self) -> tuple[Cell, ...]:
        result = self._result()
        return () if result is None else _cells(result.differing_cells)

    @cached_property
    def stats(self) -> tuple[EngineStat, ...]:
        result = self._result()
        return () if result is None else _stats(result.stats)

    @cached_property
    def findings(self) -> tuple[Finding, ...]:
        if self.response is None or not self.response.HasField("rejection"):
            return ()
        return tuple(_finding(f) for f in self.response.rejection.findings)

    @cached_property
    def difficulty(self) -> Difficulty | None:
        """The grade, when the batch asked for it (``grade=True``) and the puzzle is UNIQUE
        and graded in time; else None."""
        result = self._result()
        if result is None or not result.HasField("difficulty"):
            return None
        return _difficulty(result.difficulty)

    @cached_property
    def puzzle(self) -> puzzle_pb2.Puzzle | None:
        """The puzzle as the server read it, when the batch asked for it
        (``include_puzzle=True``); else None."""
        result = self._result()
        if result is None or not result.HasField("puzzle"):
            return None
        return result.puzzle


def result_of(response: service_pb2.BatchPuzzleResult, attempts: int = 1) -> BatchResult:
    """The Python value of one result message."""
    outcome = response.WhichOneof("outcome")
    if outcome == "rejection":
        message = response.rejection.message
        return BatchResult(response.id, "INVALID", None, message, attempts, response)
    if outcome == "failure":
        message = response.failure.message
        return BatchResult(response.id, "ERROR", None, message, attempts, response)
    verdict = _verdict(response.result.verdict)
    return BatchResult(response.id, verdict or "ERROR", verdict, "", attempts, response)


def batch_puzzle(
    item: BatchItem,
    options: service_pb2.SearchOptions,
    *,
    grade: bool = False,
    include_puzzle: bool = False,
) -> service_pb2.BatchPuzzle:
    """The message that sends one item (this client's and the asyncio client's batches);
    ``grade`` and ``include_puzzle`` ask for the result's ``difficulty`` and ``puzzle``."""
    return service_pb2.BatchPuzzle(
        id=item.id,
        puzzle=puzzle_input(item.puzzle, format=item.format, kind=item.kind),
        options=options,
        grade=grade,
        include_puzzle=include_puzzle,
    )


# ---------------------------------------------------------------- targets


def _split_host_port(address: str) -> tuple[str, str]:
    host, sep, port = address.strip().rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdecimal()):
        raise ValueError(f"not HOST:PORT: {address!r}")
    return host.strip("[]"), port


def _family(host: str) -> tuple[int, str]:
    """(4 or 6, the address) of an IP literal, or of a name resolved here."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
        except OSError as e:
            raise ValueError(f"cannot resolve {host}: {e}") from None
        v4 = [i[4][0] for i in infos if i[0] == socket.AF_INET]
        ip = ipaddress.ip_address(v4[0] if v4 else infos[0][4][0])
    return ip.version, str(ip)


def batch_target(server: str) -> tuple[str, int]:
    """The gRPC target for ``server`` and how many servers it names (0: not known here).

    ``host:port`` stays as it is; ``h1:p1,h2:p2`` becomes ``ipv4:///a1:p1,a2:p2`` (or
    ``ipv6:///[a1]:p1,...``); a target with a scheme (``dns:///name:port``) is kept, its
    servers counted by resolving the name.
    """
    server = server.strip()
    if ":///" in server or server.startswith(("dns:", "ipv4:", "ipv6:", "unix:")):
        scheme, _, rest = server.partition(":")
        rest = rest.lstrip("/")
        if scheme in ("ipv4", "ipv6"):
            return server, len(rest.split(","))
        if scheme == "dns":
            with contextlib.suppress(ValueError, OSError):
                host, port = _split_host_port(rest.rsplit("/", 1)[-1])
                infos = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
                return server, len({i[4][0] for i in infos})
        return server, 0
    addresses = [a for a in server.split(",") if a.strip()]
    if len(addresses) == 1:
        _split_host_port(addresses[0])
        return addresses[0].strip(), 1
    parsed = []
    for address in addresses:
        host, port = _split_host_port(address)
        version, ip = _family(host)
        parsed.append((version, ip, port))
    versions = {v for v, _, _ in parsed}
    if len(versions) > 1:
        raise ValueError(f"cannot mix IPv4 and IPv6 servers in one list: {server}")
    if versions == {6}:
        return "ipv6:///" + ",".join(f"[{ip}]:{port}" for _, ip, port in parsed), len(parsed)
    return "ipv4:///" + ",".join(f"{ip}:{port}" for _, ip, port in parsed), len(parsed)


def batch_channel_options(keepalive: float | None = KEEPALIVE) -> list[tuple[str, object]]:
    """round_robin over every address of the target; no gRPC retries (the batch re-sends
    what a failed stream left unanswered itself); room for big answers.

    ``keepalive``: seconds between HTTP/2 pings while calls are open, also while a slow
    puzzle sends nothing (None: none). A server that stops answering without closing its
    connection (a frozen process, a host gone from the network) is noticed after that
    and ``KEEPALIVE_TIMEOUT``, and its puzzles go to the others.
    """
    config: dict[str, Any] = {"loadBalancingConfig": [{"round_robin": {}}]}
    pings: list[tuple[str, object]] = []
    if keepalive is not None:
        pings = [
            ("grpc.keepalive_time_ms", int(keepalive * 1000)),
            ("grpc.keepalive_timeout_ms", int(min(keepalive, KEEPALIVE_TIMEOUT) * 1000)),
            # gRPC core waits this long for a ping's answer (default 1 minute)
            ("grpc.http2.ping_timeout_ms", int(min(keepalive, KEEPALIVE_TIMEOUT) * 1000)),
            ("grpc.http2.max_pings_without_data", 0),
        ]
    return [
        *pings,
        ("grpc.service_config", json.dumps(config)),
        ("grpc.enable_retries", 0),
        *CHANNEL_OPTIONS,
        # a server that went away is noticed within seconds, even without a reset
        ("grpc.initial_reconnect_backoff_ms", 200),
        ("grpc.max_reconnect_backoff_ms", 2000),
    ]


# ---------------------------------------------------------------- the feed


@dataclass
class _Pending:
    item: BatchItem
    request: service_pb2.BatchPuzzle
    attempts: int = 0


class _Feed:
    """The puzzles still to send: re-sent ones first, then ``items`` as they are read.
    Thread-safe: every stream's request iterator takes from it."""

    def __init__(
        self, items: Iterable[BatchItem], options: service_pb2.SearchOptions, **asks: bool
    ):
        self._items = iter(items)
        self._options = options
        self._asks = asks  # grade, include_puzzle
        self._retry: deque[_Pending] = deque()
        self._lock = threading.Lock()
        self._seen: set[str] = set()
        self.exhausted = False
        self.error: BaseException | None = None

    def take(self) -> _Pending | None:
        with self._lock:
            if self._retry:
                return self._retry.popleft()
            if self.exhausted:
                return None
            try:
                item = next(self._items)
                if item.id in self._seen:
                    raise ValueError(f"id {item.id!r} appears twice in the batch")
                self._seen.add(item.id)
                request = batch_puzzle(item, self._options, **self._asks)
            except StopIteration:
                self.exhausted = True
                return None
            except BaseException as e:  # the caller's iterator failed, or a bad item
                self.exhausted = True
                self.error = e
                return None
            return _Pending(item, request)

    def give_back(self, pending: Iterable[_Pending]) -> None:
        with self._lock:
            self._retry.extendleft(reversed(list(pending)))

    def may_have_more(self) -> bool:
        with self._lock:
            return bool(self._retry) or not self.exhausted


# ---------------------------------------------------------------- one stream


class _Window:
    """How many puzzles a stream may have unanswered.

    Slow start: ``initial`` (one for a new stream), one more per answer up to ``most``,
    so that a few slow puzzles spread over the streams (and servers) instead of filling
    one. A full window wakes its sender again only when half of it is free: the requests
    then go out in bursts, not one thread wake-up per answer.
    """

    def __init__(self, initial: int, most: int):
        self.limit, self.most, self.count = initial, most, 0
        self._cond = threading.Condition(threading.Lock())

    def acquire(self, timeout: float) -> bool:
        """A slot, waiting up to ``timeout`` seconds for one to be free (0: not at all)."""
        with self._cond:
            if self.count >= self.limit and timeout > 0:
                self._cond.wait(timeout)
            if self.count >= self.limit:
                return False
            self.count += 1
            return True

    def try_acquire(self) -> bool:
        return self.acquire(0)

    def undo(self) -> None:
        with self._cond:
            self.count -= 1

    def answered(self, count: int = 1) -> None:
        with self._cond:
            self.count -= count
            self.limit = min(self.most, self.limit + count)
            if self.limit - self.count >= max(1, self.limit // 2):
                self._cond.notify()


class _Stream:
    """One BatchCheckUniqueness call: its request iterator (run by gRPC) takes puzzles
    from the feed while it has room; a thread reads its results."""

    def __init__(self, batch: _Batch, number: int, initial: int = 1, quota: int | None = None):
        self.batch, self.number = batch, number
        self.quota = quota or batch.per_stream  # puzzles it takes before it ends
        self.in_flight: dict[str, _Pending] = {}
        self.lock = threading.Lock()
        # A stream that replaces another starts where that one had got to.
        self.window = _Window(initial, batch.window)
        self.closed = threading.Event()  # stop sending: the call is over or cancelled
        self.call: Any = None  # the BatchCheckUniqueness call, once started

    def start(self, stub, timeout: float | None) -> None:
        self.call = stub.BatchCheckUniqueness(self._requests(), timeout=timeout)
        threading.Thread(
            target=self._read, name=f"numgrid-batch-{self.number}", daemon=True
        ).start()

    def cancel(self) -> None:
        self.closed.set()
        if self.call is not None:
            self.call.cancel()

    def _requests(self) -> Iterator[service_pb2.BatchCheckUniquenessRequest]:
        """One message per wait for room, with as many puzzles as the window has room
        for, up to ``MAX_PUZZLES_PER_MESSAGE`` and ``MAX_REQUEST_BYTES`` (a puzzle bigger
        than that goes alone)."""
        batch, sent = self.batch, 0
        try:
            while sent < self.quota and not self.closed.is_set():
                if not self.window.acquire(timeout=0.2):
                    continue
                taken, exhausted = self._take(sent)
                with self.lock:
                    if self.closed.is_set():  # the call ended meanwhile: not sent
                        batch.feed.give_back(taken)
                        break
                    for pending in taken:
                        pending.attempts += 1
                        self.in_flight[pending.request.id] = pending
                if taken:
                    sent += len(taken)
                    yield service_pb2.BatchCheckUniquenessRequest(
                        puzzles=[p.request for p in taken]
                    )
                if exhausted:
                    break
        finally:
            self.batch.events.put(("drained", self, None))

    def _take(self, sent: int) -> tuple[list[_Pending], bool]:
        """The puzzles for the next message (one window slot is held for the first),
        and whether the feed ran out."""
        batch, size = self.batch, 0
        taken: list[_Pending] = []
        while True:
            pending = batch.feed.take()
            if pending is None:
                self.window.undo()
                return taken, True
            more = pending.request.ByteSize()
            if taken and size + more > MAX_REQUEST_BYTES:  # it starts the next message
                batch.feed.give_back([pending])
                self.window.undo()
                return taken, False
            taken.append(pending)
            size += more
            if sent + len(taken) >= self.quota or len(taken) >= MAX_PUZZLES_PER_MESSAGE:
                return taken, False
            if not self.window.try_acquire():
                return taken, False

    def _read(self) -> None:
        try:
            for response in self.call:
                if not response.results:  # a server built from an older proto
                    raise _older_server(self.call)
                answered = []
                with self.lock:
                    for result in response.results:
                        answered.append((result, self.in_flight.pop(result.id, None)))
                # an id it did not send frees no room
                self.window.answered(sum(pending is not None for _, pending in answered))
                self.batch.events.put(("results", answered, None))
            error = None
        except (grpc.RpcError, NumgridError) as e:
            error = e
            if isinstance(e, NumgridError):
                self.call.cancel()
        with self.lock:  # what is in flight now is all that is: nothing is added later
            self.closed.set()
            left = list(self.in_flight.values())
            self.in_flight.clear()
        self.batch.events.put(("ended", self, (error, left)))


def _older_server(call) -> NumgridError:
    """A response without results: the server speaks the shape from before batching
    (one result per message in fields 1-3), which this client cannot read."""
    try:
        peer = call.peer()
    except Exception:
        peer = "a server"
    return NumgridError(
        "FAILED_PRECONDITION",
        f"{peer} answers BatchCheckUniqueness in an older shape (one result per message): "
        "upgrade that server, or this client to match it",
    )


# ---------------------------------------------------------------- the batch


class _Batch:
    def __init__(
        self,
        channel: grpc.Channel,
        items: Iterable[BatchItem],
        options: service_pb2.SearchOptions,
        *,
        streams: int,
        window: int,
        per_stream: int,
        deadline: float | None,
        max_attempts: int,
        patience: float,
        asks: dict | None = None,
    ):
        self.stub = service_grpc.NumgridServiceStub(channel)
        self.feed = _Feed(items, options, **(asks or {}))
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.streams, self.window, self.per_stream = streams, window, per_stream
        self.deadline, self.max_attempts, self.patience = deadline, max_attempts, patience
        self.live: set[_Stream] = set()  # calls not ended
        self.sending: set[_Stream] = set()  # calls still taking puzzles
        self.answered: set[str] = set()
        self.opened = 0
        self.failures = 0  # stream failures since the last answer
        self.last_answer = time.monotonic()
        self.reopen_at = 0.0
        self.windows: deque[int] = deque()  # where the streams that stopped had got to

    def _remaining(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def _open_streams(self) -> None:
        now = time.monotonic()
        while (
            len(self.sending) < self.streams and now >= self.reopen_at and self.feed.may_have_more()
        ):
            remaining = self._remaining()
            if remaining is not None and remaining <= 0:
                return
            self.opened += 1
            first = self.opened <= self.streams
            stream = _Stream(
                self,
                self.opened,
                self.windows.popleft() if self.windows else 1,
                min(self.per_stream, FIRST_QUOTA) if first else self.per_stream,
            )
            self.live.add(stream)
            self.sending.add(stream)
            stream.start(self.stub, remaining)

    def _deadline_error(self) -> NumgridError:
        return NumgridError("DEADLINE_EXCEEDED", "the batch's deadline passed before every answer")

    def run(self) -> Iterator[BatchResult]:
        try:
            self._open_streams()
            while self.live or self.feed.may_have_more():
                if self.feed.error is not None:
                    raise self.feed.error
                wait, now = 0.5, time.monotonic()
                if self.reopen_at > now:  # a stream failed: the next one opens then
                    wait = min(wait, self.reopen_at - now)
                remaining = self._remaining()
                if remaining is not None:
                    if remaining <= 0:
                        raise self._deadline_error()
                    wait = min(wait, remaining)
                try:
                    kind, subject, detail = self.events.get(timeout=wait)
                except queue.Empty:
                    self._open_streams()
                    continue
                if kind == "results":
                    for response, pending in subject:
                        result = self._result(response, pending)
                        if result is not None:
                            yield result
                elif kind == "drained":
                    if subject in self.sending:
                        self.sending.discard(subject)
                        self.windows.append(subject.window.limit)
                elif kind == "ended":
                    yield from self._ended(subject, *detail)
                self._open_streams()
            if self.feed.error is not None:
                raise self.feed.error
        finally:
            for stream in list(self.live):
                stream.cancel()

    def _result(self, response, pending: _Pending | None) -> BatchResult | None:
        if response.id in self.answered or pending is None:
            return None  # not an id this stream sent, or already answered: never twice
        self.answered.add(response.id)
        self.failures, self.last_answer = 0, time.monotonic()
        return result_of(response, pending.attempts)

    def _again(self, left: list[_Pending], why: str) -> Iterator[BatchResult]:
        """Send ``left`` again, except those sent ``max_attempts`` times: ERROR for them."""
        again = []
        for pending in left:
            if pending.attempts >= self.max_attempts:
                self.answered.add(pending.request.id)
                yield BatchResult(
                    pending.request.id,
                    "ERROR",
                    message=f"no answer after {pending.attempts} attempts; {why}",
                    attempts=pending.attempts,
                )
            else:
                again.append(pending)
        self.feed.give_back(again)

    def _ended(self, stream: _Stream, error, left: list[_Pending]) -> Iterator[BatchResult]:
        self.live.discard(stream)
        self.sending.discard(stream)
        left = [p for p in left if p.request.id not in self.answered]
        if error is None:  # ended well: the server answered all (or they go again)
            yield from self._again(left, "the call ended without their answers")
            return
        if isinstance(error, NumgridError):
            raise error
        code = error.code()
        if code is grpc.StatusCode.DEADLINE_EXCEEDED:
            raise self._deadline_error()
        if code not in RETRYABLE:
            raise NumgridError(code.name, error.details() or "")
        if code is grpc.StatusCode.RESOURCE_EXHAUSTED:  # refused, not started: no attempt
            for pending in left:
                pending.attempts -= 1
        yield from self._again(left, f"the last call ended with {code.name}: {error.details()}")
        self.failures += 1
        if time.monotonic() - self.last_answer > self.patience:
            raise NumgridError(code.name, error.details() or "no server answers")
        backoff = min(2.0, 0.05 * 2 ** min(self.failures, 6))
        self.reopen_at = time.monotonic() + backoff


def check_many(
    target: str,
    items: Iterable[BatchItem],
    *,
    engine: str = "auto",
    time_limit: float | None = None,
    hold_entries: bool = False,
    grade: bool = False,
    include_puzzle: bool = False,
    timeout: float | None = None,
    streams: int | None = None,
    window: int = 8,
    per_stream: int = 256,
    max_attempts: int = 3,
    patience: float = 30.0,
    connect_timeout: float = 10.0,
    keepalive: float | None = KEEPALIVE,
    channel: grpc.Channel | None = None,
    credentials: Credentials = PLAINTEXT,
) -> Generator[BatchResult, None, None]:
    """Check every puzzle of ``items``; yield one :class:`BatchResult` per id as each is
    done. See the module's documentation for servers, streams, failures and time.

    ``grade``: the server also grades each UNIQUE puzzle (``BatchResult.difficulty``;
    the logical solution costs several times the check). ``include_puzzle``: it sends
    back each puzzle as read (``BatchResult.puzzle``, to draw it)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    address, servers = batch_target(target)
    streams = streams or 2 * max(1, servers)
    options = search_options(engine, time_limit, hold_entries)
    own = channel is None
    channel = channel or open_channel(address, batch_channel_options(keepalive), credentials)
    try:
        wait = connect_timeout if timeout is None else min(connect_timeout, timeout)
        if not answers(channel, wait):
            raise NumgridError("UNAVAILABLE", f"no server at {target} within {wait:g} s")
        batch = _Batch(
            channel,
            items,
            options,
            streams=streams,
            window=window,
            per_stream=per_stream,
            deadline=deadline,
            max_attempts=max_attempts,
            patience=patience,
            asks={"grade": grade, "include_puzzle": include_puzzle},
        )
        yield from batch.run()
    finally:
        if own:
            channel.close()
