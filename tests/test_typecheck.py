"""The type checker tells a kind what it lacks: mypy (``scripts/typecheck``, as in CI)
refuses the broken kinds of ``typecheck/broken_kind.py`` on exactly the lines marked
``# expect: <message>`` (an error and its notes), and accepts the rest of that file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = "tests/typecheck/broken_kind.py"
_SAID = re.compile(rf"^{re.escape(BROKEN)}:(\d+): (error|note): +(.*)$")


def test_a_kind_lacking_a_field_or_with_a_misfit_fails_the_type_check() -> None:
    expected = {
        number: line.split("# expect: ", 1)[1].strip()
        for number, line in enumerate((ROOT / BROKEN).read_text().splitlines(), 1)
        if "# expect: " in line
    }
    run = subprocess.run(
        ["scripts/typecheck", "--follow-imports=silent", BROKEN],
        cwd=ROOT,
        env={**os.environ, "NUMGRID_VENV": sys.prefix},
        capture_output=True,
        text=True,
        timeout=300,
    )
    said: dict[int, list[str]] = {}  # a line's error, then the notes that explain it
    for m in filter(None, map(_SAID.match, run.stdout.splitlines())):
        said.setdefault(int(m[1]), []).append(m[3])
    found = {number: " ".join(text) for number, text in said.items()}
    assert run.returncode == 1, run.stdout + run.stderr
    assert sorted(found) == sorted(expected), run.stdout
    for number, message in expected.items():
        assert message in found[number], run.stdout
