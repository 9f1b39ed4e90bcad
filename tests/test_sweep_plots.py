"""``nandlab plot SWEEP_DIR --x KEY --y METRIC`` and a sweep's report.html (issue 36): the
points are the means over seeds of the runs' own summaries, the bars their range, one
line per combination of the other swept keys; bad columns are one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import headless_chromium
from cli_errors import cli, one_line_error
from nandlab import sweep_plots
from nandlab.sweeps import run_sweep

ROOT = Path(__file__).resolve().parents[1]
POLICIES = ["greedy", "cost_benefit"]
READS = [0.3, 0.7]


@pytest.fixture(scope="module")
def sweep(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sweep")
    spec = {"config": str(ROOT / "configs" / "demo.toml"), "seeds": [1, 2],
            "set": {"workload.requests": 300, "device.blocks_per_plane": 64,
                    "output.record_requests": False},
            "grid": {"ftl.gc_policy": POLICIES, "workload.read_fraction": READS}}
    run_sweep(spec, out, jobs=1, progress=False)
    return out


def by_hand(sweep: Path, metric: str) -> dict[tuple[str, float], list[float]]:
    """(policy, read fraction) -> the metric of each seed's run, from runs/*/ directly."""
    section, key = metric.split(".")
    got: dict[tuple[str, float], list[float]] = {}
    for d in (sweep / "runs").iterdir():
        cols = json.loads((d / "run.json").read_text())["columns"]
        value = json.loads((d / "summary.json").read_text())[section][key]
        pt = (cols["config.ftl.gc_policy"], cols["config.workload.read_fraction"])
        got.setdefault(pt, []).append(value)
    return got


def test_points_are_seed_means_with_their_range(sweep, tmp_path):
    fig, agg = sweep_plots.plot_sweep(sweep, "workload.read_fraction", "read.mean_ns",
                                      out=tmp_path, formats=["png"])
    want = by_hand(sweep, "read.mean_ns")
    assert agg.height == len(POLICIES) * len(READS)
    for row in agg.iter_rows(named=True):
        seeds = want[(row["config.ftl.gc_policy"], row["config.workload.read_fraction"])]
        assert row["runs"] == 2
        assert row["mean"] == pytest.approx(sum(seeds) / 2, rel=1e-12)
        assert (row["min"], row["max"]) == (min(seeds), max(seeds))
    # One line per GC policy (the other swept key), x ascending.
    ax = fig.axes[0]
    assert len(ax.containers) == len(POLICIES)
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == [
        f"ftl.gc_policy={p}" for p in sorted(POLICIES)]
    assert (tmp_path / "read.mean_ns_vs_workload.read_fraction.png").is_file()


def test_categorical_x_and_the_cli_report(sweep):
    r = cli("plot", sweep, "--x", "ftl.gc_policy", "--y", "write.p99_ns", "-f", "svg")
    assert r.exit_code == 0, r.stderr
    assert (sweep / "figures" / "write.p99_ns_vs_ftl.gc_policy.svg").is_file()
    page = (sweep / "report.html").read_text(encoding="utf-8")
    assert "<svg" in page and "http" not in page.split("<svg", 1)[0]
    assert page.count("<tr>") == 1 + len(POLICIES) * len(READS)


@pytest.mark.skipif(headless_chromium.CHROMIUM is None, reason=headless_chromium.SKIP_REASON)
def test_sweep_report_renders_in_headless_chromium(sweep, tmp_path):
    r = cli("plot", sweep, "--x", "workload.read_fraction", "--y", "read.mean_ns")
    assert r.exit_code == 0, r.stderr
    seen = headless_chromium.render(sweep / "report.html", screenshot=tmp_path / "shot.png")
    assert seen["console"] == [] and seen["logged"] == [], (seen["console"], seen["logged"])
    # One figure, laid out, drawing a line and bars per GC policy, axes and labels.
    (f,) = seen["svgs"]
    assert f["w"] > 300 and f["h"] > 200 and f["drawn"] > 30, f
    assert seen["colored"] > 500


def test_bad_columns_and_modes_are_one_line_errors(sweep, tmp_path):
    assert one_line_error(cli("plot", sweep, "--x", "ftl.gc_policy", "--y", "read.mean_n"),
                          "--y 'read.mean_n'",
                          "read.mean_ns")
    assert one_line_error(cli("plot", sweep, "--x", "ftl.gc_polcy", "--y", "read.mean_ns"),
                          "--x 'ftl.gc_polcy'")
    assert one_line_error(cli("plot", sweep, "--x", "ftl.gc_policy"), "--y")
    # Two keys vary: which one is x must be said.
    assert one_line_error(cli("plot", sweep, "--y", "read.mean_ns"),
                          "sweeps ftl.gc_policy, workload.read_fraction: give --x")
    assert one_line_error(cli("plot", sweep, "--x", "ftl.gc_policy", "--y", "workload"),
                          "not a number")
    assert one_line_error(cli("plot", tmp_path, "--y", "read.mean_ns"), "not the --out "
                          "directory of a sweep")
