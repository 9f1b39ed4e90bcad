"""``nandlab reproduce tvr`` end to end on a tiny setting, checked against seed 002's
printed numbers and against invariants of the runs."""

from __future__ import annotations

import json

import pytest

from nandlab.reproduce import paper_002, tvr, tvr_ssd


@pytest.fixture(scope="module")
def quick_run(quick_reproduction):
    return quick_reproduction("tvr")


def test_every_input_and_extension_names_its_source():
    for key, (_label, _paper, _where, _unit, kind) in paper_002.PAPER.items():
        if kind in ("input", "extension"):
            assert paper_002.SOURCES.get(key), key


def test_outputs_and_every_claim_in_the_report(real_core, quick_run):
    out, r = quick_run
    report = (out / "report.md").read_text()
    for label, paper, *_ in paper_002.PAPER.values():
        assert label in report
        if paper is not None:
            assert paper.text in report
    for name in ("fig07_program_time_by_state.png", "fig08_program_time_by_page_type.png",
                 "fig09_erase_time.png", "fig11_vth_layouts.png", "ssd_response_reduction.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    claims = {c["key"]: c for c in json.loads((out / "claims.json").read_text())}
    assert set(claims) == set(paper_002.PAPER)
    for key, c in claims.items():
        assert c["kind"] == paper_002.PAPER[key][4], key
    # §5.2-5.3 follow from Eq. 10-14 (hand-worked in the Rust tests): 22/16 -> 11/8 steps.
    for key in ("steps_msb_after", "steps_lsb_after", "delta2", "msb_rise", "speedup_model",
                "speedup_sim", "coupling"):
        assert claims[key]["verdict"] == "reproduced", key
    # The two-parameter fit returns §5.4's gain by construction (an input, no verdict).
    assert claims["lifetime_gain_fitted"]["verdict"] is None
    assert claims["steps_msb_after"]["nandlab"] == [11, 11]


def test_runs_charge_the_papers_times(real_core, quick_run):
    out, _ = quick_run
    runs = json.loads((out / "runs.json").read_text())
    pt = runs["pe_time"]
    # Fig. 8 (fresh): MSB page (type 0) '11' 380 µs, '01' 1.42 x 380; LSB (type 1) '11' 919 µs.
    assert pt["11|0|standard"]["program_us"][tvr.MSB] == pytest.approx(380, abs=0.01)
    assert pt["01|0|standard"]["program_us"][tvr.MSB] == pytest.approx(1.42 * 380, abs=0.01)
    assert pt["11|0|standard"]["program_us"][tvr.LSB] == pytest.approx(919, abs=0.01)
    # Fig. 10 / Fig. 9: erase 3.1 ms ('01'), 3.3 ms ('11'), 9 ms at the end of life.
    assert pt["01|0|standard"]["erase_ms"] == pytest.approx(3.1, abs=1e-3)
    assert pt["11|0|standard"]["erase_ms"] == pytest.approx(3.3, abs=1e-3)
    assert pt[f"random|{paper_002.END_OF_LIFE_PE}|standard"]["erase_ms"] == pytest.approx(9.0)
    # TVR halves every program, whatever the content (11/22 and 8/16).
    for key, v in pt.items():
        if key.endswith("|standard"):
            t = pt[key.replace("|standard", "|tvr")]["program_us"]
            assert t == pytest.approx([x / 2 for x in v["program_us"]], abs=0.01), key
    # The TVR SSD never answers slower (any seed), and its reads meet the RBER limit; the
    # quick run has the claims' flash timing only.
    assert set(runs["ssd"]) == {tvr_ssd.CLAIM_TIMING}
    for key, v in runs["ssd"][tvr_ssd.CLAIM_TIMING].items():
        assert v["tvr"]["mean_us"] <= v["standard"]["mean_us"], key
        assert len(v["reduction_by_seed"]) == 2 and min(v["reduction_by_seed"].values()) >= 0
        assert v["tvr"]["rber_mean"] == pytest.approx(4.5e-4, rel=0.01)
        assert v["tvr"]["uncorrectable_pages"] == 0


def test_region_runs_sit_between_standard_and_whole_device(real_core, quick_run):
    out, _ = quick_run
    region = json.loads((out / "runs.json").read_text())["region"]
    assert set(region) == set(tvr.Settings.quick_().ssd_workloads)
    for name, v in region.items():
        # Some writes are TVR, and no more gain than TVR everywhere (a trace whose writes
        # all fall in the region's logical pages gains as much).
        assert 0 < v["tvr_program_share"] <= 1, name
        assert -1 <= v["reduction_pct"] <= v["whole_device_reduction_pct"] + 1, name
    # The Postmark stand-in stays inside DiskSim's trace's footprint, 6.28 GB, which lies
    # within the region (half of 0.85 x 32 GiB = 14.6 GB at 8 packages): every program is
    # a TVR one, and the region gains what the whole device gains.
    assert tvr_ssd.POSTMARK_FOOTPRINT < tvr.REGION_SHARE * tvr.logical_pages(8) * 4096
    assert region["postmark"]["tvr_program_share"] == 1.0
    assert region["postmark"]["reduction_pct"] == pytest.approx(
        region["postmark"]["whole_device_reduction_pct"], abs=1e-6)


def test_terms_follow_eq5_and_the_calibration(real_core, quick_run):
    out, r = quick_run
    terms = json.loads((out / "runs.json").read_text())["terms"]["terms"]
    # The reduced layout's top mean is 3.143083 V lower (docs/reliability.md), so Eq. 5's
    # leakage falls to e^{-b0 alpha_G 3.143083} = e^{-0.6 x 3.143083} = 0.151700.
    assert terms["pass_voltage_drop_v"] == pytest.approx(3.143083, abs=1e-6)
    assert terms["leakage_factor"] == pytest.approx(0.151700, abs=1e-6)
    # I0 is set so that 1e5 reads raise the standard erased state by 0.5 V; TVR's by 0.5 x
    # the leakage factor.
    assert terms["standard.erased_rise_v"][-1] == pytest.approx(0.5, rel=1e-9)
    assert terms["reduced.erased_rise_v"][-1] == pytest.approx(0.075850, rel=1e-5)
    claims = {c["key"]: c for c in json.loads((out / "claims.json").read_text())}
    assert claims["read_disturb_leakage"]["verdict"] == "reproduced"
