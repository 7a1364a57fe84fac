"""The service's ``JigsawPuzzle`` message (the units family's Wire, keyed ``jigsaw``)."""

from numgrid.server.kinds.units.messages import wire

from .formats import FAMILY

WIRE = wire(FAMILY)
