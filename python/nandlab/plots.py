"""Figures of one run or several overlaid (``nandlab plot RUN_DIR [RUN_DIR ...]``,
``Result.plot()``): the latency CDF per op, the timeline's panels (throughput, p99
latency, background work, free blocks, RBER and decoding level; per flow and cache hit
rates when the run has them), the RBER histogram and the decoding levels of the judged
reads, the blocks' P/E distribution at the end, each drawn only when the runs have its
data. Several runs share each figure, labelled by the config keys in which they differ.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .errors import MissingFileError  # noqa: E402
from .timeline import PE_FILE, TIMELINE_FILE, dense  # noqa: E402

FORMATS = ("png", "svg")


@dataclass
class Run:
    """What the figures need of a run."""

    label: str
    summary: dict[str, Any]
    requests: pl.DataFrame | None
    timeline: pl.DataFrame | None
    #: Every block's P/E cycles at the end, in block order (``None``: not kept).
    pe: np.ndarray | None = None


def _pe_of(summary: Mapping[str, Any], pe_file: Path | None) -> np.ndarray | None:
    """The blocks' P/E cycles: from a run's ``pe_cycles.parquet``, else from its summary
    (``flash.retirement.pe_by_block``, kept with ``ftl.retire_pe_limit``)."""
    if pe_file is not None and pe_file.is_file():
        return pl.read_parquet(pe_file)["pe_cycles"].to_numpy()
    pe = (summary.get("flash") or {}).get("retirement", {}).get("pe_by_block")
    return None if pe is None else np.asarray(pe, dtype=np.uint32)


def load_run(directory: str | os.PathLike) -> Run:
    """A run saved in ``directory`` (its ``summary.json``, and records and timeline if
    there); a one-line error when it holds no run."""
    d = Path(directory)
    summary_path = d / "summary.json"
    if not summary_path.is_file():
        raise MissingFileError(f"{d}: no summary.json (not the --out directory of a run)")
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    requests = next(
        (pl.read_parquet(p) if p.suffix == ".parquet" else pl.read_csv(p)
         for p in (d / "requests.parquet", d / "requests.csv") if p.is_file()),
        None,
    )
    timeline = pl.read_parquet(d / TIMELINE_FILE) if (d / TIMELINE_FILE).is_file() else None
    return Run(d.name or str(d), summary, requests, timeline, _pe_of(summary, d / PE_FILE))


def _run_of(r: Any) -> Run:
    if isinstance(r, Run):
        return r
    if isinstance(r, str | os.PathLike):
        return load_run(r)
    # A Result of the API.
    requests = r.requests if r.recorded else None
    pe = r.pe_cycles["pe_cycles"].to_numpy() if r.pe_cycles is not None else _pe_of(r.summary, None)
    return Run(str(r.out or "run"), r.summary, requests, r.timeline, pe)


def flatten(cfg: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested config as dotted keys."""
    out: dict[str, Any] = {}
    for k, v in cfg.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def config_diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """The dotted keys whose values differ between configs ``a`` and ``b``, sorted, with
    each side's value (``None`` where a side lacks the key)."""
    fa, fb = flatten(a), flatten(b)
    keys = sorted(fa.keys() | fb.keys())
    return [(k, fa.get(k), fb.get(k)) for k in keys if fa.get(k) != fb.get(k)]


def _labels(runs: list[Run]) -> list[str]:
    """Each run's label: the config values that set it apart (its name if none do)."""
    if len(runs) < 2:
        return [r.label for r in runs]
    flat = [flatten(r.summary.get("config", {})) for r in runs]
    keys = sorted(k for k in set().union(*flat) if len({repr(f.get(k)) for f in flat}) > 1)
    keys = [k for k in keys if k != "output.timeline_ns"]
    if not keys:
        return [r.label for r in runs]
    return [", ".join(f"{k}={f.get(k)}" for k in keys[:3]) for f in flat]


def latency_cdf(runs: list[Run], labels: list[str]) -> Figure | None:
    """Latency CDF of reads and writes, log x."""
    have = [(r, lab) for r, lab in zip(runs, labels, strict=True)
            if r.requests is not None and r.requests.height]
    if not have:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, op in zip(axes, ("read", "write"), strict=True):
        for r, lab in have:
            assert r.requests is not None
            lat = r.requests.filter(pl.col("op").cast(pl.String) == op)["latency_ns"].sort()
            if lat.len() == 0:
                continue
            y = (pl.int_range(1, lat.len() + 1, eager=True) / lat.len()).to_numpy()
            ax.step(lat.to_numpy() / 1e3, y, where="post", label=lab)
        ax.set_xscale("log")
        ax.set_xlabel(f"{op} latency (µs)")
        ax.set_title(f"{op}s")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("fraction of requests ≤ x")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


