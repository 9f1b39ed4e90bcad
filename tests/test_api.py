"""The Python API on the real core (a small device, 500 synthetic requests)."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

import nandlab
from nandlab.api import REQUEST_SCHEMA

#: The default device with 2 channels and 64 blocks per plane: a run takes under a second.
CFG = "seed = 3\n[device]\nchannels = 2\nblocks_per_plane = 64\n[workload]\nrequests = 500\n"
#: Three requests, DiskSim ASCII (time_ns device lba size type(1=read)).
TRACE = "0 0 0 8 1\n10 0 8 8 0\n20 0 16 8 1\n"

pytestmark = pytest.mark.usefixtures("real_core")


def test_run_returns_summary_requests_and_config():
    r = nandlab.run(CFG, progress=False)
    assert r.metric("requests.count") == 500
    assert r.metric("requests.reads") + r.metric("requests.writes") == 500
    assert r.seed == 3 and r.version == nandlab.__version__
    assert r.config == r.summary["config"]
    assert r.config["ftl"]["gc"]["victim"] == "greedy", "defaults resolved by the core"
    assert r.recorded
    assert r.requests.height == 500
    assert dict(r.requests.schema) == REQUEST_SCHEMA
    # Records in arrival order, one per request, reads and writes as counted.
    assert r.requests["arrival_ns"].is_sorted()
    assert (r.requests["op"] == "read").sum() == r.metric("requests.reads")


def test_overrides_reach_the_core():
    r = nandlab.run(CFG, overrides={"ftl.gc.victim": "cost_benefit", "seed": 9}, progress=False)
    assert r.config["ftl"]["gc"]["victim"] == "cost_benefit"
    # The old flat key still works and resolves to the same table.
    assert r.seed == 9
    r = nandlab.run(CFG, overrides={"ftl.gc_policy": "weighted"}, progress=False)
    assert r.config["ftl"]["gc"]["victim"] == "weighted"


def test_unrecorded_requests_give_empty_frame_with_schema(tmp_path):
    r = nandlab.run(CFG, overrides={"output.record_requests": False}, out=tmp_path,
                    progress=False)
    assert not r.recorded
    assert r.requests.height == 0
    assert dict(r.requests.schema) == REQUEST_SCHEMA
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_out_writes_summary_and_requests(tmp_path, fmt):
    out = tmp_path / "run1"
    r = nandlab.run(CFG, out=out, progress=False, requests_format=fmt)
    assert r.out == out
    assert json.loads((out / "summary.json").read_text()) == r.summary
    back = pl.read_parquet(out / "requests.parquet") if fmt == "parquet" else pl.read_csv(
        out / "requests.csv", schema=REQUEST_SCHEMA)
    assert back.equals(r.requests)
    assert sorted(p.name for p in out.iterdir()) == ["requests." + fmt, "summary.json"]


def test_requests_format_none_writes_summary_only(tmp_path):
    nandlab.run(CFG, out=tmp_path, progress=False, requests_format="none")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]
    with pytest.raises(nandlab.ConfigError):
        nandlab.run(CFG, out=tmp_path, progress=False, requests_format="xlsx")  # type: ignore


def test_failed_run_leaves_no_summary(tmp_path):
    bad = tmp_path / "bad.trace"
    bad.write_text(TRACE + "bad\n")
    with pytest.raises(nandlab.TraceError, match="bad.trace:4"):
        nandlab.run(CFG, trace=bad, trace_format="disksim", out=tmp_path / "o", progress=False)
    assert not (tmp_path / "o" / "summary.json").exists()


def test_core_errors_surface_as_nandlab_error():
    with pytest.raises(nandlab.NandlabError, match="ftl.gc_policy"):
        nandlab.run(CFG, overrides={"ftl.gc_policy": "random"}, progress=False)


#: Enough requests for the core's progress callback (at the first 4,096 requests, then at
#: most every 0.25 s of wall time, at multiples of 4,096).
LONG = {"workload.requests": 200_000, "output.record_requests": False}


def test_progress_callback_sees_counts_and_can_cancel():
    seen = []
    nandlab.run(CFG, overrides=LONG, progress=lambda done, total: seen.append(done))
    assert seen[0] == 4096
    assert all(d % 4096 == 0 and d < 200_000 for d in seen) and seen == sorted(set(seen))
    with pytest.raises(nandlab.NandlabError, match="cancelled"):
        nandlab.run(CFG, overrides=LONG, progress=lambda done, total: done < 4096)


def test_ctrl_c_in_progress_callback_becomes_keyboard_interrupt(tmp_path):
    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        nandlab.run(CFG, overrides=LONG, progress=interrupt, out=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_check_config_resolves_defaults():
    cfg = nandlab.check_config({"seed": 1}, {"ftl.overprovisioning": 0.2})
    assert cfg["seed"] == 1 and cfg["ftl"]["overprovisioning"] == 0.2
    assert cfg["output"] == {"record_requests": True}


def test_trace_info(tmp_path):
    t = tmp_path / "t.trace"
    t.write_text(TRACE)
    info = nandlab.trace_info(t, "disksim")
    assert info["requests"] == 3 and info["reads"] == 2 and info["writes"] == 1
    assert info["total_bytes"] == 3 * 8 * 512
    with pytest.raises(FileNotFoundError):
        nandlab.trace_info(tmp_path / "missing.trace")
    with pytest.raises(IsADirectoryError):
        nandlab.trace_info(tmp_path)


def test_trace_convert_infers_format_and_is_atomic(tmp_path):
    src = tmp_path / "t.trace"
    src.write_text(TRACE)
    assert nandlab.trace_convert(src, tmp_path / "t.csv", "disksim") == 3
    # MSR: 100 ns ticks, host, disk, type, offset and size in bytes, response time.
    assert (tmp_path / "t.csv").read_text().splitlines()[1] == "0,nandlab,0,Write,4096,4096,0"
    with pytest.raises(nandlab.ConfigError, match="output format"):
        nandlab.trace_convert(src, tmp_path / "t.out", "disksim")
    src.write_text("0 0 0 8 1\nbad\n")
    with pytest.raises(nandlab.TraceError, match=":2:"):
        nandlab.trace_convert(src, tmp_path / "u.trace", "disksim")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.trace"]


def test_version_is_the_package_version():
    assert isinstance(nandlab.__version__, str) and nandlab.__version__


def test_core_signal_check_cancel_becomes_keyboard_interrupt(monkeypatch):
    # The real core checks for Ctrl-C itself and then reports "cancelled"; stand in for a
    # Ctrl-C by raising that error from simulate.
    core = nandlab._native.core()

    def simulate(config_json, progress=None, requests_csv=None, requests_parquet=None,
                 timeline_sink=None, timeline_parquet=None):
        raise core.NandlabError("cancelled")

    monkeypatch.setattr(core, "simulate", simulate)
    with pytest.raises(KeyboardInterrupt):
        nandlab.run(CFG, progress=False)


def test_result_repr_is_short():
    r = nandlab.run(CFG, progress=False)
    assert repr(r).startswith("Result(requests=500, seed=3, p99_ns=")
    assert len(repr(r)) < 200


def test_op_is_a_read_write_trim_enum_in_every_output(real_core, tmp_path):
    r = nandlab.run(CFG, out=tmp_path / "p", progress=False)
    assert r.requests.schema["op"] == pl.Enum(["read", "write", "trim"])
    # The synthetic workload reads and writes: both names appear, counted as the summary
    # counts them.
    counts = dict(r.requests["op"].value_counts().iter_rows())
    assert counts == {"read": r.summary["requests"]["reads"],
                      "write": r.summary["requests"]["writes"]}
    assert pl.read_parquet(tmp_path / "p" / "requests.parquet").schema["op"] == pl.Enum(
        ["read", "write", "trim"])
    nandlab.run(CFG, out=tmp_path / "c", progress=False, requests_format="csv")
    ops = pl.read_csv(tmp_path / "c" / "requests.csv")["op"]
    assert set(ops.unique()) == {"read", "write"}


def test_requests_frame_maps_codes_to_names():
    from nandlab.api import requests_frame

    df = requests_frame({"arrival_ns": [3, 1, 2], "latency_ns": [1, 1, 1],
                         "offset_bytes": [0, 0, 0], "size_bytes": [512, 512, 512],
                         "op": np.array([2, 0, 1], dtype=np.uint8)})
    assert df["op"].to_list() == ["read", "write", "trim"]  # sorted by arrival: 1, 2, 3
    assert dict(df.schema) == REQUEST_SCHEMA


def test_a_second_run_into_one_out_leaves_no_file_of_the_first(real_core, tmp_path):
    out = tmp_path / "o"
    nandlab.run(CFG, out=out, progress=False, requests_format="parquet")
    r = nandlab.run(CFG, overrides={"seed": 4}, out=out, progress=False,
                    requests_format="csv")
    assert sorted(p.name for p in out.iterdir()) == ["requests.csv", "summary.json"]
    assert json.loads((out / "summary.json").read_text())["seed"] == 4 == r.seed
    nandlab.run(CFG, overrides={"output.record_requests": False}, out=out, progress=False)
    assert sorted(p.name for p in out.iterdir()) == ["summary.json"]


def test_out_is_checked_before_the_run(real_core, tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(real_core, "simulate", lambda *a: calls.append(a))
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(nandlab.ConfigError, match="exists and is not a directory"):
        nandlab.run(CFG, out=f, progress=False)
    with pytest.raises(nandlab.ConfigError, match="/proc/nandlab-out: cannot write there"):
        nandlab.run(CFG, out="/proc/nandlab-out", progress=False)
    assert calls == [], "nothing was simulated"


def test_a_failed_run_removes_the_out_folder_it_made(real_core, tmp_path):
    bad = tmp_path / "bad.trace"
    bad.write_text(TRACE + "bad\n")
    with pytest.raises(nandlab.TraceError, match="bad.trace:4"):
        nandlab.run(CFG, trace=bad, trace_format="disksim", out=tmp_path / "a" / "b",
                    progress=False)
    assert list(tmp_path.iterdir()) == [bad]
