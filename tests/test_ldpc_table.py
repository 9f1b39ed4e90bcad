"""The shipped LDPC FER table (crates/nandlab-core/data/ldpc_fer.csv) checked independently
of the Rust code that wrote it: every row's interval is the exact 95 % Clopper-Pearson
interval of its frames and failures (recomputed here from binomial sums; with no failure,
the closed form 1 - 0.025^(1/n), which sits just above the rule of three, 3/n); and each
level's tail model (rows marked ``extrapolated``) is recomputed from the measured rows:
the power law through the lowest failing point with the slope of a weighted least-squares
fit of ln FER on ln RBER (numpy) over the three lowest failing points. The model must be
continuous with the measured points, monotone, inside every zero-failure row's bound, and
reach the 1e-15 of seed 001 §2.2. A level with rows from error-count strata
(``stratified``) takes its tail from the line through the lowest two of them, or, with one,
through it and the lowest Monte Carlo row above it with at least 10 failures; those rows are
recomputed from the strata in the JSON sidecar (the binomial sum over the measured error
counts, geometric between them), and so are the shares of each row's FER that rest on strata
with fewer than 5 failures (``thin_share``; ``thin`` where one such stratum carries more
than 10 %). Read as the ladder reads it, more soft levels tolerate no less RBER at equal FER
from 1e-2 down to 1e-15, but for the documented tail crossings.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest

from nandlab.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "crates" / "nandlab-core" / "data" / "ldpc_fer.csv"
SIDECAR = TABLE.with_suffix(".json")
ALPHA = 0.05
FIT_POINTS = 3
PARTNER_FAILURES = 10
THIN_FAILURES = 5
MAX_THIN_SHARE = 0.1


def rows() -> list[dict]:
    lines = [ln for ln in TABLE.read_text().splitlines() if ln and not ln.startswith("#")]
    out = []
    for r in csv.DictReader(lines):
        out.append({"level": int(r["level"]), "rber": float(r["rber"]),
                    "frames": int(r["frames"]), "failures": int(r["failures"]),
                    "fer": float(r["fer"]), "fer_lo": float(r["fer_lo"]),
                    "fer_hi": float(r["fer_hi"]), "extrapolated": r["extrapolated"] == "1",
                    "stratified": r["stratified"] == "1", "thin_share": float(r["thin_share"]),
                    "thin": r["thin"] == "1",
                    "support_failures": int(r["support_failures"])})
    return out


def by_level() -> dict[int, list[dict]]:
    levels: dict[int, list[dict]] = {}
    for r in rows():
        levels.setdefault(r["level"], []).append(r)
    return {k: sorted(v, key=lambda r: r["rber"]) for k, v in sorted(levels.items())}


def binom_cdf(x: int, n: int, p: float) -> float:
    """P[Binomial(n, p) <= x] by summing pmf terms in log space."""
    if x >= n:
        return 1.0
    lp = [math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
          + k * math.log(p) + (n - k) * math.log1p(-p) for k in range(x + 1)]
    top = max(lp)
    return min(1.0, math.exp(top) * sum(math.exp(v - top) for v in lp))


def solve(f, lo: float = 0.0, hi: float = 1.0) -> float:
    """Root of a decreasing function on (lo, hi) by bisection."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return 0.5 * (lo + hi)


def clopper_pearson(x: int, n: int) -> tuple[float, float]:
    # lo: P[X >= x | p] = α/2 (increasing in p); hi: P[X <= x | p] = α/2 (decreasing).
    lo = 0.0 if x == 0 else solve(lambda p: ALPHA / 2 - (1 - binom_cdf(x - 1, n, p)))
    hi = 1.0 if x == n else solve(lambda p: binom_cdf(x, n, p) - ALPHA / 2)
    return lo, hi


def anchors(levels: list[dict]) -> list[dict]:
    """The rows a level's tail is drawn through: its two lowest stratified rows; with one,
    that row and the lowest Monte Carlo row above it with at least PARTNER_FAILURES
    failures; else its lowest failing Monte Carlo rows."""
    strata = [r for r in levels if r["stratified"]]
    if len(strata) >= 2:
        return strata[:2]
    if strata:
        partner = [r for r in levels if not r["stratified"] and r["rber"] > strata[0]["rber"]
                   and PARTNER_FAILURES <= r["failures"] < r["frames"]]
        if partner:
            return [strata[0], partner[0]]
    return [r for r in levels if 0 < r["failures"] < r["frames"]][:FIT_POINTS]


