"""Figures of one run or several overlaid (``nandlab plot RUN_DIR [RUN_DIR ...]``,
``Result.plot()``): the latency CDF per op, the timeline's panels (throughput, p99
latency, background work, free blocks, RBER and decoding level), the RBER histogram and
the decoding levels of the judged reads, each drawn only when the runs have its data.
Several runs share each figure, labelled by the config keys in which they differ.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .errors import MissingFileError  # noqa: E402
from .timeline import TIMELINE_FILE, dense  # noqa: E402

FORMATS = ("png", "svg")


@dataclass
class Run:
    """What the figures need of a run."""

    label: str
    summary: dict[str, Any]
    requests: pl.DataFrame | None
    timeline: pl.DataFrame | None


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
    return Run(d.name or str(d), summary, requests, timeline)


def _run_of(r: Any) -> Run:
    if isinstance(r, Run):
        return r
    if isinstance(r, str | os.PathLike):
        return load_run(r)
    # A Result of the API.
    requests = r.requests if r.recorded else None
    return Run(str(r.out or "run"), r.summary, requests, r.timeline)


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


def timeline_panels(runs: list[Run], labels: list[str]) -> Figure | None:
    """The timeline's panels over simulated time (s)."""
    have = [(dense(r.timeline), lab) for r, lab in zip(runs, labels, strict=True)
            if r.timeline is not None and r.timeline.height]
    if not have:
        return None
    panels: list[tuple[str, list[tuple[str, str]]]] = [
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
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 2.0 * len(panels)), sharex=True)
    for ax, (title, cols) in zip(axes, panels, strict=True):
        for t, lab in have:
            x = (t["start_ns"] / 1e9).to_numpy()
            for col, what in cols:
                y = t[col].cast(pl.Float64)
                if col.endswith("_ns"):
                    y = y / 1e3
                if col != "free_blocks_min" and not y.drop_nulls().len():
                    continue
                if y.drop_nulls().sum() == 0 and what not in ("read", "write", ""):
                    continue
                name = " ".join(s for s in (lab if len(have) > 1 else "", what) if s)
                ax.plot(x, y.to_numpy(), label=name or None, lw=1)
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


def plot_runs(
    runs: Sequence[Any], out: str | os.PathLike | None = None, formats: Sequence[str] = FORMATS
) -> dict[str, Figure]:
    """Draws the figures of ``runs`` (run directories, :class:`Run` or ``Result``s);
    writes each as ``<name>.<format>`` into ``out`` when given. Returns them by name."""
    loaded = [_run_of(r) for r in runs]
    labels = _labels(loaded)
    figs = {
        name: fig
        for name, fig in (
            ("latency_cdf", latency_cdf(loaded, labels)),
            ("timeline", timeline_panels(loaded, labels)),
            ("reliability", reliability_hists(loaded, labels)),
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
