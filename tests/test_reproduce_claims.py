"""Claim kinds and rules (issue #28), on values worked by hand."""

from __future__ import annotations

import math

import pytest

from nandlab.errors import ConfigError
from nandlab.reproduce import claims_md
from nandlab.reproduce.claims import (
    Claim,
    Measured,
    Unreachable,
    above,
    below,
    change_of_sums,
    check_claims,
    counts_by_kind,
    half_digit,
    point,
    ratio_of_sums,
    seeds_for,
    sign,
    span,
)


def sim(paper, value, margin=0.1, **kw):
    return Claim.simulated("k", "label", "Table 5", paper, value, runs=["t5"], why="because",
                           margin=margin, **kw)


@pytest.mark.parametrize(("text", "half"), [("40.75", 0.005), ("200", 0.5), ("0.07", 0.005),
                                            ("3.66e-9", 5e-12), ("7.1", 0.05),
                                            ("2,495,552", 0.5)])
def test_half_of_the_last_printed_digit(text, half):
    assert half_digit(text) == pytest.approx(half)


@pytest.mark.parametrize(
    ("value", "verdict"),
    [
        (40.754, "reproduced"),  # prints as 40.75: inside half a digit
        (40.7451, "reproduced"),
        (40.744, "close"),  # rounds to 40.74; 40.745 - 0.1 · 40.75 = 36.67 <= 40.744
        (44.8, "close"),  # 40.755 + 4.075 = 44.83
        (45.0, "differs"),
        (36.0, "differs"),  # below 36.67
    ],
)
def test_point_within_half_a_digit(value, verdict):
    assert sim(point("40.75"), value).verdict == verdict


def test_point_with_a_tolerance_the_paper_implies():
    # 004 Tables 6-7: AP - BL from -0.17 to +0.33 % between runs: 0.07 ± 0.33 holds 0.3.
    c = sim(point("0.07", tolerance=0.33, why="Tables 6–7 run-to-run spread"), 0.3)
    assert c.verdict == "reproduced"
    assert "Tables 6–7" in claims_md.rule_md(c)
    assert sim(point("0.07"), 0.3).verdict == "differs"
    # Thousands separators as the paper prints them (004's Table 4 in ns).
    assert sim(point("2,495,552"), 2_495_552.4).verdict == "reproduced"
    assert sim(point("2,495,552"), 2_495_553.0).verdict != "reproduced"
    with pytest.raises(ConfigError, match="needs its source"):
        point("0.07", tolerance=0.33)


def test_bound_is_judged_as_a_bound():
    over_two = above(200.0, "over two times")
    # 2.5x is over two times, however far from 200; 1.9x is not, 1.85x is not even close.
    assert sim(over_two, 250.0).verdict == "reproduced"
    assert sim(over_two, 1000.0).verdict == "reproduced"
    assert sim(over_two, 190.0).verdict == "close"  # 200 - 0.1 · 200 = 180 <= 190
    assert sim(over_two, 170.0).verdict == "differs"
    assert sim(below(20.0, "below 20 %"), -5.0).verdict == "reproduced"
    assert sim(below(20.0, "below 20 %"), 25.0, margin=0.0).verdict == "differs"


def test_sign_and_ordering():
    lower = sign(-1, "lower", at_least=0.1)
    assert sim(lower, -0.2).verdict == "reproduced"
    assert sim(lower, -0.05, margin=0.0).verdict == "differs"  # smaller than the 0.1 counted
    assert sim(lower, 3.0, margin=0.0).verdict == "differs"


def test_range_ends_rounded_as_printed():
    # "25.9 … 34.2" accepts 25.85 … 34.25.
    assert sim(span("25.9", "34.2"), 25.86).verdict == "reproduced"
    assert sim(span("25.9", "34.2"), 34.26).verdict == "close"


def test_seeds_interval_decides():
    # Samples 10, 12, 14: mean 12, sd 2, t(2) = 4.303: 12 ± 4.303·2/√3 = 12 ± 4.969.
    m = Measured.seeds([10.0, 12.0, 14.0], {"a": 11.0, "b": 12.0, "c": 20.0})
    lo, hi = m.interval
    assert (lo, hi) == pytest.approx((12 - 4.9688, 12 + 4.9688), abs=1e-3)
    assert m.range == (10.0, 14.0) and m.median_workload == 12.0
    # The mean alone is inside 5 … 20; the interval (7.03 … 16.97) too: reproduced.
    assert sim(span("5", "20"), m).verdict == "reproduced"
    # The mean 12 is inside "9 … 20" (8.5 … 20.5 as printed), but the interval reaches
    # below 8.5 - 0.1 · 9 = 7.6: the seeds cannot tell.
    assert sim(span("9", "20"), m).verdict == "inconclusive"
    # Wholly outside even the widened region: differs (30 - 0.1 · 30 = 27 > 16.97).
    assert sim(span("30", "40"), m).verdict == "differs"
    # One value of a single run is not a spread: outside the widened region, it differs.
    assert sim(span("9", "20"), 7.0).verdict == "differs"
    text = claims_md.nandlab_md(sim(span("5", "20"), m))
    assert "3 seeds" in text and "median over workloads 12" in text
    # Each workload beside the mean (11 + 12 + 20) / 3 = 14.3 and the median 12.
    table = claims_md.workloads_table([sim(span("5", "20"), m)])
    assert "| a 11.0, b 12.0, c 20.0 | 14.3 | 12.0 |" in table


