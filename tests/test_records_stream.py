"""Request records saved with a run stream to disk as the run goes (issue 12 item 9): the
file holds exactly what an in-memory run returns, in arrival order, and no streamed
temporary file stays behind. The stream is written once, in the saved format, by the
core, and moved into place (issue 33 item 3): nothing reads it back or converts it."""

from __future__ import annotations

import polars as pl
import pytest

import nandlab

CFG = {
    "workload": {"kind": "synthetic", "requests": 3000, "read_fraction": 0.5, "iops": 50_000.0},
    "host": {"queue_depth": 4},
}


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_streamed_records_equal_in_memory_records(tmp_path, fmt):
    memory = nandlab.run(CFG, progress=False)
    saved = nandlab.run(CFG, out=tmp_path, progress=False, requests_format=fmt)
    assert saved.frame is None  # nothing loaded until asked
    assert saved.requests.equals(memory.requests)
    on_disk = nandlab.api.scan_requests(tmp_path / f"requests.{fmt}").collect()
    assert on_disk.equals(memory.requests)
    assert on_disk["arrival_ns"].is_sorted()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["summary.json", f"requests.{fmt}"])


def test_requests_out_none_keeps_no_records(tmp_path):
    r = nandlab.run(CFG, out=tmp_path, progress=False, requests_format="none")
    assert not r.recorded
    assert r.requests.height == 0
    assert r.summary["config"]["output"]["record_requests"] is False


def test_a_streamed_run_saves_again_elsewhere_in_another_format(tmp_path):
    r = nandlab.run(CFG, out=tmp_path / "a", progress=False)
    r.save(tmp_path / "b", "csv")
    assert pl.read_csv(tmp_path / "b" / "requests.csv").height == 3000


def test_the_stream_is_moved_into_place_not_read_back(tmp_path, monkeypatch):
    def read_back(*_a, **_k):
        raise AssertionError("a saved run read its records back")

    monkeypatch.setattr(nandlab.api, "scan_requests", read_back)
    for fmt in ("parquet", "csv"):
        nandlab.run(CFG, out=tmp_path / fmt, progress=False, requests_format=fmt)
        assert (tmp_path / fmt / f"requests.{fmt}").is_file()


def test_records_crossing_several_batches_keep_every_row_in_order(tmp_path):
    # 70,000 requests cross two of the core's 65,536-row batches (two row groups).
    cfg = {**CFG, "workload": {**CFG["workload"], "requests": 70_000}}
    memory = nandlab.run(cfg, progress=False)
    nandlab.run(cfg, out=tmp_path, progress=False)
    on_disk = pl.read_parquet(tmp_path / "requests.parquet")
    assert on_disk.height == 70_000
    assert on_disk.equals(memory.requests)
    assert on_disk.schema == pl.Schema(nandlab.REQUEST_SCHEMA)


def test_the_arrow_schema_stored_is_the_one_polars_writes_for_the_records():
    import io

    buf = io.BytesIO()
    pl.DataFrame(schema=nandlab.REQUEST_SCHEMA).write_parquet(buf)
    buf.seek(0)
    assert pl.read_parquet_metadata(buf)["ARROW:schema"] == nandlab.records.ARROW_SCHEMA


def test_a_records_file_that_cannot_be_written_fails_the_run_naming_it(tmp_path, monkeypatch):
    # The stream's file lies in a folder that does not exist: the core cannot create it.
    monkeypatch.setattr(nandlab.api, "_temp_beside", lambda p: tmp_path / "gone" / p.name)
    out = tmp_path / "out"
    with pytest.raises(nandlab.NandlabError, match=r"requests\.parquet: cannot write records"):
        nandlab.run(CFG, out=out, progress=False)
    assert not out.exists()


def _modules_loaded_by_run(args: list[str]) -> list[str]:
    """Which of polars, NumPy and rich `nandlab run ARGS` imports, in a fresh interpreter."""
    import ast
    import subprocess
    import sys

    code = (
        "import sys, nandlab.cli\n"
        "try:\n"
        f"    nandlab.cli.main(['run', *{args!r}])\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "print(sorted(m for m in ('polars', 'numpy', 'rich') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return ast.literal_eval(done.stdout)


def test_the_command_writes_records_without_polars_numpy_or_rich(tmp_path):
    # `nandlab run -q --out` loads neither polars nor NumPy (the core writes the records
    # file itself) nor rich (no bar, no table), and every record is written (issue 33).
    import json

    cfg = tmp_path / "cfg.toml"
    cfg.write_text(
        "[workload]\nkind = 'synthetic'\nrequests = 3000\nread_fraction = 0.5\n"
        "iops = 50000.0\n[host]\nqueue_depth = 4\n"
    )
    out = tmp_path / "out"
    assert _modules_loaded_by_run([str(cfg), "-q", "--out", str(out)]) == []
    assert pl.read_parquet(out / "requests.parquet").height == 3000
    assert json.loads((out / "summary.json").read_text())["requests"]["count"] == 3000


def test_the_command_without_out_does_not_import_polars(tmp_path):
    # Records kept in memory become a frame only when read: `nandlab run -q` without
    # `--out` prints nothing of them and never imports polars (cli8, issue 33).
    cfg = tmp_path / "cfg.toml"
    cfg.write_text("[workload]\nkind = 'synthetic'\nrequests = 300\n")
    assert "polars" not in _modules_loaded_by_run([str(cfg), "-q"])
    kept = nandlab.run(CFG, progress=False)
    assert kept.frame is None and kept.requests.height == 3000  # made on first read
