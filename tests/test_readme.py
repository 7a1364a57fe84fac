"""The examples of the README and of the docs it sends a user to first (docs/cli.md,
docs/api.md) are run and must print what they show, so they cannot drift.

Console examples are the ``$ ...`` lines of those files' unlabelled code blocks: each
runs as a user runs it (``bash``, in the repository's root, embedded, 80 columns, stdout
and stderr in the order written), and its output and ``[exit N]`` must match (its first
lines only, if the last line shown is ``...``), but for times and rates (and the node
count of a TIMEOUT, which depends on the machine's speed).
The Python examples run as scripts against a real server.

After a deliberate change of output, rewrite the examples from what the commands print:

    NUMGRID_README_UPDATE=1 ./scripts/test tests/test_readme.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# The files whose examples run: the README's tour, and the rest of them in docs/.
DOCUMENTS = (README, ROOT / "docs" / "cli.md", ROOT / "docs" / "api.md")
UPDATE = bool(os.environ.get("NUMGRID_README_UPDATE"))
BIN = Path(sys.executable).parent

# What may differ from run to run, each replaced by a placeholder before comparing.
VOLATILE = (
    (re.compile(r"\b[\d,]+(\.\d+)? ms\b"), "<ms> ms"),
    (re.compile(r"\bin \d+(\.\d+)? s\b"), "in <s> s"),
    (re.compile(r"\(\d+(\.\d+)?/s\)"), "(<rate>/s)"),
    (re.compile(r'"ms": \d+(\.\d+)?'), '"ms": <ms>'),
)
TIMEOUT_NODES = re.compile(r"(TIMEOUT \(.*?)[\d,]+ nodes?")


@dataclass
class Example:
    line: int  # of the command, 1-based
    command: str
    output: list[str]
    exit_code: int
    path: Path = README  # the file it is in


def console_examples(text: str, path: Path = README) -> list[Example]:
    examples: list[Example] = []
    block = False
    current: Example | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            block = line == "```" and not block
            current = None
            continue
        if not block:
            continue
        if line.startswith("$ "):
            current = Example(number, line[2:], [], 0, path)
            examples.append(current)
        elif current is not None:
            found = re.fullmatch(r"\[exit (\d+)\]", line)
            if found:
                current.exit_code = int(found.group(1))
                current = None
            else:
                current.output.append(line)
    for example in examples:  # a blank line separates one example from the next
        while example.output and not example.output[-1]:
            example.output.pop()
    return examples


def python_examples(text: str) -> list[tuple[int, str]]:
    return [
        (text[: m.start()].count("\n") + 2, m.group(1))
        for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M)
    ]


def normalized(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        for pattern, placeholder in VOLATILE:
            line = pattern.sub(placeholder, line)
        out.append(TIMEOUT_NODES.sub(r"\1<n> nodes", line))
    return out


def user_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMGRID_")}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", COLUMNS="80")
    env.update(PYTHONUNBUFFERED="1", NO_COLOR="1", TERM="dumb")
    return env


def run(example: Example) -> tuple[list[str], int]:
    done = subprocess.run(
        ["bash", "-c", example.command + " 2>&1"],
        cwd=ROOT,
        env=user_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    while lines and not lines[-1]:
        lines.pop()
    return lines, done.returncode


EXAMPLES = [e for path in DOCUMENTS for e in console_examples(path.read_text(), path)]
PYTHON_EXAMPLES = [
    (path, number, code) for path in DOCUMENTS for number, code in python_examples(path.read_text())
]


def test_the_readme_and_docs_have_console_and_python_examples():
    """The README keeps a tour of its own; with docs/ every kind of answer is shown."""
    in_readme = [e for e in EXAMPLES if e.path == README]
    assert len(in_readme) >= 5
    assert {e.exit_code for e in in_readme} >= {0, 1, 2}
    assert python_examples(README.read_text())
    assert len(EXAMPLES) >= 12
    assert {e.exit_code for e in EXAMPLES} >= {0, 1, 2}
    assert len(PYTHON_EXAMPLES) >= 3


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def _headings(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings (code blocks skipped)."""
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    titles = re.findall(r"^#+ (.+)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-") for title in titles}


def test_links_between_the_readme_and_docs_resolve():
    """A relative link names a file that exists and, with ``#``, one of its headings."""
    broken = []
    for path in (README, *sorted((ROOT / "docs").glob("*.md"))):
        text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):
                continue
            name, _, anchor = link.partition("#")
            target = (path.parent / name).resolve() if name else path
            if not target.exists():
                broken.append(f"{path.name}: {link}")
            elif anchor and target.suffix == ".md" and anchor not in _headings(target):
                broken.append(f"{path.name}: {link} (no such heading)")
    assert not broken


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: _where(e.path, e.line))
def test_console_example_prints_what_the_readme_shows(example: Example):
    """An example whose last line is ``...`` shows the first lines of the output only."""
    output, code = run(example)
    if example.output[-1:] == ["..."]:
        output = [*output[: len(example.output) - 1], "..."]
    if UPDATE and (normalized(output) != normalized(example.output) or code != example.exit_code):
        _rewrite(example, output, code)
        pytest.skip("README example rewritten")
    where = f"{_where(example.path, example.line)}: {example.command}"
    assert normalized(output) == normalized(example.output), where
    assert code == example.exit_code, where


@pytest.mark.parametrize(
    "path,number,code",
    PYTHON_EXAMPLES,
    ids=[_where(path, number) for path, number, _ in PYTHON_EXAMPLES],
)
def test_python_example_runs_against_a_real_server(path, number, code, server_process, tmp_path):
    """Run where the repository's puzzles are at hand, but writing into a scratch folder."""
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    script = tmp_path / "example.py"
    script.write_text(code.replace("127.0.0.1:50051", server_process.target))
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=user_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{_where(path, number)}:\n{done.stderr}"


def _rewrite(example: Example, output: list[str], code: int) -> None:
    """Put what the command printed in place of the example's output."""
    lines = example.path.read_text().splitlines()
    start = lines.index(f"$ {example.command}") + 1  # an earlier rewrite may move it
    end = start  # the example ends as console_examples reads it: [exit N], $ or ```
    while not (lines[end].startswith(("$ ", "```")) or re.fullmatch(r"\[exit \d+\]", lines[end])):
        end += 1
    ended_by_exit = bool(re.fullmatch(r"\[exit \d+\]", lines[end]))
    gap = [] if ended_by_exit or lines[end].startswith("```") else [""]
    lines[start : end + ended_by_exit] = [*output, *([f"[exit {code}]"] if code else []), *gap]
    example.path.write_text("\n".join(lines) + "\n")
