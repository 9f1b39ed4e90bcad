"""``nandlab reproduce asymmetric --quick`` end to end, checked against numbers worked out
independently of the reproduction code: Table 1's printed values, the placement invariant
(AP's critical reads never hit an LSB page), the closed forms of docs/asymmetric.md."""

from __future__ import annotations

import json
import math

import pytest

from nandlab.reproduce import asymmetric, framework, paper_004


@pytest.fixture(scope="module")
def quick_run(quick_reproduction):
    out, r = quick_reproduction("asymmetric")
    return out, r, r.wall_s


def test_quick_mode_is_quick_and_every_claim_has_a_verdict(real_core, quick_run):
    out, r, wall = quick_run
    assert wall < 60, f"quick mode took {wall:.0f} s"
    claims = json.loads((out / "claims.json").read_text())
    assert {c["key"] for c in claims} >= set(paper_004.CLAIMS)
    assert all(c["verdict"] in framework.VERDICTS for c in claims)
    report = (out / "report.md").read_text()
    assert "Paper vs nandlab" in report and "Table 5, 3000 P/E" in report
    # Meta-Cure's costs come from its runs: every claim has a value.
    assert all(not math.isnan(c["nandlab"][0]) for c in claims)


def test_ap_keeps_every_critical_read_on_msb_pages_and_bl_does_not(real_core, quick_run):
    out, _r, _w = quick_run
    runs = json.loads((out / "metrics_runs.json").read_text())
    for section in (runs["table4"], *runs["table5"].values()):
        lsb, msb = section["AP"]["critical_reads"]
        assert lsb == 0 and msb > 0
        bl_lsb, bl_msb = section["BL"]["critical_reads"]
        # The interleaved map is half LSB pages: a type-blind FTL puts about half there.
        assert 0.25 < bl_lsb / (bl_lsb + bl_msb) < 0.75
        # The feedback or a skip handled every critical write that met a refused page.
        assert section["AP"]["feedbacks"] + section["AP"]["unfed"] > 0


def test_mc_backs_up_every_critical_page_it_reads(real_core, quick_run):
    out, _r, _w = quick_run
    runs = json.loads((out / "metrics_runs.json").read_text())
    for section in (runs["table4"], *runs["table5"].values()):
        mc = section["MC"]
        # Every page written as critical got a backup, so every critical read has one.
        assert sum(map(sum, mc["backed_up"])) == sum(mc["critical_reads"]) > 0
        # One backup per critical page written, and each program counts.
        assert mc["backup_programs"] > 0
        assert mc["programs"] >= section["BL"]["programs"]
        # A backup is read only after an uncorrectable primary.
        assert mc["backup_reads"] <= mc["reads"]


def test_the_table_6_sentence_quotes_three_seeds_of_its_runs(real_core, quick_run):
    out, _r, _w = quick_run
    m = json.loads((out / "metrics.json").read_text())
    seeds = m["seeds"]
    assert [x["seed"] for x in seeds] == [1, 2, 3]
    # Seed 1 is the main sweep's Fig. 12 run (50 % random, 50 % reads), not a rerun.
    fig12 = next(x for x in m["random"] if x["x"] == 0.5)
    assert seeds[0]["BL"]["mean_ns"] == fig12["BL"]["mean_ns"]
    assert seeds[0]["AP"]["mean_ns"] == fig12["AP"]["mean_ns"]
    # Seeds 2 and 3 are other runs: the Poisson arrivals differ.
    assert len({x["BL"]["mean_ns"] for x in seeds}) == 3
    why = next(c for c in json.loads((out / "claims.json").read_text())
               if c["key"] == "t6_ap")["why"]
    for x in seeds:
        gap = 100.0 * (x["AP"]["mean_ns"] / x["BL"]["mean_ns"] - 1.0)
        assert f"{gap:+.2f}" in why, (gap, why)


def test_table_1_is_the_binomial_tail_at_8640_bits():
    for x, lsb, msb in zip(paper_004.TABLE_1_RBER, paper_004.TABLE_1_LSB,
                           paper_004.TABLE_1_MSB, strict=True):
        # Within 0.6 of a unit of the printed third digit (docs/asymmetric.md).
        for got, want in ((asymmetric.page_fail(3, 8640, 1, x), lsb),
                          (asymmetric.page_fail(3, 8640, 1, 0.5 * x), msb)):
            unit = 0.01 * 10 ** math.floor(math.log10(want))
            assert abs(got - want) <= 0.61 * unit, (x, got, want)


def test_fail_rates_follow_the_closed_forms():
    # n = 20, t = 2, one codeword (reliability::critical_pages' hand-computed case): LSB at
    # 0.05 fails with 0.075484, MSB at 0.025 with 0.012955.
    model = asymmetric.ErrorModel(eps=0.05, alpha=0.0, k=1.0, max_pe=1.0, scale=(1.0, 0.5),
                                  n_bits=20, codewords=1)
    # MC: two critical reads, one (LSB primary) with an MSB backup, one (MSB) with none:
    # lost with 0.075484 x 0.012955 and 0.012955 -> mean (9.7789e-4 + 0.012955) / 2.
    mc = {"critical_reads": [1, 1], "backed_up": [[0, 1], [0, 0]]}
    r = asymmetric.fail_rates({"critical_reads": [1, 1]}, {"critical_reads": [0, 7]}, mc,
                              model, 0.0, 2)
    assert r["BL"] == pytest.approx(0.044_219, abs=1e-6)
    assert r["AP"] == pytest.approx(0.012_955, abs=1e-6)
    assert r["MC"] == pytest.approx((0.075_484 * 0.012_955 + 0.012_955) / 2, abs=1e-6)
    assert r["MC_independent"] == pytest.approx(0.044_219 ** 2, abs=1e-7)


def test_the_sensor_rate_is_below_what_every_scheme_serves(real_core):
    # The rate's defining property (SENSOR_IOPS's comment): flooded, each scheme serves
    # more than the rate the reproduction offers, Meta-Cure (backup programs) the least.
    served = asymmetric.sensor_capacity(quick=True)
    assert set(served) == set(asymmetric.SCHEMES)
    assert min(served.values()) > asymmetric.SENSOR_IOPS / 0.9
    assert served["MC"] < served["BL"]