Panel = tuple[str, list[tuple[str, str]]]

#: Most hover bands per panel of the report's timeline (each covers the windows between).
MAX_TIPS = 120


def _panels(have: list[tuple[pl.DataFrame, str]]) -> list[Panel]:
    """The timeline's panels: title and (column, series name) each."""
    panels: list[Panel] = [
        ("throughput (MB/s)", [("read_mb_s", "read"), ("write_mb_s", "write")]),
        ("p99 latency (µs)", [("read_p99_ns", "read"), ("write_p99_ns", "write")]),
        ("background work (pages/window)", [("gc_page_moves", "GC moves"),
                                             ("wl_page_moves", "WL moves"),
                                             ("refresh_page_moves", "refresh moves"),
                                             ("gc_erases", "GC erases")]),
        ("free blocks (min over planes)", [("free_blocks_min", "")]),
    ]
    if any(t["judged_reads"].sum() > 0 for t, _ in have):
        panels.append(("mean RBER of judged reads", [("rber_mean", "")]))
        panels.append(("mean decoding level", [("level_mean", "")]))
    columns = set().union(*(t.columns for t, _ in have))
    flows = sorted({int(c[4:c.index("_")]) for c in columns if re.fullmatch(r"flow\d+_reads", c)})
    if flows:
        panels.append(("per flow (MB/s)", [(f"flow{i}_{op}_mb_s", f"flow {i} {op}")
                                           for i in flows for op in ("read", "write")]))
        panels.append(("per flow p99 (µs)", [(f"flow{i}_{op}_p99_ns", f"flow {i} {op}")
                                             for i in flows for op in ("read", "write")]))
    rates = [(c, name) for c, name in (("cache_read_hit_rate", "DRAM cache reads"),
                                       ("cache_write_hit_rate", "DRAM cache writes"),
                                       ("mapping_hit_rate", "mapping cache")) if c in columns]
    if rates:
        panels.append(("cache hit rate", rates))
    return panels


def _series(t: pl.DataFrame, col: str) -> pl.Series | None:
    """Column ``col`` as drawn (µs for ``*_ns``); ``None`` when the run lacks it or it is
    all null."""
    if col not in t.columns:
        return None
    y = t[col].cast(pl.Float64)
    if col.endswith("_ns"):
        y = y / 1e3
    return y if col == "free_blocks_min" or y.drop_nulls().len() else None


def _fmt_tip(v: float | None) -> str:
    return "–" if v is None else f"{v:.4g}"


def _add_tips(ax: Any, k: int, drawn: list[tuple[np.ndarray, pl.Series, str]],
              tips: dict[str, str]) -> None:
    """Hover bands over panel ``k``: each covers consecutive windows (at most
    :data:`MAX_TIPS` bands) and names the mean of each series drawn over them."""
    x = drawn[0][0]
    n = len(x)
    per = -(-n // MAX_TIPS)
    width = float(x[1] - x[0]) if n > 1 else 1.0
    for b, lo in enumerate(range(0, n, per)):
        hi = min(lo + per, n)
        lines = [f"t = {x[lo]:.6g} – {x[hi - 1] + width:.6g} s"
                 + (f" ({hi - lo} windows, means)" if hi - lo > 1 else "")]
        for _, y, name in drawn:
            v = y.slice(lo, hi - lo).mean()
            lines.append(f"{name or 'value'}: {_fmt_tip(v if isinstance(v, float) else None)}")
        gid = f"tip-{k}-{b}"
        ax.axvspan(x[lo], x[hi - 1] + width, alpha=0, zorder=10, gid=gid)
        tips[gid] = "\n".join(lines)


def timeline_panels(runs: list[Run], labels: list[str],
                    tips: dict[str, str] | None = None) -> Figure | None:
    """The timeline's panels over simulated time (s). With ``tips``, each panel gets hover
    bands (``gid`` → their text into ``tips``; the report adds them as SVG titles)."""
    have = [(dense(r.timeline), lab) for r, lab in zip(runs, labels, strict=True)
            if r.timeline is not None and r.timeline.height]
    if not have:
        return None
    panels = _panels(have)
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 2.0 * len(panels)), sharex=True)
    for k, (ax, (title, cols)) in enumerate(zip(axes, panels, strict=True)):
        drawn: list[tuple[np.ndarray, pl.Series, str]] = []
        for t, lab in have:
            x = (t["start_ns"] / 1e9).to_numpy()
            for col, what in cols:
                y = _series(t, col)
                if y is None:
                    continue
                if y.drop_nulls().sum() == 0 and what not in ("read", "write", ""):
                    continue
                name = " ".join(s for s in (lab if len(have) > 1 else "", what) if s)
                ax.plot(x, y.to_numpy(), label=name or None, lw=1)
                drawn.append((x, y, name))
        if tips is not None and len(have) == 1 and drawn:
            _add_tips(ax, k, drawn, tips)
        ax.set_ylabel(title, fontsize=8)
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7, loc="upper right")
    axes[-1].set_xlabel("simulated time (s)")
    fig.tight_layout()
    return fig


