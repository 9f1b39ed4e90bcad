"""Where a sweep's runs execute: ``local`` (a process pool, or this process for one job)
or ``ray`` (one Ray task per run). Each yields ``(run_id, ok, summary or one-line error)``
as runs end; the caller stores them. Stopping the iteration (Ctrl-C) stops the workers.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..errors import ConfigError, user_message

Outcome = tuple[str, bool, Any]
Task = tuple[str, dict[str, Any]]
EXECUTORS = ("local", "ray")


def execute(task: Task) -> Outcome:
    """Simulates one run; an error becomes its one-line message (the sweep goes on)."""
    from .. import api

    run_id, config = task
    try:
        return run_id, True, api.run(config, progress=False, requests_format="none").summary
    except Exception as e:
        return run_id, False, one_line(e)


def one_line(e: BaseException) -> str:
    """A failed run's error: the CLI's one-line message for a user mistake, else the
    exception's type and text (a bug, still recorded rather than ending the sweep)."""
    msg = " ".join(str(e).split())
    return user_message(e) or (f"{type(e).__name__}: {msg}" if msg else type(e).__name__)


def default_jobs() -> int:
    return os.cpu_count() or 1


def run_local(tasks: list[Task], jobs: int) -> Iterator[Outcome]:
    if jobs == 1 or len(tasks) <= 1:
        for t in tasks:
            yield execute(t)
        return
    # spawn: a fresh interpreter per worker (no fork of a process that may hold threads).
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(min(jobs, len(tasks)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(execute, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def pool_map(jobs: int) -> Callable[[Callable[[Any], Any], Iterable[Any]], list[Any]]:
    """A ``map`` over ``jobs`` processes (in order), or the builtin one for one job."""

    def mapper(fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        items = list(items)
        if jobs <= 1 or len(items) < 4 * jobs:
            return list(map(fn, items))
        with multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_sigint) as p:
            return p.map(fn, items, chunksize=max(1, len(items) // (8 * jobs)))

    return mapper


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group; the driver alone decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_ray(tasks: list[Task], address: str | None, jobs: int | None) -> Iterator[Outcome]:
    import ray
    started = not ray.is_initialized()
    if started:
        kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            ray.init(address=address, **kw)
        else:
            ray.init(num_cpus=jobs or default_jobs(), **kw)
    remote = ray.remote(execute)
    pending = [remote.remote(t) for t in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def check_executor(executor: str, address: str | None) -> None:
    """Refuses an executor that cannot run here, before a sweep writes anything."""
    if executor not in EXECUTORS:
        raise ConfigError(f"executor {executor!r} is not one of {', '.join(EXECUTORS)}")
    if executor == "local" and address:
        raise ConfigError("--address is for the ray executor")
    if executor == "ray" and importlib.util.find_spec("ray") is None:
        raise ConfigError(
            "the ray executor needs Ray, which is not installed: pip install 'nandlab[ray]'"
        )


def outcomes(
    tasks: list[Task], executor: str, jobs: int | None, address: str | None
) -> Iterator[Outcome]:
    check_executor(executor, address)
    if executor == "local":
        return run_local(tasks, default_jobs() if jobs is None else jobs)
    return run_ray(tasks, address, jobs)
