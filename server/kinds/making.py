"""What the makers (each kind's generator) share."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TypeVar

from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds.base import NativeModule
from numgrid.server.kinds.base import Spec

PuzzleT = TypeVar("PuzzleT")


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


def second_solution(
    native: NativeModule[PuzzleT],
    puzzle: PuzzleT,
    solution: Grid,
    budget: Budget,
    most_nodes: int | None = None,
) -> tuple[bool, Grid | None]:
    """A solution of ``puzzle`` other than ``solution``, by the kind's native engine:
    (True, that solution), (True, None) when there is none, or (False, None) past
    ``most_nodes`` search nodes. Raises SearchTimeout past ``budget``."""
    found = native.search(
        puzzle, limit=1, budget=budget, other_than=solution, most_nodes=most_nodes
    )
    if not found.complete:
        if budget.expired():
            raise SearchTimeout()
        return False, None
    return True, found.solutions[0] if found.solutions else None
