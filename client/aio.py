"""The numgrid client for asyncio (``grpc.aio``): the methods of
:class:`~numgrid.client.NumgridClient`, with the same arguments, results and
:class:`~numgrid.client.NumgridError`, awaited.

>>> import asyncio
>>> from numgrid.client.aio import AsyncNumgridClient
>>> async def grade(texts):
...     async with AsyncNumgridClient("127.0.0.1:50051", timeout=10) as client:
...         results = await asyncio.gather(*(client.check_uniqueness(t) for t in texts))
...         return [r.verdict for r in results]
>>> asyncio.run(grade([open("puzzle.txt").read()]))  # doctest: +SKIP
['UNIQUE']

Both clients build their requests and read the answers with the same functions
(:mod:`numgrid.client.client`); only the waiting differs. Open the client inside the
event loop that uses it (``async with`` in a coroutine). :meth:`check_many` streams a
batch over one ``BatchCheckUniqueness`` call; :func:`numgrid.client.batch.check_many`
(threads) spreads one over several streams and servers and re-sends after failures.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterable
from collections.abc import AsyncIterator
from collections.abc import Callable
from collections.abc import Coroutine
from collections.abc import Iterable
from typing import Any
from typing import Concatenate
from typing import ParamSpec
from typing import TypeVar

import grpc
from grpc_health.v1 import health_pb2_grpc
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc as service_grpc

from .batch import MAX_PUZZLES_PER_MESSAGE
from .batch import MAX_REQUEST_BYTES
from .batch import BatchItem
from .batch import BatchResult
from .batch import _older_server
from .batch import batch_puzzle
from .batch import result_of
from .channels import PLAINTEXT
from .channels import Credentials
from .channels import open_aio_channel
from .client import DEFAULT_RETRIES
from .client import Call
from .client import channel_options
from .client import check_uniqueness_call
from .client import client_method
from .client import convert_call
from .client import error_from_rpc
from .client import explain_call
from .client import generate_call
from .client import health_call
from .client import hint_call
from .client import puzzle_input
from .client import render_call
from .client import search_options
from .client import solve_call
from .client import validate_call

P = ParamSpec("P")
T = TypeVar("T")


def unary(build: Callable[P, Call[T]]) -> Callable[Concatenate[Any, P], Coroutine[Any, Any, T]]:
    """A method of :class:`AsyncNumgridClient` that answers once, awaited."""

    async def method(client: AsyncNumgridClient, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await client._answer(functools.partial(build, *args, **kwargs))

    return client_method(method, build, "{}")


def streamed(build: Callable[P, Call[T]]) -> Callable[Concatenate[Any, P], AsyncIterator[T]]:
    """A method of :class:`AsyncNumgridClient` that yields each answer as it comes."""

    async def method(
        client: AsyncNumgridClient, /, *args: P.args, **kwargs: P.kwargs
    ) -> AsyncIterator[T]:
        async for answer in client._stream(functools.partial(build, *args, **kwargs)):
            yield answer

    return client_method(method, build, "AsyncIterator[{}]")


class AsyncNumgridClient:
    """Client of a numgrid server at ``target`` for asyncio; an async context manager.

    The arguments are :class:`~numgrid.client.NumgridClient`'s: ``timeout`` the default
    deadline of every call, ``retries`` of calls that found the server UNAVAILABLE,
    ``credentials`` TLS and a bearer token; ``channel`` a ``grpc.aio`` channel of
    your own.
    """

    puzzle_input = staticmethod(puzzle_input)
    search_options = staticmethod(search_options)

    def __init__(
        self,
        target: str,
        *,
        timeout: float | None = None,
        retries: int = DEFAULT_RETRIES,
        channel: grpc.aio.Channel | None = None,
        credentials: Credentials = PLAINTEXT,
    ):
        self.target = target
        self.timeout = timeout
        self.credentials = credentials
        self.options = channel_options(retries)
        self._channel = channel or open_aio_channel(target, self.options, credentials)
        self._stub = service_grpc.NumgridServiceStub(self._channel)
        self._health: Any = health_pb2_grpc.HealthStub(self._channel)  # stubs: no methods

    async def __aenter__(self) -> AsyncNumgridClient:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def close(self) -> None:
        await self._channel.close()

    def _method(self, call: Call[Any]) -> Any:
        return getattr(self._health if call.service == "health" else self._stub, call.method)

    async def _answer(self, make: Callable[[], Call[T]]) -> T:
        call = make()
        try:
            deadline = call.deadline(self.timeout)
            return call.read(await self._method(call)(call.request, timeout=deadline))
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None

    async def _stream(self, make: Callable[[], Call[T]]) -> AsyncIterator[T]:
        call = make()
        stream = self._method(call)(call.request, timeout=call.deadline(self.timeout))
        try:
            async for response in stream:
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

    # ------------------------------------------------------------ a batch

    async def check_many(
        self,
        items: Iterable[BatchItem] | AsyncIterable[BatchItem],
        *,
        engine: str = "auto",
        time_limit: float | None = None,
        hold_entries: bool = False,
        timeout: float | None = None,
    ) -> AsyncIterator[BatchResult]:
        """Check every puzzle of ``items`` over one ``BatchCheckUniqueness`` stream and
        yield a :class:`~numgrid.client.batch.BatchResult` per id as the server finishes
        it (in any order): INVALID for a puzzle it rejected, the verdict otherwise.

        ``items`` is read as the server takes them: from a plain iterable several to a
        message, from an async one a message each. ``timeout`` is the deadline of the
        whole batch (None: none; not the client's per-call default). A failed call
        raises :class:`~numgrid.client.NumgridError`; nothing is re-sent."""
        options = search_options(engine, time_limit, hold_entries)
        failed: list[Exception] = []  # why the requests stopped early, if they did

        async def requests() -> AsyncIterator[service_pb2.BatchCheckUniquenessRequest]:
            seen: set[str] = set()
            try:
                async for group in _groups(items):
                    puzzles = []
                    for item in group:
                        if item.id in seen:
                            raise ValueError(f"id {item.id!r} appears twice in the batch")
                        seen.add(item.id)
                        puzzles.append(batch_puzzle(item, options))
                    yield service_pb2.BatchCheckUniquenessRequest(puzzles=puzzles)
            except Exception as e:  # the caller's iterator failed, or a bad item
                failed.append(e)  # the requests end here; raised with the next answer

        call = self._stub.BatchCheckUniqueness(requests(), timeout=timeout)
        try:
            async for response in call:
                if failed:
                    raise failed[0]
                if not response.results:  # a server built from an older proto
                    raise _older_server(call)
                for result in response.results:
                    yield result_of(result)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        finally:
            call.cancel()  # ended early (an error, or the caller stopped): the server stops
        if failed:
            raise failed[0]


async def _groups(
    items: Iterable[BatchItem] | AsyncIterable[BatchItem],
) -> AsyncIterator[list[BatchItem]]:
    """The items in messages: from a plain iterable up to ``MAX_PUZZLES_PER_MESSAGE``
    (and about ``MAX_REQUEST_BYTES``) at a time, from an async one each as it comes."""
    if isinstance(items, AsyncIterable):
        async for item in items:
            yield [item]
        return
    group: list[BatchItem] = []
    size = 0
    for item in items:
        group.append(item)
        size += len(item.puzzle) if isinstance(item.puzzle, str) else item.puzzle.ByteSize()
        if len(group) >= MAX_PUZZLES_PER_MESSAGE or size >= MAX_REQUEST_BYTES:
            yield group
            group, size = [], 0
    if group:
        yield group
