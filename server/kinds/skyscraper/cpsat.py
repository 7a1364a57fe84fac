"""Skyscraper as a CP-SAT model: an IntVar per cell over {-1 (an empty lot)} and 1..H.

Two ways of writing the lines:

- TABLES: each clued row or column is a table of its arrangements (every line holding
  1..H once and the empty lots that shows its clues, listed once per process by
  :func:`.model.arrangements`); the other lines AllDifferent, or with empty lots a table
  of all their arrangements.
- ORDER: one Boolean per cell and value (``add_map_domain``), each height once per line
  and N - H empty lots; for a clued line, per pair of heights h < g a Boolean "h stands
  nearer the near end than g": h is seen from the near end when that holds for every
  taller g, from the far end when it holds for none.

TABLES is several times faster over the corpus, but a 9x9 line has up to 362,880
arrangements, where ORDER wins; so TABLES up to ``TABLE_SIZE`` cells a line, ORDER
beyond. The measurements: docs/performance.md, "Skyscraper's CP-SAT model".
"""

from __future__ import annotations

import functools

from numgrid.server.core import EMPTY
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.cpsat_runner import LeanModel
from ortools.sat.python import cp_model

from .model import Puzzle
from .model import Side
from .model import arrangements

TABLES, ORDER = "tables", "order"
TABLE_SIZE = 8  # by default, lines of at most this many cells are tables


@functools.lru_cache(maxsize=1024)
def _table(n: int, height: int, near: int, far: int) -> tuple[tuple[int, ...], ...]:
    """The arrangements of a line showing these clues, as a table."""
    return tuple(arrangements(n, height, near, far))


def _views(puzzle: Puzzle) -> list[tuple[list[Cell], int, int]]:
    """Each clued row and column: its cells nearest the left or top clue first, and its
    clues there and at the far end."""
    n = puzzle.size
    out = []
    for near_side, far_side in ((Side.LEFT, Side.RIGHT), (Side.TOP, Side.BOTTOM)):
        nears, fars = puzzle.clues(near_side), puzzle.clues(far_side)
        for i in range(n):
            near = nears[i] if i < len(nears) else 0
            far = fars[i] if i < len(fars) else 0
            if near or far:
                out.append((list(near_side.cells(i, n)), near, far))
    return out


def _order_view(model, is_value, cells: list[Cell], near: int, far: int, height: int) -> None:
    """The clues of one line by Booleans: ``before[h, g]`` says height h stands nearer the
    near end than the taller g."""
    position = {}
    for h in range(1, height + 1):
        position[h] = model.new_int_var(0, len(cells) - 1, "")
        model.add(position[h] == sum(k * is_value[cell][h] for k, cell in enumerate(cells)))
    before = {}
    for h in range(1, height + 1):
        for g in range(h + 1, height + 1):
            b = before[h, g] = model.new_bool_var("")
            model.add(position[h] < position[g]).only_enforce_if(b)
            model.add(position[h] > position[g]).only_enforce_if(~b)
    for clue, seen_if in ((near, True), (far, False)):
        if not clue:
            continue
        seen = []
        for h in range(1, height + 1):
            taller = [before[h, g] if seen_if else ~before[h, g] for g in range(h + 1, height + 1)]
            if not taller:
                seen.append(1)
                continue
            v = model.new_bool_var("")
            model.add_min_equality(v, taller)
            seen.append(v)
        model.add(sum(seen) == clue)


def build(
    puzzle: Puzzle, fixed: Grid | None = None, *, views: str | None = None
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    """The model and its cell variables, the givens and ``fixed`` values held (0 = free).
    ``views`` says how the lines are written: TABLES, ORDER, or None for TABLES up to
    ``TABLE_SIZE`` (module docstring)."""
    n, height, empties = puzzle.size, puzzle.height, puzzle.empties
    views = views or (TABLES if n <= TABLE_SIZE else ORDER)
    model = LeanModel()
    values = [*([EMPTY] if empties else []), *range(1, height + 1)]
    cells: dict[Cell, cp_model.IntVar] = {}
    for r, c in puzzle.cells:
        allowed = values
        for held in (puzzle.givens[r][c], fixed[r][c] if fixed is not None else 0):
            if held:
                allowed = [v for v in allowed if v == held]
        if not allowed:  # a clash or a value out of range: infeasible
            model.add_bool_or([])
            allowed = values
        cells[r, c] = model.new_int_var_from_domain(
            cp_model.Domain.from_values(allowed), f"r{r}c{c}"
        )
    clued = _views(puzzle)
    if views == TABLES:
        written = {tuple(line_cells) for line_cells, _, _ in clued}
        for line_cells, near, far in clued:
            table = _table(n, height, near, far)
            model.add_allowed_assignments([cells[cell] for cell in line_cells], table)
        for line in puzzle.lines:
            variables = [cells[cell] for cell in line.cells]
            if not empties:
                model.add_all_different(variables)
            elif line.cells not in written:
                model.add_allowed_assignments(variables, _table(n, height, 0, 0))
        return model, cells
    is_value = {}
    for cell, var in cells.items():
        flags = [model.new_bool_var("") for _ in range(height + 2)]  # -1, 0, 1..H
        model.add(flags[1] == 0)
        model.add_map_domain(var, flags, -1)
        is_value[cell] = [flags[0], *flags[2:]]  # [0]: the empty lot; [h]: height h
    for line in puzzle.lines:
        for h in range(1, height + 1):
            model.add_exactly_one(is_value[cell][h] for cell in line.cells)
        if empties:
            model.add(sum(is_value[cell][0] for cell in line.cells) == empties)
    for line_cells, near, far in clued:
        _order_view(model, is_value, line_cells, near, far, height)
    return model, cells
