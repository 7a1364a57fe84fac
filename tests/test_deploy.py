"""The deployment files. No Docker engine and no Kubernetes cluster run here, so these
tests check what can be checked without them:

- the build context Docker would send, computed from ``.dockerignore`` with Docker's own
  matching rules (the ``docker`` package's);
- the Dockerfile's stages (``dockerfile-parse``): pinned base, non-root user, ports;
  and the builder stage's steps run for real, outside Docker, into a temporary root,
  whose venv then serves (health and metrics) as the image's command would;
- the locks (``requirements/*.lock``) against pyproject.toml's ranges;
- compose, and the Kubernetes manifests against Kubernetes' own schemas
  (``kubernetes-validate``, which bundles them: no network) plus what matters to us.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import tomllib
import urllib.request
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from docker.utils.build import exclude_paths
from dockerfile_parse import DockerfileParser
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from support.server import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "deploy" / "k8s"
# The oldest Kubernetes the manifests are for (native gRPC probes: 1.27; preStop's
# sleep action: 1.30 on by default) and the newest whose schemas kubernetes-validate
# 1.37 bundles (docs/operations.md, "Deployment", names both).
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")
# The image's platform, for which scripts/lock resolves (environment markers).
IMAGE_MARKERS = {
    **default_environment(),
    "python_version": "3.11",
    "python_full_version": "3.11.16",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


# --- the Dockerfile ------------------------------------------------------------------


@dataclass
class Stage:
    name: str
    base: str  # as written, e.g. ${PYTHON_IMAGE}
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def values(self, instruction: str) -> list[str]:
        return [value for name, value in self.instructions if name == instruction]

    def env(self) -> dict[str, str]:
        env = {}
        for value in self.values("ENV"):
            for item in shlex.split(value):
                key, _, val = item.partition("=")
                env[key] = val
        return env


def dockerfile() -> DockerfileParser:
    return DockerfileParser(str(ROOT / "Dockerfile"))


def stages() -> tuple[dict[str, str], list[Stage]]:
    """The global ARGs (name -> default) and the stages, in order."""
    args: dict[str, str] = {}
    found: list[Stage] = []
    for item in dockerfile().structure:
        instruction, value = item["instruction"], item["value"]
        if instruction == "COMMENT":
            continue
        if instruction == "FROM":
            base, _, name = value.partition(" AS ")
            found.append(Stage(name.strip(), base.strip()))
        elif not found:
            assert instruction == "ARG", f"{instruction} before the first FROM"
            key, _, default = value.partition("=")
            args[key] = default
        else:
            found[-1].instructions.append((instruction, value))
    return args, found


def builder_and_runtime() -> tuple[Stage, Stage]:
    _, (builder, runtime) = stages()
    return builder, runtime


def copies(stage: Stage) -> list[tuple[list[str], list[str], str]]:
    """Each COPY as (flags, sources, destination)."""
    result = []
    for value in stage.values("COPY"):
        words = shlex.split(value)
        flags = [w for w in words if w.startswith("--")]
        paths = [w for w in words if not w.startswith("--")]
        result.append((flags, paths[:-1], paths[-1]))
    return result


def ignore_patterns(path: Path) -> list[str]:
    lines = (line.strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def build_context(root: Path) -> set[str]:
    """The paths Docker sends for a build in ``root`` (its .dockerignore applied)."""
    return set(exclude_paths(str(root), ignore_patterns(root / ".dockerignore")))


def package_folders() -> dict[str, str]:
    return project()["tool"]["setuptools"]["package-dir"]


def test_dockerignore_leaves_out_a_used_trees_local_state(tmp_path):
    """A tree after the quick start, a test run and a build sends what a fresh clone does."""
    shutil.copy(ROOT / ".dockerignore", tmp_path)
    needed = [
        "Dockerfile",
        "pyproject.toml",
        "README.md",
        "requirements/server.lock",
        "requirements/build.lock",
        "server/main.py",
        "server/kinds/kakuro/model.py",
        "client/cli.py",
        "proto/numgrid/v1/puzzle.proto",
        "proto/numgrid/v1/puzzle_pb2.pyi",
    ]
    local_state = [
        ".venv/bin/python",
        ".venv-serve/bin/numgrid-server",
        ".venv2/pyvenv.cfg",
        ".git/HEAD",
        ".hypothesis/examples/x",
        ".pytest_cache/v/cache/nodeids",
        ".mypy_cache/3.11/x.json",
        ".ruff_cache/x",
        "numgrid.egg-info/PKG-INFO",
        "build/lib/numgrid/__init__.py",
        "dist/numgrid-0.1.0-py3-none-any.whl",
        "node_modules/x/package.json",
        "server/__pycache__/main.cpython-311.pyc",
        "server/kinds/kakuro/__pycache__/model.cpython-311.pyc",
        "proto/node_modules/x/package.json",
        "client/.venv/bin/python",
        "tests/test_deploy.py",
        "puzzles/kakuro-10x12.txt",
        "docs/hints.md",
    ]
    for name in needed + local_state:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    sent = build_context(tmp_path)
    assert set(needed) <= sent
    assert not sent & set(local_state)
    assert not [p for p in sent if ".venv" in p or "__pycache__" in p or ".git" in p]


def test_build_context_holds_what_the_dockerfile_copies():
    """Every COPY source is in the real tree's context, every package file too; nothing
    else of size (Docker always sends the Dockerfile and .dockerignore themselves)."""
    sent = build_context(ROOT)
    builder, runtime = builder_and_runtime()
    for stage in (builder, runtime):
        for flags, sources, _ in copies(stage):
            if any(flag.startswith("--from=") for flag in flags):
                continue
            for source in sources:
                assert source.rstrip("/") in sent, f"COPY {source}: not in the build context"
    folders = {folder.split("/")[0] for folder in package_folders().values()}
    for folder in folders:
        for path in (ROOT / folder).rglob("*"):
            local = {"__pycache__", "node_modules"} & set(path.parts) or path.suffix == ".pyc"
            if path.is_file() and not local:
                assert str(path.relative_to(ROOT)) in sent
    tops = {path.split("/")[0] for path in sent}
    allowed = folders | {"pyproject.toml", "README.md", "requirements"}
    assert tops <= allowed | {"Dockerfile", ".dockerignore"}, tops - allowed
    copied = {source.rstrip("/") for _, sources, _ in copies(builder) for source in sources}
    assert copied == allowed  # .dockerignore lets in what the builder copies, no more


def test_dockerfile_builds_in_two_stages_from_one_pinned_base():
    args, found = stages()
    assert [stage.name for stage in found] == ["builder", "runtime"]
    builder, runtime = found
    # The venv's python is a link into the base image: both stages must share it.
    assert builder.base == runtime.base == "${PYTHON_IMAGE}"
    image = args["PYTHON_IMAGE"]
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", image), image
    # scripts/lock resolves for the base image's Python and platform.
    lock_script = (ROOT / "scripts" / "lock").read_text()
    assert "--python-version 3.11 " in lock_script
    assert "manylinux_2_36" in lock_script  # bookworm's glibc 2.36
    assert dockerfile().parent_images == [image, image]


def test_builder_installs_the_locks_with_hashes():
    builder, _ = builder_and_runtime()
    runs = " ".join(" ".join(builder.values("RUN")).split())
    assert "--require-hashes --only-binary=:all:" in runs
    assert "-r requirements/server.lock" in runs and "-r requirements/build.lock" in runs
    assert '--no-index --find-links "$WHEELS" "numgrid[server]"' in runs
    assert "--no-build-isolation" in runs  # the build backend too comes from a lock
    assert 'pip --python "$VENV/bin/python" check' in runs
    assert 'venv --without-pip "$VENV"' in runs  # nothing in the image installs at run time


def test_runtime_stage_is_the_venv_run_by_a_non_root_user():
    builder, runtime = builder_and_runtime()
    venv = builder.env()["VENV"]
    assert copies(runtime) == [(["--from=builder"], [venv], venv)], "the venv alone"
    (user,) = runtime.values("USER")
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) >= 10000 and gid.isdigit() and int(gid) != 0
    assert runtime.values("STOPSIGNAL") == ["SIGTERM"]
    (cmd,) = runtime.values("CMD")
    assert json.loads(cmd) == [f"{venv}/bin/numgrid-server"]  # exec form: the signal reaches it
    assert not runtime.values("ENTRYPOINT")


def image_ports() -> dict[str, int]:
    """The runtime stage's ports: the ones it serves (ENV) and the ones it EXPOSEs."""
    _, runtime = builder_and_runtime()
    env = runtime.env()
    served = {"grpc": int(env["NUMGRID_PORT"]), "metrics": int(env["NUMGRID_METRICS_PORT"])}
    exposed = {int(p.split("/")[0]) for v in runtime.values("EXPOSE") for p in v.split()}
    assert exposed == set(served.values())
    assert env["NUMGRID_HOST"] == env["NUMGRID_METRICS_HOST"] == "0.0.0.0"  # the defaults: loopback
    return served


