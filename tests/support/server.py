"""A real ``numgrid-server`` process: the console script started on a free loopback port
(``--port 0``: the address it prints), its output in files of its own directory, waited
for until its health service says SERVING; stopped by a signal."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc

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


def run_server(*flags: str, timeout: float = 60, **options) -> subprocess.CompletedProcess:
    """``numgrid-server FLAGS`` run to its end (one that cannot start): its exit code
    and output as text."""
    return subprocess.run(
        [server_executable(), *flags], capture_output=True, text=True, timeout=timeout, **options
    )


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