def reliability_hists(runs: list[Run], labels: list[str]) -> Figure | None:
    """The judged reads' RBER histogram and decoding levels."""
    have = [(r.summary["reliability"], lab) for r, lab in zip(runs, labels, strict=True)
            if r.summary.get("reliability") and r.summary["reliability"].get("page_reads")]
    if not have:
        return None
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.6))
    width = 0.8 / len(have)
    for i, (rel, lab) in enumerate(have):
        bins = [h for h in rel.get("rber_histogram", []) if h["reads"]]
        if bins:
            a.step([h["rber_from"] for h in bins], [h["reads"] for h in bins], where="post",
                   label=lab)
        levels = rel.get("decoded_at_level", [])
        b.bar([lv + i * width for lv in range(len(levels))], levels, width=width, label=lab)
    a.set_xscale("log")
    a.set_xlabel("page RBER")
    a.set_ylabel("judged reads")
    b.set_xlabel("decoding level (0 = hard)")
    b.set_ylabel("reads decoded")
    for ax in (a, b):
        ax.grid(alpha=0.3)
        if len(have) > 1:
            ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def pe_histogram(pe: np.ndarray, max_bins: int = 60) -> tuple[np.ndarray, np.ndarray, int]:
    """Blocks per P/E count: ``(lows, counts, width)``: bin ``i`` holds the blocks with
    ``lows[i] <= pe < lows[i] + width``; one bin per value while the values span at most
    ``max_bins``, else whole-number bins of equal width. The counts sum to the blocks."""
    pe = np.asarray(pe, dtype=np.int64)
    lo, hi = int(pe.min()), int(pe.max())
    width = max(1, -(-(hi - lo + 1) // max_bins))
    lows = np.arange(lo, hi + 1, width)
    counts = np.bincount((pe - lo) // width, minlength=len(lows))
    return lows, counts, width


def pe_distribution(runs: list[Run], labels: list[str]) -> Figure | None:
    """The blocks' P/E cycles at the end of each run (histogram)."""
    have = [(r.pe, lab) for r, lab in zip(runs, labels, strict=True)
            if r.pe is not None and len(r.pe)]
    if not have:
        return None
    fig, ax = plt.subplots(figsize=(10, 3.4))
    for pe, lab in have:
        lows, counts, width = pe_histogram(pe)
        ax.stairs(counts, np.append(lows, lows[-1] + width),
                  label=f"{lab}: {len(pe):,} blocks, mean {pe.mean():,.1f}, max {int(pe.max()):,}")
    ax.set_xlabel("P/E cycles at the end of the run")
    ax.set_ylabel("blocks")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_runs(
    runs: Sequence[Any], out: str | os.PathLike | None = None, formats: Sequence[str] = FORMATS,
    tips: dict[str, str] | None = None,
) -> dict[str, Figure]:
    """Draws the figures of ``runs`` (run directories, :class:`Run` or ``Result``s);
    writes each as ``<name>.<format>`` into ``out`` when given. Returns them by name.
    ``tips``: filled with the timeline's hover texts (see :func:`timeline_panels`)."""
    loaded = [_run_of(r) for r in runs]
    labels = _labels(loaded)
    figs = {
        name: fig
        for name, fig in (
            ("latency_cdf", latency_cdf(loaded, labels)),
            ("timeline", timeline_panels(loaded, labels, tips)),
            ("reliability", reliability_hists(loaded, labels)),
            ("pe_distribution", pe_distribution(loaded, labels)),
        )
        if fig is not None
    }
    if out is not None:
        d = Path(out)
        d.mkdir(parents=True, exist_ok=True)
        for name, fig in figs.items():
            for fmt in formats:
                fig.savefig(d / f"{name}.{fmt}", dpi=110)
    return figs
