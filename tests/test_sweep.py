"""``nandlab sweep`` on the real core: identities, the store, executors, resume, failures
and bad specs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

import nandlab
from nandlab.cli import app
from nandlab.errors import ConfigError
from nandlab.sweeps import load_spec, run_sweep

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "configs" / "demo.toml"
REQUESTS = 300
POLICIES = ["greedy", "cost_benefit", "weighted"]
SEEDS = [1, 2]


def small_spec(**extra) -> dict:
    """The demo device shrunk to 64 blocks per plane: a run takes about a second."""
    return {
        "config": str(DEMO),
        "seeds": SEEDS,
        "set": {
            "workload.requests": REQUESTS,
            "device.blocks_per_plane": 64,
            "output.record_requests": False,
        },
        "grid": {"ftl.gc_policy": POLICIES},
        **extra,
    }


def by_id(df: pl.DataFrame) -> pl.DataFrame:
    return df.sort("run_id")


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted sweep, two jobs."""
    out = tmp_path_factory.mktemp("ref")
    return run_sweep(small_spec(), out, jobs=2, progress=False)


def test_table_has_one_row_per_run_with_swept_values(real_core, reference):
    t = reference.table
    assert t.height == len(POLICIES) * len(SEEDS)
    assert sorted(zip(t["config.ftl.gc_policy"], t["seed"], strict=True)) == sorted(
        (p, s) for p in POLICIES for s in SEEDS
    )
    # Every run served exactly the requests it was given, split into reads and writes.
    assert t["requests.count"].to_list() == [REQUESTS] * t.height
    assert (t["read.count"] + t["write.count"]).to_list() == [REQUESTS] * t.height
    assert t["run_id"].n_unique() == t.height
    # The table on disk is the returned one; the wall clock is not in it.
    assert_frame_equal(pl.read_parquet(reference.path), t)
    assert "sim.wall_s" not in t.columns and "sim.requests_per_s" not in t.columns


def test_one_job_gives_the_same_table(real_core, reference, tmp_path):
    one = run_sweep(small_spec(), tmp_path, jobs=1, progress=False)
    assert_frame_equal(by_id(one.table), by_id(reference.table))


def test_ray_gives_the_same_table(real_core, reference, tmp_path):
    try:
        import ray  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        pytest.skip(f"Ray cannot be imported here ({e}); the Ray executor is untested")
    t = nandlab.sweep(small_spec(), out=tmp_path, executor="ray", jobs=2)
    assert_frame_equal(by_id(t), by_id(reference.table))


def test_rerun_skips_everything(real_core, reference):
    again = run_sweep(small_spec(), reference.path.parent, jobs=2, progress=False)
    assert again.ran == [] and again.skipped == len(again.runs)
    assert_frame_equal(again.table, reference.table)


def test_identity_is_the_resolved_config(real_core):
    # Writing a default out or not is the same run; another seed is not.
    spec = load_spec(small_spec())
    from nandlab import _package_version
    from nandlab.sweeps.identity import plan

    a = plan(spec, _package_version())
    b = plan(load_spec(small_spec(set={**small_spec()["set"], "ftl.striping": "CWDP"})),
             _package_version())
    assert [r.run_id for r in a] == [r.run_id for r in b]
    assert len({r.run_id for r in a}) == len(a)
    c = plan(spec, "another version")
    assert not {r.run_id for r in a} & {r.run_id for r in c}
    # A second plan with the first one's ids known resolves nothing again.
    known: dict = {}
    plan(spec, _package_version(), map, known)

    def nothing_to_resolve(fn, items):
        assert list(items) == []
        return []

    again = plan(spec, _package_version(), nothing_to_resolve, known)
    assert [r.run_id for r in again] == [r.run_id for r in a]


