"""The one interface every puzzle kind implements (in the spirit of Tatham's ``game``).

The engines, the service and the CLI hold a :class:`Kind` and never ask which one.
A kind's *board* has ``.puzzle`` (with ``.rows``/``.cols``) and ``.entries`` (a grid).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Kind:
    name: str
    formats: tuple[str, ...]
    # read(text, fmt or None for auto-detect, max_cells) -> board; raises PuzzleError
    read: Callable[..., Any]
    # write(board, fmt) -> text
    write: Callable[[Any, str], str]
    # check(puzzle, entries, max_cells) -> [Finding]: structural errors and warnings
    check: Callable[..., list]
    # validate(board, solution or None) -> BoardReport: per run and per cell
    validate: Callable[..., Any]
    # cpsat_model(puzzle, fixed) -> (CpModel, {cell: IntVar})
    cpsat_model: Callable[..., Any]
    # native_search(puzzle, limit=, fixed=, budget=) -> SearchResult
    native_search: Callable[..., Any]
    # solution_text(puzzle, grid) -> the kind's published solution text
    solution_text: Callable[[Any, Any], str]
