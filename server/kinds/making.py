"""What the makers (each kind's generator) share."""

from __future__ import annotations

import enum
from collections.abc import Iterable

from numgrid.server.kinds.base import Spec


def no_diagonals(title: str, spec: Spec) -> list[tuple[str, str]]:
    """The problem of a spec asking for the X variant of a kind without diagonals."""
    if not spec.diagonals:
        return []
    return [("diagonals", f"a {title} has no X variant (diagonals that hold each digit once)")]


def unreachable(
    title: str, size: str, grade: enum.IntEnum | None, grades: Iterable[enum.IntEnum]
) -> list[tuple[str, str]]:
    """The problem of a spec asking for a ``grade`` that no ``size`` (``5x5``) puzzle
    is made at (none when it asks for no grade or one of ``grades``)."""
    grades = list(grades)
    if grade is None or grade in grades:
        return []
    made = ", ".join(g.name for g in grades)
    return [("grade", f"no {size} {title} is {grade.name}: {made} ones can be made")]
