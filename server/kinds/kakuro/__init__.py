"""Kakuro behind the common :class:`~numgrid.server.kinds.base.Kind` interface."""

from numgrid.server.kinds.base import Kind

from . import checks, formats, logic, native


def _cpsat_model(puzzle, fixed=None):
    """Imported on first use: OR-Tools costs half a second to import."""
    from . import cpsat

    return cpsat.build(puzzle, fixed)


KAKURO = Kind(
    name="kakuro",
    formats=tuple(formats.FORMATS),
    read=formats.read,
    write=formats.write,
    check=checks.check_puzzle,
    validate=checks.validate_board,
    cpsat_model=_cpsat_model,
    native_search=native.search,
    solution_text=formats.write_solution,
    techniques=logic.Technique,
    next_step=logic.next_step,
    explain=logic.explain,
    last_resort=logic.last_resort,
)