@pytest.mark.parametrize(
    ("sig", "jobs"), [(signal.SIGINT, 1), (signal.SIGINT, 2), (signal.SIGKILL, 2)]
)
def test_killed_sweep_resumes_without_rerunning(real_core, reference, tmp_path, sig, jobs):
    spec = write_spec_any(tmp_path / "s.toml", small_spec())
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "nandlab", "sweep", str(spec), "--out", str(out),
           "--jobs", str(jobs), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(out.glob("runs/*/summary.json")):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no run finished in 2 minutes"
        time.sleep(0.02)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    done = {p.parent.name: p.stat() for p in out.glob("runs/*/summary.json")}
    total = len(reference.runs)
    assert 1 <= len(done) < total, f"the signal came too late to test a resume ({err})"
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "interrupted" in err
        # The table of an interrupted sweep holds the runs finished so far.
        assert set(pl.read_parquet(out / "results.parquet")["run_id"]) == set(done)
    else:
        assert proc.returncode == -signal.SIGKILL
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"{total} runs: {total - len(done)} ran, {len(done)} done before" in again.stderr
    for run_id, st in done.items():
        now = (out / "runs" / run_id / "summary.json").stat()
        assert (now.st_ino, now.st_mtime_ns) == (st.st_ino, st.st_mtime_ns), run_id
    assert_frame_equal(by_id(pl.read_parquet(out / "results.parquet")), by_id(reference.table))


def test_failed_runs_are_recorded_and_named(real_core, tmp_path):
    bad_trace = tmp_path / "bad.trace"
    bad_trace.write_text("0 0 0 8 1\n1000 0 8 8 0\nnot a request\n2000 0 16 8 1\n")
    spec = small_spec(
        grid={"ftl.overprovisioning": [0.07, 0.95]},
        trace=[{"path": str(bad_trace), "format": "disksim", "name": "bad"}],
        workload=[{"name": "synthetic", "requests": 50}],
    )
    spec["seeds"] = [1]
    runner = CliRunner()
    path = write_spec_any(tmp_path / "f.toml", spec)
    out = tmp_path / "out"
    r = runner.invoke(app, ["sweep", str(path), "--out", str(out), "--quiet"])
    assert r.exit_code == 1, r.output
    failed = [line for line in r.stderr.splitlines() if line.startswith("failed: ")]
    # Overprovisioning 0.95 fails validation in both workloads; the bad trace fails at its
    # third line with 0.07.
    assert len(failed) == 3, r.stderr
    assert sum("config key `ftl.overprovisioning`" in line for line in failed) == 2, failed
    assert any("bad.trace" in line and ":3" in line for line in failed), failed
    table = pl.read_parquet(out / "results.parquet")
    assert table["workload"].to_list() == ["synthetic"]
    # Run again: failed runs are not retried unless asked, and still fail the command.
    r2 = runner.invoke(app, ["sweep", str(path), "--out", str(out), "--quiet"])
    assert r2.exit_code == 1 and "0 ran, 4 done before, 3 failed" in r2.stderr
    r3 = runner.invoke(app, ["sweep", str(path), "--out", str(out), "--quiet", "--retry-failed"])
    assert r3.exit_code == 1 and "0 ran, 1 done before, 3 failed" in r3.stderr


def write_spec_any(path: Path, spec: dict) -> Path:
    """A spec dict as TOML (the subset these tests use)."""

    def val(v):
        if isinstance(v, dict):
            return "{ " + ", ".join(f'"{k}" = {val(x)}' for k, x in v.items()) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return json.dumps(v)

    lines = []
    for k, v in spec.items():
        if not isinstance(v, dict) and not (isinstance(v, list) and v and isinstance(v[0], dict)):
            lines.append(f"{k} = {val(v)}")
    for k, v in spec.items():
        if isinstance(v, dict):
            lines.append(f"[{k}]")
            lines += [f'"{kk}" = {val(vv)}' for kk, vv in v.items()]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                lines.append(f"[[{k}]]")
                lines += [f'"{kk}" = {val(vv)}' for kk, vv in item.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"grdi": {"ftl.gc_policy": ["greedy"]}}, "unknown key `grdi`"),
        ({"grid": {}}, "`grid` is empty"),
        ({"grid": {"ftl.gc_policy": []}}, "`grid.ftl.gc_policy` is an empty list"),
        ({"trace": [{"path": "no/such.trace"}]}, "trace "),
        ({"grid": {"ftl.gc_polcy": ["greedy"]}}, "`ftl.gc_polcy`"),
        ({"set": {"workload.count": 5}}, "`workload.count`"),
        ({"trace": [{"path": str(DEMO), "fromat": "msr"}]}, "unknown key `trace[0].fromat`"),
    ],
)
def test_bad_spec_is_one_line_before_any_run(real_core, tmp_path, change, message):
    spec = {**small_spec(), **change}
    path = write_spec_any(tmp_path / "bad.toml", spec)
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["sweep", str(path), "--out", str(out), "--quiet"])
    assert r.exit_code == 2, r.output
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: "), r.stderr
    assert message in r.stderr and str(path) in r.stderr
    assert not (out / "runs").exists()


