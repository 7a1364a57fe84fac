"""Kakuro behind the common :class:`~numgrid.server.kinds.base.Kind` interface."""

from numgrid.server.kinds.base import Kind

from . import checks, cpsat, formats, native

KAKURO = Kind(
    name="kakuro",
    formats=tuple(formats.FORMATS),
    read=formats.read,
    write=formats.write,
    check=checks.check_puzzle,
    validate=checks.validate_board,
    cpsat_model=cpsat.build,
    native_search=native.search,
    solution_text=formats.write_solution,
)
