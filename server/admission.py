"""Admission: how much work the server takes on at once, and what it says when full.

A unary call needs a *slot* to work; ``running`` calls hold one at a time and up to
``queued`` more wait for one, each no longer than its deadline. A call that finds them
all taken is refused at once with RESOURCE_EXHAUSTED, a ``google.rpc.RetryInfo`` detail
and gRPC's ``grpc-retry-pushback-ms`` trailer (which a client's retry policy obeys),
instead of joining an unbounded queue whose calls would all miss their deadlines.

The RPC thread pool is sized so that every admitted call has a thread of its own
(:func:`thread_count`) and gRPC is told to refuse anything beyond that, so no call ever
sits in the pool's queue: such a call has no handler running yet, and on shutdown gRPC
would cancel it at once instead of letting it finish within the grace period.

Request streams (BatchCheckUniqueness, server reflection) hold a thread each for as long
as they are open: :class:`StreamGuard` ends one that sends nothing for a while, and
refuses one client (an address) more than its share of them, so that streams left idle
neither lock other clients out of batches nor take the threads health checks need.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections import namedtuple
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import grpc
from google.rpc import code_pb2
from google.rpc import error_details_pb2
from google.rpc import status_pb2
from grpc_status import rpc_status

# Threads beyond the admitted calls, for health checks, reflection and refusals: each holds
# one for a moment, but under a burst hundreds arrive at once, and a call past gRPC's own
# limit would be refused by gRPC ("Concurrent RPC limit exceeded!", no retry hint) and a
# health check with it. Idle threads cost little (threads are made as calls need them).
HEADROOM = 256
POLL_SECONDS = 0.25  # how often a waiting call looks whether its client still waits


def thread_count(running: int, queued: int, streams: int) -> int:
    """RPC threads for ``running`` + ``queued`` unary calls, ``streams`` batch streams
    and the headroom; also the number of calls gRPC accepts at once."""
    return running + queued + streams + HEADROOM


class Overloaded(Exception):
    """No slot and no room to wait: RESOURCE_EXHAUSTED, retry after ``retry_after``."""

    def __init__(self, message: str, retry_after: float):
        super().__init__(message)
        self.retry_after = retry_after

    def status(self) -> grpc.Status:
        detail = error_details_pb2.RetryInfo()
        detail.retry_delay.FromTimedelta(timedelta(seconds=self.retry_after))
        status = status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message=str(self))
        status.details.add().Pack(detail)
        plain = rpc_status.to_status(status)
        pushback = ("grpc-retry-pushback-ms", str(round(self.retry_after * 1000)))
        return _Status(plain.code, plain.details, (*plain.trailing_metadata, pushback))


class _Status(namedtuple("_Status", ("code", "details", "trailing_metadata")), grpc.Status):
    """A status with trailing metadata of our own beside the packed details."""


class GaveUp(Exception):
    """The call ended (deadline or cancellation) while it waited for a slot."""


class Admission:
    """Slots for ``running`` calls at once, and room for ``queued`` more to wait."""

    def __init__(self, running: int, queued: int, retry_after: float = 1.0):
        self.running, self.queued, self.retry_after = running, queued, retry_after
        self._slots = threading.Semaphore(running)
        self._lock = threading.Lock()
        self._admitted = 0  # working or waiting

    @property
    def admitted(self) -> int:
        return self._admitted

    @contextmanager
    def slot(self, still_waited_for: Callable[[], bool]) -> Iterator[None]:
        """Hold a slot for the body; raise :class:`Overloaded` when there is no room
        to wait, :class:`GaveUp` when ``still_waited_for()`` turns false first."""
        with self._lock:
            if self._admitted >= self.running + self.queued:
                raise Overloaded(
                    f"the server is busy ({self.running} calls running, {self.queued}"
                    f" waiting): retry in {self.retry_after:g} s",
                    self.retry_after,
                )
            self._admitted += 1
        try:
            while not self._slots.acquire(timeout=POLL_SECONDS):
                if not still_waited_for():
                    raise GaveUp
            try:
                yield
            finally:
                self._slots.release()
        finally:
            with self._lock:
                self._admitted -= 1


def client_of(peer: str) -> str:
    """A call's client, as its address without the port: ``ipv4:10.0.0.7:52144`` ->
    ``ipv4:10.0.0.7``; a Unix socket's peer as it is."""
    if peer.startswith(("ipv4:", "ipv6:")):
        return peer.rsplit(":", 1)[0]
    return peer


class _Idle:
    """A request stream, and since when it has been waiting for a message (None: it is
    not waiting): :class:`StreamGuard`'s watchdog ends the call of one waiting too long."""

    def __init__(self, requests: Iterable[Any], context: grpc.ServicerContext):
        self.requests, self.context = iter(requests), context
        self.waiting_since: float | None = None

    def __iter__(self) -> _Idle:
        return self

    def __next__(self) -> Any:
        self.waiting_since = time.monotonic()
        try:
            return next(self.requests)
        finally:
            self.waiting_since = None


class StreamGuard(grpc.ServerInterceptor):
    """Request streams that send nothing for ``idle`` seconds are ended (by one watchdog
    thread, not one per message); a client holding
    ``per_client`` of them is refused another at once (RESOURCE_EXHAUSTED, with a retry
    hint)."""

    def __init__(self, idle: float, per_client: int, retry_after: float = 1.0):
        self.idle, self.per_client, self.retry_after = idle, per_client, retry_after
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._streams: set[_Idle] = set()
        self._watchdog: threading.Thread | None = None

    def _watch(self) -> None:
        """One thread for every stream: a few times per ``idle`` period, end the calls
        of the streams that have waited longer than it for a message."""
        while True:
            time.sleep(max(self.idle / 4, 0.05))
            now = time.monotonic()
            with self._lock:
                late = [
                    s
                    for s in self._streams
                    if s.waiting_since is not None and now - s.waiting_since > self.idle
                ]
                self._streams.difference_update(late)
            for stream in late:
                message = f"no message for {self.idle:g} s: the stream was ended"
                stream.context.set_details(message)
                stream.context.cancel()

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Any],
        details: grpc.HandlerCallDetails,
    ) -> Any:  # the method's handler (grpc's stubs type it loosely)
        handler = continuation(details)
        if handler is None or not handler.request_streaming:
            return handler
        inner: Any = handler.stream_stream or handler.stream_unary
        streaming = handler.stream_stream is not None

        def guarded(requests: Iterable[Any], context: grpc.ServicerContext) -> Any:
            client = client_of(context.peer())
            with self._lock:
                full = self._open[client] >= self.per_client
                if not full:
                    self._open[client] += 1
            if full:
                refusal = Overloaded(
                    f"this client has {self.per_client} streams open, its share: close one, "
                    f"or retry in {self.retry_after:g} s",
                    self.retry_after,
                )
                context.abort_with_status(refusal.status())
            stream = _Idle(requests, context)
            with self._lock:
                self._streams.add(stream)
                if self._watchdog is None:
                    self._watchdog = threading.Thread(
                        target=self._watch, name="numgrid-stream-idle", daemon=True
                    )
                    self._watchdog.start()
            if not context.add_callback(lambda: self._closed(client, stream)):
                self._closed(client, stream)
            return inner(stream, context)

        field = "stream_stream" if streaming else "stream_unary"
        return handler._replace(**{field: guarded})

    def _closed(self, client: str, stream: _Idle) -> None:
        with self._lock:
            self._streams.discard(stream)
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]