def test_span_over_items_judges_every_item():
    # Each item's runs inside 0 … 10: reproduced; one item's wholly above the widened
    # 10.5 + 0.1 · 10 = 11.5: differs, whatever the others.
    assert sim(span("0", "10"), Measured.over({"a": [1.0, 1.2, 1.1],
                                               "b": [9.0, 9.1, 9.2]})).verdict == "reproduced"
    assert sim(span("0", "10"), Measured.over({"a": [1.0, 1.2, 1.1],
                                               "b": [20.0, 20.1, 20.2]})).verdict == "differs"
    m = Measured.over({"w1": [1.0, 1.0], "w2": [3.0, 5.0]})
    # w1: 1 … 1; w2: mean 4, sd √2, t(1) = 12.706: 4 ± 12.706·√2/√2, whose low end is
    # the lowest of the two.
    assert m.interval == pytest.approx((4 - 12.706, 4 + 12.706))
    assert m.per_workload == {"w1": 1.0, "w2": 4.0}


def test_input_and_extension_have_no_verdict_and_are_not_counted():
    inp = Claim.input("d0", "Δ0", "Table 2", point("0.45"), 0.45, unit="V",
                      source="configs/002_tvr.toml: state widths built from the paper's Δs")
    ext = Claim.extension("states", "per-state program times", 1.2,
                          source="nandlab: seed 002 §4 times on 000's writes", runs=["w"])
    judged = sim(point("40.75"), 40.75)
    assert inp.verdict is None and ext.verdict is None
    counts = counts_by_kind([inp, ext, judged])
    assert counts["simulated"]["reproduced"] == 1
    assert sum(counts["model check"].values()) == 0
    assert counts["listed"] == {"input": 1, "extension": 1}
    table = claims_md.claims_table([inp, ext, judged])
    assert "Δ0" not in table and "label" in table
    listed = claims_md.listed_table([inp, ext, judged])
    assert "Δ0" in listed and "0.45 V" in listed and "configs/002_tvr.toml" in listed
    with pytest.raises(ConfigError, match="source"):
        Claim.input("d1", "Δ1", "Table 2", point("0.5"), 0.5, source="")


def test_simulated_claim_naming_no_run_is_refused():
    with pytest.raises(ConfigError, match="k: a simulated claim must name the runs"):
        Claim.simulated("k", "label", "§1", point("1.0"), 1.0, runs=[])
    # The older positional form names none: refused where the module opted in.
    old = Claim("k", "label", "§1", (1.0, 1.0), (1.0, 1.0), 0.1, "")
    with pytest.raises(ConfigError, match="must name the runs"):
        check_claims([old])
    check_claims([sim(point("1.0"), 1.0)])
    # A model check needs no runs.
    check_claims([Claim.model_check("m", "Eq. 8", "§5", point("7.1"), 7.1)])


def test_paper_value_printed_as_printed():
    for text in ("40.75", "0.07", "0.23", "24.96", "0.20"):
        c = sim(point(text), 1.0)
        row = claims_md.claims_table([c]).splitlines()[2]
        assert f"| {text} % (Table 5) |" in row
    assert claims_md.paper_md(sim(above(200.0, "over two times"), 1.0)) == "over two times"


def test_differs_because_of_the_paper():
    # 004: σ = 0.5 caps AP vs BL at t = 0 below 33.3 %; the paper prints 40.75.
    cap = Unreachable((0.0, 33.3), "σ = 0.5: at most 33.3 % at t = 0")
    c = sim(point("40.75"), 30.0, unreachable=cap)
    assert c.verdict == "differs (paper)"
    assert "σ = 0.5" in claims_md.nandlab_md(c)
    # A bound that does not exclude the paper's value leaves the verdict alone.
    assert sim(point("40.75"), 30.0, unreachable=Unreachable((0.0, 50.0), "x")).verdict \
        == "differs"


def test_helpers():
    assert seeds_for(quick=False) == [1, 2, 3] and seeds_for(quick=True) == [1, 2]
    # Per-row reductions with a ~1e-14 denominator average to nonsense; sums do not.
    assert ratio_of_sums([1.0, 1e-12], [2.0, 1e-14]) == pytest.approx(0.5, rel=1e-6)
    assert math.isnan(ratio_of_sums([1.0], [0.0]))
    assert change_of_sums([75.0, 150.0], [100.0, 200.0]) == pytest.approx(-25.0)
