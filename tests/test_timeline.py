"""The timeline, `nandlab plot`, report.html and a quiet `-q` (issue 36). The windows'
own arithmetic is checked by hand in the core's tests (`metrics/timeline.rs`,
`tests/integration/timeline.rs`); here: the front end's files, frames and figures."""

from __future__ import annotations

import re

import polars as pl
import pytest

import headless_chromium
import nandlab
from cli_errors import cli, one_line_error
from nandlab import html_report, plots
from nandlab.timeline import TIMELINE_SCHEMA, dense, parse_window

# Open loop at 20k IOPS on a small synthetic run: 4000 requests over ~0.2 s.
CFG = {
    "workload": {"kind": "synthetic", "requests": 4000, "read_fraction": 0.6, "iops": 20_000.0},
    "output": {"timeline_ns": 10_000_000},
}


def test_parse_window():
    assert parse_window("100ms") == 100_000_000
    assert parse_window("1s") == 1_000_000_000
    assert parse_window("500us") == 500_000
    assert parse_window("250_000") == 250_000
    for bad in ("fast", "0ms", "1.5ns", "-1s"):
        with pytest.raises(ValueError):
            parse_window(bad)


def test_timeline_in_memory_and_streamed_agree_and_sum_to_the_summary(tmp_path):
    memory = nandlab.run(CFG, progress=False)
    saved = nandlab.run(CFG, out=tmp_path, progress=False)
    t = memory.timeline
    assert t is not None and t.schema == pl.Schema(TIMELINE_SCHEMA)
    assert saved.timeline.equals(t)
    assert pl.read_parquet(tmp_path / "timeline.parquet").equals(t)
    s = memory.summary
    assert t["reads"].sum() == s["requests"]["reads"]
    assert t["writes"].sum() == s["requests"]["writes"]
    assert t["gc_erases"].sum() == s["flash"]["by_cause"]["gc"]["erases"]
    # ~0.2 s of arrivals in 10 ms windows, in order (idle windows give no row).
    assert t.height >= 15 and (t["start_ns"].diff().drop_nulls() > 0).all()
    assert (t["start_ns"] % 10_000_000 == 0).all()
    # The record of a window without reads has no read latency (null, not 0 or NaN).
    assert t.filter(pl.col("reads") == 0)["read_p99_ns"].null_count() == (t["reads"] == 0).sum()
    # No stray temporary files; no P/E file unless asked for (output.pe_cycles).
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "requests.parquet", "summary.json", "timeline.parquet"]


def test_dense_puts_idle_windows_back():
    rows = [{**{k: 0 for k in TIMELINE_SCHEMA}, "window_ns": 10, "start_ns": s, "reads": 1,
             "read_p99_ns": 5.0, "free_blocks_min": fb} for s, fb in ((0, 7), (30, 6))]
    t = pl.DataFrame(rows, schema=TIMELINE_SCHEMA)
    d = dense(t)
    assert d["start_ns"].to_list() == [0, 10, 20, 30]
    assert d["reads"].to_list() == [1, 0, 0, 1]
    assert d["read_p99_ns"].to_list() == [5.0, None, None, 5.0]
    assert d["free_blocks_min"].to_list() == [7, 7, 7, 6]
    assert d.schema == t.schema


def test_off_by_default_no_file_and_no_config_key(tmp_path):
    r = nandlab.run({"workload": CFG["workload"]}, out=tmp_path, progress=False)
    assert r.timeline is None
    assert "timeline_ns" not in r.summary["config"]["output"]
    assert not (tmp_path / "timeline.parquet").exists()


def test_pe_cycles_only_when_asked_with_or_without_a_timeline(tmp_path):
    cfg = {"workload": CFG["workload"], "output": {"pe_cycles": True}}
    r = nandlab.run(cfg, out=tmp_path, progress=False)
    assert r.timeline is None and not (tmp_path / "timeline.parquet").exists()
    pe = pl.read_parquet(tmp_path / "pe_cycles.parquet")
    assert pe.equals(r.pe_cycles) and pe.schema == pl.Schema({"block": pl.UInt32,
                                                              "pe_cycles": pl.UInt32})
    assert pe["block"].to_list() == list(range(pe.height))
    # Every block starts at 0 P/E (aging.initial_pe's default): the cycles are the erases.
    assert pe["pe_cycles"].cast(pl.UInt64).sum() == r.summary["flash"]["erases"]


