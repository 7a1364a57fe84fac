"""The numgrid client: a thin, typed wrapper over the gRPC stub, and the ``numgrid`` CLI.

>>> from numgrid.client import NumgridClient
>>> with NumgridClient("127.0.0.1:50051", timeout=10) as client:  # doctest: +SKIP
...     client.check_uniqueness(open("puzzle.txt").read()).verdict
'UNIQUE'

It imports no solver code: only gRPC, protobuf and the generated ``numgrid.v1`` stubs.
"""

from .client import NumgridClient
from .types import (
    Cell,
    Difficulty,
    EngineStat,
    Explanation,
    Finding,
    Grid,
    GroupRef,
    GroupStatus,
    Hint,
    NumgridError,
    Solution,
    SolveResult,
    Step,
    Uniqueness,
    Validation,
    Violation,
)

__all__ = [
    "Cell",
    "Difficulty",
    "EngineStat",
    "Explanation",
    "Finding",
    "Grid",
    "GroupRef",
    "GroupStatus",
    "Hint",
    "NumgridClient",
    "NumgridError",
    "Solution",
    "SolveResult",
    "Step",
    "Uniqueness",
    "Validation",
    "Violation",
]
