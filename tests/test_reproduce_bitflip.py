"""``nandlab reproduce bitflip`` end to end on a tiny setting, plus facts checked
independently of the reproduction code."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from nandlab.reproduce import bitflip, paper_000


@pytest.fixture(scope="module")
def quick_run(quick_reproduction):
    return quick_reproduction("bitflip")


def test_outputs_exist_and_report_names_every_metric(real_core, quick_run):
    out, _r = quick_run
    report = (out / "report.md").read_text()
    for label, lo, hi, _where, _over in paper_000.HEADLINES.values():
        assert label in report
        assert f"{lo} … {hi} %" in report
    assert "nandlab 0" in report and "Seed 1" in report
    for name in (
        "fig05_error_prone_share_per_file.png",
        "fig06_state_shares_by_type.png",
        "fig11_error_prone_units.png",
        "fig12_decoding_levels.png",
        "fig13_read_latency.png",
        "fig12_decoding_levels_per_trace.png",
        "fig13_read_latency_per_trace.png",
        "fig14_lifespan.png",
        "fig15_write_latency_increase.png",
    ):
        p = out / name
        assert p.is_file() and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    corpus = json.loads((out / "corpus.json").read_text())
    assert corpus["files"] and all(Path(f).is_file() for fs in corpus["files"].values() for f in fs)
    assert (out / "runs.csv").read_text().count("\n") > 1
    assert not list(out.glob(".*.tmp"))


def test_bitflip_never_raises_error_prone_share(real_core, quick_run):
    out, _r = quick_run
    analysis = json.loads((out / "file_analysis.json").read_text())
    assert analysis["per_type"]
    for t, a in analysis["per_type"].items():
        assert a["error_prone_share_after_flip"] <= a["error_prone_share"] + 1e-12, t
        # and never above 1/2 per unit, so never above 1/2 per type (§III-A)
        assert a["error_prone_share_after_flip"] <= 0.5 + 1e-9, t
    for files in analysis["per_file"].values():
        for f in files:
            assert f["error_prone_share_after_flip"] <= f["error_prone_share"] + 1e-12


def test_bitflip_lowers_levels_when_error_prone_units_dominate(real_core, tmp_path):
    # 0x41 = 01 00 00 01: every cell is error-prone, every unit flips to 10 11 11 10.
    f = tmp_path / "prone.bin"
    f.write_bytes(b"A" * 65536)
    ov = {
        "reliability.model": "nominal",
        "reliability.error_draw": "expected",
        "reliability.nominal_rber": 4e-3,
        "ecc.scheme": "ldpc",
        "ecc.mode": "threshold",
        "ecc.strategy": "progressive",
        "content.source": "files",
        "content.files": [str(f)],
        "workload.kind": "synthetic",
        "workload.requests": 100,
        "workload.read_fraction": 1.0,
        "workload.iops": 100.0,
    }
    import nandlab

    levels = {}
    for codec in ("none", "bitflip"):
        s = nandlab.run(bitflip.PRESET, overrides={**ov, "codec.kind": codec}, progress=False)
        levels[codec] = s.summary["reliability"]["mean_attempts"]
    # page RBER: baseline 4e-3·4·(0.46+0.44)/2 = 7.2e-3 (2 extra levels, 3 attempts);
    # flipped 4e-3·4·0.05 = 8e-4 (hard decision only).
    assert levels["none"] == pytest.approx(3.0)
    assert levels["bitflip"] == pytest.approx(1.0)
    assert bitflip.content_factor({"00": 0.5, "01": 0.5, "10": 0, "11": 0}) == pytest.approx(1.8)


def test_cli_registers_reproduce():
    from typer.testing import CliRunner

    from nandlab.cli import app

    r = CliRunner().invoke(app, ["reproduce", "bitflip", "--help"])
    assert r.exit_code == 0
    assert "--quick" in r.output and "--out" in r.output


def test_write_runs_charge_the_flipped_states_program_time(real_core, tmp_path):
    """The write runs' program-time change on a page whose states are known before and
    after flipping, against a hand computation from 002 Fig. 8's per-state times.

    Each 4 KiB page: four 512 B units of 0x00 (every cell '00'), two of 0x55 ('01'), two of
    0xAA ('10'). BitFlip flips the six error-prone units: 0x00 → 0xFF ('11'), 0x55 → 0xAA.
    Shares before: '00' 1/2, '01' 1/4, '10' 1/4; after: '11' 1/2, '10' 1/2. Times (µs) on
    the 000 preset: type 0 (002's MSB page) '00'/'01' 539.6, '10'/'11' 380; type 1 (its
    LSB page) '11' 919, else 1,082.
    - slowest state: type 0 539.6 → 380, type 1 1,082 → 1,082;
    - mean: type 0 0.75 · 539.6 + 0.25 · 380 = 499.7 → 380; type 1 1,082 → 1,000.5.
    """
    from nandlab.reproduce import bitflip_writes
    from nandlab.sweeps import run_sweep

    f = tmp_path / "known.bin"
    f.write_bytes((b"\x00" * 2048 + b"\x55" * 1024 + b"\xaa" * 1024) * 16)
    files = {"executable": [f]}
    settings = bitflip.Settings(rbers=[4e-3], references=["baseline"], seeds=[1])
    workloads = [{"name": "w", "paper": True,
                  "write_workload": {"name": "w", "requests": 40, "read_fraction": 0.0,
                                     "iops": 50.0, "size_bytes": 4096}}]
    specs = bitflip.write_specs(files, settings, bitflip.analyse_files(files), workloads)
    assert list(specs) == ["writes"]
    spec = specs["writes"]
    # One plane, so the 40 writes fill pages 0 … 39 of one block: both page types, no GC.
    spec["set"].update({"device.channels": 1, "device.chips_per_channel": 1,
                        "device.dies_per_chip": 1, "device.planes_per_die": 1,
                        "device.blocks_per_plane": 64})
    table = run_sweep(spec, tmp_path / "writes", progress=False).table
    rows = bitflip_writes.rows(table)
    hand = {"slowest": ([539_600, 1_082_000], [380_000, 1_082_000]),
            "mean": ([499_700, 1_082_000], [380_000, 1_000_500])}
    for rule, (before, after) in hand.items():
        rule_runs = table.filter(pl.col("program") == rule)
        got = {c: rule_runs.filter(pl.col("config.codec.kind") == c).row(0, named=True)
               for c in ("none", "bitflip")}
        n = list(got["none"]["pe_time.programs_by_page_type"])
        assert all(n) and n == list(got["bitflip"]["pe_time.programs_by_page_type"])
        for codec, times in (("none", before), ("bitflip", after)):
            v = got[codec]["pe_time.program_ns_mean_by_page_type"]
            assert (json.loads(v) if isinstance(v, str) else list(v)) == times, (rule, codec)
        expect = (sum(a * k for a, k in zip(after, n, strict=True))
                  / sum(b * k for b, k in zip(before, n, strict=True)) - 1)
        m = bitflip_writes.metrics(rows, ["w"])[rule]
        assert m["by_type"]["executable"]["program"] == pytest.approx(expect, rel=1e-12)
        assert m["by_workload"]["w"]["program"] == pytest.approx(expect, rel=1e-12)
        # Flipping never slows a program here; under "slowest" it saves only on type 0.
        assert expect < 0
    # 000's one program time (Fig. 15's rule): BitFlip's writes take the baseline's 660 µs
    # programs plus the encoder, 8 units × 1,650 ns = 13.2 µs per 4 KiB page (one page per
    # request; 40 writes at 50 IOPS on one plane never queue: 673.2 µs ≪ 20 ms gaps), so
    # the increase is 13.2 / (660 + transfer) where the 4 KiB transfer at 200 MB/s is
    # 20.48 µs: 13.2 / 680.48.
    fixed = bitflip_writes.metrics(rows, ["w"])["fixed"]
    assert fixed["by_workload"]["w"]["write"] == pytest.approx(13.2 / 680.48, rel=1e-3)


def test_stand_in_read_and_write_runs_keep_one_flow():
    """000 §IV-B replays each trace's reads, §IV-D its writes: the read runs' entry has the
    read flow alone at the trace's read rate, the write runs' the write flow alone."""
    from nandlab.reproduce import msr

    t = msr.trace("hm_0")
    both = bitflip.stand_in(t, 1000)
    reads = bitflip.stand_in(t, 1000, ops="read")
    writes = bitflip.stand_in(t, 1000, ops="write")
    assert [f["read_fraction"] for f in both["flows"]] == [1.0, 0.0]
    assert [f["read_fraction"] for f in reads["flows"]] == [1.0]
    assert [f["read_fraction"] for f in writes["flows"]] == [0.0]
    assert reads["flows"][0]["requests"] == writes["flows"][0]["requests"] == 1000
    # GCaR Table 4: hm_0 is 64.5 % writes by request.
    assert reads["flows"][0]["iops"] == pytest.approx(t.iops * 0.355)
    assert writes["flows"][0]["iops"] == pytest.approx(t.iops * 0.645)
    assert reads["flows"][0]["iops"] == both["flows"][0]["iops"]
    with pytest.raises(ValueError, match="ops"):
        bitflip.stand_in(t, 10, ops="trim")
