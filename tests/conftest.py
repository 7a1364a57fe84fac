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
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from numgrid.server import engines

CORPUS_PATH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kakuro.json"
START_TIMEOUT = 30.0  # seconds for the process to print its address and say SERVING
STOP_TIMEOUT = 30.0
_LISTENING = re.compile(r"numgrid-server listening on (\S+):(\d+)")


def server_executable() -> str:
    """The ``numgrid-server`` console script of the running interpreter's environment."""
    beside = Path(sys.executable).parent / "numgrid-server"
    if beside.exists():
        return str(beside)
    found = shutil.which("numgrid-server")
    if found is None:
        pytest.fail("numgrid-server is not installed: pip install -e '.[dev]'")
    return found


@dataclass
class ServerProcess:
    """A running ``numgrid-server`` process."""

    process: subprocess.Popen
    port: int
    workdir: Path
    _files: list = field(default_factory=list, repr=False)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / "stderr.log"

    def log_lines(self) -> list[str]:
        return self.log_path.read_text(errors="replace").splitlines()

    def log_mark(self) -> int:
        """Lines logged so far; pass it to :meth:`log_since`."""
        return len(self.log_lines())

    def log_since(self, mark: int) -> list[str]:
        return self.log_lines()[mark:]

    def stop(self, sig: int = signal.SIGTERM, timeout: float = STOP_TIMEOUT) -> int:
        """Signal the process, wait for it, and return its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                pytest.fail(f"numgrid-server did not stop within {timeout}s of signal {sig}")
        for f in self._files:
            f.close()
        return self.process.returncode


def wait_serving(
    target: str, timeout: float, credentials: grpc.ChannelCredentials | None = None
) -> None:
    channel = (
        grpc.secure_channel(target, credentials) if credentials else grpc.insecure_channel(target)
    )
    with channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest(service="")
        reply = stub.Check(request, timeout=timeout, wait_for_ready=True)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING


def start_server(
    *flags: str,
    workdir: Path | None = None,
    env: dict[str, str] | None = None,
    credentials: grpc.ChannelCredentials | None = None,
) -> ServerProcess:
    """Start ``numgrid-server --host 127.0.0.1 --port 0 FLAGS`` and wait until SERVING.

    Its stdout and stderr go to files in ``workdir`` (a new temporary directory if None);
    ``env`` adds environment variables; ``credentials``: how to reach a TLS server.
    """
    workdir = workdir or Path(tempfile.mkdtemp(prefix="numgrid-server-"))
    stdout = (workdir / "stdout.log").open("w")
    stderr = (workdir / "stderr.log").open("w")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    process = subprocess.Popen(
        [server_executable(), "--host", "127.0.0.1", "--port", "0", *flags],
        stdout=stdout,
        stderr=stderr,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    server = ServerProcess(process, 0, workdir, [stdout, stderr])
    deadline = time.monotonic() + START_TIMEOUT
    while server.port == 0:
        match = _LISTENING.search((workdir / "stdout.log").read_text())
        if match:
            server.port = int(match.group(2))
        elif process.poll() is not None:
            pytest.fail(
                f"numgrid-server exited with {process.returncode}:\n{server.log_path.read_text()}"
            )
        elif time.monotonic() > deadline:
            server.stop(signal.SIGKILL)
            pytest.fail(f"numgrid-server printed no address in {START_TIMEOUT}s")
        else:
            time.sleep(0.02)
    wait_serving(server.target, max(1.0, deadline - time.monotonic()), credentials)
    return server


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


@pytest.fixture(scope="session")
def corpus() -> dict[str, dict]:
    """The Kakuro corpus: id (e.g. ``"162_12x12"``) -> {"problem", "solution", ...}."""
    return json.loads(CORPUS_PATH.read_text())["data"]


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
