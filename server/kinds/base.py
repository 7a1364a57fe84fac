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

    # The logical solver, for hints, explanations and grades (None: the kind has none).
    # A *step* has .technique, .placements ((cell, digit), ...), .eliminations (the same,
    # digits ruled out), .runs (with .direction, .clue_cell, .clue), .cells, .explanation.
    # Every function below takes budget= (a Budget) and raises SearchTimeout past it.
    #
    # techniques: IntEnum of the techniques, simplest first, named as numgrid.v1.Technique
    # without its prefix; the one named TRIAL is the last resort.
    techniques: Any = None
    # next_step(puzzle, entries, max_technique, placements_only, budget=) -> step or None
    next_step: Callable[..., Any] | None = None
    # explain(puzzle, entries or None, max_technique, budget=) -> explanation: .steps,
    # .solved, .grade (an IntEnum named as numgrid.v1.Grade without its prefix, or None),
    # .technique_counts {technique: steps}, .candidates {cell: digits} where it stopped
    explain: Callable[..., Any] | None = None
    # last_resort(puzzle, candidates, budget=) -> the TRIAL step from a position, or None
    last_resort: Callable[..., Any] | None = None