def tail(levels: list[dict]) -> tuple[float, float, float, float]:
    """(anchor rber, anchor fer, slope, reach) recomputed from a level's measured rows; the
    zero-failure rows below the reach carry the model."""
    drawn = anchors(levels)
    if drawn[0]["stratified"]:
        a, b = drawn
        fb = b["fer"] if b["stratified"] else b["failures"] / b["frames"]
        slope = math.log(fb / a["fer"]) / math.log(b["rber"] / a["rber"])
        return a["rber"], a["fer"], slope, b["rber"]
    assert len(drawn) >= 2
    x = np.log([r["rber"] for r in drawn])
    p = np.array([r["failures"] / r["frames"] for r in drawn])
    w = np.array([r["failures"] for r in drawn]) / (1 - p)
    slope = np.polyfit(x, np.log(p), 1, w=np.sqrt(w))[0]
    a = drawn[0]
    return a["rber"], a["failures"] / a["frames"], float(slope), a["rber"]


def test_rows_carry_frames_and_failures_matching_their_bounds():
    rs = rows()
    assert rs
    for r in rs:
        n, x = r["frames"], r["failures"]
        assert 0 < n and 0 <= x <= n, r
        if r["stratified"]:
            # Frames and failures over the strata; the interval is the bootstrap's (Rust:
            # strata_quality.rs), strictly around the estimate.
            assert r["fer_lo"] < r["fer"] < r["fer_hi"] and not r["extrapolated"], r
            continue
        # A Monte Carlo row rests wholly on its tally; a tail-model row on none (it is
        # flagged `extrapolated` instead).
        thin = x < THIN_FAILURES and not r["extrapolated"]
        assert (r["thin"], r["thin_share"]) == (thin, float(thin)), r
        assert r["support_failures"] == (0 if r["extrapolated"] else x), r
        if x == 0:
            # Two-sided 95 % with no failure: 1 - (α/2)^(1/n) ≈ 3.69/n, above the rule of
            # three (3/n, one-sided 95 %).
            hi = 1 - (ALPHA / 2) ** (1 / n)
            assert r["fer_lo"] == 0.0 and abs(r["fer_hi"] / hi - 1) < 1e-5, r
            assert 3 / n < r["fer_hi"] < 3.7 / n, r
        else:
            # Clopper-Pearson sums get slow for large x; the shipped rows have x ≤ 100.
            lo, hi = clopper_pearson(x, n)
            assert abs(r["fer_lo"] - lo) <= 1e-5 * lo + 1e-12, (r, lo)
            assert abs(r["fer_hi"] - hi) <= 1e-5 * hi + 1e-12, (r, hi)
        if not r["extrapolated"]:
            assert abs(r["fer"] - x / n) <= 1e-6 * max(x / n, 1e-12), r


@pytest.mark.parametrize("level", range(7))
def test_tail_model_recomputed_from_the_measured_rows(level):
    levels = by_level()[level]
    r0, f0, s, reach = tail(levels)
    assert s > 0
    below = [r for r in levels if r["rber"] < r0]
    assert below, "the model must cover rows below the measured range"
    assert all(r["failures"] == 0 and not r["stratified"] for r in below)
    for r in levels:
        # Exactly the zero-failure rows below the reach carry the model.
        on_model = r["failures"] == 0 and not r["stratified"] and r["rber"] < reach
        assert r["extrapolated"] == on_model, r
    for r in (r for r in levels if r["extrapolated"]):
        want = f0 * (r["rber"] / r0) ** s
        assert abs(r["fer"] / want - 1) < 1e-4, (r, want)
        # The model agrees with the measurement it replaces: inside its 95 % bound.
        assert r["fer"] <= r["fer_hi"], r


@pytest.mark.parametrize("level", range(7))
def test_tail_is_continuous_and_monotone_and_reaches_1e15(level):
    levels = by_level()[level]
    r0, f0, s, _ = tail(levels)
    # Continuous: the model passes through the anchor's measured FER, and the power law
    # stays within a factor 4 of the other fitted points (not inside their intervals: the
    # measured waterfall curves, its local slope steepening towards low RBER).
    failing = anchors(levels)
    assert failing[0]["rber"] == r0 and abs(failing[0]["fer"] / f0 - 1) < 1e-6
    for r in failing[1:]:
        pred = f0 * (r["rber"] / r0) ** s
        assert 1 / 4 <= pred / r["fer"] <= 4, (r, pred)
    # Monotone in RBER across the model rows and into the measured ones above them.
    used = [r for r in levels if r["extrapolated"] or r["failures"] > 0]
    fers = [r["fer"] for r in used]
    assert all(a < b for a, b in zip(fers, fers[1:], strict=False) if b < f0 * 1.0001), fers
    assert max(r["fer"] for r in levels if r["extrapolated"]) < f0
    # The ladder extends the first segment below the first row: on the model's line, so
    # FER 1e-15 is reached at a positive RBER.
    first, second = levels[0], levels[1]
    assert first["extrapolated"] and second["extrapolated"]
    slope01 = math.log(second["fer"] / first["fer"]) / math.log(second["rber"] / first["rber"])
    assert abs(slope01 / s - 1) < 1e-3
    assert first["rber"] * (1e-15 / first["fer"]) ** (1 / s) > 1e-4


