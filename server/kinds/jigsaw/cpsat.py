"""Jigsaw Sudoku as a CP-SAT model: AllDifferent per row, column, region (and diagonal)."""

from __future__ import annotations

from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.kinds.units import cpsat
from numgrid.server.kinds.units.model import Puzzle
from ortools.sat.python import cp_model


def build(
    puzzle: Puzzle, fixed: Grid | None = None
) -> tuple[cp_model.CpModel, dict[Cell, cp_model.IntVar]]:
    return cpsat.build(puzzle.shape, puzzle.flat_givens, fixed)
