"""End to end against the compiled core (skipped, with the reason, when it is not built).

The facts asserted follow from the config alone: request counts, the op mix at its
extremes, request sizes and alignment, the recorded seed and config, determinism, and
the request count of the shared DTRS trace given in ``shared/traces/SOURCES.md``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import nandlab
from nandlab.api import REQUEST_SCHEMA
from nandlab.cli import app

N = 3000
PAGE = 4096
#: 2 channels x 1 chip x 1 die x 1 plane x 64 blocks x 64 pages x 4 KiB = 32 MiB raw.
SMALL = f"""
seed = 11

[device]
channels = 2
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 64
pages_per_block = 64
page_size_bytes = {PAGE}

[workload]
kind = "synthetic"
requests = {N}
read_fraction = 0.5
size_bytes = {PAGE}
alignment_bytes = {PAGE}
iops = 20000.0

[output]
record_requests = true
"""

DTRS_REQUESTS = 127_043  # shared/traces/SOURCES.md
DTRS_READ_FRACTION = 0.890  # "89.0 %" there


def _without_wall_clock(summary: dict) -> dict:
    s = json.loads(json.dumps(summary))
    for k in ("wall_s", "requests_per_s"):
        s.get("sim", {}).pop(k, None)
    return s


def test_run_counts_and_records(real_core, tmp_path):
    r = nandlab.run(SMALL, out=tmp_path, progress=False)
    req = r.summary["requests"]
    assert req["count"] == N
    assert req["reads"] + req["writes"] + req["trims"] == N
    assert req["trims"] == 0
    assert r.summary["all"]["count"] == N
    assert r.summary["read"]["count"] == req["reads"]
    assert r.summary["write"]["count"] == req["writes"]
    # summary records seed, version and the resolved config (defaults filled in)
    assert r.summary["seed"] == 11
    assert r.summary["version"] == real_core.__version__
    assert r.config["seed"] == 11
    assert r.config["device"]["blocks_per_plane"] == 64
    assert r.config["workload"]["requests"] == N
    assert set(r.config) >= {"device", "timing", "ftl", "host", "aging", "workload", "output"}
    # one record per request, with the configured sizes and alignment
    df = r.requests
    assert r.recorded and df.height == N
    assert {k: df.schema[k] for k in REQUEST_SCHEMA} == REQUEST_SCHEMA
    assert df["size_bytes"].unique().to_list() == [PAGE]
    assert (df["offset_bytes"] % PAGE == 0).all()
    assert set(df["op"].unique().to_list()) <= {"read", "write"}
    assert int((df["op"] == "read").sum()) == req["reads"]
    assert (df["latency_ns"] > 0).all()
    assert df["arrival_ns"].is_sorted()
    # outputs on disk
    assert json.loads((tmp_path / "summary.json").read_text()) == r.summary
    assert pl.read_parquet(tmp_path / "requests.parquet").equals(df)


@pytest.mark.parametrize("read_fraction, reads", [(0.0, 0), (1.0, N)])
def test_op_mix_extremes(real_core, read_fraction, reads):
    r = nandlab.run(SMALL, overrides={"workload.read_fraction": read_fraction}, progress=False)
    assert r.summary["requests"]["reads"] == reads
    assert r.summary["requests"]["writes"] == N - reads


def test_all_writes_program_at_least_one_page_each(real_core):
    r = nandlab.run(SMALL, overrides={"workload.read_fraction": 0.0}, progress=False)
    flash = r.summary["flash"]
    assert flash["page_programs"] >= N
    assert flash["write_amplification"] >= 1.0


def test_unrecorded_requests(real_core):
    r = nandlab.run(SMALL, overrides={"output.record_requests": False}, progress=False)
    assert not r.recorded and r.requests.height == 0
    assert dict(r.requests.schema) == REQUEST_SCHEMA
    assert r.summary["requests"]["count"] == N


def test_same_config_and_seed_give_identical_summary(real_core):
    a = nandlab.run(SMALL, progress=False)
    b = nandlab.run(SMALL, progress=False)
    assert _without_wall_clock(a.summary) == _without_wall_clock(b.summary)
    assert a.requests.equals(b.requests)
    c = nandlab.run(SMALL, overrides={"seed": 12}, progress=False)
    assert not c.requests.equals(a.requests)


def test_unknown_key_is_named(real_core):
    with pytest.raises(nandlab.NandlabError, match="ftl.gc_polcy"):
        nandlab.run(SMALL, overrides={"ftl.gc_polcy": "greedy"}, progress=False)
    with pytest.raises(nandlab.NandlabError, match="device.channels"):
        nandlab.check_config(SMALL, {"device.channels": "four"})


def test_check_config_fills_defaults(real_core):
    cfg = nandlab.check_config(SMALL)
    assert cfg["seed"] == 11 and cfg["workload"]["requests"] == N
    assert cfg["ftl"]["gc"] == {"victim": "greedy"}


def test_cli_run_end_to_end(real_core, tmp_path):
    f = tmp_path / "small.toml"
    f.write_text(SMALL)
    r = CliRunner().invoke(app, ["run", str(f), "--out", str(tmp_path / "o"),
                                 "--set", "workload.requests=500", "--requests-out", "csv"])
    assert r.exit_code == 0, r.stderr
    assert "response time" in r.stdout
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["requests"]["count"] == 500
    assert pl.read_csv(tmp_path / "o" / "requests.csv").height == 500
    r = CliRunner().invoke(app, ["run", str(f), "--set", "ftl.gc_policy=nonsense"])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: ") and len(r.stderr.splitlines()) == 1
    assert "ftl.gc_policy" in r.stderr


def test_trace_info_dtrs(real_core, shared_traces):
    info = nandlab.trace_info(shared_traces / "msprod_DTRS100M.trace")
    assert info["requests"] == DTRS_REQUESTS
    assert info["reads"] + info["writes"] + info["trims"] == DTRS_REQUESTS
    assert info["read_ratio"] == pytest.approx(DTRS_READ_FRACTION, abs=5e-4)
    r = CliRunner().invoke(app, ["trace", "info", str(shared_traces / "msprod_DTRS100M.trace"),
                                 "--json"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["requests"] == DTRS_REQUESTS


def test_trace_convert_round_trip(real_core, shared_traces, tmp_path):
    src = shared_traces / "mqsim_tpcc-small.trace"
    n = nandlab.trace_convert(src, tmp_path / "tpcc.csv")
    before = nandlab.trace_info(src)
    assert n == before["requests"] == 6_999  # SOURCES.md
    after = nandlab.trace_info(tmp_path / "tpcc.csv", "msr")
    assert after["requests"] == n
    assert after["reads"] == before["reads"]
    assert after["total_bytes"] == before["total_bytes"]


def test_trace_replay(real_core, shared_traces):
    r = nandlab.run(SMALL, trace=shared_traces / "mqsim_tpcc-small.trace",
                    overrides={"host.out_of_range": "wrap"}, progress=False)
    assert r.summary["requests"]["count"] == 6_999
    assert r.config["workload"]["kind"] == "trace"


def _drop_none(x):
    if isinstance(x, dict):
        return {k: _drop_none(v) for k, v in x.items() if v is not None}
    if isinstance(x, list):
        return [_drop_none(v) for v in x]
    return x


PRESETS = sorted((Path(__file__).resolve().parents[1] / "configs").glob("*.toml"))


@pytest.mark.parametrize("preset", PRESETS, ids=[p.stem for p in PRESETS])
def test_presets_validate_through_the_front(real_core, preset):
    cfg = nandlab.check_config(preset)
    assert isinstance(cfg["device"], dict) and isinstance(cfg["seed"], int)
    r = CliRunner().invoke(app, ["config", "check", str(preset)])
    assert r.exit_code == 0, r.stderr
    assert tomllib.loads(r.stdout) == _drop_none(cfg)
