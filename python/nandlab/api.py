"""The Python API: run a simulation, check a config, inspect and convert traces.

polars is imported where a frame is made, not with this module: ``nandlab run --out``
then imports it on the record thread while the simulation runs (issue 33).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from . import _native
from .config import ConfigSource, check_finite, load_config
from .errors import ConfigError, MissingFileError, NandlabError, NotAFileError
from .io import (
    PE_FILE,
    TIMELINE_FILE,
    _temp_beside,
    atomic_path,
    check_writable_dir,
    json_text,
    remove_created,
    replace_outputs,
)
from .progress import ProgressFn, ProgressReporter
from .records import ARROW_SCHEMA, columns_frame, request_schema, text_schema
from .records import OP_NAMES as OP_NAMES  # re-exported: defined beside the record schema
from .summary import Summary

if TYPE_CHECKING:
    import polars as pl

RequestsFormat = Literal["parquet", "csv", "none"]
REQUESTS_FORMATS = ("parquet", "csv", "none")
SUMMARY_FILE = "summary.json"
#: Every file a run writes into its output directory; a new run removes all of them, so
#: a directory never holds files of two runs (the summary, which means "complete", first).
OWNED_FILES = (
    SUMMARY_FILE,
    *(f"requests.{f}" for f in REQUESTS_FORMATS if f != "none"),
    TIMELINE_FILE,
    PE_FILE,
)


@dataclass
class Result:
    """The outcome of one run.

    ``summary``: every metric plus ``version``, ``seed`` and the resolved ``config``.
    ``requests``: one row per request, in arrival order (see :data:`REQUEST_SCHEMA`);
    empty with that schema when ``output.record_requests`` is false. A run saved to
    ``out`` streamed its records to a file there (``requests_file``) instead of memory;
    ``requests`` then reads that file when first asked. ``config``: the resolved config.
    ``timeline``: metrics per window of simulated time (``[output] timeline_ns``; see
    :data:`nandlab.timeline.TIMELINE_SCHEMA`), ``None`` when the run kept none.
    ``pe_cycles``: every block's P/E cycles at the end (columns ``block``, ``pe_cycles``),
    kept when ``[output] pe_cycles = true`` (``None`` otherwise).
    """

    summary: dict[str, Any] = field(repr=False)
    config: dict[str, Any] = field(repr=False)
    recorded: bool = False
    out: Path | None = None
    frame: pl.DataFrame | None = field(default=None, repr=False)
    #: The core's record columns kept in memory, made into ``frame`` when first asked:
    #: a command that never reads them does not import polars (~650 M instructions).
    columns: Mapping[str, Any] | None = field(default=None, repr=False)
    requests_file: Path | None = None
    #: Format of ``requests_file`` while it is the run's own temporary stream, which
    #: :meth:`save` moves into place (not copies) when saving in that format.
    stream_format: str | None = field(default=None, repr=False)
    #: The timeline in memory, or the file holding it (the run's stream until saved).
    timeline_rows: pl.DataFrame | None = field(default=None, repr=False)
    timeline_file: Path | None = field(default=None, repr=False)
    #: ``timeline_file`` is the run's own temporary stream, which :meth:`save` moves.
    timeline_stream: bool = field(default=False, repr=False)
    pe_cycles: pl.DataFrame | None = field(default=None, repr=False)

    @property
    def timeline(self) -> pl.DataFrame | None:
        """Metrics per window of simulated time, or ``None`` without a timeline."""
        if self.timeline_rows is None and self.timeline_file is not None:
            import polars as pl

            self.timeline_rows = pl.read_parquet(self.timeline_file)
        return self.timeline_rows

    def plot(self, out: str | os.PathLike | None = None, formats: Sequence[str] = ("png",)):
        """Draws this run's figures (see :mod:`nandlab.plots`); writes them into ``out``
        when given. Returns the matplotlib figures by name."""
        from .plots import plot_runs

        return plot_runs([self], out=out, formats=formats)

    def _repr_html_(self) -> str:
        from .html_report import headline_html

        return headline_html(self)

    @property
    def requests(self) -> pl.DataFrame:
        """Per-request records (read from ``requests_file`` on first access)."""
        if self.frame is None:
            self.frame = (
                scan_requests(self.requests_file, self.stream_format).collect()
                if self.requests_file is not None
                else requests_frame(self.columns)
            )
            self.columns = None
        return self.frame

    def __repr__(self) -> str:
        m = self.metrics
        return (
            f"Result(requests={m.metric('requests.count')}, seed={m.seed}, "
            f"p99_ns={m.metric('all.p99_ns')}, "
            f"recorded={self.recorded}, out={self.out})"
        )

    @property
    def metrics(self) -> Summary:
        """Typed access to the summary: ``res.metrics.metric("read.p99_ns")``."""
        return Summary(self.summary)

    def metric(self, key: str) -> Any:
        """The metric at dotted ``key``; an error naming it when the summary lacks it."""
        return self.metrics.metric(key)

    @property
    def seed(self) -> int:
        return self.metrics.seed

    @property
    def version(self) -> str:
        return self.metrics.version

    def save(
        self, directory: str | os.PathLike, requests_format: RequestsFormat = "parquet"
    ) -> Path:
        """Writes ``summary.json`` (and recorded requests) into ``directory``.

        Files an earlier run left there (:data:`OWNED_FILES`) are replaced or removed, so
        the directory never mixes two runs; the summary is moved in last, so a
        ``summary.json`` present means the outputs are complete. Returns the directory.
        """
        _check_requests_format(requests_format)
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        files: dict[str, Callable[[Path], object]] = {}
        if self.recorded and requests_format != "none":
            files[f"requests.{requests_format}"] = self._requests_writer(requests_format)
        files[SUMMARY_FILE] = lambda p: p.write_text(json_text(self.summary), encoding="utf-8")
        moved = self.stream_format == requests_format and f"requests.{requests_format}" in files
        timeline_moved = self._add_timeline(d, files)
        replace_outputs(d, OWNED_FILES, files)
        self.out = d
        if timeline_moved:
            self.timeline_file = d / TIMELINE_FILE
        if moved:
            # The stream is now the saved file.
            self.requests_file, self.stream_format = d / f"requests.{requests_format}", None
        return d

    def _add_timeline(self, d: Path, files: dict[str, Callable[[Path], object]]) -> bool:
        """Adds the writers of the timeline and the blocks' P/E cycles to ``files`` (ahead
        of the summary, which goes last); True when the timeline is then the file in
        ``d``."""
        src = self.timeline_file
        write: Callable[[Path], object] | None = None
        if self.timeline_rows is not None and src is None:
            write = self.timeline_rows.write_parquet
        elif src is not None and self.timeline_stream:
            write = lambda p: os.replace(src, p)  # noqa: E731 - the run's own stream moves
        elif src is not None:
            import polars as pl

            write = lambda p: pl.scan_parquet(src).sink_parquet(p)  # noqa: E731
        summary = files.pop(SUMMARY_FILE)
        if write is not None:
            files[TIMELINE_FILE] = write
        if self.pe_cycles is not None:
            from .timeline import write_pe

            pe = self.pe_cycles
            files[PE_FILE] = lambda p: write_pe(pe, p)
        files[SUMMARY_FILE] = summary
        self.timeline_stream = False
        return src is not None

    def _requests_writer(self, fmt: str) -> Callable[[Path], None]:
        """Writes the records as ``fmt``: from memory, or streamed from their file
        (bounded memory however many rows)."""
        if self.frame is not None or self.requests_file is None:
            df = self.requests
            return df.write_parquet if fmt == "parquet" else df.write_csv
        src = self.requests_file
        if fmt == self.stream_format:
            # The run's own stream, already in this format: moved, not rewritten.
            return lambda p: os.replace(src, p)
        if fmt == "parquet":
            return lambda p: scan_requests(src, self.stream_format).sink_parquet(p)
        return lambda p: scan_requests(src, self.stream_format).sink_csv(p)


def run(
    config: ConfigSource,
    trace: str | os.PathLike | None = None,
    trace_format: str | None = None,
    out: str | os.PathLike | None = None,
    overrides: Mapping[str, Any] | None = None,
    progress: bool | ProgressFn = True,
    requests_format: RequestsFormat = "parquet",
) -> Result:
    """Runs one simulation and returns its :class:`Result`.

    ``config``: TOML file path, TOML string or dict. ``trace``/``trace_format`` replay a
    trace file instead of the configured workload. ``overrides``: dotted keys, e.g.
    ``{"ftl.gc_policy": "greedy"}``, applied last. ``progress``: show a bar on runs
    longer than ~2 s (``True``), nothing (``False``), or a callable ``(done, total)``
    that may return ``False`` to cancel. ``out``: directory to save results into
    (see :meth:`Result.save`), checked for writing before the run; nothing is written
    there if the run fails.
    """
    _check_requests_format(requests_format)
    cfg = load_config(config, overrides, trace=trace, trace_format=trace_format)
    core = _native.core()
    created = check_writable_dir(out) if out is not None else []
    stream: Path | None = None
    timeline: Path | None = None
    if out is not None and _timeline_ns(cfg):
        timeline = _temp_beside(Path(out).expanduser() / TIMELINE_FILE)
    if out is not None:
        if requests_format == "none":
            # Nothing will be written: do not keep records either.
            cfg.setdefault("output", {})["record_requests"] = False
        else:
            # Records go to a file in ``out`` as the run goes, not into memory; saving
            # moves it into place.
            stream = _temp_beside(Path(out).expanduser() / f"requests.{requests_format}")
    try:
        result = _simulate(core, cfg, progress, stream, requests_format, timeline)
        if out is not None:
            result.save(out, requests_format)
    except BaseException:
        for temp in (stream, timeline):
            if temp is not None:
                temp.unlink(missing_ok=True)
        remove_created(created)
        raise
    if stream is not None:
        stream.unlink(missing_ok=True)  # left only by a run that recorded nothing
    return result


def _simulate(
    core: Any,
    cfg: dict[str, Any],
    progress: bool | ProgressFn,
    stream: Path | None = None,
    stream_format: str = "parquet",
    timeline: Path | None = None,
) -> Result:
    user = progress if callable(progress) else None
    # The core writes the timeline to its file itself (no polars, no NumPy: issue 36);
    # kept in memory, it comes as frames.
    writer = None
    if _timeline_ns(cfg) and timeline is None:
        from .timeline import TimelineFrames

        writer = TimelineFrames()
    timeline_sink = None if writer is None else ("timeline", writer)
    timeline_parquet = str(timeline) if timeline is not None and _timeline_ns(cfg) else None
    reporter = ProgressReporter(
        show=progress is not False and user is None,
        user=user,
        total_hint=expected_requests(cfg),
    )
    try:
        with reporter:
            summary_json, columns, pe_by_block = core.simulate(
                config_json(cfg), reporter, *_stream_args(stream, stream_format),
                timeline_sink, timeline_parquet,
            )
    except Exception as e:
        if reporter.interrupted or (_cancelled(e) and not reporter.cancelled):
            # Ctrl-C seen by us, or by the core's own signal check between callbacks.
            raise KeyboardInterrupt from None
        raise
    if reporter.interrupted:
        raise KeyboardInterrupt
    summary = json.loads(summary_json)
    resolved = dict(Summary(summary).config)
    recorded = resolved["output"]["record_requests"]
    pe_cycles = None
    if pe_by_block is not None:  # asked for: [output] pe_cycles
        from .timeline import pe_frame

        pe_cycles = pe_frame(pe_by_block)
    return Result(
        summary=summary,
        config=resolved,
        recorded=recorded,
        columns=columns,
        requests_file=stream if recorded and columns is None else None,
        stream_format=stream_format if recorded and columns is None else None,
        timeline_rows=writer.frame if writer is not None else None,
        timeline_file=timeline if timeline_parquet is not None else None,
        timeline_stream=timeline_parquet is not None,
        pe_cycles=pe_cycles,
    )


def _timeline_ns(cfg: Mapping[str, Any]) -> int:
    """The config's timeline window (ns; 0: none)."""
    output = cfg.get("output")
    v = output.get("timeline_ns", 0) if isinstance(output, Mapping) else 0
    # Anything else the core rejects with its own one-line error.
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 0


