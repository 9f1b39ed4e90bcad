"""A sweep's results drawn (``nandlab plot SWEEP_DIR --x KEY --y METRIC``) and its
``report.html``: a metric against one swept key, one line per combination of the other
swept keys that vary, each point the mean over the seeds with their range as its bar.
"""

from __future__ import annotations

import difflib
import html
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from matplotlib.figure import Figure

from .errors import ConfigError, MissingFileError
from .io import atomic_write
from .plots import FORMATS, plt
from .sweeps.store import RESULTS_FILE

REPORT_FILE = "report.html"


@dataclass
class Sweep:
    """A sweep's results table and the columns it swept (the workload first, where the
    sweep has several)."""

    path: Path
    table: pl.DataFrame
    swept: list[str]


def load_sweep(directory: str | os.PathLike) -> Sweep:
    """The sweep in ``directory`` (``--out`` of ``nandlab sweep``); a one-line error when
    it is not one or no run has finished."""
    d = Path(directory)
    if not (d / "sweep.json").is_file():
        raise MissingFileError(f"{d}: no sweep.json (not the --out directory of a sweep)")
    if not (d / RESULTS_FILE).is_file():
        raise MissingFileError(f"{d}: no {RESULTS_FILE} (no run of the sweep has finished)")
    table = pl.read_parquet(d / RESULTS_FILE)
    swept: dict[str, None] = {}
    for p in sorted((d / "runs").glob("*/run.json")):
        swept.update(dict.fromkeys(json.loads(p.read_text(encoding="utf-8"))["columns"]))
    names = [c for c in swept if c in table.columns]
    if table.height and table["workload"].n_unique() > 1:
        names.insert(0, "workload")
    return Sweep(d, table, names)


def is_sweep(directory: str | os.PathLike) -> bool:
    return (Path(directory) / "sweep.json").is_file()


def column(sweep: Sweep, name: str, option: str) -> str:
    """The table column ``name`` names (a swept config key may omit its ``config.``); a
    one-line error naming the option and the closest columns otherwise."""
    for c in (name, f"config.{name}"):
        if c in sweep.table.columns:
            return c
    near = difflib.get_close_matches(name, sweep.table.columns, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(near)}" if near else f"; swept: {', '.join(sweep.swept)}"
    raise ConfigError(f"{option} {name!r}: not a column of {sweep.path / RESULTS_FILE}{hint}")


def _numeric(df: pl.DataFrame, col: str) -> bool:
    return df[col].dtype.is_numeric()


def aggregate(sweep: Sweep, x: str, y: str, by: list[str]) -> pl.DataFrame:
    """Per (``by``, ``x``): the mean of ``y`` over the seeds, its lowest and highest value
    and the number of runs, in the order the sweep first has them."""
    df = sweep.table.filter(pl.col(y).is_not_null())
    keys = [*by, x]
    return (df.with_row_index("_order")
              .group_by(keys, maintain_order=True)
              .agg(pl.col(y).mean().alias("mean"), pl.col(y).min().alias("min"),
                   pl.col(y).max().alias("max"), pl.len().alias("runs"),
                   pl.col("_order").min())
              .sort([*by, x] if _numeric(df, x) else "_order")
              .drop("_order"))


def plot_sweep(
    directory: str | os.PathLike, x: str, y: str, by: list[str] | None = None,
    out: str | os.PathLike | None = None, formats: tuple[str, ...] | list[str] = FORMATS,
) -> tuple[Figure, pl.DataFrame]:
    """Draws ``y`` against ``x`` for the sweep in ``directory``: one line per combination of
    ``by`` (default: the other swept columns that vary), the mean over seeds with the
    range as bars. Writes ``<y>_vs_<x>.<format>`` into ``out`` (default:
    ``SWEEP_DIR/figures``). Returns the figure and the plotted table."""
    sweep = load_sweep(directory)
    xc, yc = column(sweep, x, "--x"), column(sweep, y, "--y")
    if not _numeric(sweep.table, yc):
        raise ConfigError(f"--y {y!r}: not a number in {sweep.path / RESULTS_FILE}")
    groups = ([column(sweep, b, "--by") for b in by] if by is not None else
              [c for c in sweep.swept if c != xc and sweep.table[c].n_unique() > 1])
    agg = aggregate(sweep, xc, yc, groups)
    categories = None if _numeric(agg, xc) else list(dict.fromkeys(agg[xc].to_list()))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    parts = agg.partition_by(groups, maintain_order=True) if groups else [agg]
    for part in parts:
        xs = part[xc].to_list()
        pos = [categories.index(v) for v in xs] if categories is not None else xs
        mean, lo, hi = (part[c].to_numpy() for c in ("mean", "min", "max"))
        label = ", ".join(f"{_short(g)}={part[g][0]}" for g in groups) or None
        # Names on the axis are not an order: points only, no line between them.
        ax.errorbar(pos, mean, yerr=[mean - lo, hi - mean], marker="o", capsize=3,
                    linestyle="-" if categories is None else "none", label=label)
    if categories is not None:
        ax.set_xticks(range(len(categories)), [str(c) for c in categories])
        ax.margins(x=0.2)
    ax.set_xlabel(_short(xc))
    ax.set_ylabel(yc)
    ax.set_title(f"{yc} by {_short(xc)} (mean over seeds; bars: range)", fontsize=10)
    ax.grid(alpha=0.3)
    if len(parts) > 1:
        ax.legend(fontsize=7)
    fig.tight_layout()
    dest = Path(out) if out is not None else sweep.path / "figures"
    dest.mkdir(parents=True, exist_ok=True)
    for fmt in formats:
        fig.savefig(dest / f"{_slug(yc)}_vs_{_slug(xc)}.{fmt}", dpi=110)
    return fig, agg


def write_sweep_report(directory: str | os.PathLike, fig: Figure, agg: pl.DataFrame) -> Path:
    """``SWEEP_DIR/report.html``: the plotted table and the figure inline."""
    from .html_report import inline_svg, page, table

    sweep = Path(directory)
    rows = [[_fmt(v) for v in r] for r in agg.iter_rows()]
    body = (f"<h1>nandlab sweep: {html.escape(sweep.name or str(sweep))}</h1>"
            f"<figure>{inline_svg(fig)}</figure>"
            f"<h2>Mean over seeds, lowest and highest</h2>{table(rows, tuple(agg.columns))}")
    path = sweep / REPORT_FILE
    with atomic_write(path) as f:
        f.write(page(body))
    return path


def _short(col: str) -> str:
    return col.removeprefix("config.")


def _slug(col: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", _short(col))


def _fmt(v: object) -> str:
    return f"{v:.6g}" if isinstance(v, float) else str(v)
