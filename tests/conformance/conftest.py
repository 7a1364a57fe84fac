"""The conformance suite: what every kind of the registry must do, one test each,
parametrised over the kinds (``kind``: each ``Kind`` value, named by its name)."""

from __future__ import annotations

from support.facts import KINDS


def pytest_generate_tests(metafunc):
    if "kind" in metafunc.fixturenames and not any(
        "kind" in mark.args[0] for mark in metafunc.definition.iter_markers("parametrize")
    ):
        metafunc.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
