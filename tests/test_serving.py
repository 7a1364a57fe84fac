"""The server on guard and under pressure, as an operator sees it (issue 12): graceful
shutdown answers every call sent before SIGTERM and refuses the rest; a full server sheds
calls with a retry hint instead of queueing them; TLS, client certificates and bearer
tokens are enforced. Each test runs a real ``numgrid-server`` process."""

from __future__ import annotations

import contextlib
import datetime
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from grpc_status import rpc_status
from numgrid.client.channels import Credentials
from numgrid.client.channels import CredentialsError
from numgrid.client.client import NumgridClient
from numgrid.server import launch
from numgrid.server.config import ServerConfig
from numgrid.server.main import build_server
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import numgrid_service_pb2_grpc
from numgrid.v1 import puzzle_pb2 as pb
from support import PUZZLES
from support.client import numgrid
from support.corpus import corpus_path
from support.server import run_server
from support.server import server_executable
from test_service import slow_request
from test_service import text_input

KENKEN_CORPUS = corpus_path("kenken")
KENKEN = PUZZLES / "kenken-4x4.txt"
NO_RETRIES = [("grpc.enable_retries", 0)]


def kenken(puzzle_id: str) -> str:
    return json.loads(KENKEN_CORPUS.read_text())["data"][puzzle_id]["problem"]


def code_of(future) -> grpc.StatusCode:
    try:
        future.result()
    except grpc.RpcError as e:
        return e.code()
    return grpc.StatusCode.OK


def wait_for_log(server, needle: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not any(needle in line for line in server.log_lines()):
        assert time.monotonic() < deadline, f"no {needle!r} in the log:\n{server.log_lines()}"
        time.sleep(0.02)


# ---------------------------------------------------------------- shutdown


@pytest.mark.slow
def test_sigterm_answers_every_call_sent_before_it_and_refuses_later_ones(launch_server):
    """20 calls in flight on 8 threads: many still wait in gRPC's core when SIGTERM
    comes (the searches hold the GIL), where a plain ``server.stop(grace)`` cancels
    them unlogged. All 20 must be answered and logged; a call after it is refused."""
    server = launch_server("--grace", "60")
    request = service_pb2.CheckUniquenessRequest(puzzle=text_input(kenken("39_8x8")))
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            stub.Validate(service_pb2.ValidateRequest(puzzle=request.puzzle), timeout=30)
            in_flight = [stub.CheckUniqueness.future(request, timeout=120) for _ in range(20)]
            time.sleep(0.5)
            server.process.send_signal(signal.SIGTERM)
            wait_for_log(server, "intake closed")
            late = stub.CheckUniqueness.future(request, timeout=30)
            assert [code_of(f) for f in in_flight] == [grpc.StatusCode.OK] * 20
            assert all(f.result().verdict == pb.VERDICT_UNIQUE for f in in_flight)
            # Refused, not served: UNAVAILABLE from the intake or the closed port, or
            # CANCELLED when gRPC's core takes the stream on a connection it is closing.
            refused = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)
            assert code_of(late) in refused
            assert server.process.wait(60) == 0
    finally:
        server.stop(signal.SIGKILL)
    log = server.log_lines()
    assert sum("method=CheckUniqueness size=8x8 status=OK" in line for line in log) == 20
    assert "stopped" in log[-1]


