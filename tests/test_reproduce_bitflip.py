"""``nandlab reproduce bitflip`` end to end on a tiny setting, plus facts checked
independently of the reproduction code."""

from __future__ import annotations

import json
from pathlib import Path

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