def image_user() -> int:
    _, runtime = builder_and_runtime()
    return int(runtime.values("USER")[0].split(":")[0])


def test_image_serves_grpc_on_50051_and_metrics_on_9464():
    assert image_ports() == {"grpc": 50051, "metrics": 9464}


# --- the locks ---------------------------------------------------------------------------

LOCK_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)\s*\\?$")


def read_lock(path: Path) -> dict[str, str]:
    """name -> exact version; every pin has at least one sha256 hash."""
    pins: dict[str, str] = {}
    hashes: dict[str, int] = {}
    current = None
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = LOCK_LINE.match(line)
        if match:
            current = canonicalize_name(match.group(1))
            assert current not in pins, f"{path.name}: {current} twice"
            pins[current] = match.group(2)
            hashes[current] = 0
        else:
            assert current and re.fullmatch(r"\s+--hash=sha256:[0-9a-f]{64}\s*\\?", line), line
            hashes[current] += 1
    assert pins and all(hashes.values()), f"{path.name}: a pin without a hash"
    return pins


def assert_pinned_within(requirements: list[str], pins: dict[str, str], lock: str) -> None:
    for text in requirements:
        requirement = Requirement(text)
        if requirement.marker and not requirement.marker.evaluate(IMAGE_MARKERS):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock} lacks {text}: run ./scripts/lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock} pins {name}=={pins[name]}, outside {text}: run ./scripts/lock"
        )


