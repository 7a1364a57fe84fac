"""The type checker tells a kind what it lacks: mypy (``scripts/typecheck``, as in CI)
refuses the broken kinds of ``typecheck/broken_kind.py`` on exactly the lines marked
``# expect: <message>``, and accepts the rest of that file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = "tests/typecheck/broken_kind.py"
_ERROR = re.compile(rf"^{re.escape(BROKEN)}:(\d+): error: (.*)$")


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
    found = {int(m[1]): m[2] for m in map(_ERROR.match, run.stdout.splitlines()) if m}
    assert run.returncode == 1, run.stdout + run.stderr
    assert sorted(found) == sorted(expected), run.stdout
    for number, message in expected.items():
        assert message in found[number], run.stdout
