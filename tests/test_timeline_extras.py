"""The timeline's per-flow and cache columns, the blocks' P/E distribution and the report's
hover and zoom (issue 36). The windows' arithmetic is checked by hand in the core's tests
(`metrics/timeline/mod.rs`, `tests/integration/timeline.rs`); here: the front end's files,
frames and figures, against the summary and against hand-worked cases."""

from __future__ import annotations

import html
import re

import numpy as np
import polars as pl
import pytest

import nandlab
from cli_errors import cli
from nandlab import html_report, plots
from nandlab.timeline import CACHE_COLUMNS, FLOW_COLUMNS, MAPPING_COLUMNS, TIMELINE_SCHEMA, dense

# Two flows on a small device with a DRAM cache and a cached mapping table, so GC erases;
# a 1 MiB footprint, so the cache hits.
FLOW = {"kind": "synthetic", "requests": 1500, "read_fraction": 0.5, "iops": 2_000.0,
        "footprint_bytes": 1 << 20}
CFG = {
    "device": {"channels": 1, "chips_per_channel": 1, "dies_per_chip": 1, "planes_per_die": 1,
               "blocks_per_plane": 32, "pages_per_block": 64},
    "aging": {"fill_fraction": 0.8},
    "cache": {"capacity_bytes": 65_536},
    "ftl": {"mapping_cache": {"capacity_bytes": 4096}},
    "workload": {"flows": [FLOW, {**FLOW, "read_fraction": 0.0, "size_bytes": 8192}]},
    "output": {"timeline_ns": 5_000_000, "pe_cycles": True},
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    out = tmp_path_factory.mktemp("extras")
    return nandlab.run(CFG, out=out, progress=False), out


def test_flow_and_cache_columns_sum_to_the_summary(saved):
    r, out = saved
    t = r.timeline
    names = [*TIMELINE_SCHEMA, *(f"flow{i}_{c}" for i in range(2) for c in FLOW_COLUMNS),
             *CACHE_COLUMNS, *MAPPING_COLUMNS]
    assert t.columns == names
    assert pl.read_parquet(out / "timeline.parquet").equals(t)
    s = r.summary
    for i, f in enumerate(s["flows"]):
        for op in ("reads", "writes", "trims"):
            assert t[f"flow{i}_{op}"].sum() == f["requests"][op], (i, op)
        # The largest window p99 is at most the flow's largest latency.
        assert t[f"flow{i}_write_p99_ns"].max() <= f["write"]["max_ns"]
    c = s["cache"]
    for col in ("read_hits", "read_misses", "write_hits", "write_misses"):
        assert t[f"cache_{col}"].sum() == c[col], col
    m = s["mapping_cache"]
    assert (t["mapping_hits"].sum(), t["mapping_misses"].sum()) == (m["hits"], m["misses"])
    assert m["misses"] > 0 and c["write_hits"] > 0
    # Hit rates: hits / (hits + misses) of the window, null where it had none.
    rate = t["cache_write_hits"] / (t["cache_write_hits"] + t["cache_write_misses"])
    assert (t["cache_write_hit_rate"] - rate).abs().max() < 1e-12
    assert t["cache_write_hit_rate"].null_count() == (
        (t["cache_write_hits"] + t["cache_write_misses"]) == 0).sum()
    # dense() fills the extra counts of idle windows with 0 and their rates with null.
    d = dense(t.filter(pl.col("start_ns") != t["start_ns"][1]))
    assert d["flow0_reads"][1] == 0 and d["mapping_hit_rate"][1] is None


def test_pe_cycles_saved_with_the_timeline(saved):
    r, out = saved
    pe = pl.read_parquet(out / "pe_cycles.parquet")
    dev = r.summary["config"]["device"]
    blocks = (dev["channels"] * dev["chips_per_channel"] * dev["dies_per_chip"]
              * dev["planes_per_die"] * dev["blocks_per_plane"])
    assert pe["block"].to_list() == list(range(blocks))
    # Blocks start at 0 P/E (the default aging): their cycles sum to the run's erases.
    assert r.summary["flash"]["erases"] > 0
    assert pe["pe_cycles"].sum() == r.summary["flash"]["erases"]
    assert pe.equals(r.pe_cycles)


def test_pe_histogram_by_hand():
    lows, counts, width = plots.pe_histogram(np.array([3, 0, 1, 3, 0, 3]))
    assert (lows.tolist(), counts.tolist(), width) == ([0, 1, 2, 3], [2, 1, 0, 3], 1)
    # 0..119 in at most 60 bins: width 2, two blocks each.
    lows, counts, width = plots.pe_histogram(np.arange(120), max_bins=60)
    assert width == 2 and lows.tolist() == list(range(0, 120, 2)) and set(counts) == {2}
    # 1000..1060 (61 values) in 60 bins: width 2, the last bin holds 1060 alone.
    lows, counts, width = plots.pe_histogram(np.arange(1000, 1061))
    assert width == 2 and len(lows) == 31 and counts[-1] == 1 and counts.sum() == 61


def test_pe_figure_from_a_run_and_from_the_retirement_summary(saved, tmp_path):
    r, out = saved
    figs = plots.plot_runs([out])
    assert "per flow (MB/s)" in [a.get_ylabel() for a in figs["timeline"].axes]
    assert "cache hit rate" in [a.get_ylabel() for a in figs["timeline"].axes]
    (ax,) = figs["pe_distribution"].axes
    blocks = pl.read_parquet(out / "pe_cycles.parquet").height
    assert f"{blocks:,} blocks" in ax.get_legend().get_texts()[0].get_text()
    # A run without a timeline but with retirement: its summary carries the P/E.
    run = plots.Run("r", {"flash": {"retirement": {"pe_by_block": [5, 5, 7]}}}, None, None,
                    plots._pe_of({"flash": {"retirement": {"pe_by_block": [5, 5, 7]}}}, None))
    fig = plots.pe_distribution([run], ["r"])
    assert fig is not None and "3 blocks" in fig.axes[0].get_legend().get_texts()[0].get_text()


def _frame(values: list[float]) -> pl.DataFrame:
    n = len(values)
    rows = {k: [0] * n for k in TIMELINE_SCHEMA}
    rows.update(start_ns=[i * 1_000_000 for i in range(n)], window_ns=[1_000_000] * n,
                read_mb_s=values, free_blocks_min=[9] * n)
    return pl.DataFrame(rows, schema=TIMELINE_SCHEMA)


def _tips(page: str, panel: int) -> list[str]:
    """The hover texts of panel ``panel`` of the page's timeline, in order."""
    found = re.findall(rf'<g id="tip-{panel}-(\d+)"><title>([^<]*)</title>', page)
    return [html.unescape(text) for _, text in sorted(found, key=lambda f: int(f[0]))]


def test_report_hover_values_and_zoom_by_hand():
    # Three windows of 1 ms with read MB/s 1, 2, 3: one band each, exact values.
    run = plots.Run("hand", {"version": "x", "seed": 1, "config": {}}, None, _frame([1, 2, 3]))
    page = html_report.render(run, None, "")
    tips = _tips(page, 0)  # panel 0: throughput
    assert [t.splitlines()[1] for t in tips] == ["read: 1", "read: 2", "read: 3"]
    assert tips[1].splitlines()[0] == "t = 0.001 – 0.002 s"
    assert tips[0].splitlines()[2] == "write: 0"
    assert 'class="zoomable"' in page and "viewBox" in page and page.count("<script>") == 1
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    # 240 windows, MB/s = window index: 120 bands of two windows, band b's mean 2b + 0.5.
    run = plots.Run("hand", {"version": "x", "seed": 1, "config": {}}, None,
                    _frame([float(i) for i in range(240)]))
    tips = _tips(html_report.render(run, None, ""), 0)
    assert len(tips) == plots.MAX_TIPS
    assert [t.splitlines()[1] for t in tips[:3]] == ["read: 0.5", "read: 2.5", "read: 4.5"]
    assert "(2 windows, means)" in tips[0].splitlines()[0]
    # The free-blocks panel (panel 3) names its one series "value".
    assert _tips(html_report.render(run, None, ""), 3)[0].splitlines()[1] == "value: 9"


def test_cli_plot_writes_the_pe_figure(saved):
    _, out = saved
    r = cli("plot", out)
    assert r.exit_code == 0, r.output
    assert (out / "figures" / "pe_distribution.png").is_file()
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "pe distribution" in page and "<title>" in page
