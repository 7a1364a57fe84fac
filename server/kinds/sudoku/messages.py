"""The service's ``SudokuPuzzle`` message (the units family's Wire, keyed ``sudoku``)."""

from numgrid.server.kinds.units.messages import wire

from .formats import FAMILY

WIRE = wire(FAMILY)