def test_server_lock_pins_the_project_and_its_server_extra_within_their_ranges():
    pins = read_lock(ROOT / "requirements" / "server.lock")
    meta = project()["project"]
    wanted = meta["dependencies"] + meta.get("optional-dependencies", {}).get("server", [])
    assert_pinned_within(wanted, pins, "requirements/server.lock")
    assert "numgrid" not in pins  # its own wheel is built from the context
    # Only what the image runs: no test or lint tools.
    assert not {"pytest", "ruff", "hypothesis", "grpcio-tools"} & set(pins)


def test_build_lock_pins_the_build_backend_within_its_ranges():
    pins = read_lock(ROOT / "requirements" / "build.lock")
    assert_pinned_within(project()["build-system"]["requires"], pins, "requirements/build.lock")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the lock is for CPython 3.11")
def test_builder_stage_runs_and_its_venv_serves(tmp_path):
    """The builder's steps, run as Docker would run them but into ``tmp_path/root``:
    its sources come from the build context alone (.dockerignore applied), its ENV
    paths are moved under that root, and pip sees no configuration of this machine
    (the image has none) and downloads from the registry as the image's build does.
    Then the image's command, from that venv, serves: the compose health-check's
    command says SERVING, /metrics answers, and SIGTERM stops it with exit 0.
    Unlike the image's build, pip compiles no bytecode here (CPU only, same files).
    About 70 s on a 2-core machine busy with other test runs: downloads and unpacking."""
    builder, runtime = builder_and_runtime()
    root, context = tmp_path / "root", tmp_path / "context"
    for name in build_context(ROOT):
        source = ROOT / name
        if source.is_file():
            (context / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, context / name)
    bin_dir = tmp_path / "bin"  # `python` is the base image's interpreter there
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(getattr(sys, "_base_executable", sys.executable))

    def under_root(path: str) -> Path:
        return root / path.lstrip("/")

    # This machine's environment but for pip's settings (kept: PIP_CERT, the network's
    # certificate authority) and any venv or Python path of the test run's own.
    env = {
        key: val
        for key, val in os.environ.items()
        if (not key.startswith("PIP_") or key == "PIP_CERT")
        and key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
    }
    env["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    env["PIP_CONFIG_FILE"] = os.devnull  # no configuration file either
    env["PIP_NO_COMPILE"] = "1"  # the image compiles bytecode; here it would only cost CPU
    workdir = root
    for instruction, value in builder.instructions:
        if instruction == "ENV":
            for key, val in Stage("", "", [(instruction, value)]).env().items():
                env[key] = str(under_root(val)) if val.startswith("/") else val
        elif instruction == "WORKDIR":
            workdir = under_root(value)
            workdir.mkdir(parents=True, exist_ok=True)
        elif instruction == "COPY":
            words = shlex.split(value)
            assert not [w for w in words if w.startswith("--")], value
            *sources, destination = words
            target = (
                workdir / destination
                if not destination.startswith("/")
                else under_root(destination)
            )
            for source in sources:
                path = context / source
                if path.is_dir():
                    shutil.copytree(path, target, dirs_exist_ok=True)
                else:
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, target / path.name)
        elif instruction == "RUN":
            done = subprocess.run(
                ["sh", "-c", value],
                cwd=workdir,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, f"RUN {value}\n{done.stdout}\n{done.stderr}"
        else:
            pytest.fail(f"the builder stage's {instruction} is not emulated here")

    venv = under_root(builder.env()["VENV"])
    assert not (venv / "bin" / "pip").exists(), "pip is left in the runtime venv"
    # The image's command and environment, on loopback and free ports here.
    command = json.loads(runtime.values("CMD")[0])
    image_env = {key: val for key, val in runtime.env().items() if key != "PATH"}
    metrics_port = free_port()
    server_env = {
        **image_env,
        "PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin:/bin",
        "NUMGRID_HOST": "127.0.0.1",
        "NUMGRID_PORT": "0",
        "NUMGRID_METRICS_PORT": str(metrics_port),
    }
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [str(under_root(command[0]))],
        stdout=subprocess.PIPE,
        stderr=log,
        stdin=subprocess.DEVNULL,
        env=server_env,
        text=True,
    )
    watchdog = threading.Timer(60, server.kill)  # a server that never listens
    watchdog.start()
    try:
        line = server.stdout.readline()  # the first line, once it listens
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert match, f"{line!r}\n{(tmp_path / 'server.log').read_text()}"
        compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
        check = compose["services"]["numgrid"]["healthcheck"]["test"][1:]
        check = [str(under_root(check[0])), *check[1:]]
        check[check.index("--server") + 1] = f"127.0.0.1:{match.group(1)}"
        health = subprocess.run(check, env=server_env, capture_output=True, text=True)
        assert health.returncode == 0, health.stdout + health.stderr
        assert "SERVING" in health.stdout
        url = f"http://127.0.0.1:{metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as reply:
            assert "numgrid_" in reply.read().decode()
    finally:
        watchdog.cancel()
        code = ServerProcess(server, 0, tmp_path, [log]).stop()  # SIGTERM; log closed
    assert code == 0, (tmp_path / "server.log").read_text()