def test_zero_jobs_is_refused(real_core, tmp_path):
    with pytest.raises(ConfigError, match="--jobs must be at least 1, not 0"):
        run_sweep(small_spec(), tmp_path, jobs=0, progress=False)
    assert not (tmp_path / "runs").exists()


def test_results_of_another_version_are_refused(real_core, tmp_path):
    (tmp_path / "sweep.json").write_text('{"nandlab_version": "0.0.1", "format": 1}')
    with pytest.raises(ConfigError, match="nandlab 0.0.1.*refusing to mix"):
        run_sweep(small_spec(), tmp_path, jobs=1, progress=False)
    assert not (tmp_path / "runs").exists()


def test_results_of_another_core_build_are_refused(real_core, tmp_path):
    # Same version number, another compiled core (a rebuilt working tree): its runs would
    # carry the same run ids, so resuming into them would mix two models' results.
    from nandlab import _package_version
    from nandlab.sweeps.store import core_build

    ours = core_build()
    assert ours is not None and len(ours) == 16
    meta = {"nandlab_version": _package_version(), "core_build": "0" * 16, "format": 1}
    (tmp_path / "sweep.json").write_text(json.dumps(meta))
    with pytest.raises(ConfigError, match=f"another build of the core .*this is {ours}"):
        run_sweep(small_spec(), tmp_path, jobs=1, progress=False)
    assert not (tmp_path / "runs").exists()


def test_ray_missing_is_one_line(real_core, tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "ray" else real(n, *a)
    )
    with pytest.raises(ConfigError, match=r"pip install 'nandlab\[ray\]'"):
        run_sweep(small_spec(), tmp_path, executor="ray", progress=False)


def test_demo_gc_spec_runs_as_the_readme_shows(real_core, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text()
    cmd = "nandlab sweep configs/sweeps/demo_gc.toml --out results/demo_gc"
    assert cmd in readme
    # The spec the README shows is the file's (comments aside).
    shown = next(b for b in readme.split("```toml\n")[1:] if b.startswith('config = "../demo'))
    spec_file = ROOT / "configs" / "sweeps" / "demo_gc.toml"
    assert tomllib.loads(shown.split("```")[0]) == tomllib.loads(spec_file.read_text())
    args = [*cmd.split()[1:-1], str(tmp_path), "--quiet"]
    r = CliRunner().invoke(app, args, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(tmp_path / "results.parquet")
    pairs = sorted(zip(t["config.ftl.gc.victim"], t["seed"], strict=True))
    assert pairs == [("cost_benefit", 1), ("cost_benefit", 2), ("greedy", 1), ("greedy", 2)]
    # The spec's point: GC runs within the short workload, so the victim policy matters.
    assert all(n > 0 for n in t["flash.gc_erases"])
    assert os.path.isfile(tmp_path / "runs" / t["run_id"][0] / "summary.json")


def test_table_column_types_hold_across_runs():
    from nandlab.sweeps.store import _column

    # An empty list in one run and numbers in another: one list column.
    assert _column("x", [[], [1, 2], None]).dtype == pl.List(pl.Int64)
    assert _column("x", [1, 2.5, None]).to_list() == [1.0, 2.5, None]
    # Mixed kinds become JSON text rather than failing the table.
    assert _column("x", [1, "a"]).to_list() == ["1", '"a"']