def _stream_args(stream: Path | None, fmt: str) -> tuple[str | None, tuple[str, str] | None]:
    """``simulate``'s ``requests_csv`` and ``requests_parquet`` for records streamed to
    ``stream`` in ``fmt`` (the core writes either file itself)."""
    if stream is None:
        return None, None
    if fmt == "csv":
        return str(stream), None
    return None, (str(stream), ARROW_SCHEMA)


def check_config(
    config: ConfigSource,
    overrides: Mapping[str, Any] | None = None,
    trace: str | os.PathLike | None = None,
    trace_format: str | None = None,
) -> dict[str, Any]:
    """Validates a config in the core; returns it resolved with every default filled in."""
    cfg = load_config(config, overrides, trace=trace, trace_format=trace_format)
    return json.loads(_native.core().validate_config(config_json(cfg)))


def trace_info(
    path: str | os.PathLike, format: str = "auto", time_unit: str | None = None
) -> dict[str, Any]:
    """Statistics of a trace file: request counts, mix, sizes, footprint, duration."""
    p = _existing_file(path)
    return json.loads(_native.core().trace_info(str(p), format, time_unit))


#: Output trace formats by file extension, for :func:`trace_convert`.
FORMAT_BY_EXTENSION = {".csv": "msr", ".trace": "disksim", ".ascii": "disksim", ".txt": "disksim"}


