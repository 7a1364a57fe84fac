"""The units family: N x N grids of the digits 1..N in which every unit (a row, a column,
a box, a region, a main diagonal, a cage) holds different digits. Shared by the kinds
built on it: the shape (:mod:`.shape`), the engines (:mod:`.native`, :mod:`.cpsat`)."""
