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

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc as service_grpc

from .batch import (
    MAX_PUZZLES_PER_MESSAGE,
    MAX_REQUEST_BYTES,
    BatchItem,
    BatchResult,
    _older_server,
    batch_puzzle,
    result_of,
)
from .channels import PLAINTEXT, Credentials, open_aio_channel
from .client import (
    DEFAULT_RETRIES,
    PuzzleLike,
    channel_options,
    error_from_rpc,
    explain_request,
    explanation_from,
    generate_request,
    generated_from,
    health_status_from,
    hint_from,
    hint_request,
    picture_from,
    puzzle_input,
    render_request,
    search_options,
    solve_request,
    solve_result_from,
    uniqueness_from,
    uniqueness_request,
    validate_request,
    validation_from,
)
from .types import (
    Cell,
    Explanation,
    GeneratedPuzzle,
    Hint,
    Picture,
    SolveResult,
    Uniqueness,
    Validation,
)


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

    async def _call(self, method, request, timeout: float | None):
        try:
            return await method(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None

    # ------------------------------------------------------------ the RPCs

    async def validate(
        self,
        puzzle: PuzzleLike,
        *,
        format: str | None = None,
        kind: str | None = None,
        compare_with_solution: bool = False,
        engine: str = "auto",
        time_limit: float | None = None,
        timeout: float | None = None,
    ) -> Validation:
        """Check a puzzle and the player's board; optionally compare with the solution."""
        request = validate_request(
            puzzle,
            format=format,
            kind=kind,
            compare_with_solution=compare_with_solution,
            engine=engine,
            time_limit=time_limit,
        )
        return validation_from(await self._call(self._stub.Validate, request, timeout))

    async def solve(
        self,
        puzzle: PuzzleLike,
        *,
        format: str | None = None,
        kind: str | None = None,
        engine: str = "auto",
        time_limit: float | None = None,
        hold_entries: bool = False,
        timeout: float | None = None,
    ) -> SolveResult:
        """Find the solution (``solution`` is None for NO_SOLUTION and TIMEOUT)."""
        request = solve_request(
            puzzle,
            format=format,
            kind=kind,
            engine=engine,
            time_limit=time_limit,
            hold_entries=hold_entries,
        )
        return solve_result_from(await self._call(self._stub.Solve, request, timeout))

    async def hint(
        self,
        puzzle: PuzzleLike,
        *,
        format: str | None = None,
        kind: str | None = None,
        engine: str = "auto",
        time_limit: float | None = None,
        timeout: float | None = None,
        max_technique: str | None = None,
        placements_only: bool = False,
    ) -> Hint:
        """The next step for the player whose entries are in ``puzzle`` (see
        :meth:`NumgridClient.hint <numgrid.client.NumgridClient.hint>`)."""
        request = hint_request(
            puzzle,
            format=format,
            kind=kind,
            engine=engine,
            time_limit=time_limit,
            max_technique=max_technique,
            placements_only=placements_only,
        )
        return hint_from(await self._call(self._stub.Hint, request, timeout))

    async def explain(
        self,
        puzzle: PuzzleLike,
        *,
        format: str | None = None,
        kind: str | None = None,
        max_technique: str | None = None,
        timeout: float | None = None,
    ) -> Explanation:
        """Every logical step from the puzzle's entries (an empty grid if none)."""
        request = explain_request(puzzle, format=format, kind=kind, max_technique=max_technique)
        return explanation_from(await self._call(self._stub.Explain, request, timeout))

    async def check_uniqueness(
        self,
        puzzle: PuzzleLike,
        *,
        format: str | None = None,
        kind: str | None = None,
        engine: str = "auto",
        time_limit: float | None = None,
        hold_entries: bool = False,
        timeout: float | None = None,
    ) -> Uniqueness:
        """UNIQUE (one solution), MULTIPLE (two, and where they differ), NO_SOLUTION, TIMEOUT."""
        request = uniqueness_request(
            puzzle,
            format=format,
            kind=kind,
            engine=engine,
            time_limit=time_limit,
            hold_entries=hold_entries,
        )
        return uniqueness_from(await self._call(self._stub.CheckUniqueness, request, timeout))

    async def render(
        self,
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
    ) -> Picture:
        """The puzzle drawn by the server as an SVG picture (see
        :meth:`NumgridClient.render <numgrid.client.NumgridClient.render>`)."""
        request = render_request(
            puzzle,
            format=format,
            kind=kind,
            show_entries=show_entries,
            show_solution=show_solution,
            highlights=highlights,
            engine=engine,
            time_limit=time_limit,
        )
        return picture_from(await self._call(self._stub.Render, request, timeout))

    async def generate(
        self,
        kind: str,
        rows: int,
        columns: int = 0,
        *,
        grade: str | None = None,
        count: int = 1,
        seed: int | None = None,
        density: float = 0.0,
        single_cell_runs: bool = False,
        timeout: float | None = None,
    ) -> AsyncIterator[GeneratedPuzzle]:
        """New puzzles as the server makes them (see
        :meth:`NumgridClient.generate <numgrid.client.NumgridClient.generate>`)."""
        request = generate_request(
            kind,
            rows,
            columns,
            grade=grade,
            count=count,
            seed=seed,
            density=density,
            single_cell_runs=single_cell_runs,
        )
        call = self._stub.Generate(request, timeout=self.timeout if timeout is None else timeout)
        try:
            async for response in call:
                yield generated_from(response)
        except grpc.RpcError as e:
            raise error_from_rpc(e) from None
        finally:
            call.cancel()

    async def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """The standard gRPC health status: ``"SERVING"``, ``"NOT_SERVING"``, ..."""
        request = health_pb2.HealthCheckRequest(service=service)
        return health_status_from(await self._call(self._health.Check, request, timeout))

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
