"""What a newcomer meets first: `--version`, the help of `reproduce` and `calibrate`, the
package docstring, the typed summary, pandas, and the set-up mistakes of `reproduce` and
`sweep` (issue 35)."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import pytest

import nandlab
from cli_errors import cli
from nandlab.reproduce.framework import PAPERS
from nandlab.summary import LatencyTable, RequestCounts, Summary

ROOT = Path(__file__).resolve().parents[1]


def test_version_flag(real_core):
    r = cli("--version")
    assert r.exit_code == 0
    assert r.stdout == f"nandlab {version('nandlab')} (core {real_core.__version__})\n"


def test_reproduce_help_lists_every_paper():
    text = " ".join(cli("reproduce", "--help").stdout.split())
    assert set(PAPERS) == {"bitflip", "ldpc-in-ssd", "asymmetric", "tvr", "badr"}
    for name in PAPERS:
        assert name in text, name


def test_calibrate_help_shows_the_gpu_extra():
    assert "nandlab[gpu]" in cli("calibrate", "ldpc", "--help").stdout


def test_the_package_docstring_names_files_that_exist():
    named = re.findall(r'"((?:configs|docs)/[^"]+)"', nandlab.__doc__ or "")
    named += re.findall(r"``((?:configs|docs)/[^`]+)``", nandlab.__doc__ or "")
    assert named
    for path in named:
        assert (ROOT / path).is_file(), path


def test_overrides_that_are_not_a_mapping_are_a_config_error():
    # They used to raise AttributeError: 'list' object has no attribute 'items'.
    with pytest.raises(nandlab.ConfigError, match="overrides must map dotted keys"):
        nandlab.load_config("seed = 1\n", overrides=["seed=2"])  # type: ignore[arg-type]


def test_typed_summary_and_pandas(real_core):
    res = nandlab.run("seed = 3\n[workload]\nrequests = 300\nread_fraction = 1.0\n",
                      progress=False)
    s = Summary(res.summary)
    assert s.requests == RequestCounts(count=300, reads=300, writes=0, trims=0)
    assert isinstance(s.read, LatencyTable) and s.read.count == 300
    assert s.read.p50_ns <= s.read.p99_ns <= s.read.max_ns
    assert s.write.count == 0 and s.flows == []
    assert s.sim.simulated_ns > 0
    # A table whose fields changed in the core is an error naming it, not a default.
    bad = dict(res.summary, read={**res.summary["read"], "p42_ns": 1})
    with pytest.raises(nandlab.MissingMetric, match="`read` has keys"):
        _ = Summary(bad).read
    # The `pandas` extra (pandas + pyarrow) gives the records to pandas.
    df = res.requests.to_pandas()
    assert len(df) == 300 and list(df.columns) == res.requests.columns


def test_reproduce_refuses_a_file_as_out_and_a_missing_trace_dir(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    r = cli("reproduce", "bitflip", "--out", f)
    assert r.exit_code == 2 and "exists and is not a folder" in r.stderr, r.stderr
    out = tmp_path / "out"
    r = cli("reproduce", "bitflip", "--out", out, "--trace-dir", tmp_path / "none")
    assert r.exit_code == 2 and "--trace-dir" in r.stderr and "no such folder" in r.stderr
    assert not out.exists()  # it used to be left behind, empty


def test_sweep_set_up_errors_leave_no_results_folder(tmp_path, real_core):
    spec = tmp_path / "s.toml"
    demo = ROOT / "configs" / "demo.toml"
    spec.write_text(f'config = "{demo}"\n[grid]\n"ftl.gc.victm" = ["greedy"]\n')
    out = tmp_path / "res"
    r = cli("sweep", spec, "--out", out, "-q")
    assert r.exit_code == 2, r.output
    assert not out.exists()
    r = cli("sweep", spec, "--out", out, "--executor", "local", "--address", "auto", "-q")
    assert r.exit_code == 2 and "--address is for the ray executor" in r.stderr
    assert not out.exists()
