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
"""

from __future__ import annotations

import threading
from collections import namedtuple
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import grpc
from google.rpc import code_pb2
from google.rpc import error_details_pb2
from google.rpc import status_pb2
from grpc_status import rpc_status

HEADROOM = 4  # threads beyond the admitted calls: health checks, reflection, refusals
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