def test_more_sensing_never_fails_more_at_a_shared_rber():
    # Within the measurements' 95 % intervals; the ladder also takes the minimum over levels.
    lv = by_level()
    for k in range(1, 7):
        lower = {r["rber"]: r for r in lv[k - 1]}
        for r in lv[k]:
            q = lower.get(r["rber"])
            if q is not None:
                assert r["fer_lo"] <= q["fer_hi"], (k, r, q)


def test_stratified_rows_recomputed_from_their_strata():
    """FER(p) = Σ_w Binom(w; n, p) f(w): over the measured error counts (the lowest failing
    stratum and up, f geometric between failing strata, the top one's f above) the sum must
    be the row's FER times its measured share, 1 − modelled_share."""
    side = json.loads(SIDECAR.read_text())
    n = side["provenance"]["n"]
    pts = [p for p in side["points"] if p.get("stratified")]
    assert pts, "the shipped table has stratified rows"
    csv_rows = {(r["level"], round(r["rber"], 12)): r for r in rows()}
    for p in pts:
        st = p["stratified"]
        run = side["strata_runs"][st["run"]]
        strata = sorted(run["strata"], key=lambda s: s["errors"])
        assert st["frames"] == sum(s["frames"] for s in strata)
        assert st["failures"] == sum(s["failures"] for s in strata)
        failing = [(s["errors"], s["failures"] / s["frames"]) for s in strata if s["failures"]]
        ws = np.arange(failing[0][0], n + 1)
        lnf = np.interp(ws, [w for w, _ in failing], [math.log(f) for _, f in failing])
        log_c = np.array([math.lgamma(n + 1) - math.lgamma(w + 1) - math.lgamma(n - w + 1)
                          for w in ws])
        est = st["estimate"]
        rb = est["rber"]  # the channel law's error probability at the row's operating point
        assert abs(rb / p["rber"] - 1) < 1e-6, p
        measured = float(np.exp(log_c + ws * math.log(rb) + (n - ws) * math.log1p(-rb) + lnf).sum())
        assert est["modelled_share"] <= 0.1, p
        assert abs(measured / (est["fer"] * (1 - est["modelled_share"])) - 1) < 1e-6, (p, measured)
        row = csv_rows[(p["level"], round(p["rber"], 12))]
        assert row["stratified"] and abs(row["fer"] / est["fer"] - 1) < 1e-6, row
        # Each failing stratum carries the contributions P(W = w) f(w) of the error counts
        # around it, split by the geometric interpolation's weights; the lowest also carries
        # everything below it (the modelled share: the line is anchored there).
        contrib = np.exp(log_c + ws * math.log(rb) + (n - ws) * math.log1p(-rb) + lnf)
        fw = [w for w, _ in failing]
        j = np.clip(np.searchsorted(fw, ws, side="right") - 1, 0, len(fw) - 1)
        nxt = np.minimum(j + 1, len(fw) - 1)
        span = np.array(fw)[nxt] - np.array(fw)[j]
        t = np.where(span > 0, (ws - np.array(fw)[j]) / np.where(span > 0, span, 1), 0.0)
        carried = np.zeros(len(fw))
        np.add.at(carried, j, contrib * (1 - t))
        np.add.at(carried, nxt, contrib * t)
        carried[0] += est["fer"] * est["modelled_share"]
        shares = carried / est["fer"]
        assert abs(shares.sum() - 1) < 1e-6, shares
        fails = [s["failures"] for s in strata if s["failures"]]
        thin = [sh for sh, f in zip(shares, fails, strict=True) if f < THIN_FAILURES]
        assert abs(row["thin_share"] - sum(thin)) < 1e-4, (row, shares, fails)
        # The rule's second part (a thin lowest stratum holding the estimate up: were it
        # silent, > 10 % modelled) is the Rust combine's, read from the sidecar.
        anchor = st["quality"]["anchor_modelled_share"]
        assert (anchor == 0.0) == (fails[0] >= THIN_FAILURES), (row, anchor)
        breaks = max(thin, default=0.0) > MAX_THIN_SHARE or anchor > MAX_THIN_SHARE
        assert row["thin"] == breaks, (row, shares, fails, anchor)
        # The fewest failures of a stratum the row leans on: those carrying > 10 %, and the
        # lowest where silencing it leaves > 10 % modelled (known here when it is thin: the
        # anchor share; otherwise it may or may not count); none such: all of them. A row
        # breaks the rule exactly when that count is below 5.
        leant = [f for sh, f in zip(shares, fails, strict=True) if sh > MAX_THIN_SHARE]
        if fails[0] < THIN_FAILURES and anchor > MAX_THIN_SHARE:
            leant.append(fails[0])
        want = {min(leant) if leant else sum(fails)}
        if fails[0] >= THIN_FAILURES:
            want.add(min(leant + [fails[0]]))
        assert row["support_failures"] in want, (row, want, shares, fails)
        assert row["thin"] == (row["support_failures"] < THIN_FAILURES), row


