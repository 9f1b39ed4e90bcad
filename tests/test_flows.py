"""Several I/O flows (``[[workload.flows]]``) through the front, on the compiled core: the
shipped example runs and its per-flow counts add up to the totals, a flow's relative trace
path is taken relative to its config file, and a bad flow key is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import nandlab
from nandlab.cli import app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "configs" / "examples" / "two_flows.toml"


def test_two_flows_example_reports_each_flow(real_core):
    s = nandlab.run(EXAMPLE, progress=False).summary
    f0, f1 = s["flows"]
    assert (f0["id"], f1["id"]) == (0, 1)
    # The example's own numbers: 8,000 requests in flow 0, 400 64 KiB writes in flow 1.
    assert f0["requests"]["count"] == 8_000 and f1["requests"]["count"] == 400
    assert f1["requests"]["reads"] == 0 and f1["write"]["bytes"] == 400 * 65_536
    for k in ("count", "reads", "writes", "trims"):
        assert f0["requests"][k] + f1["requests"][k] == s["requests"][k], k
    # Flow 1 reads nothing: its read statistics are null (statistics over no request).
    assert f1["read"]["max_ns"] is None and f1["read"]["mean_ns"] is None
    for cls in ("read", "write"):
        assert f0[cls]["count"] + f1[cls]["count"] == s[cls]["count"]
        maxima = [f[cls]["max_ns"] for f in (f0, f1) if f[cls]["max_ns"] is not None]
        assert max(maxima) == s[cls]["max_ns"]


def test_a_flow_trace_path_is_relative_to_its_config(real_core, tmp_path, monkeypatch):
    # DiskSim lines (time ns, device, lba, sectors, 1 = read); device 3 becomes flow 1.
    (tmp_path / "t.trace").write_text("0 3 0 8 1\n1000 3 8 8 0\n2000 3 16 8 1\n")
    cfg = tmp_path / "flows.toml"
    cfg.write_text(
        "[[workload.flows]]\nrequests = 5\nread_fraction = 0.0\n"
        '[[workload.flows]]\nkind = "trace"\npath = "t.trace"\nformat = "disksim"\n'
    )
    monkeypatch.chdir(ROOT)
    s = nandlab.run(cfg, progress=False).summary
    counts = [(f["requests"]["reads"], f["requests"]["writes"]) for f in s["flows"]]
    assert counts == [(0, 5), (2, 1)]


def test_a_bad_flow_key_is_named(real_core, tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[[workload.flows]]\nrequests = 5\n[[workload.flows]]\niops = -1.0\n")
    with pytest.raises(nandlab.ConfigError, match=r"workload\.flows\[1\]\.iops"):
        nandlab.run(cfg, progress=False)
    r = CliRunner().invoke(app, ["run", str(cfg), "-q"])
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [r.stderr.strip()] and "workload.flows[1].iops" in r.stderr
