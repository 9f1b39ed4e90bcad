"""The ``nandlab`` command line (typer + rich).

Mistakes a person can fix (bad config key, missing file, TOML syntax, bad ``--set``, an
unknown option or a missing argument) print one line ``error: ...`` to stderr and exit 2;
Ctrl-C prints ``interrupted`` and exits 130. Anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from . import _native, api
from . import cli_experiments as experiments
from .config import dumps_toml, parse_overrides
from .errors import ConfigError, user_message
from .io import atomic_write
from .progress import ProgressReporter

try:  # newer typer runs on its own copy of click (and keeps `Abort` itself); older on click
    from typer._click import exceptions as click_errors
    from typer.exceptions import Abort
except ImportError:  # pragma: no cover - depends on the installed typer
    from click import exceptions as click_errors  # type: ignore[no-redef]
    from click.exceptions import Abort  # type: ignore[no-redef,assignment,unused-ignore]

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="nandlab",
    help="Reliability-aware, trace-driven NAND-flash SSD simulator.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
trace_app = typer.Typer(help="Inspect and convert block I/O traces.", no_args_is_help=True)
config_app = typer.Typer(help="Check configs; import MQSim and SSDsim ones.", no_args_is_help=True)
calibrate_app = typer.Typer(help="Calibrate models by simulation.", no_args_is_help=True)
app.add_typer(trace_app, name="trace")
app.add_typer(config_app, name="config")
app.add_typer(calibrate_app, name="calibrate")


class Device(StrEnum):
    cpu = "cpu"
    numpy = "numpy"
    cuda = "cuda"


class RequestsOut(StrEnum):
    parquet = "parquet"
    csv = "csv"
    none = "none"


def error(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turns user mistakes into one line and exit 2, Ctrl-C into exit 130."""
    try:
        yield
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except Exception as e:
        msg = user_message(e)
        if msg is None:
            raise
        error(msg)
        raise typer.Exit(EXIT_USER_ERROR) from None


ConfigArg = Annotated[Path, typer.Argument(help="Config file (TOML).", show_default=False)]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="KEY=VALUE",
        help="Override a config value; VALUE is a TOML value or a bare word "
        "(--set ftl.overprovisioning=0.1 --set ftl.gc_policy=greedy). Repeatable.",
    ),
]
TraceOpt = Annotated[
    Path | None,
    typer.Option("--trace", "-t", help="Replay this trace file (sets workload.kind=trace)."),
]
FormatOpt = Annotated[
    str | None,
    typer.Option("--format", "-f", help="Trace format (default: auto-detect)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def _print_version(value: bool) -> None:
    if value:
        version()
        raise typer.Exit()


@app.callback()
def _main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True,
                     help="Print the versions of nandlab and its compiled core."),
    ] = False,
) -> None:
    """Reliability-aware, trace-driven NAND-flash SSD simulator."""


@app.command()
def run(
    config: ConfigArg,
    trace: TraceOpt = None,
    trace_format: FormatOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Directory for summary.json and request records."),
    ] = None,
    set_: SetOpt = None,
    requests_out: Annotated[
        RequestsOut,
        typer.Option("--requests-out", help="Format of per-request records written to --out."),
    ] = RequestsOut.parquet,
    as_json: JsonOpt = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print nothing on success (errors still do).")
    ] = False,
    timeline: Annotated[
        str | None,
        typer.Option("--timeline", help="Record metrics per window of simulated time "
                     "(e.g. 100ms) to timeline.parquet in --out ([output] timeline_ns)."),
    ] = None,
    report: Annotated[
        bool, typer.Option("--report/--no-report",
                           help="With --out: write report.html and the figures there."),
    ] = False,
) -> None:
    """Run a simulation and print its headline metrics."""
    with user_errors():
        overrides = parse_overrides(set_ or [])
        if timeline is not None:
            from .timeline_window import parse_window  # no polars: the core writes it

            try:
                overrides["output.timeline_ns"] = parse_window(timeline)
            except ValueError as e:
                raise ConfigError(str(e)) from None
        result = api.run(
            config,
            trace=trace,
            trace_format=trace_format,
            out=out,
            overrides=overrides,
            progress=not quiet,
            requests_format=requests_out.value,
        )
        if report and out is not None:
            from .html_report import write_report  # matplotlib: only when asked

            write_report(out, config_source=config)
        if as_json:
            typer.echo(json.dumps(result.summary, indent=2))
        elif not quiet:
            from rich.console import Console  # tables: not loaded by a quiet run

            from .report import summary_view

            console = Console()
            console.print(summary_view(result.summary))
            if out is not None:
                console.print(f"results written to {out}/", highlight=False)


