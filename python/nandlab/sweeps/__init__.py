"""``nandlab sweep``: many runs from one spec, on a local process pool or on Ray, into a
resumable result store (:mod:`.store`); ``nandlab.sweep(...)`` returns the results table.

Order of work: read and check the spec (:mod:`.spec`); check the results folder's version;
resolve and identify every run in the core (:mod:`.identity`), so a bad key stops the
sweep before any run; skip finished runs (and failed ones unless ``retry_failed``); run
the rest (:mod:`.executors`), storing each as it ends; rebuild ``results.parquet``.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..errors import ConfigError
from .executors import EXECUTORS, check_executor, default_jobs, outcomes, pool_map
from .identity import Run, plan
from .spec import SweepSpec, load_spec
from .store import RESULTS_FILE, Store, core_build

__all__ = ["EXECUTORS", "RESULTS_FILE", "SweepFailed", "SweepOutcome", "load_spec", "run_sweep",
           "sweep"]


@dataclass
class SweepOutcome:
    """What a sweep did: its table, the runs it simulated now, skipped and failed."""

    table: pl.DataFrame
    path: Path
    runs: list[Run]
    ran: list[str] = field(default_factory=list)
    skipped: int = 0
    failed: list[tuple[Run, str]] = field(default_factory=list)
    #: Every call that simulated runs into this store, this one included
    #: (:meth:`Store.times`: ``runs``, ``wall_s``, ``jobs``).
    times: list[dict[str, Any]] = field(default_factory=list)


class SweepFailed(Exception):
    """Some runs failed; ``outcome`` holds the table of the others and the errors."""

    def __init__(self, outcome: SweepOutcome):
        self.outcome = outcome
        names = "; ".join(f"{r.label}: {msg}" for r, msg in outcome.failed)
        super().__init__(f"{len(outcome.failed)} of {len(outcome.runs)} runs failed: {names}")


def run_sweep(
    spec: str | os.PathLike | Mapping[str, Any] | SweepSpec,
    out: str | os.PathLike,
    jobs: int | None = None,
    executor: str = "local",
    address: str | None = None,
    retry_failed: bool = False,
    progress: bool = True,
    description: str | None = None,
) -> SweepOutcome:
    """Runs a sweep into ``out`` (see the module doc); failures are in the outcome."""
    from .. import _package_version

    if jobs is not None and jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {jobs}")
    check_executor(executor, address)  # before the results folder is written
    version = _package_version()
    spec = spec if isinstance(spec, SweepSpec) else load_spec(spec)
    store = Store(Path(out), version, core_build())
    fresh = not store.root.exists()
    store.open()
    try:
        known = store.known_ids()
        runs = plan(spec, version, pool_map(default_jobs() if jobs is None else jobs), known)
    except BaseException:
        if fresh:  # a set-up error (a bad key) leaves no results folder behind
            shutil.rmtree(store.root, ignore_errors=True)
        raise
    store.save_known_ids(known)
    outcome = SweepOutcome(table=pl.DataFrame(), path=store.root / RESULTS_FILE, runs=runs)
    todo: list[Run] = []
    for r in runs:
        if store.finished(r) or (store.error(r) is not None and not retry_failed):
            outcome.skipped += 1
        elif r.invalid is not None:
            store.record_failure(r, r.invalid)
        else:
            todo.append(r)
    by_id = {r.run_id: r for r in todo}
    bar = _bar(progress)
    t0 = time.monotonic()
    try:
        with bar or nullcontext():
            task = bar.add_task(description or spec.name, total=len(runs),
                                completed=len(runs) - len(todo), failed=0) if bar else None
            failed = 0
            tasks = [(r.run_id, r.config) for r in todo]
            for run_id, ok, value in outcomes(tasks, executor, jobs, address):
                run = by_id[run_id]
                if ok:
                    store.record_success(run, value)
                    outcome.ran.append(run_id)
                else:
                    store.record_failure(run, value)
                    failed += 1
                if bar is not None and task is not None:
                    bar.update(task, advance=1, failed=failed)
    finally:
        # Also on Ctrl-C: the table holds every run finished so far.
        outcome.table = store.table(runs)
        store.write_table(outcome.table)
        if outcome.ran:
            store.record_time(len(outcome.ran), time.monotonic() - t0,
                              default_jobs() if jobs is None else jobs)
    outcome.times = store.times()
    outcome.failed = [(r, msg) for r in runs if (msg := store.error(r)) is not None]
    return outcome


def sweep(
    spec: str | os.PathLike | Mapping[str, Any],
    out: str | os.PathLike,
    jobs: int | None = None,
    executor: str = "local",
    address: str | None = None,
    retry_failed: bool = False,
    progress: bool = False,
) -> pl.DataFrame:
    """Runs a sweep (a spec file or a dict of the same shape) into ``out`` and returns
    ``results.parquet`` as a polars DataFrame. Raises :class:`SweepFailed` (with the table
    in ``.outcome.table``) when runs failed."""
    outcome = run_sweep(spec, out, jobs, executor, address, retry_failed, progress)
    if outcome.failed:
        raise SweepFailed(outcome)
    return outcome.table


def _bar(show: bool) -> Progress | None:
    if not show:
        return None
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("runs, {task.fields[failed]} failed"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )
