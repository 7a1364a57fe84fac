"""Every kind of the registry is in the conformance suite: its ``tests/support/<kind>.py``
says what the suite needs to know of it (``FACTS``)."""

from __future__ import annotations

import pytest
from support.facts import UNCOVERED


@pytest.mark.xfail(
    bool(UNCOVERED), reason=f"no tests/support/<kind>.py FACTS yet: {UNCOVERED}", strict=True
)
def test_every_registered_kind_has_its_facts():
    assert not UNCOVERED, f"write tests/support/<kind>.py with FACTS for {UNCOVERED}"
