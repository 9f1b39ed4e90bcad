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


def test_parquet_conversion_in_batches_keeps_every_row_in_order(tmp_path, monkeypatch):
    # Batches of 7 lines and row groups of 100 rows: 3000 rows cross many of both.
    monkeypatch.setattr(nandlab.records, "BATCH_ROWS", 7)
    monkeypatch.setattr(nandlab.records, "ROW_GROUP_ROWS", 100)
    converted = []

    def spy(src, dst, schema):
        converted.append(src)
        nandlab.records.csv_to_parquet(src, dst, schema)

    monkeypatch.setattr(nandlab.api, "csv_to_parquet", spy)
    memory = nandlab.run(CFG, progress=False)
    nandlab.run(CFG, out=tmp_path, progress=False)
    assert len(converted) == 1  # the streamed file went through the batched conversion
    on_disk = pl.read_parquet(tmp_path / "requests.parquet")
    assert on_disk.equals(memory.requests)
    assert on_disk.schema == pl.Schema(nandlab.REQUEST_SCHEMA)


def test_the_batched_source_honours_a_projection_a_filter_and_a_row_limit(tmp_path):
    src = tmp_path / "r.csv"
    pl.DataFrame(
        {
            "arrival_ns": [1, 2, 3],
            "latency_ns": [10, 20, 30],
            "offset_bytes": [0, 4096, 8192],
            "size_bytes": [4096] * 3,
            "op": ["read", "write", "read"],
        }
    ).write_csv(src)
    lf = nandlab.records.scan_csv_batches(src, nandlab.REQUEST_SCHEMA)
    reads = lf.filter(pl.col("op") == "read").select("latency_ns").collect()
    assert reads["latency_ns"].to_list() == [10, 30]
    assert lf.head(2).collect()["arrival_ns"].to_list() == [1, 2]