@app.command()
def plot(
    runs: Annotated[
        list[Path],
        typer.Argument(help="Run directories (--out of nandlab run; several are overlaid), "
                       "or one sweep's (--out of nandlab sweep, with --y).",
                       show_default=False),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Folder for the figures (default: RUN/figures; "
                     "needed for several runs)."),
    ] = None,
    fmt: Annotated[
        list[str] | None, typer.Option("--format", "-f", help="png and/or svg (default both).")
    ] = None,
    preset: Annotated[
        Path | None,
        typer.Option("--preset", help="Config the report compares the run's with "
                     "(default: nandlab's defaults)."),
    ] = None,
    x: Annotated[
        str | None, typer.Option("--x", help="A sweep's swept key for the x axis (default: "
                                 "the one swept key, where there is one).")
    ] = None,
    y: Annotated[
        str | None, typer.Option("--y", help="A sweep's metric for the y axis "
                                 "(a results.parquet column, e.g. read.p99_ns).")
    ] = None,
    by: Annotated[
        list[str] | None, typer.Option("--by", help="A sweep's columns that make the lines "
                                       "(default: the other swept keys that vary).")
    ] = None,
) -> None:
    """Draw a run's figures (latency CDF, timeline, reliability, P/E distribution) and write its
    self-contained report.html; several runs are overlaid in one set of figures. For a
    sweep, draw --y against --x (mean over seeds, range as bars) and its report.html."""
    with user_errors():
        formats = fmt or ["png", "svg"]
        bad = [f for f in formats if f not in ("png", "svg")]
        if bad:
            raise ConfigError(f"--format {bad[0]!r}: must be png or svg")
        from . import sweep_plots

        if len(runs) == 1 and sweep_plots.is_sweep(runs[0]):
            _plot_sweep(runs[0], out, formats, x, y, by)
            return
        if x is not None or y is not None or by is not None:
            raise ConfigError(f"--x/--y/--by draw a sweep's results: {runs[0]} is not the "
                              "--out directory of a sweep")
        if out is None and len(runs) > 1:
            raise ConfigError("several runs: give --out for their overlaid figures")
        import matplotlib.pyplot as plt

        from .html_report import write_report
        from .plots import plot_runs

        dest = out if out is not None else runs[0] / "figures"
        figs = plot_runs(runs, out=dest, formats=formats)
        for fig in figs.values():
            plt.close(fig)  # written: pyplot need not keep them (a sweep of runs adds up)
        typer.echo(f"wrote {len(figs) * len(formats)} figures to {dest}/", err=True)
        if len(runs) == 1:
            typer.echo(f"wrote {write_report(runs[0], preset)}", err=True)


@app.command()
def endurance(
    config: ConfigArg,
    class_: Annotated[
        str, typer.Option("--class", "-c", help="JESD218 class: enterprise or client.")
    ] = "enterprise",
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for endurance.json, lifetime.parquet "
                           "and lifetime.png.")
    ] = Path("endurance"),
    trace: TraceOpt = None,
    set_: SetOpt = None,
    warranty_years: Annotated[
        float, typer.Option("--warranty-years", help="Period the DWPD is spread over.")
    ] = 5.0,
    max_step: Annotated[
        float, typer.Option("--max-step", help="Largest step per epoch towards a requirement, "
                            "as a fraction of the whole way (P/E, spare blocks, UBER).")
    ] = 0.1,
    retention_c: Annotated[
        float | None, typer.Option("--retention-c", help="Power-off temperature instead "
                                   "of the class's (°C).")
    ] = None,
    sensitivity: Annotated[
        bool, typer.Option(help="Rate again with half the step and report the change.")
    ] = True,
    epoch_requests: Annotated[
        int | None, typer.Option("--epoch-requests", help="Requests simulated in each epoch "
                                 "after the first (default: a tenth of the workload's).")
    ] = None,
) -> None:
    """Rate the drive's endurance (TBW, DWPD) as JEDEC JESD218 does, ageing it in epochs
    of the workload (docs/endurance.md)."""
    with user_errors():
        from . import endurance as rating_of
        from . import endurance_out
        from .io import check_writable_dir

        cls = rating_of.endurance_class(class_)
        overrides = parse_overrides(set_ or [])
        if trace is not None:
            overrides = {"workload.kind": "trace", "workload.path": str(trace), **overrides}
        check_writable_dir(out)
        r = rating_of.rate(
            config, cls.name, overrides=overrides, warranty_years=warranty_years,
            max_step=max_step, retention_c=retention_c, sensitivity=sensitivity,
            epoch_requests=epoch_requests, log=lambda line: typer.echo(line, err=True),
        )
        endurance_out.write(r, out)
        if r.rated_tbw is None:
            typer.echo(f"{cls.name}: not rated: no requirement failed ({r.limiting})")
        else:
            typer.echo(
                f"{cls.name}: rated {r.rated_tbw:.4g} TBW, {r.dwpd:.3g} DWPD over "
                f"{r.warranty_years:g} years; limited by {r.limiting} after {r.epochs} epochs"
            )
        if r.sensitivity is not None and r.sensitivity["relative_change"] is not None:
            typer.echo(f"half the epoch step: {r.sensitivity['rated_tbw']:.4g} TBW "
                       f"({r.sensitivity['relative_change']:+.2%})")
        typer.echo(f"wrote {out}/endurance.json, lifetime.parquet, lifetime.png", err=True)


