"""Request records saved with a run stream to disk as the run goes (issue 12 item 9): the
file holds exactly what an in-memory run returns, in arrival order, and no streamed
temporary file stays behind."""

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
