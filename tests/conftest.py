"""Shared fixtures: a real ``numgrid-server`` process, the Kakuro corpus, and a spy on
the cross-check (``both_results``).

``server_process`` (session) is the server as deployed: the ``numgrid-server`` console
script started on a free loopback port. Tests dial ``server_process.target``; its log
(one line per request) is readable through ``log_mark()`` / ``log_since(mark)``.
:func:`launch_server` gives ``start_server(*flags)``, to start another one with other
flags (the caller stops it, e.g. ``assert server.stop() == 0``).
"""

from __future__ import annotations

import json

import grpc
import pytest
from numgrid.server import engines
from numgrid.v1 import numgrid_service_pb2_grpc
from support.corpus import corpus_path
from support.server import ServerProcess
from support.server import start_server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first (the order stays otherwise): the workers take tests in this
    order, and a slow one taken last keeps one busy after the others have finished."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def server_process(tmp_path_factory):
    """One real ``numgrid-server`` for the whole session, on default limits.

    Yields an object with ``.target`` ("127.0.0.1:PORT"), ``.process`` (the Popen) and
    the log helpers; at the end it is stopped with SIGTERM and must exit 0.
    """
    server = start_server(workdir=tmp_path_factory.mktemp("numgrid-server"))
    yield server
    alive = server.process.poll() is None
    code = server.stop()
    assert alive, f"numgrid-server died during the tests:\n{server.log_path.read_text()}"
    assert code == 0, f"numgrid-server exited with {code} on SIGTERM"


@pytest.fixture(scope="module")
def stub(server_process):
    """A raw ``NumgridService`` stub on the shared server."""
    with grpc.insecure_channel(server_process.target) as channel:
        yield numgrid_service_pb2_grpc.NumgridServiceStub(channel)


@pytest.fixture(scope="session")
def corpus() -> dict[str, dict]:
    """The Kakuro corpus: id (e.g. ``"162_12x12"``) -> {"problem", "solution", ...}."""
    return json.loads(corpus_path("kakuro").read_text())["data"]


@pytest.fixture(scope="session")
def corpus_puzzle(corpus):
    """``corpus_puzzle(id)`` -> (problem text, solution text), both in janko format."""

    def lookup(puzzle_id: str) -> tuple[str, str]:
        entry = corpus[puzzle_id]
        return entry["problem"], entry["solution"]

    return lookup


@pytest.fixture(scope="session")
def launch_server(tmp_path_factory):
    """``launch_server(*flags, env=, credentials=)`` -> a new :class:`ServerProcess`
    (see :func:`start_server`); the caller stops it."""

    def launch(*flags: str, **options) -> ServerProcess:
        return start_server(*flags, workdir=tmp_path_factory.mktemp("numgrid-server"), **options)

    return launch


# ---------------------------------------------------------------- the CLI's modes


@pytest.fixture(params=["embedded", "server"])
def mode(request) -> list[str]:
    """The extra arguments of a mode: none (embedded), or ``--server`` and the target."""
    if request.param == "embedded":
        return []
    return ["--server", request.getfixturevalue("server_process").target]


@pytest.fixture
def server(server_process) -> list[str]:
    """The CLI's arguments to reach the shared server."""
    return ["--server", server_process.target]


@pytest.fixture
def both_results(monkeypatch):
    """What each engine answered inside ``find``'s cross-check (find reports only one)."""
    seen = []
    real = engines.cross_check

    def spy(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(engines, "cross_check", spy)
    return seen