# --- compose -------------------------------------------------------------------------


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_health_check_runs_the_images_cli():
    builder, _ = builder_and_runtime()
    venv = builder.env()["VENV"]
    service = compose()["services"]["numgrid"]
    assert service["build"] == "."
    check = service["healthcheck"]["test"]
    assert check[0] == "CMD"
    assert check[1:3] == [f"{venv}/bin/numgrid", "health"]
    assert check[3:] == ["--server", f"127.0.0.1:{image_ports()['grpc']}"]


def test_compose_runs_replicas_that_the_cli_reaches_through_dns():
    """Two replicas, each with its own host ports; the `cli` service dials the name that
    resolves to all of them (round_robin spreads a batch), after they are healthy."""
    builder, _ = builder_and_runtime()
    venv = builder.env()["VENV"]
    services = compose()["services"]
    server = services["numgrid"]
    assert server["deploy"]["replicas"] >= 2
    assert "container_name" not in server  # a fixed name allows one container only
    ports = image_ports()
    published = {}
    for mapping in server["ports"]:
        host, _, container = str(mapping).rpartition(":")
        assert "-" in host  # one host port per replica
        published[int(container)] = host
    assert set(published) == set(ports.values())
    cli = services["cli"]
    assert cli["image"] == server["image"]
    assert cli["entrypoint"] == [f"{venv}/bin/numgrid"]
    assert cli["environment"]["NUMGRID_SERVER"] == f"dns:///numgrid:{ports['grpc']}"
    assert cli["depends_on"]["numgrid"]["condition"] == "service_healthy"


def test_compose_runs_read_only_and_stops_after_the_grace():
    server = compose()["services"]["numgrid"]
    assert server["read_only"] is True and "/tmp" in server["tmpfs"]
    assert server["cap_drop"] == ["ALL"]
    grace = float(server["environment"].get("NUMGRID_GRACE", 10))
    assert float(server["stop_grace_period"].rstrip("s")) > grace


def test_readme_commands_are_the_scripts_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./scripts/serve" in readme and "./scripts/test" in readme
    assert "./scripts/test" in ci
    assert "./scripts/lock" in readme


