"""A client-only install (``pip install numgrid``, no ``server`` extra): the client, the
asyncio client and the CLI work against a server and never import the server's code or
OR-Tools; asked to do server work (the CLI without ``--server``, ``numgrid-server``) they
say what to install in one sentence and exit non-zero.

Two ways: this environment with the server's modules blocked by an import hook (fast),
and a real venv installed from the repository with pip (``client_install``: about 30 s
with wheels cached, from the package index)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from numgrid.server.launch import INSTALL
from numgrid.server.launch import SERVER_MODULES
from support.client import PUZZLES
from support.client import REPO
from support.client import published_solution

BIN = Path(sys.executable).parent
TEN = str(PUZZLES / "kakuro-10x12.txt")
SERVER_CODE = ("numgrid.server", *SERVER_MODULES)  # none of these may be imported

BLOCKER = f"""
import sys

BLOCKED = {sorted(SERVER_MODULES)!r}


class ClientOnly:
    \"\"\"Imports of the server extra's modules fail, as where it is not installed.\"\"\"

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (client-only)", name=name)
        return None


sys.meta_path.insert(0, ClientOnly())
"""

# Run in the client-only interpreter: every client module, a call of each kind, then the
# modules loaded (none may be the server's).
CLIENT_CALLS = """
import asyncio, json, sys
import numgrid.client, numgrid.client.aio, numgrid.client.batch, numgrid.client.batch_cli
import numgrid.client.cli, numgrid.client.render
from numgrid.client import AsyncNumgridClient, NumgridClient, NumgridError
from numgrid.client.batch import BatchItem, check_many

target, ten, broken = sys.argv[1:4]
text = open(ten).read()
with NumgridClient(target, timeout=30) as client:
    solution = client.solve(text).solution
    try:
        client.validate(open(broken).read())
    except NumgridError as e:
        code = e.code
statuses = [r.status for r in check_many(target, [BatchItem("a", text)], timeout=60)]


async def aio():
    async with AsyncNumgridClient(target, timeout=30) as client:
        return (await client.check_uniqueness(text)).verdict


verdict = asyncio.run(aio())
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "ortools" or m.startswith(
    ("numgrid.server", "grpc_reflection", "prometheus_client")))
print(json.dumps({"solution": solution, "code": code, "batch": statuses, "aio": verdict,
                  "loaded": loaded}))
"""


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMGRID_SERVER", "PYTHONPATH")}
    return {**env, "COLUMNS": "80", **extra}


def _run(args, env, cwd: Path, timeout=120) -> subprocess.CompletedProcess:
    """Run in ``cwd``, away from the repository (its egg-info would be found first)."""
    return subprocess.run(
        args, capture_output=True, text=True, env=env, timeout=timeout, cwd=cwd, check=False
    )


def _one_sentence(done: subprocess.CompletedProcess, program: str, *also: str) -> None:
    """Failed, with one line on stderr naming the fix, and no traceback."""
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"{program}: ") and INSTALL in lines[0], lines[0]
    for word in also:
        assert word in lines[0], lines[0]


def _check_client_only(python: Path, bindir: Path, env: dict, target: str, cwd: Path) -> None:
    """What a client-only install must do, run with ``python`` and ``bindir``'s scripts."""
    broken = str(PUZZLES / "broken-clues.txt")
    done = _run([python, "-c", CLIENT_CALLS, target, TEN, broken], env, cwd)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["loaded"] == [], f"the client imported server code: {out['loaded']}"
    assert tuple(map(tuple, out["solution"])) == published_solution("kakuro-10x12.solution.txt")
    assert out["code"] == "INVALID_ARGUMENT"
    assert out["batch"] == ["UNIQUE"] and out["aio"] == "UNIQUE"

    numgrid = str(bindir / "numgrid")
    health = _run([numgrid, "--server", target, "health"], env, cwd)
    assert (health.returncode, health.stdout.strip()) == (0, f"{target}: SERVING"), health.stderr
    solved = _run([numgrid, "solve", TEN], {**env, "NUMGRID_SERVER": target}, cwd)
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.startswith(f"{TEN}: UNIQUE")
    batch = _run([numgrid, "--server", target, "unique", str(PUZZLES)], env, cwd)
    assert batch.returncode in (0, 1) and "Traceback" not in batch.stderr, batch.stderr
    assert "kakuro-10x12.txt" in batch.stdout

    # Server work: one sentence naming both fixes, exit 2 (the CLI) and 1 (the server).
    embedded = _run([numgrid, "solve", TEN], env, cwd)
    _one_sentence(embedded, "numgrid", "--server HOST:PORT", "NUMGRID_SERVER", "ortools")
    assert embedded.returncode == 2 and embedded.stdout == ""
    server = _run([str(bindir / "numgrid-server"), "--port", "0"], env, cwd, timeout=30)
    _one_sentence(server, "numgrid-server", "ortools")
    assert server.returncode == 1


def test_client_without_the_server_modules(server_process, tmp_path):
    (tmp_path / "sitecustomize.py").write_text(BLOCKER)
    env = _clean_env(PYTHONPATH=str(tmp_path))
    blocked = _run([sys.executable, "-c", "import ortools"], env, tmp_path)
    assert "client-only" in blocked.stderr, "the import hook is not in place"
    _check_client_only(Path(sys.executable), BIN, env, server_process.target, tmp_path)


@pytest.mark.slow
@pytest.mark.client_install
def test_a_real_client_only_install(server_process, tmp_path):
    """``pip install .`` into a new venv: no OR-Tools, py.typed and the licence installed,
    and the same behaviour as above without any import hook."""
    source = tmp_path / "numgrid"  # a copy: the build writes egg-info and build/ in place
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for name in ("client", "server", "proto"):
        shutil.copytree(REPO / name, source / name, ignore=skip)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(REPO / name, source / name)
    venv = tmp_path / "venv"
    env = _clean_env()
    # The venv gets no pip of its own (ensurepip: 5 s of CPU); this run's pip installs
    # into it, as the Dockerfile's does. No bytecode either: CPU only, same files.
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], env, tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", python, "--disable-pip-version-check"]
    pip += ["install", "--quiet", "--no-compile"]
    installed = _run([*pip, str(source)], env, tmp_path, timeout=600)
    assert installed.returncode == 0, installed.stderr[-4000:]

    inventory = textwrap.dedent(
        """
        import importlib.metadata as md, importlib.util, json, pathlib
        names = {d.metadata["Name"].lower() for d in md.distributions()}
        files = [str(f) for f in md.files("numgrid")]
        print(json.dumps({"names": sorted(names), "files": files,
                          "specs": [importlib.util.find_spec(m) is not None
                                    for m in ("ortools", "grpc_reflection")]}))
        """
    )
    done = _run([python, "-c", inventory], env, tmp_path)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    names = set(found["names"])
    assert {"numgrid", "grpcio", "grpcio-status", "protobuf", "rich"} <= names
    assert not names & {"ortools", "grpcio-reflection", "numpy", "pandas"}, names
    assert found["specs"] == [False, False]
    files = found["files"]
    for package in ("numgrid/client", "numgrid/server", "numgrid/v1"):
        assert f"{package}/py.typed" in files, package
    assert any(f.endswith("LICENSE") for f in files), files

    _check_client_only(python, venv / "bin", env, server_process.target, tmp_path)