def _plot_sweep(sweep: Path, out: Path | None, formats: list[str], x: str | None,
                y: str | None, by: list[str] | None) -> None:
    from . import sweep_plots

    if y is None:
        raise ConfigError(f"{sweep} is a sweep: give --y METRIC (a column of its "
                          f"{sweep_plots.RESULTS_FILE})")
    if x is None:
        s = sweep_plots.load_sweep(sweep)
        varying = [c.removeprefix("config.") for c in s.swept if s.table[c].n_unique() > 1]
        if len(varying) != 1:
            raise ConfigError(f"{sweep} sweeps {', '.join(varying) or 'nothing'}: give --x KEY")
        x = varying[0]
    fig, agg = sweep_plots.plot_sweep(sweep, x, y, by, out=out, formats=formats)
    typer.echo(f"wrote {len(formats)} figures to {out or sweep / 'figures'}/", err=True)
    typer.echo(f"wrote {sweep_plots.write_sweep_report(sweep, fig, agg)}", err=True)


@config_app.command("check")
def config_check(
    config: ConfigArg,
    set_: SetOpt = None,
    trace: TraceOpt = None,
    trace_format: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a config; print it resolved with every default (TOML), or the error."""
    with user_errors():
        resolved = api.check_config(
            config, parse_overrides(set_ or []), trace=trace, trace_format=trace_format
        )
        if as_json:
            typer.echo(json.dumps(resolved, indent=2))
        else:
            typer.echo(dumps_toml(resolved), nl=False)
        typer.echo(f"{config}: config OK", err=True)


@config_app.command("import")
def config_import(
    files: Annotated[
        list[Path],
        typer.Argument(help="MQSim's ssdconfig.xml [and workload.xml], or SSDsim's "
                       "page.parameters.", show_default=False),
    ],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Config to write (default: print it).")
    ] = None,
    scenario: Annotated[
        int | None,
        typer.Option("--scenario", min=1, help="workload.xml's IO_Scenario to import "
                     "(1, 2, ...; default the first)."),
    ] = None,
) -> None:
    """Convert an MQSim or SSDsim configuration into a nandlab config (TOML); what is not
    modelled and what behaves differently is listed at its head."""
    with user_errors():
        from . import peers

        imported = peers.import_files(list(files), scenario)
        try:
            api.check_config(imported.checkable())
        except ConfigError as e:
            raise ConfigError(f"the imported config is not valid: {e}") from None
        text = imported.toml()
        if out is None:
            typer.echo(text, nl=False)
            return
        with atomic_write(out) as f:
            f.write(text)
        typer.echo(f"wrote {out}: {len(imported.not_modelled)} parameters not modelled and "
                   f"{len(imported.differences)} differences listed at its head", err=True)


@trace_app.command("info")
def trace_info(
    file: Annotated[Path, typer.Argument(help="Trace file.", show_default=False)],
    trace_format: Annotated[
        str, typer.Option("--format", "-f", help="Trace format, or auto to detect it.")
    ] = "auto",
    time_unit: Annotated[
        str | None, typer.Option("--time-unit", help="Unit of the trace's timestamps.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print statistics of a trace: request mix, sizes, footprint, duration."""
    with user_errors():
        info = api.trace_info(file, trace_format, time_unit)
        if as_json:
            typer.echo(json.dumps(info, indent=2))
        else:
            from rich.console import Console

            from .report import trace_view

            Console().print(trace_view(str(file), info))


@trace_app.command("convert")
def trace_convert(
    src: Annotated[Path, typer.Argument(help="Trace to read.", show_default=False)],
    dst: Annotated[Path, typer.Argument(help="Trace to write.", show_default=False)],
    src_format: Annotated[
        str, typer.Option("--from", help="Format of SRC, or auto to detect it.")
    ] = "auto",
    dst_format: Annotated[
        str | None,
        typer.Option("--to", help="Format of DST: disksim or msr (default: from its extension)."),
    ] = None,
) -> None:
    """Convert a trace to another format."""
    with user_errors():
        n = api.trace_convert(src, dst, src_format, dst_format)
        typer.echo(f"wrote {n:,} requests to {dst}")


@app.command()
def states(
    files: Annotated[list[Path], typer.Argument(help="Files to analyse.", show_default=False)],
    unit_bytes: Annotated[
        int, typer.Option("--unit-bytes", help="BitFlip unit size in bytes.")
    ] = 512,
    mapping: Annotated[
        str, typer.Option("--mapping", help="Cell-bit mapping: adjacent or adjacent-lsb-first.")
    ] = "adjacent",
    as_json: JsonOpt = False,
) -> None:
    """Print the MLC cell-state make-up of files (share of each state, error-prone share,
    error-prone units, error-prone share after flipping every error-prone unit)."""
    with user_errors():
        out = api.states(list(files), unit_bytes, mapping)
        if as_json:
            typer.echo(json.dumps(out, indent=2))
        else:
            from rich.console import Console

            from .report import states_view

            Console().print(states_view(out, unit_bytes))


@calibrate_app.command("ldpc")
def calibrate_ldpc(
    out: Annotated[Path, typer.Option("--out", "-o", help="CSV table to write.")] = Path(
        "ldpc_fer.csv"
    ),
    frames: Annotated[
        int | None,
        typer.Option("--frames", min=1, help="Frame cap per point (default 800)."),
    ] = None,
    min_failures: Annotated[
        int | None,
        typer.Option("--min-failures", min=1,
                     help="Stop a point after this many failures (80)."),
    ] = None,
    levels: Annotated[
        str | None, typer.Option("--levels", help="Extra soft levels, e.g. 0..6 or 0,2,6.")
    ] = None,
    rber_grid: Annotated[
        str | None, typer.Option("--rber-grid", help="Comma-separated RBER values.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Run seed (2013).")] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Worker threads (default: all cores)."),
    ] = None,
    device: Annotated[
        Device,
        typer.Option("--device", help="cpu: the Rust decoders; numpy or cuda (CuPy, "
                     "pip install 'nandlab\\[gpu]'): the batched fixed-point array decoder."),
    ] = Device.cpu,
    fixed8: Annotated[
        bool,
        typer.Option("--fixed8", help="8-bit fixed-point decoder on the CPU (implied by "
                     "--device numpy/cuda; default f32)."),
    ] = False,
    batch: Annotated[
        int | None,
        typer.Option("--batch", min=1, help="Frames per batch (cpu and numpy 128, cuda 4096)."),
    ] = None,
) -> None:
    """Measure LDPC frame error rate vs RBER per soft level (the ECC ladder's curves)."""
    with user_errors():
        lv = _parse_levels(levels) if levels is not None else None
        grid = _parse_rbers(rber_grid) if rber_grid is not None else None
        rep = ProgressReporter(description="calibrating", delay_s=0.0, unit="points")
        with rep:
            table = api.calibrate_ldpc(out, frames, min_failures, lv, grid, seed, jobs,
                                       progress=rep, batch=batch, device=device.value,
                                       fixed8=fixed8)
        wall_s = table["provenance"]["wall_s"]
        on = table["provenance"].get("device", "cpu")
        typer.echo(f"wrote {out} and {out.with_suffix('.json')} ({wall_s:.0f} s on {on})")
        for t in table.get("tails", []):
            typer.echo(
                f"k={t['level']}: measured down to RBER {t['anchor_rber']:.3e} (FER "
                f"{t['anchor_fer']:.2e}); rows below it are extrapolated "
                f"(FER ~ RBER^{t['slope']:.1f}, column `extrapolated` = 1)"
            )


