"""Progress display for long runs, driven by the core's progress callback.

The core calls back about four times a second of wall time with ``(done, total_or_None)``;
the bar shows the rate and, when the run's length is known, the time remaining. Nothing is shown
until a run has taken ``delay_s`` seconds, so short runs print nothing. A Ctrl-C that
lands while the callback runs cancels the run cleanly (the callback returns ``False``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich's bar is imported when one is shown: a quiet run never loads it
    from rich.console import Console
    from rich.progress import Progress, TaskID

ProgressFn = Callable[[int, int | None], object]


class ProgressReporter:
    """The callable handed to ``_core.simulate``; shows a rich bar after ``delay_s``.

    ``total_hint`` is the expected request count, used when the core reports none.
    ``user`` is an optional extra callback; returning ``False`` from it cancels the run
    (``cancelled``). A Ctrl-C inside the callback sets ``interrupted`` and cancels too.
    """

    def __init__(
        self,
        show: bool = True,
        user: ProgressFn | None = None,
        delay_s: float = 2.0,
        console: Console | None = None,
        description: str = "simulating",
        total_hint: int | None = None,
        unit: str = "requests",
    ) -> None:
        self.unit = unit
        self.show = show
        self.user = user
        self.delay_s = delay_s
        self.console = console
        self.description = description
        self.total_hint = total_hint
        self.interrupted = False
        self.cancelled = False
        self._start = time.monotonic()
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int | None) -> bool:
        try:
            if self.user is not None and self.user(done, total) is False:
                self.cancelled = True
                return False
            if self.show:
                self._update(done, total)
            return True
        except KeyboardInterrupt:
            self.interrupted = True
            return False

    def _update(self, done: int, total: int | None) -> None:
        if total is None:
            total = self.total_hint
        if self._progress is None:
            if time.monotonic() - self._start < self.delay_s:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            console = self.console or Console(stderr=True)
            self._progress = Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(self.unit),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=total, rate="")
            # Count elapsed time from the start of the run, not from when the bar appeared.
            task = self._progress.tasks[-1]
            task.start_time = self._progress.get_time() - (time.monotonic() - self._start)
        assert self._task is not None
        elapsed = max(time.monotonic() - self._start, 1e-9)
        rate = f"{done / elapsed:,.0f}/s"
        self._progress.update(self._task, completed=done, total=total, rate=rate)

    def close(self) -> None:
        """Removes the bar (if one was shown)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __enter__(self) -> ProgressReporter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