def trace_convert(
    src: str | os.PathLike,
    dst: str | os.PathLike,
    src_format: str = "auto",
    dst_format: str | None = None,
) -> int:
    """Converts a trace file; returns the number of requests written.

    ``dst_format`` (``disksim`` or ``msr``) defaults from ``dst``'s extension. ``dst`` is
    written atomically: a failed conversion leaves no partial file.
    """
    s = _existing_file(src)
    d = Path(dst)
    if not d.parent.is_dir():
        raise ConfigError(f"{d}: its folder {d.parent} does not exist")
    if dst_format is None:
        dst_format = FORMAT_BY_EXTENSION.get(d.suffix.lower())
        if dst_format is None:
            raise ConfigError(
                f"cannot tell the output format from {d.name!r}; "
                "name it (disksim or msr) or use a .trace/.csv extension"
            )
    core = _native.core()
    with atomic_path(d) as tmp:
        return int(core.trace_convert(str(s), src_format, str(tmp), dst_format))


#: The largest `states` unit: 16 MiB, far past any page (BitFlip's units are 64 B … 4 KiB).
MAX_UNIT_BYTES = 1 << 24


def states(
    paths: Sequence[str | os.PathLike] | str | os.PathLike,
    unit_bytes: int = 512,
    mapping: str = "adjacent",
) -> list[dict[str, Any]]:
    """MLC cell-state make-up of files (seed 000 §II-C): per file the share of each state,
    the error-prone share ('00' and '01'), the share of error-prone units of
    ``unit_bytes``, and the error-prone share left after flipping every error-prone unit."""
    if isinstance(paths, str | os.PathLike):
        paths = [paths]  # one file, not its name's characters
    files = [str(_existing_file(p)) for p in paths]
    for f in files:
        if os.path.getsize(f) == 0:
            raise ConfigError(f"{f}: empty file, no cells to count")
    if not 0 < unit_bytes <= MAX_UNIT_BYTES:
        # The core holds one unit in memory: 2^40 bytes aborted the process.
        raise ConfigError(f"--unit-bytes {unit_bytes}: must be 1 … {MAX_UNIT_BYTES:,} bytes "
                          "(BitFlip's units are 64 B to a page)")
    return json.loads(_native.core().states(files, unit_bytes, mapping))


