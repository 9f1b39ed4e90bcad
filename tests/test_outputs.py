"""What a run and `trace info` report, on the compiled core: the two page-read counts
told apart, and trace statistics with units, checked against counts made by hand or by
an independent reading of the file."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from typer.testing import CliRunner

import nandlab
from nandlab.cli import app
from plain_text import plain

ROOT = Path(__file__).resolve().parents[1]


def test_page_read_counts_have_distinct_names_and_add_up(real_core):
    s = nandlab.run(ROOT / "configs" / "demo.toml",
                    progress=False).summary
    flash, rel = s["flash"], s["reliability"]
    assert "page_reads" not in flash
    # Every host page read that finds data is judged by the error model; GC moves read
    # pages too, and only the flash count includes them.
    assert flash["page_reads_incl_gc"] == rel["page_reads"] + flash["gc_page_reads"]
    assert flash["gc_page_reads"] > 0, "the demo's aged drive collects garbage"


def test_trace_info_by_hand(real_core, tmp_path):
    # DiskSim lines (time ns, device, lba in 512 B sectors, sectors, 1 = read):
    # [0, 4096) read, [4096, 8192) write, [8704, 9216) read.
    t = tmp_path / "t.trace"
    t.write_text("0 0 0 8 1\n10 0 8 8 0\n30 1 17 1 1\n")
    info = nandlab.trace_info(t)
    assert (info["requests"], info["reads"], info["writes"]) == (3, 2, 1)
    assert info["total_bytes"] == 4096 + 4096 + 512
    assert info["footprint_pages"] == 3 and info["footprint_bytes"] == 3 * 4096
    assert info["max_offset_end_bytes"] == 9216
    assert info["duration_ns"] == 30 and info["streams"] == 2
    # Pages 0 and 2 are read, each once: nothing read twice.
    assert info["read_footprint_pages"] == 2 and info["repeated_address_ratio"] == 0
    buckets = [(b["min_bytes"], b["count"]) for b in info["size_histogram"]]
    assert buckets == [(512, 1), (4096, 2)]
    r = CliRunner().invoke(app, ["trace", "info", str(t)])
    assert r.exit_code == 0, r.stderr
    out = plain(r.stdout)
    assert "max offset + size 9.0 KiB" in out
    assert "repeated-address ratio (of pages read) 0.00% of 2 pages" in out
    assert "footprint (distinct 4 KiB pages touched) 3 pages = 12.0 KiB" in out
    assert "512 B – 1.0 KiB 1" in out and "4.0 KiB – 8.0 KiB 2" in out


def test_tpcc_footprint_exceeds_its_bytes_because_its_requests_straddle_pages(
        real_core, shared_traces):
    # Counted here independently of the core: distinct 4 KiB pages and distinct 512 B
    # sectors the requests touch.
    t = shared_traces / "mqsim_tpcc-small.trace"
    rows = pl.read_csv(t, separator=" ", has_header=False,
                       new_columns=["time", "dev", "lba", "sectors", "type"])
    pages, sectors, unaligned = set(), set(), 0
    for lba, n in zip(rows["lba"], rows["sectors"], strict=True):
        off, end = lba * 512, (lba + n) * 512
        pages.update(range(off // 4096, (end - 1) // 4096 + 1))
        sectors.update(range(lba, lba + n))
        unaligned += off % 4096 != 0
    info = nandlab.trace_info(t)
    assert info["footprint_pages"] == len(pages)
    assert info["footprint_bytes"] == 4096 * len(pages) > info["total_bytes"]
    # In bytes the footprint is below the total; the pages exceed it because most
    # requests start inside a 4 KiB page and so touch one more page than their size.
    assert 512 * len(sectors) <= info["total_bytes"]
    assert unaligned > rows.height / 2
