"""``numgrid unique``: whether each puzzle has exactly one solution (and where two
differ), over any number of puzzles (streamed through BatchCheckUniqueness by
:mod:`..batch_cli`)."""

from __future__ import annotations

import argparse

from ..batch_cli import many_options
from ..batch_cli import stream
from .base import Command
from .base import files_argument


def arguments(sub: argparse.ArgumentParser) -> None:
    many_options(sub, "unique")
    files_argument(sub)


COMMAND = Command("unique", "check that each puzzle has exactly one solution", arguments, stream)
