"""A kind is one folder and one registry line: no kind's name appears in the package's
code (``server/``, ``client/``: code, comments and docstrings alike) outside its own
folder (``server/kinds/<kind>/``), its client drawing (``client/kinds/<kind>.py``) and the
registry (``server/kinds/__init__.py``). Everything else derives from the registry or
from the proto descriptor, so adding a kind touches nothing else (docs/development.md)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from numgrid.server.kinds import REGISTRY
from numgrid.v1 import puzzle_pb2

ROOT = Path(__file__).resolve().parents[1]
REGISTRY_FILE = ROOT / "server" / "kinds" / "__init__.py"


def _names() -> dict[str, set[str]]:
    """Each kind's words: its name, its title (also as one word: a site's page
    ``killersudoku.htm``), its proto message (``KenKenPuzzle``) and the names its peers
    give it (Tatham's game, its other common name)."""
    oneof = puzzle_pb2.Puzzle.DESCRIPTOR.oneofs_by_name["kind"]
    messages = {field.name: field.message_type.name for field in oneof.fields}
    words = {
        kind.name: {kind.name, kind.title, kind.title.replace(" ", ""), messages[kind.name]}
        for kind in REGISTRY
    }
    also = {"kenken": {"keen", "calcudoku"}, "skyscraper": {"towers"}}
    for name, more in also.items():
        words.get(name, set()).update(more)
    return words


def _without_format_names(text: str) -> str:
    """The text without the proto's format names: a site's name ("sudokuwiki") is not
    its kind's."""
    names = [
        v.name.removeprefix("PUZZLE_FORMAT_").lower()
        for v in puzzle_pb2.PuzzleFormat.DESCRIPTOR.values
    ]
    return re.sub("|".join(sorted(names, key=len, reverse=True)), "", text, flags=re.IGNORECASE)


def _owner(path: Path) -> str | None:
    """The kind whose own file this is, if any."""
    parts = path.relative_to(ROOT).parts
    if parts[:2] == ("server", "kinds") and len(parts) > 3:
        return parts[2]
    if parts[:2] == ("client", "kinds") and len(parts) == 3:
        return Path(parts[2]).stem
    return None


def test_no_kind_is_named_outside_its_folder_and_the_registry():
    words = _names()
    found = []
    for path in sorted((ROOT / "server").rglob("*.py")) + sorted((ROOT / "client").rglob("*.py")):
        if path == REGISTRY_FILE:
            continue
        owner = _owner(path)
        text = _without_format_names(path.read_text(encoding="utf-8"))
        if owner in words:  # its own words may hold another's ("Jigsaw Sudoku")
            own = sorted(words[owner], key=len, reverse=True)
            text = re.sub("|".join(map(re.escape, own)), "", text, flags=re.IGNORECASE)
        for kind, names in words.items():
            if kind == owner:
                continue
            pattern = re.compile("|".join(re.escape(n) for n in names), re.IGNORECASE)
            for number, line in enumerate(text.splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {kind}: {line.strip()}")
    assert not found, "kind names outside their folders:\n" + "\n".join(found)


def test_every_kind_has_its_folder_and_client_drawing():
    for kind in REGISTRY:
        assert (ROOT / "server" / "kinds" / kind.name / "__init__.py").is_file()
        assert (ROOT / "client" / "kinds" / f"{kind.name}.py").is_file()


def test_every_package_folder_is_installed():
    """pyproject lists the packages by hand (their folders are mapped to other names): a
    kind's folder missing there would serve from a checkout and fail once installed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    mapped = config["tool"]["setuptools"]["package-dir"]
    for package, folder in mapped.items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            relative = init.parent.relative_to(ROOT / folder).parts
            name = ".".join((package, *relative))
            assert name in listed, f"{name} ({init.parent.relative_to(ROOT)}) is not packaged"
