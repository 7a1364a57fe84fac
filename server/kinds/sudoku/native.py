"""Sudoku's native engine: the units family's (:mod:`numgrid.server.kinds.units.native`)."""

from numgrid.server.kinds.units.native import search

__all__ = ["search"]
