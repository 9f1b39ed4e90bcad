"""The command line on the real core (a small device): output, files and error paths."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nandlab import progress as progress_mod
from nandlab.cli import app
from plain_text import plain

runner = CliRunner()
CFG = "seed = 3\n[device]\nchannels = 2\nblocks_per_plane = 64\n[workload]\nrequests = 500\n"


@pytest.fixture
def cfg_file(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text(CFG)
    return f


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def assert_one_line_error(result, *needles):
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stdout + result.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])


def test_run_prints_table_and_writes_summary(real_core, cfg_file, tmp_path):
    out = tmp_path / "out"
    r = invoke("run", cfg_file, "--out", out, "--set", "ftl.gc_policy=cost_benefit",
               "--set", "ftl.overprovisioning=0.1")
    assert r.exit_code == 0, r.stderr
    assert "response time" in r.stdout and "write amplification" in r.stdout
    summary = json.loads((out / "summary.json").read_text())
    ftl = summary["config"]["ftl"]
    assert (ftl["gc"]["victim"], ftl["overprovisioning"]) == ("cost_benefit", 0.1)
    assert (out / "requests.parquet").is_file()


def test_run_json_and_csv_requests(real_core, cfg_file, tmp_path):
    r = invoke("run", cfg_file, "--json", "--out", tmp_path / "o", "--requests-out", "csv")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["requests"]["count"] == 500
    assert (tmp_path / "o" / "requests.csv").is_file()


def test_run_with_trace_sets_workload(real_core, cfg_file, tmp_path):
    t = tmp_path / "t.trace"
    t.write_text("0 0 0 8 1\n")
    r = invoke("run", cfg_file, "--trace", t, "--format", "disksim", "--json")
    assert json.loads(r.stdout)["requests"]["count"] == 1
    assert r.exit_code == 0, r.stderr
    wl = json.loads(r.stdout)["config"]["workload"]
    assert wl["kind"] == "trace" and wl["path"] == str(t) and wl["format"] == "disksim"


def test_missing_config_file(real_core, tmp_path):
    assert_one_line_error(invoke("run", tmp_path / "nope.toml"), "no such file", "nope.toml")


def test_toml_syntax_error_names_file_and_line(real_core, tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('seed = 1\n\n[ftl\n')
    assert_one_line_error(invoke("run", f), str(f), "line 3")


@pytest.mark.parametrize("item", ["ftl.gc_policy", "=1", "a..b=1", "a=[1,"])
def test_bad_set_syntax(real_core, cfg_file, item):
    assert_one_line_error(invoke("run", cfg_file, "--set", item), "--set")


def test_core_config_error_names_key(real_core, cfg_file):
    assert_one_line_error(invoke("run", cfg_file, "--set", "ftl.gc_policy=random"),
                          "ftl.gc_policy")
    assert_one_line_error(invoke("config", "check", cfg_file, "--set", "devic.x=1"), "devic")


def test_failed_run_leaves_no_summary(cfg_file, tmp_path):
    t = tmp_path / "t.trace"
    t.write_text("0 0 0 8 1\nbad\n")
    r = invoke("run", cfg_file, "--trace", t, "--format", "disksim", "--out", tmp_path / "o")
    assert_one_line_error(r, "t.trace:2")
    assert not (tmp_path / "o" / "summary.json").exists()


def test_missing_trace_file(real_core, tmp_path):
    assert_one_line_error(invoke("trace", "info", tmp_path / "x.trace"), "x.trace")


def test_ctrl_c_exits_130(real_core, cfg_file, monkeypatch):
    def interrupt(self, done, total):
        raise KeyboardInterrupt

    monkeypatch.setattr(progress_mod.ProgressReporter, "_update", interrupt)
    # Long enough for the core's first progress callback (at 65,536 requests).
    r = invoke("run", cfg_file, "--set", "workload.requests=100000",
               "--set", "output.record_requests=false")
    assert r.exit_code == 130
    assert r.stderr.strip() == "interrupted"


def test_missing_core_is_one_line(monkeypatch, cfg_file):
    import sys

    monkeypatch.setitem(sys.modules, "nandlab._core", None)  # makes the import fail
    assert_one_line_error(invoke("run", cfg_file), "maturin develop")


def test_config_check_prints_resolved_toml(real_core, cfg_file):
    r = invoke("config", "check", cfg_file, "--set", "host.queue_depth=4")
    assert r.exit_code == 0, r.stderr
    resolved = tomllib.loads(r.stdout)
    assert resolved["seed"] == 3 and resolved["host"]["queue_depth"] == 4
    assert resolved["ftl"]["gc"]["victim"] == "greedy"
    assert "config OK" in r.stderr
    r = invoke("config", "check", cfg_file, "--json")
    assert json.loads(r.stdout)["workload"]["requests"] == 500


def test_trace_info_and_convert(real_core, tmp_path):
    t = tmp_path / "t.trace"
    t.write_text("0 0 0 8 1\n10 0 8 8 0\n")
    r = invoke("trace", "info", t, "--format", "disksim")
    assert r.exit_code == 0, r.stderr
    assert "requests" in r.stdout and "50.0%" in r.stdout
    r = invoke("trace", "info", t, "--format", "disksim", "--json")
    assert json.loads(r.stdout)["requests"] == 2
    r = invoke("trace", "convert", t, tmp_path / "t.csv", "--from", "disksim")
    assert r.exit_code == 0, r.stderr
    assert "wrote 2 requests" in r.stdout
    assert_one_line_error(invoke("trace", "convert", t, tmp_path / "t.xyz"), "output format")
    assert_one_line_error(invoke("trace", "convert", t, tmp_path / "t.xyz", "--to", "spc"),
                          "spc")


def test_version(real_core):
    r = invoke("version")
    assert r.exit_code == 0
    assert r.stdout.startswith("nandlab ") and f"(core {real_core.__version__})" in r.stdout


@pytest.mark.parametrize("where", ["file", "proc", "readonly"])
def test_unwritable_out_is_one_line_before_the_run(real_core, cfg_file, tmp_path, monkeypatch,
                                                   where):
    calls = []
    monkeypatch.setattr(real_core, "simulate", lambda *a: calls.append(a))
    if where == "file":
        out = tmp_path / "f"
        out.write_text("")
        needle = "exists and is not a directory"
    elif where == "proc":
        out = Path("/proc/nandlab-out")
        needle = "cannot write there"
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only directories")
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o555)
        out = ro / "o"
        needle = "Permission denied"
    assert_one_line_error(invoke("run", cfg_file, "--out", out), str(out), needle)
    assert calls == [], "the run did not start"


def test_trace_info_table_is_complete_and_unit_labelled(real_core, tmp_path):
    t = tmp_path / "t.trace"
    t.write_text("0 0 0 8 1\n10 0 8 8 0 1\n")
    r = invoke("trace", "info", t)
    assert r.exit_code == 0, r.stderr
    out = plain(r.stdout)
    # The write carries the critical flag (DiskSim's sixth column).
    assert "writes flagged critical (disksim column 6) 1" in out
    # A read of [0, 4096) and a write of [4096, 8192): two pages, one size bucket
    # [4096, 8191] B holding both requests.
    assert "max offset + size 8.0 KiB" in out
    assert "footprint (distinct 4 KiB pages touched) 2 pages = 8.0 KiB" in out
    assert "request sizes" in out and "4.0 KiB – 8.0 KiB 2" in out
    assert "—" not in out


def test_device_table_names_both_page_read_counts(real_core, cfg_file):
    r = invoke("run", cfg_file)
    assert r.exit_code == 0, r.stderr
    assert "page reads, host + GC/WL/refresh" in r.stdout