@calibrate_app.command("strata")
def calibrate_strata(
    out: Annotated[Path, typer.Option("--out", "-o", help="Strata file to write (JSON).")],
    level: Annotated[int, typer.Option("--level", help="Extra soft levels k (0 … 6).")],
    rber: Annotated[float, typer.Option("--rber", help="RBER whose decoder input law "
                                        "the strata are drawn from.")],
    errors: Annotated[str, typer.Option("--errors", help="Error counts w, e.g. 646,650.")],
    frames: Annotated[int, typer.Option("--frames", help="Frame cap per stratum.")] = 20_000,
    min_failures: Annotated[
        int, typer.Option("--min-failures", help="Stop a stratum after this many failures.")
    ] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Run seed (pooled runs: distinct).")
                    ] = 2026,
    device: Annotated[
        Device, typer.Option("--device", help="numpy or cuda (CuPy): the f32 array decoder.")
    ] = Device.numpy,
    batch: Annotated[
        int | None, typer.Option("--batch", help="Frames per batch (numpy 128, cuda 4096).")
    ] = None,
    time_budget_s: Annotated[
        float | None,
        typer.Option("--time-budget-s", help="Start no batch after this many seconds."),
    ] = None,
) -> None:
    """Measure error-count strata f(w) with the table's f32 decoder on an array device.

    Writes --out (the ldpc_stratified --out format, for ldpc_extend --strata) after every
    stratum.
    """
    with user_errors():
        if device is Device.cpu:
            raise ConfigError("--device cpu: use the Rust tool, cargo run --release -p "
                              "nandlab-ldpc --example ldpc_stratified -- --errors …")
        from .ldpc_xp.strata import StrataMeasure, measure_strata

        ws = _parse_ints(errors, "--errors")
        measure = StrataMeasure(device.value, level, rber)
        on = device.value

        def report(t) -> None:
            fps = t.frames / t.wall_s if t.wall_s > 0 else float("inf")
            typer.echo(f"w={t.w} frames={t.frames} failures={t.failures} "
                       f"({fps:,.1f} frames/s on {on})")

        done = measure_strata(measure, level, rber, ws, frames, min_failures, seed,
                              batch or api.DEVICE_BATCH[on], out, on, time_budget_s, report)
        finished = {t.w for t in done if t.frames >= frames or t.failures >= min_failures}
        left = [str(w) for w in ws if w not in finished]
        stop = f"; time budget reached, unfinished w = {','.join(left)}" if left else ""
        if not done:
            typer.echo(f"nothing written to {out}: the time budget ended before the first batch")
            return
        typer.echo(f"wrote {out} ({len(done)} strata{stop})")