def test_stratified_levels_are_monotone_within_their_bounds():
    """Every level with stratified rows: each such row inside its monotone bounds, and the
    level's FER strictly increasing from its lowest row up to the row its tail is drawn
    through (the model rows, the stratified ones and the measured ones between), so the
    ladder reads no step and no dip there."""
    lv = by_level()
    levels = [k for k, rs in lv.items() if any(r["stratified"] for r in rs)]
    assert 0 in levels and len(levels) > 1, "hard and at least one soft level are stratified"
    for k in levels:
        rs = lv[k]
        for r in (r for r in rs if r["stratified"]):
            assert 0 < r["fer_lo"] <= r["fer"] <= r["fer_hi"], r
        top = anchors(rs)[1]["rber"]
        fers = [r["fer"] for r in rs if r["rber"] <= top]
        assert all(a < b for a, b in zip(fers, fers[1:], strict=False)), (k, fers)


def tolerable_rber(levels: list[dict], target: float) -> float:
    """The largest RBER at which a level's ladder reads at most ``target``: the ladder is
    log-log between rows with the first segment extended below, so ln RBER is piecewise
    linear in ln FER over the rows up to the first that reaches ``target`` (whose FERs must
    rise strictly), extended below the first row."""
    up = []
    for r in levels:
        up.append(r)
        if r["fer"] >= target:
            break
    y = np.log([r["fer"] for r in up])
    x = np.log([r["rber"] for r in up])
    assert np.all(np.diff(y) > 0), up
    if target < up[0]["fer"]:
        s = (y[1] - y[0]) / (x[1] - x[0])
        return float(np.exp(x[0] + (math.log(target) - y[0]) / s))
    return float(np.exp(np.interp(math.log(target), y, x)))


# Where the ordering of the levels at equal FER fails (docs/ldpc.md, soft strata): level k
# tolerates less RBER than k - 1 below this FER. k = 5's tail is the line through its two
# stratified rows, 1.8e-2 and 1.85e-2 (slope 110.0), k = 4's the line through its stratified
# 1.8e-2 and the 10-failure 1.85e-2 (120.6, uncertain by about ±22), so the two meet far
# down, where both are lines, not measurements.
CROSSINGS = {5: 9.6e-14}
# How far a crossing level may fall short of the level below it down to 1e-15.
CROSSING_SHORTFALL = 0.03


def test_more_sensing_tolerates_no_less_rber_at_equal_fer():
    """From FER 1e-2 down to 1e-15 (seed 001 §2.2's target) the RBER a level tolerates does
    not fall as k grows (k = 0…6), reading the table as the ladder does; the documented
    crossings (CROSSINGS) are held to their FER range and to a shortfall below 3 %."""
    lv = by_level()
    for target in np.geomspace(1e-2, 1e-15, 131):
        x = [tolerable_rber(lv[k], float(target)) for k in range(7)]
        for k in range(1, 7):
            crossed = target < CROSSINGS.get(k, 0.0)
            floor = x[k - 1] * (1 - CROSSING_SHORTFALL) if crossed else x[k - 1]
            assert x[k] >= floor, (float(target), k, x[k - 1], x[k])


def test_the_core_serves_its_built_in_tables_byte_for_byte(real_core):
    # An installed package reads the tables it simulates with from the core, not from the
    # source tree (which a non-editable install does not have).
    data = Path(__file__).resolve().parents[1] / "crates" / "nandlab-core" / "data"
    assert real_core.fer_table("") == (data / "ldpc_fer.csv").read_text()
    assert real_core.fer_table("builtin:nandlab") == (data / "ldpc_fer.csv").read_text()
    assert real_core.fer_table("builtin:001-paper") == (data / "fer_001_paper.csv").read_text()
    with pytest.raises(ConfigError, match="no built-in FER table named"):
        real_core.fer_table("builtin:nope")
