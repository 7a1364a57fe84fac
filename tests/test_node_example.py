"""The Node.js example (``examples/node``) against a real ``numgrid-server``: ``npm ci``
from its lock file, then ``node solve.js``: the solution it prints, and the
``google.rpc`` details it decodes from ``grpc-status-details-bin``, compared with what
the Python client reads from the same refusal."""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.client.types import cell_name
from support.client import PUZZLES
from support.client import REPO
from support.client import sample

EXAMPLE = REPO / "examples" / "node"
NODE, NPM = shutil.which("node"), shutil.which("npm")

pytestmark = [
    pytest.mark.skipif(
        not (NODE and NPM), reason="node and npm are not installed: the Node.js example needs both"
    ),
    pytest.mark.xdist_group("node"),  # one worker: npm ci writes examples/node/node_modules
]


@pytest.fixture(scope="module")
def installed() -> None:
    """``npm ci``: exactly the locked packages, into examples/node/node_modules; once for
    a lock file, by whichever test worker comes first (a file lock, and a marker naming
    the lock file's digest), since ``npm ci`` empties the folder another worker's
    ``node`` may be using (two workers' installs collided in CI)."""
    digest = hashlib.sha256((EXAMPLE / "package-lock.json").read_bytes()).hexdigest()
    marker = EXAMPLE / "node_modules" / ".numgrid-installed"
    lock = (
        Path(tempfile.gettempdir())
        / f"numgrid-npm-{hashlib.sha256(bytes(EXAMPLE)).hexdigest()[:16]}"
    )
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if marker.is_file() and marker.read_text() == digest:
            return
        done = subprocess.run(
            [NPM, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=EXAMPLE,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
        marker.write_text(digest)


def node(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [NODE, "solve.js", *args],
        cwd=EXAMPLE,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_solves_a_puzzle_and_decodes_the_error_details(installed, server_process):
    done = node(server_process.target)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()

    assert lines[0].startswith("kakuro-10x12.txt: UNIQUE, grade ")
    published = sample("kakuro-10x12.solution.txt").strip().splitlines()[1:]
    assert lines[1 : 1 + len(published)] == published

    # The same refusal through the Python client: what the example must have decoded.
    with (
        NumgridClient(server_process.target, timeout=30) as client,
        pytest.raises(NumgridError) as refused,
    ):
        client.validate(sample("broken-clues.txt"))
    error = refused.value
    details = lines[1 + len(published) :]
    assert details[0] == f"broken-clues.txt: INVALID_ARGUMENT: {error.message}"
    expected = [f"  BadRequest: {v.field}: {v.description}" for v in error.violations]
    expected.append(f"  ErrorInfo: INVALID_PUZZLE (numgrid.v1) problems={error.problems}")
    expected += [
        f"  Finding {f.code} at {' '.join(cell_name(c) for c in f.cells)}: {f.message}"
        for f in error.findings
    ]
    assert details[1:] == expected
    # the field violations name the cell and the clue at fault
    assert "across 2 at r1c0" in details[1] and "r2c3" in details[2]


def test_other_puzzles_and_no_server(installed, server_process):
    done = node(server_process.target, str(PUZZLES / "kenken-4x4.txt"))
    assert done.returncode == 0, done.stderr
    published = sample("kenken-4x4.solution.txt").strip().splitlines()[1:]
    assert done.stdout.splitlines()[1:5] == published

    multiple = node(server_process.target, str(PUZZLES / "multiple-4x4.txt"))
    assert multiple.returncode == 1  # not UNIQUE
    assert multiple.stdout.startswith("multiple-4x4.txt: MULTIPLE")

    nobody = node("127.0.0.1:1")
    assert nobody.returncode == 1 and nobody.stdout == ""
    assert nobody.stderr.startswith("solve.js: 127.0.0.1:1: "), nobody.stderr
