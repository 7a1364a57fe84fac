"""The progress bar of the commands that work through many puzzles (rich, on stderr).

One bar for every such command: done/total, rate, elapsed and ETA, and an optional line
of running counts under it; or nothing at all when not shown, so that callers need not
ask. Lines printed while it runs go above it.
"""

from __future__ import annotations

import sys


class ProgressBar:
    def __init__(self, total: int, show: bool, name: str, counts: str | None = None):
        """``counts``: the first text of the counts line (None: no such line)."""
        self._bar = None
        if not show:
            return
        # rich only for a bar that is shown: every other run starts without it
        from rich.console import Console
        from rich.progress import BarColumn
        from rich.progress import MofNCompleteColumn
        from rich.progress import Progress
        from rich.progress import TextColumn
        from rich.progress import TimeElapsedColumn
        from rich.progress import TimeRemainingColumn
        from rich.text import Text

        class Bar(Progress):
            """The bar's line, then the running counts on a line of their own."""

            counts = ""

            def get_renderables(self):
                yield self.make_tasks_table(self.tasks)
                if counts is not None:
                    yield Text(self.counts)

        self._bar = Bar(
            TextColumn("{task.description}"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            redirect_stdout=False,
            redirect_stderr=False,
            refresh_per_second=8,
        )
        self._bar.counts = counts or ""
        self._task = self._bar.add_task(name, total=total, rate="")

    def __enter__(self) -> ProgressBar:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, counts: str | None = None) -> None:
        """One more done; ``counts``: the counts line's new text."""
        if self._bar is None:
            return
        speed = self._bar.tasks[0].speed
        if counts is not None:
            self._bar.counts = counts
        self._bar.update(self._task, advance=1, rate=f"{speed:,.0f}/s" if speed else "")

    def error(self, text: str) -> None:
        """A line on stderr: above the bar when there is one."""
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=sys.stderr, flush=True)

    def print(self, text: str) -> None:
        """Human output: above the bar when stdout is the bar's terminal."""
        if self._bar is not None and sys.stdout.isatty():
            self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, flush=True)
