"""``numgrid solve``: each puzzle's solution, over any number of puzzles (streamed
through BatchCheckUniqueness by :mod:`..batch_cli`)."""

from __future__ import annotations

import argparse

from ..batch_cli import many_options
from ..batch_cli import stream
from .base import Command
from .base import files_argument


def arguments(sub: argparse.ArgumentParser) -> None:
    many_options(sub, "solve")
    files_argument(sub)


COMMAND = Command("solve", "solve puzzles and show the solution", arguments, stream)
