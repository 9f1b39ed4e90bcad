"""The experiment commands: ``nandlab sweep`` and ``nandlab reproduce`` (registered on the
main app by :func:`register`). A sweep whose runs failed exits 1 after naming them.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from .errors import ConfigError
from .reproduce.papers import PAPERS

EXIT_RUNS_FAILED = 1


class Executor(StrEnum):
    local = "local"
    ray = "ray"


OutOpt = Annotated[Path, typer.Option("--out", "-o", help="Results folder.")]
JobsOpt = Annotated[
    int | None, typer.Option("--jobs", "-j", help="Runs at a time (default: the cores).")
]
ExecutorOpt = Annotated[
    Executor, typer.Option("--executor", help="local (process pool) or ray.")
]
AddressOpt = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster (auto or HOST:PORT); default: start one here."),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


def sweep(
    spec: Annotated[Path, typer.Argument(help="Sweep spec (TOML).", show_default=False)],
    out: OutOpt,
    jobs: JobsOpt = None,
    executor: ExecutorOpt = Executor.local,
    address: AddressOpt = None,
    retry_failed: Annotated[
        bool, typer.Option("--retry-failed", help="Run again the runs that failed before.")
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Run every run of a sweep spec (resumable: finished runs are skipped); write
    OUT/results.parquet."""
    from .cli import user_errors
    from .sweeps import run_sweep

    with user_errors():
        o = run_sweep(spec, out, jobs, executor.value, address, retry_failed, not quiet)
        typer.echo(
            f"{len(o.runs)} runs: {len(o.ran)} ran, {o.skipped} done before, "
            f"{len(o.failed)} failed; table: {o.path}",
            err=True,
        )
        if o.failed:
            _echo_failed(o.failed)
            raise typer.Exit(EXIT_RUNS_FAILED)


def _echo_failed(failed: list) -> None:
    for run, msg in failed:
        typer.echo(f"failed: {run.label}: {msg}", err=True)


def reproduce(
    paper: Annotated[
        str,
        typer.Argument(
            help=f"Paper ({', '.join(PAPERS)}) or all.", show_default=False
        ),
    ],
    out: OutOpt,
    quick: Annotated[
        bool, typer.Option("--quick", help="A small version of every sweep (about a minute).")
    ] = False,
    jobs: JobsOpt = None,
    executor: ExecutorOpt = Executor.local,
    address: AddressOpt = None,
    quiet: QuietOpt = False,
    trace_dir: Annotated[
        Path | None,
        typer.Option("--trace-dir", help="Folder of full public traces (e.g. Financial1.spc) "
                     "that replace the excerpts and stand-ins."),
    ] = None,
) -> None:
    """Reproduce a seed paper's evaluation: its sweeps, figures, and report.md with the
    paper's claims beside nandlab's and a computed verdict for each."""
    from .cli import user_errors
    from .reproduce import framework
    from .sweeps import SweepFailed

    with user_errors():
        # Checked before anything is written, so a mistake leaves no empty folder behind.
        if out.exists() and not out.is_dir():
            raise ConfigError(f"--out {out}: exists and is not a folder")
        if trace_dir is not None and not trace_dir.is_dir():
            raise ConfigError(f"--trace-dir {trace_dir}: no such folder")
        if trace_dir is not None:
            # Read by the paper modules' settings (the sweeps run in this process's children).
            os.environ["NANDLAB_TRACE_DIR"] = str(trace_dir)
        kw: dict[str, Any] = {"jobs": jobs, "executor": executor.value, "address": address,
              "progress": not quiet}
        try:
            if paper == "all":
                typer.echo(f"wrote {framework.reproduce_all(out, quick, **kw)}")
            else:
                r = framework.reproduce(paper, out, quick, **kw)
                typer.echo(f"wrote {r.path} ({framework.format_counts(r.counts)})")
        except SweepFailed as e:
            _echo_failed(e.outcome.failed)
            raise typer.Exit(EXIT_RUNS_FAILED) from None


def register(app: typer.Typer) -> None:
    app.command()(sweep)
    app.command()(reproduce)