#: LLR scale of the 8-bit fixed-point decoder: 4 quantisation steps per LLR unit, the
#: scale docs/ldpc.md §2 validates against the f32 decoder.
FIXED8_LLR_SCALE = 4.0

#: Frames per batch on each array device when ``batch`` is not given: on a GPU thousands
#: keep it busy (about 1 GB of int16 state per 4096 frames); numpy keeps the CPU path's 128.
DEVICE_BATCH = {"numpy": 128, "cuda": 4096}


def calibrate_ldpc(
    out: str | os.PathLike,
    frames: int | None = None,
    min_failures: int | None = None,
    levels: list[int] | None = None,
    rber_grid: list[float] | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: ProgressFn | None = None,
    batch: int | None = None,
    device: str = "cpu",
    fixed8: bool = False,
) -> dict[str, Any]:
    """Measures the frame error rate of nandlab's rate-8/9 4 KB QC-LDPC code vs RBER for
    each number of extra soft sensing levels; writes ``out`` (CSV, the ladder's curve
    format) and its provenance beside it (JSON). Returns that JSON: ``provenance``,
    ``points`` and each level's tail model (``tails``; rows below a level's lowest failing
    point carry it and are marked ``extrapolated``).

    ``device``: ``cpu`` runs the Rust decoders (``f32``, or the 8-bit fixed-point one with
    ``fixed8``); ``numpy`` or ``cuda`` (CuPy, the ``gpu`` extra) draw and decode each batch
    of ``batch`` frames with the array decoder of :mod:`nandlab.ldpc_xp`, which is the
    fixed-point decoder bit for bit (so ``fixed8`` is implied)."""
    d = Path(out)
    if not d.parent.exists():
        raise MissingFileError(f"{d}: its folder {d.parent} does not exist")
    if batch is not None and batch < 1:
        raise ConfigError(f"batch {batch}: must be at least 1 frame")
    core = _native.core()
    on_device = None
    if device != "cpu":
        from .ldpc_xp import DeviceMeasure

        on_device = (device, DeviceMeasure(device, *core.ldpc_code()))
        batch = batch or DEVICE_BATCH[device]
        fixed8 = True
    scale = FIXED8_LLR_SCALE if fixed8 else None
    return json.loads(
        core.calibrate_ldpc(
            str(d), frames, min_failures, levels, rber_grid, seed, threads, progress,
            batch, scale, on_device,
        )
    )