def _parse_ints(text: str, name: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"{name} {text!r}: use a list like 646,650") from None


def _parse_levels(text: str) -> list[int]:
    msg = f"--levels {text!r}: use a range like 0..6 or a list like 0,2,6 of levels 0 … 6"
    try:
        if ".." in text:
            a, b = text.split("..")
            levels = list(range(int(a), int(b) + 1))
        else:
            levels = [int(x) for x in text.split(",")]
    except ValueError:
        raise ConfigError(msg) from None
    if not levels or not all(0 <= k <= 6 for k in levels):
        raise ConfigError(msg)
    return levels


def _parse_rbers(text: str) -> list[float]:
    msg = f"--rber-grid {text!r}: use comma-separated RBERs in (0, 0.5), e.g. 1e-3,2e-3"
    try:
        grid = [float(x) for x in text.split(",")]
    except ValueError:
        raise ConfigError(msg) from None
    if not all(0 < r < 0.5 for r in grid):
        raise ConfigError(msg)
    return grid


@app.command()
def version() -> None:
    """Print the versions of nandlab and its compiled core."""
    from . import _package_version

    with user_errors():
        core_version = _native.core().__version__
        typer.echo(f"nandlab {_package_version()} (core {core_version})")


experiments.register(app)  # `sweep` and `reproduce` (cli_experiments.py)


def usage_line(e: click_errors.UsageError) -> str:
    """A usage error (unknown option, missing argument, bad value) as one line."""
    msg = " ".join(e.format_message().split())
    path = e.ctx.command_path if e.ctx is not None else "nandlab"
    return f"{msg} (see `{path} --help`)"


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point. Click's usage errors, which typer prints as a box
    with the usage, become one line like every other mistake."""
    try:
        code = app(args=argv, prog_name="nandlab", standalone_mode=False)
    except click_errors.NoArgsIsHelpError as e:
        e.show()  # the help text, as asked for
        code = e.exit_code
    except click_errors.UsageError as e:
        error(usage_line(e))
        code = EXIT_USER_ERROR
    except click_errors.ClickException as e:
        error(" ".join(e.format_message().split()))
        code = e.exit_code
    except Abort:
        typer.echo("interrupted", err=True)
        code = EXIT_INTERRUPTED
    sys.exit(code if isinstance(code, int) else 0)