def test_a_closed_intake_refuses_calls_but_not_health_checks():
    """What a call taken after the marker gets (in-process: the port stays open)."""
    built = build_server(ServerConfig(host="127.0.0.1", port=0), log_requests=False)
    built.server.start()
    try:
        built.intake.close(5)
        assert built.intake.closed.is_set()
        with grpc.insecure_channel(f"127.0.0.1:{built.port}", options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            with pytest.raises(grpc.RpcError) as caught:
                stub.Validate(service_pb2.ValidateRequest(puzzle=text_input(KENKEN.read_text())))
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "shutting down" in caught.value.details()
            health = health_pb2_grpc.HealthStub(channel)
            health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
    finally:
        built.stop(0)


def test_the_intake_marker_needs_the_servers_secret(server_process):
    """The method that closes the intake is not a way to shut a server's door."""
    with grpc.insecure_channel(server_process.target) as channel:
        marker = channel.unary_unary("/numgrid.internal.Shutdown/CloseIntake")
        for metadata in ((), (("numgrid-intake-secret", "guess"),)):
            with pytest.raises(grpc.RpcError) as caught:
                marker(b"", timeout=5, metadata=metadata)
            assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        reply = stub.Validate(service_pb2.ValidateRequest(puzzle=text_input(KENKEN.read_text())))
        assert not reply.solved and len(reply.cells) == 16


# ---------------------------------------------------------------- overload


def test_a_full_server_sheds_calls_with_a_retry_hint(launch_server):
    """One call running and one waiting: three more are refused at once, with
    RetryInfo and gRPC's retry pushback, and the health check still answers."""
    server = launch_server("--threads", "1", "--max-queued", "1")
    request = slow_request("native", time_limit={"seconds": 1})
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            calls = [stub.CheckUniqueness.future(request, timeout=30) for _ in range(2)]
            time.sleep(0.5)  # both admitted: one runs, one waits
            shed = [stub.CheckUniqueness.future(request, timeout=30) for _ in range(3)]
            health = health_pb2_grpc.HealthStub(channel)
            reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
            for future in shed:
                assert code_of(future) == grpc.StatusCode.RESOURCE_EXHAUSTED
                error = future.exception()
                assert "busy" in error.details()
                status = rpc_status.from_call(error)
                retry = error_details_pb2.RetryInfo()
                assert status.details[0].Unpack(retry)
                assert retry.retry_delay.ToTimedelta().total_seconds() == 1
                assert ("grpc-retry-pushback-ms", "1000") in error.trailing_metadata()
            assert [f.result().verdict for f in calls] == [pb.VERDICT_TIMEOUT] * 2
    finally:
        assert server.stop() == 0
    log = "\n".join(server.log_lines())
    assert log.count("status=RESOURCE_EXHAUSTED") == 3


def test_a_burst_is_refused_by_numgrid_with_a_retry_hint_and_health_answers(launch_server):
    """Sixty heavy calls at once on a server with room for one (issue 29): each one
    refused carries numgrid's sentence and retry hint, none gRPC's own "Concurrent RPC
    limit exceeded!", and health checks sent in the middle of the burst are answered."""
    server = launch_server("--threads", "1", "--max-queued", "0")
    request = slow_request("native", time_limit={"seconds": 2})
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            health = health_pb2_grpc.HealthStub(channel).Check.future
            burst = [stub.CheckUniqueness.future(request, timeout=30) for _ in range(60)]
            checks = [health(health_pb2.HealthCheckRequest(), timeout=10) for _ in range(5)]
            burst += [stub.CheckUniqueness.future(request, timeout=30) for _ in range(60)]
            serving = health_pb2.HealthCheckResponse.SERVING
            assert [c.result().status for c in checks] == [serving] * 5
            refused = [f.exception() for f in burst if code_of(f) != grpc.StatusCode.OK]
            assert len(refused) >= len(burst) - 2
            for error in refused:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
                assert "busy" in error.details(), error.details()
                assert ("grpc-retry-pushback-ms", "1000") in error.trailing_metadata()
    finally:
        assert server.stop() == 0


def test_a_call_waiting_past_its_deadline_gives_up(launch_server):
    server = launch_server("--threads", "1", "--max-queued", "4")
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            running = stub.CheckUniqueness.future(
                slow_request("native", time_limit={"seconds": 2}), timeout=30
            )
            time.sleep(0.3)
            start = time.monotonic()
            waiting = stub.Validate.future(
                service_pb2.ValidateRequest(puzzle=text_input(KENKEN.read_text())), timeout=0.5
            )
            assert code_of(waiting) == grpc.StatusCode.DEADLINE_EXCEEDED
            assert time.monotonic() - start < 1.5
            assert running.result().verdict == pb.VERDICT_TIMEOUT
    finally:
        assert server.stop() == 0
    assert any(
        "method=Validate" in line and "DEADLINE_EXCEEDED" in line for line in server.log_lines()
    )


def test_the_client_reports_the_retry_hint(launch_server):
    server = launch_server("--threads", "1", "--max-queued", "0")
    try:
        with NumgridClient(server.target, retries=0, timeout=30) as client:
            busy = threading.Thread(
                target=client.check_uniqueness,
                args=(slow_request("native").puzzle,),
                kwargs={"engine": "native", "time_limit": 1},
            )
            busy.start()
            time.sleep(0.5)
            with pytest.raises(Exception) as caught:
                client.validate(KENKEN.read_text())
            assert caught.value.code == "RESOURCE_EXHAUSTED"
            assert caught.value.retry_after == 1
            busy.join()
    finally:
        assert server.stop() == 0


# ---------------------------------------------------------------- TLS


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _issue(path: Path, subject: str, issuer=None, *, ca=False, server=False):
    """Write ``path``.pem and ``path``.key: a certificate for ``subject``, signed by
    ``issuer`` ((cert, key), or itself), for a CA, a loopback server or a client."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    signer_cert, signer_key = issuer or (None, key)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(signer_cert.subject if signer_cert else _name(subject))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if server:
        import ipaddress

        names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    cert = builder.sign(signer_key, hashes.SHA256())
    path.with_suffix(".pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    path.with_suffix(".key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert, key


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Path:
    """A CA, a server certificate for 127.0.0.1 and a client certificate it signed,
    and a client certificate from another CA."""
    root = tmp_path_factory.mktemp("pki")
    ca = _issue(root / "ca", "numgrid test CA", ca=True)
    _issue(root / "server", "numgrid server", ca, server=True)
    _issue(root / "client", "numgrid client", ca)
    stranger = _issue(root / "other-ca", "another CA", ca=True)
    _issue(root / "stranger", "someone else", stranger)
    return root


def _tls_server(launch_server, pki: Path, *flags: str, client_cert: bool = False):
    trust = grpc.ssl_channel_credentials(
        (pki / "ca.pem").read_bytes(),
        (pki / "client.key").read_bytes() if client_cert else None,
        (pki / "client.pem").read_bytes() if client_cert else None,
    )
    tls = ("--tls-cert", str(pki / "server.pem"), "--tls-key", str(pki / "server.key"))
    return launch_server(*tls, *flags, credentials=trust)


@pytest.mark.slow
def test_a_tls_server_answers_tls_clients_only(launch_server, pki):
    server = _tls_server(launch_server, pki)
    try:
        where = ("--server", server.target)
        done = numgrid(*where, "--ca", str(pki / "ca.pem"), "solve", str(KENKEN))
        assert done.returncode == 0, done.stderr
        plain = numgrid(*where, "--timeout", "5", "solve", str(KENKEN))
        assert plain.returncode == 2 and "cannot reach" in plain.stderr
        untrusted = numgrid(*where, "--tls", "solve", str(KENKEN))  # the system's roots
        assert untrusted.returncode == 2 and "cannot reach" in untrusted.stderr
    finally:
        assert server.stop() == 0
    assert "TLS" in "\n".join(server.log_lines())


@pytest.mark.slow
def test_client_certificates_are_required_when_asked_for(launch_server, pki):
    server = _tls_server(
        launch_server, pki, "--tls-client-ca", str(pki / "ca.pem"), client_cert=True
    )
    ca = ("--server", server.target, "--ca", str(pki / "ca.pem"))
    try:
        mine = ("--cert", str(pki / "client.pem"), "--key", str(pki / "client.key"))
        done = numgrid(*ca, *mine, "unique", str(KENKEN))
        assert done.returncode == 0, done.stderr
        for other in (
            (),
            ("--cert", str(pki / "stranger.pem"), "--key", str(pki / "stranger.key")),
        ):
            refused = numgrid(*ca, *other, "unique", str(KENKEN))
            assert refused.returncode == 2, refused.stdout
            assert "cannot reach" in refused.stderr
    finally:
        assert server.stop() == 0


def test_tls_flags_are_checked_before_serving(tmp_path, pki):
    def serve(*flags):
        return run_server("--port", "0", *flags)

    alone = serve("--tls-cert", str(pki / "server.pem"))
    assert alone.returncode == 2 and "--tls-cert and --tls-key go together" in alone.stderr
    missing = serve("--tls-cert", str(tmp_path / "nope.pem"), "--tls-key", str(pki / "server.key"))
    assert missing.returncode == 1
    assert f"cannot read the TLS certificate {tmp_path / 'nope.pem'}" in missing.stderr
    assert "Traceback" not in missing.stderr
    empty = tmp_path / "tokens"
    empty.write_text("# nobody yet\n")
    no_tokens = serve("--tokens-file", str(empty))
    assert no_tokens.returncode == 1 and "holds no token" in no_tokens.stderr


# ---------------------------------------------------------------- tokens


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """A server with an admin token (any method, from the environment) and a
    publisher token (uniqueness only, from the file)."""
    from support.server import start_server

    folder = tmp_path_factory.mktemp("tokens")
    tokens = folder / "tokens"
    tokens.write_text("# token  methods\npublisher-7f3a CheckUniqueness,BatchCheckUniqueness\n")
    server = start_server(
        "--tokens-file", str(tokens), workdir=folder, env={"NUMGRID_TOKENS": "admin-1b2c"}
    )
    yield server
    assert server.stop() == 0


def _call(target: str, token: str | None, method: str = "Solve") -> grpc.StatusCode:
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    with grpc.insecure_channel(target) as channel:
        stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
        puzzle = text_input(KENKEN.read_text())
        request = {
            "Solve": service_pb2.SolveRequest,
            "CheckUniqueness": service_pb2.CheckUniquenessRequest,
        }[method](puzzle=puzzle)
        try:
            getattr(stub, method)(request, timeout=10, metadata=metadata)
        except grpc.RpcError as e:
            return e.code()
    return grpc.StatusCode.OK


def test_tokens_decide_who_may_call_what(guarded):
    target = guarded.target
    assert _call(target, None) == grpc.StatusCode.UNAUTHENTICATED
    assert _call(target, "guess") == grpc.StatusCode.UNAUTHENTICATED
    assert _call(target, "admin-1b2c") == grpc.StatusCode.OK
    assert _call(target, "publisher-7f3a") == grpc.StatusCode.PERMISSION_DENIED
    assert _call(target, "publisher-7f3a", "CheckUniqueness") == grpc.StatusCode.OK
    with grpc.insecure_channel(target) as channel:  # probes need no token
        health = health_pb2_grpc.HealthStub(channel)
        reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_the_cli_sends_its_token(guarded, tmp_path):
    where = ("--server", guarded.target)
    refused = numgrid(*where, "solve", str(KENKEN))
    assert refused.returncode == 2
    assert "UNAUTHENTICATED" in refused.stderr and "token" in refused.stderr
    done = numgrid(*where, "solve", str(KENKEN), env={"NUMGRID_TOKEN": "admin-1b2c"})
    assert done.returncode == 0, done.stderr
    token = tmp_path / "token"
    token.write_text("publisher-7f3a\n")
    batch = numgrid(*where, "--token-file", str(token), "unique", "--batch", "puzzles")
    assert batch.returncode in (0, 1), batch.stderr  # answers (puzzles/ has non-unique ones)
    assert "UNIQUE" in batch.stdout or "unique" in batch.stdout
    # solve and unique call BatchCheckUniqueness alone: a uniqueness token runs both
    solved = numgrid(*where, "--token-file", str(token), "solve", str(KENKEN))
    assert solved.returncode == 0, solved.stderr
    denied = numgrid(*where, "--token-file", str(token), "hint", str(KENKEN))
    assert denied.returncode == 2 and "PERMISSION_DENIED" in denied.stderr


def test_a_token_never_travels_in_clear_text():
    with pytest.raises(CredentialsError, match="only over TLS or to a loopback"):
        NumgridClient("10.1.2.3:50051", credentials=Credentials(token="secret"))
    NumgridClient("127.0.0.1:50051", credentials=Credentials(token="secret")).close()
    with pytest.raises(CredentialsError, match="needs its key"):
        Credentials(cert="client.pem")


def test_many_clients_at_once_are_answered_or_shed(launch_server):
    """A burst well beyond the server's room: every call ends OK or shed, never
    INTERNAL/UNKNOWN or a hang, and the server stays up."""
    server = launch_server("--threads", "2", "--max-queued", "2")
    request = service_pb2.ValidateRequest(puzzle=text_input(KENKEN.read_text()))
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            with ThreadPoolExecutor(32) as pool:
                futures = [pool.submit(stub.Validate, request, timeout=30) for _ in range(300)]
                codes = []
                for future in futures:
                    try:
                        future.result()
                        codes.append(grpc.StatusCode.OK)
                    except grpc.RpcError as e:
                        codes.append(e.code())
        assert set(codes) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert codes.count(grpc.StatusCode.OK) > 0
    finally:
        assert server.stop() == 0


def test_a_second_signal_stops_at_once(launch_server):
    server = launch_server("--grace", "60")
    try:
        with grpc.insecure_channel(server.target, options=NO_RETRIES) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            running = stub.CheckUniqueness.future(slow_request("native"), timeout=60)
            time.sleep(0.5)
            server.process.send_signal(signal.SIGTERM)
            wait_for_log(server, "intake closed")
            start = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            assert server.process.wait(20) == 0
            assert time.monotonic() - start < 10  # not the 60 s grace
            assert code_of(running) in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
    finally:
        server.stop(signal.SIGKILL)


def test_a_server_whose_code_breaks_stops_saying_serving(monkeypatch):
    """An ImportError in a call means the installed code changed under the running
    server: the call is INTERNAL and health turns NOT_SERVING, so probes take it out."""
    from numgrid.server import operations

    def broken(*args, **kwargs):
        raise ImportError("cannot import name 'cpsat'")

    built = build_server(ServerConfig(host="127.0.0.1", port=0), log_requests=False)
    built.server.start()
    monkeypatch.setattr(operations, "check_uniqueness", broken)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{built.port}", options=NO_RETRIES) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            check = health_pb2.HealthCheckRequest(service="")
            assert health.Check(check, timeout=5).status == health_pb2.HealthCheckResponse.SERVING
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            request = service_pb2.CheckUniquenessRequest(puzzle=text_input(KENKEN.read_text()))
            with pytest.raises(grpc.RpcError) as caught:
                stub.CheckUniqueness(request, timeout=10)
            assert caught.value.code() == grpc.StatusCode.INTERNAL
            status = health.Check(check, timeout=5).status
            assert status == health_pb2.HealthCheckResponse.NOT_SERVING
    finally:
        built.stop(0)


# ---------------------------------------------------------------- the allocator

needs_glibc = pytest.mark.skipif(not launch.on_glibc(), reason="glibc's tunables only")


def _environment(server) -> list[bytes]:
    return Path(f"/proc/{server.process.pid}/environ").read_bytes().split(b"\0")


@needs_glibc
def test_the_server_runs_with_glibcs_thread_caches_off(launch_server):
    server = launch_server(env={"GLIBC_TUNABLES": ""})
    try:
        assert f"GLIBC_TUNABLES={launch.TUNABLES}".encode() in _environment(server)
    finally:
        server.stop()


@needs_glibc
def test_an_operators_tcache_setting_wins(launch_server):
    server = launch_server(env={"GLIBC_TUNABLES": "glibc.malloc.tcache_count=3"})
    try:
        assert b"GLIBC_TUNABLES=glibc.malloc.tcache_count=3" in _environment(server)
    finally:
        server.stop()


@needs_glibc
def test_other_tunables_are_kept_beside_ours(monkeypatch):
    ran = []
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=4")
    monkeypatch.setattr(launch.os, "execv", lambda path, argv: ran.append((path, argv)))
    launch.restart_with_tunables()
    assert ran == [(sys.executable, sys.orig_argv)]
    assert launch.os.environ["GLIBC_TUNABLES"] == f"glibc.malloc.arena_max=4:{launch.TUNABLES}"


def test_the_server_and_its_metrics_listen_on_loopback_by_default(tmp_path):
    """Nothing is served beyond this machine unless asked (--host, --metrics-host): the
    metrics are plain HTTP without tokens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        metrics_port = probe.getsockname()[1]
    log = tmp_path / "stderr.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [server_executable(), "--port", "0", "--metrics-port", str(metrics_port)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
        try:
            assert "listening on 127.0.0.1:" in process.stdout.readline()
            deadline = time.monotonic() + 30
            while f"metrics on http://127.0.0.1:{metrics_port}/metrics" not in log.read_text():
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
        finally:
            process.terminate()
            process.wait(30)


def test_a_long_clients_calls_reach_a_server_started_after_it():
    """Servers ask a connection to go after --max-connection-age: a client that stays
    connected then reconnects, so a replica started later gets its calls too. Two
    servers share one port here (SO_REUSEPORT: each new connection goes to one of them);
    the later one is told apart by its smaller --max-cells (a 10x12 is over it)."""
    kakuro = (PUZZLES / "kakuro-10x12.txt").read_text()

    def server(port: int, **limits) -> Any:
        config = ServerConfig(host="127.0.0.1", port=port, max_connection_age_seconds=0.5, **limits)
        built = build_server(config, log_requests=False, reuseport=True)
        built.server.start()
        return built

    first = server(0)
    later = None
    try:
        with grpc.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            request = service_pb2.ValidateRequest(puzzle=text_input(kakuro))
            stub.Validate(request, timeout=10)  # connected to the first server
            later = server(first.port, max_cells=100)
            deadline = time.monotonic() + 60
            while True:
                try:
                    stub.Validate(request, timeout=10)
                except grpc.RpcError as e:
                    if e.code() == grpc.StatusCode.INVALID_ARGUMENT:
                        assert "over the limit of 100 cells" in e.details()
                        break  # answered by the later server
                    assert e.code() == grpc.StatusCode.UNAVAILABLE, e.details()
                assert time.monotonic() < deadline, "no call reached the server started later"
                time.sleep(0.05)
    finally:
        for built in (first, later):
            if built is not None:
                built.stop(1)


@pytest.mark.slow
def test_sigterm_ends_a_server_whose_handler_never_returns(launch_server, tmp_path):
    """A handler that does not stop at its budget (once, a 9x9 KenKen of one 81-cell
    405+ cage: issue 29, item 1; here a Validate made to sleep for ever, through a
    ``sitecustomize`` on the server's path) must not keep the process alive: SIGTERM
    ends it within its grace and a margin, saying why."""
    (tmp_path / "sitecustomize.py").write_text(
        "import time\n"
        "from numgrid.server import operations\n"
        "def never_returns(*args, **kwargs):\n"
        "    while True:\n"
        "        time.sleep(1)\n"
        "operations.validate = never_returns\n"
    )
    server = launch_server("--grace", "1", env={"PYTHONPATH": str(tmp_path)})
    request = service_pb2.ValidateRequest(puzzle=text_input(KENKEN.read_text()))

    def call() -> None:
        with grpc.insecure_channel(server.target) as channel:
            stub = numgrid_service_pb2_grpc.NumgridServiceStub(channel)
            with contextlib.suppress(grpc.RpcError):
                stub.Validate(request, timeout=2)

    caller = threading.Thread(target=call)
    caller.start()
    time.sleep(1.0)  # the call is in hand
    assert server.stop(signal.SIGTERM, timeout=1 + 2 + 5) == 1
    caller.join(10)
    assert any("stopping without them" in line for line in server.log_lines())
