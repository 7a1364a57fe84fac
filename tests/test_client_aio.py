"""The asyncio client (``numgrid.client.aio``) against a real ``numgrid-server``: the same
methods, results and errors as the sync client, a batch over one stream, and many calls
at once on one channel with ``asyncio.gather``."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time

import grpc
import numgrid.client as api  # the result types
import pytest
from numgrid.client import AsyncNumgridClient
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.client.batch import BatchItem
from numgrid.client.batch import BatchResult
from support.client import HARD
from support.client import FakeServer
from support.client import FakeService
from support.client import published_solution
from support.client import sample

TEN = sample("kakuro-10x12.txt")
BROKEN = sample("broken-clues.txt")


@pytest.fixture
def arun(server_process):
    """``arun(fn)``: ``await fn(client)`` on a new AsyncNumgridClient, in a new loop."""

    def run(fn):
        async def main():
            async with AsyncNumgridClient(server_process.target, timeout=30) as client:
                return await fn(client)

        return asyncio.run(main())

    return run


@pytest.fixture(scope="module")
def sync_client(server_process):
    with NumgridClient(server_process.target, timeout=30) as c:
        yield c


def without_stats(result):
    """The fields that do not depend on timing (stats hold seconds)."""
    return {k: v for k, v in vars(result).items() if k != "stats"}


# ---------------------------------------------------------------- the same API


def test_every_public_method_of_the_sync_client_is_there_with_the_same_signature():
    public = [n for n, _ in inspect.getmembers(NumgridClient) if not n.startswith("_")]
    assert {"solve", "validate", "hint", "explain", "check_uniqueness", "health"} <= set(public)
    for name in public:
        sync, aio = getattr(NumgridClient, name), getattr(AsyncNumgridClient, name)
        # the same arguments; the returns differ for a stream (Iterator, AsyncIterator)
        assert inspect.signature(aio).parameters == inspect.signature(sync).parameters, name
        if name == "generate":
            assert inspect.isasyncgenfunction(aio), name
        elif name not in ("puzzle_input", "search_options", "close"):
            assert inspect.iscoroutinefunction(aio), name
            assert inspect.signature(aio) == inspect.signature(sync), name
    assert inspect.signature(AsyncNumgridClient.__init__).parameters.keys() == (
        inspect.signature(NumgridClient.__init__).parameters.keys()
    )


def test_bad_arguments_fail_before_any_call_as_in_the_sync_client(arun):
    async def go(client):
        with pytest.raises(ValueError, match="unknown engine"):
            await client.solve(TEN, engine="fast")
        with pytest.raises(ValueError, match="unknown technique"):
            await client.hint(TEN, max_technique="GUESSING")
        with pytest.raises(TypeError):
            await client.solve(42)

    arun(go)


# ---------------------------------------------------------------- every RPC


def test_health(arun):
    async def go(client):
        return await client.health(), await client.health("numgrid.v1.NumgridService")

    assert arun(go) == ("SERVING", "SERVING")


def test_solve_gives_the_published_solution_and_the_sync_clients_result(arun, sync_client):
    result = arun(lambda client: client.solve(TEN))
    assert isinstance(result, api.SolveResult)
    assert result.verdict == "UNIQUE"
    assert result.solution == published_solution("kakuro-10x12.solution.txt")
    assert without_stats(result) == without_stats(sync_client.solve(TEN))


def test_an_invalid_puzzle_raises_the_same_error_as_the_sync_client(arun, sync_client):
    async def go(client):
        with pytest.raises(NumgridError) as raised:
            await client.validate(BROKEN)
        return raised.value

    error = arun(go)
    with pytest.raises(NumgridError) as sync:
        sync_client.validate(BROKEN)
    assert error.code == "INVALID_ARGUMENT"
    assert [v.cell for v in error.violations] == [(1, 0), (2, 3)]
    assert error.problems == 2
    assert {f.code for f in error.findings} == {"impossible_clue", "run_without_clue"}
    for field in ("code", "message", "violations", "findings", "problems", "retry_after"):
        assert getattr(error, field) == getattr(sync.value, field), field


def test_validate_a_board(arun, sync_client):
    solved = sample("Game03-nearly-solved.csv")
    result = arun(lambda client: client.validate(solved, compare_with_solution=True))
    assert isinstance(result, api.Validation)
    assert result.wrong_entries
    assert without_stats(result) == without_stats(
        sync_client.validate(solved, compare_with_solution=True)
    )


def test_uniqueness(arun, sync_client):
    multiple = sample("multiple-4x4.txt")
    result = arun(lambda client: client.check_uniqueness(multiple))
    assert isinstance(result, api.Uniqueness)
    assert result.verdict == "MULTIPLE"
    assert len(result.solutions) == 2
    assert set(result.differing_cells) == {(1, 2), (1, 3), (2, 2), (2, 3)}
    assert without_stats(result) == without_stats(sync_client.check_uniqueness(multiple))
    assert arun(lambda client: client.check_uniqueness(sample("no-solution.txt"))).verdict == (
        "NO_SOLUTION"
    )


def test_hint_and_explain(arun, sync_client):
    hint = arun(lambda client: client.hint(TEN, placements_only=True))
    assert isinstance(hint, api.Hint)
    assert hint.kind == "STEP" and hint.placements
    assert without_stats(hint) == without_stats(sync_client.hint(TEN, placements_only=True))
    explanation = arun(lambda client: client.explain(sample("kenken-4x4.txt")))
    assert explanation.solved and explanation.steps
    assert explanation == sync_client.explain(sample("kenken-4x4.txt"))


def test_deadline_exceeded(server_process):
    async def go():
        async with AsyncNumgridClient(server_process.target, timeout=0.3) as client:
            start = time.monotonic()
            with pytest.raises(NumgridError) as e:
                await client.check_uniqueness(HARD, engine="native")
            assert e.value.code == "DEADLINE_EXCEEDED"
            assert time.monotonic() - start < 5
            assert await client.health(timeout=5) == "SERVING"

    asyncio.run(go())


def test_unavailable_is_retried_by_grpc():
    async def go(target):
        async with AsyncNumgridClient(target, timeout=10) as client:
            return await client.solve(TEN)

    with FakeServer(FakeService(grpc.StatusCode.UNAVAILABLE, failures=2)) as fake:
        assert asyncio.run(go(fake.target)).verdict == "UNIQUE"
        assert fake.service.calls == 3
    with FakeServer(FakeService(grpc.StatusCode.INVALID_ARGUMENT, failures=1)) as fake:
        with pytest.raises(NumgridError) as e:
            asyncio.run(go(fake.target))
        assert e.value.code == "INVALID_ARGUMENT" and fake.service.calls == 1


# ---------------------------------------------------------------- at once


def test_concurrent_calls_with_gather(arun):
    names = ["kakuro-10x12.txt", "kenken-4x4.txt", "skyscraper-5x5.txt", "kakurasu-5x5.txt"]
    texts = [sample(n) for n in names] * 5

    async def go(client):
        solved = await asyncio.gather(*(client.solve(t) for t in texts))
        mixed = await asyncio.gather(
            client.health(),
            client.check_uniqueness(sample("multiple-4x4.txt")),
            client.validate(BROKEN),
            client.hint(TEN),
            return_exceptions=True,
        )
        return solved, mixed

    solved, (health, unique, invalid, hint) = arun(go)
    assert [r.verdict for r in solved] == ["UNIQUE"] * len(texts)
    for name, result in zip(names, solved, strict=False):
        expected = name.replace(".txt", ".solution.txt")
        if name.startswith(("kakuro", "kenken")):
            assert result.solution == published_solution(expected), name
    assert health == "SERVING" and unique.verdict == "MULTIPLE" and hint.kind == "STEP"
    assert isinstance(invalid, NumgridError) and invalid.code == "INVALID_ARGUMENT"


# ---------------------------------------------------------------- a batch


BATCH = {
    "ten": ("kakuro-10x12.txt", "UNIQUE"),
    "multiple": ("multiple-4x4.txt", "MULTIPLE"),
    "none": ("no-solution.txt", "NO_SOLUTION"),
    "broken": ("broken-clues.txt", "INVALID"),
    "kenken": ("kenken-4x4.txt", "UNIQUE"),
}


def test_check_many_streams_a_batch(arun):
    items = [BatchItem(key, sample(name)) for key, (name, _) in BATCH.items()]

    async def go(client):
        return [result async for result in client.check_many(items)]

    results = arun(go)
    assert all(isinstance(r, BatchResult) for r in results)
    assert {r.id: r.status for r in results} == {k: status for k, (_, status) in BATCH.items()}
    by_id = {r.id: r for r in results}
    assert by_id["ten"].solutions == (published_solution("kakuro-10x12.solution.txt"),)
    assert len(by_id["multiple"].differing_cells) == 4
    assert "r1c0" in by_id["broken"].message and by_id["broken"].findings


def test_check_many_reads_an_async_iterable_and_many_puzzles(arun):
    texts = [sample(n) for n, _ in BATCH.values()]

    async def items():
        for i in range(60):  # more than one message's worth
            yield BatchItem(str(i), texts[i % len(texts)])
            await asyncio.sleep(0)

    async def go(client):
        plain = [r async for r in client.check_many(BatchItem(str(i), TEN) for i in range(70))]
        return plain, [r async for r in client.check_many(items())]

    plain, streamed = arun(go)
    assert sorted(int(r.id) for r in plain) == list(range(70))
    assert {r.status for r in plain} == {"UNIQUE"}
    expected = [status for _, status in BATCH.values()]
    assert {int(r.id): r.status for r in streamed} == {
        i: expected[i % len(expected)] for i in range(60)
    }


def test_check_many_refuses_a_repeated_id_and_stops_when_the_caller_does(arun):
    async def go(client):
        with pytest.raises(ValueError, match="appears twice"):
            async for _ in client.check_many([BatchItem("a", TEN), BatchItem("a", TEN)]):
                pass
        # stopping early cancels the stream; the client goes on working
        many = (BatchItem(str(i), TEN) for i in range(100))
        async with contextlib.aclosing(client.check_many(many)) as results:
            async for result in results:
                assert result.status == "UNIQUE"
                break
        return await client.health()

    assert arun(go) == "SERVING"
