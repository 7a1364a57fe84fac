"""What several benchmarks share beyond starting a server (``servers.py``) and Tatham's
generators (``tatham.py``): the progress bar they draw on stderr."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn
from rich.progress import MofNCompleteColumn
from rich.progress import Progress
from rich.progress import ProgressColumn
from rich.progress import TextColumn
from rich.progress import TimeElapsedColumn


def progress_bar(label: str, console: Console, *extra: ProgressColumn, **options: Any) -> Progress:
    """A bar of tasks done out of their total: ``label`` (a TextColumn format, e.g.
    ``"{task.description}"``), the bar, done/total, the ``extra`` columns and the time
    elapsed; ``options`` as Progress takes them (``transient``, ``disable``)."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        *extra,
        TimeElapsedColumn(),
        console=console,
        **options,
    )