def scan_requests(path: Path, fmt: str | None = None) -> pl.LazyFrame:
    """Per-request records in a CSV or Parquet file (``fmt``, default: from the file's
    extension), lazily, with :data:`REQUEST_SCHEMA`."""
    import polars as pl

    if (fmt or path.suffix.lstrip(".")) == "parquet":
        return pl.scan_parquet(path)
    schema = request_schema()
    frame = pl.scan_csv(path, schema=text_schema(schema))
    return frame.with_columns(pl.col("op").cast(schema["op"]))


def requests_frame(columns: Mapping[str, Any] | None) -> pl.DataFrame:
    """Per-request columns as a polars frame with :data:`REQUEST_SCHEMA` (extra columns
    kept), in arrival order."""
    import polars as pl

    if columns is None:
        return pl.DataFrame(schema=request_schema())
    df = columns_frame(columns)
    # The core records requests as they complete; present them in arrival order.
    return df.sort("arrival_ns", maintain_order=True) if "arrival_ns" in df.columns else df


def expected_requests(cfg: Mapping[str, Any]) -> int | None:
    """The request count a config asks for, when it says so plainly (for progress bars)."""
    wl = cfg.get("workload")
    if not isinstance(wl, Mapping):
        return None
    n = None
    if wl.get("kind", "synthetic") == "synthetic" and "duration_s" not in wl:
        n = wl.get("requests")
    elif wl.get("kind") == "trace" and int(wl.get("repeat", 1) or 1) == 1:
        n = wl.get("max_requests")
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def config_json(cfg: Mapping[str, Any]) -> str:
    """The config as JSON for the core (dates and paths as strings)."""
    check_finite(cfg)
    try:
        return json.dumps(cfg, default=_json_default)
    except (TypeError, ValueError) as e:
        raise ConfigError(str(e)) from None


def _json_default(o: Any) -> Any:
    if isinstance(o, _dt.date | _dt.time):
        return o.isoformat()
    if isinstance(o, os.PathLike):
        return os.fspath(o)
    if isinstance(o, tuple | set | frozenset):
        return list(o)
    raise TypeError(f"a config value of type {type(o).__name__} cannot be sent to the core")


def _cancelled(e: Exception) -> bool:
    return isinstance(e, NandlabError) and str(e).strip().endswith("cancelled")


def _existing_file(path: str | os.PathLike) -> Path:
    p = Path(path).expanduser()
    if not p.exists():
        raise MissingFileError(f"no such file: {p}")
    if p.is_dir():
        raise NotAFileError(f"{p}: is a directory, not a file")
    return p


def _check_requests_format(fmt: str) -> None:
    if fmt not in REQUESTS_FORMATS:
        raise ConfigError(
            f"requests format {fmt!r} is not one of {', '.join(REQUESTS_FORMATS)}"
        )


def __getattr__(name: str) -> Any:
    # REQUEST_SCHEMA (records.py) holds polars types: built on first use.
    if name == "REQUEST_SCHEMA":
        return request_schema()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
