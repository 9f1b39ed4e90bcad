"""Seed 002 §5.5's set-up (:mod:`nandlab.reproduce.tvr_ssd`): the stand-ins carry what was
measured on DiskSim's Iozone/Postmark traces, ``--trace-dir`` replaces them, and the DiskSim
timing's bound on a lone write's gain, worked by hand."""

from __future__ import annotations

import pytest

from nandlab.reproduce import tvr, tvr_ssd


def _mean_pages(mix: list[tuple[int, float]]) -> float:
    return sum(p * w for p, w in mix) / sum(w for _, w in mix)


def test_stand_ins_keep_the_measured_traces_characteristics():
    # Measured on the DiskSim files (docstring of tvr_ssd): Iozone writes average 89.98
    # pages of 4 KiB; Postmark reads 24.69 pages, writes 208.25 pages, 83.17 % of requests
    # are reads and 63.06 % of the bytes are written.
    assert _mean_pages(tvr_ssd.IOZONE_WRITES) == pytest.approx(89.98, rel=0.01)
    assert _mean_pages(tvr_ssd.POSTMARK_READS) == pytest.approx(24.69, rel=0.01)
    assert _mean_pages(tvr_ssd.POSTMARK_WRITES) == pytest.approx(208.25, rel=0.01)
    r, w = tvr_ssd.POSTMARK_READ_IOPS, tvr_ssd.POSTMARK_WRITE_IOPS
    assert r / (r + w) == pytest.approx(0.8317, abs=5e-4)
    wb = w * _mean_pages(tvr_ssd.POSTMARK_WRITES)
    assert wb / (wb + r * _mean_pages(tvr_ssd.POSTMARK_READS)) == pytest.approx(0.6306, abs=2e-3)
    for mix in (tvr_ssd.IOZONE_WRITES, tvr_ssd.POSTMARK_READS, tvr_ssd.POSTMARK_WRITES):
        assert sum(w for _, w in mix) == pytest.approx(1.0, abs=2e-3)


def test_flows_split_the_requests_by_rate(monkeypatch):
    monkeypatch.delenv("NANDLAB_TRACE_DIR", raising=False)
    notes: list[str] = []
    traces, synth = tvr_ssd.workload_entries(["postmark", "iozone"], 1000, notes)
    assert traces == [] and notes == []
    post = next(e for e in synth if e["name"] == "postmark")
    reads, writes = post["flows"]
    # 1000 x 105.58 / 126.94 = 831.7 -> 832 reads; 1000 x 21.36 / 126.94 = 168.3 -> 168.
    assert (reads["requests"], writes["requests"]) == (832, 168)
    assert reads["read_fraction"] == 1.0 and writes["read_fraction"] == 0.0
    io = next(e for e in synth if e["name"] == "iozone")
    assert io["requests"] == 1000 and io["read_fraction"] == 0.0


def test_trace_dir_replaces_the_stand_in(monkeypatch, tmp_path):
    (tmp_path / "ssd-iozone-aligned2-100K.trace").write_text("0.5 0 8 8 0\n")
    monkeypatch.setenv("NANDLAB_TRACE_DIR", str(tmp_path))
    notes: list[str] = []
    _, synth = tvr_ssd.workload_entries(["iozone", "postmark"], 500, notes)
    io = next(e for e in synth if e["name"] == "iozone")
    assert io["kind"] == "trace" and io["time_unit"] == "ms" and io["max_requests"] == 500
    assert "flows" in next(e for e in synth if e["name"] == "postmark")  # no file: stand-in
    assert len(notes) == 1 and "iozone" in notes[0]


def test_packages_hold_the_disksim_traces_address_range():
    # DiskSim exits on a request past the exported space: 85 % of a 4 GiB package
    # (1,024 blocks x 128 pages x 4 KiB x 8 planes) = 3.4 GiB; Postmark's requests end at
    # 22.89 GB, so at least ceil(22.89e9 / (0.85 x 2^32)) = 7 packages.
    per_package = tvr.logical_pages(1) * 4096
    assert per_package == pytest.approx(0.85 * 2**32, rel=1e-6)
    assert min(tvr.Settings.full().ssd_channels) * per_package > 22.89e9
    assert min(tvr.Settings.quick_().ssd_channels) * per_package > 22.89e9


def test_a_lone_write_gains_what_the_timing_allows(real_core):
    # One 4 KiB write on an idle device: transfer 4,096 B x 25 ns = 102.4 us, then the
    # program. TVR halves the program: DiskSim's 200 us -> 100 / 302.4 = 33.07 % (under
    # 002's 35 %); 002's MLC type-0 page 460 us -> 230 / 562.4 = 40.90 %.
    import nandlab

    def mean_us(timing: dict, on: bool) -> float:
        ov = {"device.channels": 1, "device.blocks_per_plane": 64, "aging.fill_fraction": 0.0,
              "ftl.gc_threshold_blocks": 4, "workload.kind": "synthetic",
              "workload.requests": 1, "workload.read_fraction": 0.0, "workload.iops": 0.0,
              "output.record_requests": False, "tvr.enabled": on, **timing}
        return nandlab.run(tvr.PRESET, overrides=ov, progress=False).summary["all"]["mean_ns"]

    for timing, expect in ((tvr_ssd.DISKSIM_TIMING, 100 / 302.4), ({}, 230 / 562.4)):
        gain = 1 - mean_us(timing, True) / mean_us(timing, False)
        assert gain == pytest.approx(expect, abs=1e-3), timing
