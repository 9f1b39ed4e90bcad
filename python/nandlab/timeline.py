"""The timeline of a run (``[output] timeline_ns``, ``nandlab run --timeline 100ms``):
one row per window of simulated time, streamed to ``timeline.parquet`` as the run goes.

The core writes ``timeline.parquet`` itself, in batches of 16,384 windows on a thread of
its own (``crates/nandlab-py/src/timeline_parquet.rs``), so memory stays at a few batches
whatever the run's length and a run needs neither polars nor NumPy for it. Without an output
directory it hands the batches over as Arrow columns, which :class:`TimelineFrames` keeps
as polars frames (no copy).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from .io import PE_FILE as PE_FILE  # re-exported: defined with the other output files
from .io import TIMELINE_FILE as TIMELINE_FILE
from .timeline_window import parse_window as parse_window  # re-exported

_U, _F = pl.UInt64(), pl.Float64()
#: Columns of the timeline, in the core's order (``metrics/timeline.rs``). Per window
#: starting at ``start_ns`` and lasting ``window_ns`` of simulated time: requests completed
#: (``reads``, ``writes``, ``trims``) and their rates (per second; MB = 10^6 bytes);
#: latency p50/p99 (nearest rank) and max of the reads and writes completed in it (null
#: when none); ``queue_depth``, the time-mean of requests arrived and not completed; page
#: moves and erases by cause (GC, wear leveling, refresh, hot pages moved on read);
#: ``free_blocks_min``, the free blocks of the plane with fewest at its end; judged reads,
#: their mean RBER and mean decoding level (of those decoded), retries, uncorrectable
#: pages; the share of die and channel time busy. A window in which the device was idle
#: (nothing arrived, completed or was busy, no count moved, no request outstanding) has no
#: row: :func:`dense` puts it back. Columns the run adds after these:
#: :data:`FLOW_COLUMNS` per flow (``workload.flows``, ``flow0_reads`` …),
#: :data:`CACHE_COLUMNS` with a DRAM cache, :data:`MAPPING_COLUMNS` with a cached mapping
#: table.
TIMELINE_SCHEMA: dict[str, pl.DataType] = {
    "start_ns": _U, "reads": _U, "writes": _U, "trims": _U,
    "read_iops": _F, "write_iops": _F, "read_mb_s": _F, "write_mb_s": _F,
    "read_p50_ns": _F, "read_p99_ns": _F, "read_max_ns": _F,
    "write_p50_ns": _F, "write_p99_ns": _F, "write_max_ns": _F,
    "queue_depth": _F,
    "gc_page_moves": _U, "gc_erases": _U, "wl_page_moves": _U, "wl_erases": _U,
    "refresh_page_moves": _U, "refresh_erases": _U, "hot_page_moves": _U, "hot_erases": _U,
    "free_blocks_min": _U,
    "judged_reads": _U, "rber_mean": _F, "level_mean": _F, "retries": _U, "uncorrectable": _U,
    "die_util": _F, "channel_util": _F, "window_ns": _U,
}

#: Per flow ``i``, ``flow{i}_`` and these: its requests completed in the window, their
#: MB/s and latency p99 (nearest rank; null without any).
FLOW_COLUMNS: dict[str, pl.DataType] = {
    "reads": _U, "writes": _U, "trims": _U, "read_mb_s": _F, "write_mb_s": _F,
    "read_p99_ns": _F, "write_p99_ns": _F,
}
#: The DRAM data cache (``[cache]``): host page reads and writes that hit or missed in the
#: window, and the share that hit (null without any).
CACHE_COLUMNS: dict[str, pl.DataType] = {
    "cache_read_hits": _U, "cache_read_misses": _U, "cache_read_hit_rate": _F,
    "cache_write_hits": _U, "cache_write_misses": _U, "cache_write_hit_rate": _F,
}
#: The cached mapping table (``[ftl.mapping_cache]``): lookups that hit or missed.
MAPPING_COLUMNS: dict[str, pl.DataType] = {
    "mapping_hits": _U, "mapping_misses": _U, "mapping_hit_rate": _F,
}

def timeline_frame(columns: Any) -> pl.DataFrame:
    """A batch of the core's timeline columns (Arrow: :data:`TIMELINE_SCHEMA`, then the
    run's flow and cache columns, in the core's order; the core's NaN, "nothing to
    average", already null) as a frame."""
    return pl.DataFrame(columns)


def pe_frame(pe_by_block: Any) -> pl.DataFrame:
    """Every block's P/E cycles (the core's Arrow column ``pe_cycles``, in block order) as
    :data:`PE_FILE`'s frame."""
    pe = pl.DataFrame(pe_by_block)["pe_cycles"]
    return pl.DataFrame({"block": pl.int_range(0, pe.len(), eager=True, dtype=pl.UInt32),
                         "pe_cycles": pe})


def write_pe(pe: pl.DataFrame, dst: Path) -> None:
    """Writes :data:`PE_FILE`: zstd level 1 without column statistics (a million blocks in
    ~24 ms of CPU instead of the defaults' ~32 ms, at the same size)."""
    pe.write_parquet(dst, compression="zstd", compression_level=1, statistics=False)


#: Most windows :func:`dense` fills in (beyond, the rows are returned as they are).
DENSE_MAX_ROWS = 2_000_000


def dense(t: pl.DataFrame) -> pl.DataFrame:
    """``t`` with a row for every window from its first to its last: the idle windows it
    leaves out have zero counts, rates, depth and utilisation, null latencies and means,
    and the free blocks of the row before."""
    if t.height < 2:
        return t
    w = int(t["window_ns"][0])
    first, last = int(t["start_ns"][0]), int(t["start_ns"][-1])
    if (last - first) // w + 1 > DENSE_MAX_ROWS:
        return t
    grid = pl.DataFrame({"start_ns": pl.int_range(first, last + 1, w, eager=True, dtype=pl.UInt64)})
    out = grid.join(t, on="start_ns", how="left")
    # Latencies, means and hit rates have nothing to average in an idle window.
    kept = {"start_ns", "free_blocks_min", "window_ns"}
    zero = [c for c in t.columns if c not in kept and not c.endswith(("_ns", "_mean", "_rate"))]
    return out.with_columns(
        pl.col(zero).fill_null(0),
        pl.col("free_blocks_min").forward_fill(),
        pl.lit(w, dtype=pl.UInt64).alias("window_ns"),
    )


class TimelineFrames:
    """``simulate``'s ``timeline_sink`` for a timeline kept in memory: each batch becomes a
    frame (no copy); :attr:`frame` is their concatenation. (With an output directory the
    core writes ``timeline.parquet`` itself: ``crates/nandlab-py/src/timeline_parquet.rs``.)"""

    def __init__(self) -> None:
        self.frames: list[pl.DataFrame] = []

    def __call__(self, columns: Any) -> None:
        self.frames.append(timeline_frame(columns))

    @property
    def frame(self) -> pl.DataFrame:
        """The rows kept."""
        if not self.frames:
            return pl.DataFrame(schema=TIMELINE_SCHEMA)
        return pl.concat(self.frames)