def test_cli_run_plot_and_report(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[workload]\nkind = "synthetic"\nrequests = 3000\niops = 20000.0\n')
    out = tmp_path / "run"
    r = cli("run", cfg, "--out", out, "--timeline", "5ms", "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout == "" and r.stderr == ""  # -q: nothing at all on success
    assert (out / "timeline.parquet").is_file()
    r = cli("plot", out, "--preset", cfg)
    assert r.exit_code == 0, r.output
    # No P/E file (not asked for): no P/E figure, the rest as usual.
    names = sorted(p.name for p in (out / "figures").iterdir())
    assert names == sorted(f"{n}.{f}" for n in ("latency_cdf", "timeline")
                           for f in ("png", "svg"))
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 2
    # Self-contained: nothing is fetched (SVG namespaces are names, not loads).
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "output.timeline_ns" in page  # the config's difference from its preset


def test_plot_overlays_runs_labelled_by_their_differences(tmp_path):
    for iops in (10_000.0, 20_000.0):
        wl = {**CFG["workload"], "iops": iops}
        nandlab.run({**CFG, "workload": wl}, out=tmp_path / str(int(iops)), progress=False)
    figs = plots.plot_runs([tmp_path / "10000", tmp_path / "20000"])
    labels = [t.get_text() for t in figs["latency_cdf"].axes[0].get_legend().get_texts()]
    assert labels == ["workload.iops=10000.0", "workload.iops=20000.0"]
    assert one_line_error(cli("plot", tmp_path / "10000", tmp_path / "20000"), "--out")
    assert one_line_error(cli("plot", tmp_path / "nothing"), "summary.json")


def test_result_plot_and_html_repr():
    r = nandlab.run(CFG, progress=False)
    assert r.pe_cycles is None
    assert set(r.plot()) == {"latency_cdf", "timeline"}
    r = nandlab.run({**CFG, "output": {**CFG["output"], "pe_cycles": True}}, progress=False)
    assert set(r.plot()) == {"latency_cdf", "timeline", "pe_distribution"}
    html = r._repr_html_()
    assert "read p99" in html and "<table>" in html


def test_quiet_error_is_still_one_line(tmp_path):
    assert one_line_error(cli("run", tmp_path / "missing.toml", "-q"))
    assert one_line_error(cli("run", tmp_path / "missing.toml", "--timeline", "soon"))


@pytest.mark.skipif(headless_chromium.CHROMIUM is None, reason=headless_chromium.SKIP_REASON)
def test_report_renders_in_headless_chromium(tmp_path):
    out = tmp_path / "run"
    nandlab.run({**CFG, "output": {**CFG["output"], "pe_cycles": True}}, out=out, progress=False)
    page = html_report.write_report(out)
    seen = headless_chromium.render(page, screenshot=tmp_path / "shot.png")
    # No error or console message, from the page or as Chromium logged it.
    assert seen["console"] == [] and seen["logged"] == [], (seen["console"], seen["logged"])
    # Three figures (latency CDF, timeline, P/E), each laid out and drawing its lines,
    # axes and labels; the report has no canvas.
    assert len(seen["svgs"]) == 3 and seen["canvases"] == []
    for f in seen["svgs"]:
        assert f["w"] > 300 and f["h"] > 200 and f["drawn"] > 30, f
    # The figures painted: their coloured lines fill thousands of the screenshot's pixels
    # (9,424 when this was written; text and rules are grey).
    assert seen["colored"] > 2000
    (t,) = [f for f in seen["svgs"] if f["zoomable"]]
    # Hover: the pointer over each band's middle finds the band (its <title> the tooltip).
    assert t["titles"] > 0 and t["hover_hits"] == t["titles"], t
    # Wheel up zooms x by 0.8 around the pointer (y untouched), drag pans by a tenth of the
    # figure's width, double click restores the figure.
    x, y, w, h = t["home"]
    assert t["wheel"][1:] == pytest.approx([y, 0.8 * w, h])
    assert t["wheel"][0] == pytest.approx(x + 0.1 * w)
    assert t["pan"][0] == pytest.approx(t["wheel"][0] + 0.1 * 0.8 * w)
    assert t["pan"][2:] == t["wheel"][2:]
    assert t["reset"] == pytest.approx(t["home"])