# --- Kubernetes ----------------------------------------------------------------------


def kustomized() -> list[tuple[str, dict]]:
    """(file, resource) for every resource kustomization.yaml lists."""
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    found = []
    for name in kustomization["resources"]:
        for resource in yaml.safe_load_all((K8S / name).read_text()):
            if resource:
                found.append((name, resource))
    return found


def resource(kind: str) -> dict:
    (found,) = [r for _, r in kustomized() if r["kind"] == kind]
    return found


def test_kustomization_lists_every_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert kustomization["kind"] == "Kustomization"
    manifests = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert sorted(kustomization["resources"]) == sorted(manifests)


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_manifests_validate_strictly_against_kubernetes_schemas(version):
    """Strict: an unknown or misspelt field fails, as `kubectl apply --validate=strict`."""
    resources = kustomized()
    assert {r["kind"] for _, r in resources} == {
        "Deployment",
        "Service",
        "ServiceAccount",
        "PodDisruptionBudget",
    }
    for name, item in resources:
        try:
            kubernetes_validate.validate(item, version, strict=True)
        except kubernetes_validate.ValidationError as e:
            pytest.fail(f"{name}: {item['kind']} against Kubernetes {version}: {e.message}")


def container() -> dict:
    (found,) = resource("Deployment")["spec"]["template"]["spec"]["containers"]
    return found


def test_probes_call_grpc_health_on_the_served_port():
    grpc_port = image_ports()["grpc"]
    probes = {k: v for k, v in container().items() if k.endswith("Probe")}
    assert set(probes) == {"startupProbe", "readinessProbe", "livenessProbe"}
    for name, probe in probes.items():
        # grpc.health.v1 Check for service "" (the server sets it SERVING)
        assert probe["grpc"] == {"port": grpc_port}, name
    ports = {p["name"]: p["containerPort"] for p in container()["ports"]}
    assert ports == image_ports()


def test_pods_run_as_the_images_non_root_user_read_only():
    spec = resource("Deployment")["spec"]["template"]["spec"]
    pod = spec["securityContext"]
    assert pod["runAsNonRoot"] is True
    assert pod["runAsUser"] == image_user() and pod["runAsGroup"] != 0
    own = container()["securityContext"]
    assert own["readOnlyRootFilesystem"] is True
    assert own["allowPrivilegeEscalation"] is False
    assert own["capabilities"]["drop"] == ["ALL"]
    # the shutdown intake's socket goes in a temporary folder: writable /tmp
    mounts = {m["mountPath"]: m["name"] for m in container()["volumeMounts"]}
    volumes = {v["name"]: v for v in spec["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]
    assert spec["automountServiceAccountToken"] is False
    resources = container()["resources"]
    assert {"cpu", "memory"} <= set(resources["requests"]) and "memory" in resources["limits"]


def test_termination_grace_covers_the_servers_grace():
    spec = resource("Deployment")["spec"]["template"]["spec"]
    env = {e["name"]: e["value"] for e in container()["env"]}
    grace = float(env.get("NUMGRID_GRACE", 10))
    pause = container()["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert spec["terminationGracePeriodSeconds"] >= pause + grace + 10


def test_headless_service_selects_the_deployments_pods():
    service, deployment = resource("Service"), resource("Deployment")
    assert service["spec"]["clusterIP"] == "None"  # DNS answers every pod: round_robin
    assert service["spec"].get("publishNotReadyAddresses", False) is False
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = service["spec"]["selector"]
    assert selector.items() <= labels.items()
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    ports = {p["name"]: p for p in service["spec"]["ports"]}
    named = {p["name"] for p in container()["ports"]}
    assert ports["grpc"]["port"] == image_ports()["grpc"]
    assert {p["targetPort"] for p in ports.values()} <= named
    budget = resource("PodDisruptionBudget")
    assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()


def test_metrics_are_scraped_on_the_images_metrics_port():
    deployment = resource("Deployment")
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert int(annotations["prometheus.io/port"]) == image_ports()["metrics"]
    assert annotations["prometheus.io/path"] == "/metrics"


def test_deployment_runs_this_versions_image():
    version = project()["project"]["version"]
    assert container()["image"] == f"numgrid:{version}"
    assert resource("Deployment")["spec"]["replicas"] >= 2
    assert (
        resource("Deployment")["spec"]["template"]["spec"]["serviceAccountName"]
        == (resource("ServiceAccount")["metadata"]["name"])
    )
