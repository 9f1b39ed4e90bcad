"""Seed 002 §5.4's P/E limits with the erased mean μ₀ fitted (``nandlab.reproduce.tvr_fit``),
checked against Eq. 8 evaluated here by hand."""

from __future__ import annotations

import math

import pytest

from nandlab.reproduce import tvr_fit

# docs/reliability.md, "TVR": standard means μ₀ + (0, 3.5, 4.9, 6.3) V, reduced
# μ₀ + (0, 1.76, 2.437, 3.157) V (Δ₀ + Δ₁, + 2·0.3385, + 0.72).
RISE_STD = (0 + 3.5 + 4.9 + 6.3) / 4
RISE_TVR = (0 + 1.76 + 2.437 + 3.157) / 4


def eq8_limit(v, err):
    a = -5e-4 * math.log(v) + 0.0019
    b = 0.036 * math.log(v) + 0.6616
    return math.log((err + 1) / a) / b


def test_mean_rises_of_the_layouts():
    assert tvr_fit.rises([-1.4, 2.1, 3.5, 4.9]) == pytest.approx(RISE_STD)
    assert tvr_fit.rises([-1.4, 0.36, 1.037, 1.757]) == pytest.approx(RISE_TVR)


def test_fit_of_mu0_and_err_returns_the_papers_two_limits():
    f = tvr_fit.fit_mu0_and_limit(RISE_STD, RISE_TVR)
    # The hand solution: μ₀ = −1.671 V, Err* = 7.114.
    assert f.mu0_v == pytest.approx(-1.671, abs=1e-3)
    assert f.err_limit == pytest.approx(7.114, abs=1e-3)
    assert eq8_limit(f.mu0_v + RISE_STD, f.err_limit) == pytest.approx(12.469, abs=1e-6)
    assert eq8_limit(f.mu0_v + RISE_TVR, f.err_limit) == pytest.approx(13.35, abs=1e-6)
    assert 100 * f.gain == pytest.approx(100 * (13.35 / 12.469 - 1), abs=1e-6)  # 7.07 %


def test_fit_of_mu0_alone_predicts_the_tvr_limit():
    err = 4.5e-4 * 16_384  # 7.3728, nandlab's reading of the RBER limit
    f = tvr_fit.fit_mu0(RISE_STD, RISE_TVR, err)
    assert eq8_limit(f.mu0_v + RISE_STD, err) == pytest.approx(12.469, abs=1e-6)
    assert f.max_pe_tvr == pytest.approx(eq8_limit(f.mu0_v + RISE_TVR, err))
    # Below Eq. 8's minimum over V (4.8 V at this Err*): the standard mean is 2.66 V.
    assert f.mu0_v + RISE_STD == pytest.approx(2.66, abs=0.01)
    assert 0 < f.gain < 0.071


def test_sensitivity_brackets_the_fit():
    f = tvr_fit.fit_mu0_and_limit(RISE_STD, RISE_TVR)
    s = tvr_fit.sensitivity(f, RISE_STD, RISE_TVR)
    # A lower μ₀ brings the reduced mean closer to 0 V, where Eq. 8's limit climbs.
    assert s["gain_mu0_minus_pct"] > 100 * f.gain > s["gain_mu0_plus_pct"]


def test_eq8_needs_a_positive_voltage():
    with pytest.raises(ValueError, match="V_th > 0"):
        tvr_fit.max_pe(-0.1, 7.0)
