"""The sweep store's results table: a metric keeps one column type whichever runs a table
holds, so tables of two sweeps concatenate (issue #28: full BitFlip stopped on a list
metric whose MSB mean was null in runs with two writes)."""

from __future__ import annotations

import polars as pl

from nandlab.sweeps.store import _column

KEY = "pe_time.program_ns_mean_by_page_type"


def test_list_metric_with_nulls_is_a_list_column():
    # LSB mean of one write, MSB never written: [660000.0, None] (Vec<Option<f64>>).
    col = _column(KEY, [[660000.0, None], [650000.0, 1350000.0], None])
    assert col.dtype == pl.List(pl.Float64)
    assert col.to_list() == [[660000.0, None], [650000.0, 1350000.0], None]
    # Only nulls in every run's list: still a float list, as the mean would be.
    assert _column(KEY, [[None, None]]).dtype == pl.List(pl.Float64)


def test_tables_of_two_sweeps_concatenate():
    # The write runs (some with an MSB never programmed) and the excerpt runs (all
    # written) as the store writes them, concatenated as `reproduce bitflip` does.
    writes = pl.DataFrame([_column("run_id", ["a", "b"]),
                           _column(KEY, [[660000.0, None], [640000.0, 1300000.0]])])
    excerpts = pl.DataFrame([_column("run_id", ["c"]),
                             _column(KEY, [[650000.0, 1350000.0]])])
    both = pl.concat([writes, excerpts], how="diagonal")
    assert both[KEY].to_list()[0] == [660000.0, None]
    assert both[KEY].to_list()[2] == [650000.0, 1350000.0]
