"""Errors per physical page (seed 004 §5.3.1: t counts bits per page) with a page-to-page
RBER spread: closed forms and a fit that recovers known parameters."""

import math

import numpy as np
import pytest

from nandlab.reproduce import page_errors as pe

N = pe.PAGE_BITS


def test_a_page_is_8192_plus_448_bytes():
    assert N == 69_120


@pytest.mark.parametrize("r", [1e-6, 3e-5, 1e-4])
def test_tail_per_page_closed_form(r):
    # t = 0: any error fails; t = 1: two or more.
    p0 = 1 - (1 - r) ** N
    p1 = p0 - N * r * (1 - r) ** (N - 1)
    assert pe.page_fail(0, r) == pytest.approx(p0, rel=1e-9)
    assert pe.page_fail(1, r) == pytest.approx(p1, rel=1e-9)


def test_small_tails_keep_their_digits():
    # t = 3 at R = 2e-7 (λ = 0.013824): P(X > 3) ≈ λ⁴/4! · e^−λ (the next term is λ/5 of it).
    lam = N * 2e-7
    want = lam**4 / 24 * math.exp(-lam) * (1 + lam / 5)
    assert pe.page_fail(3, 2e-7) == pytest.approx(want, rel=1e-3)


def test_the_quadrature_integrates_the_lognormal():
    # E[R] = median · exp(σ²/2).
    for sigma in (0.0, 0.3, 1.0):
        assert pe.lognormal_mean(1e-5, sigma) == pytest.approx(1e-5 * math.exp(sigma**2 / 2),
                                                               rel=1e-9)
    assert np.allclose(pe.spread_tails(4, 2e-5, 0.0), pe.tails(4, 2e-5)[:, 0])


def test_a_spread_slows_the_fall_with_t():
    # The same mean RBER: spread pages fail less at t = 0 and more at high t.
    flat = pe.spread_tails(8, 2e-5, 0.0)
    sigma = 0.8
    spread = pe.spread_tails(8, 2e-5 / math.exp(sigma**2 / 2), sigma)
    assert spread[0] < flat[0] and spread[8] > flat[8]


def test_the_fit_recovers_known_parameters():
    # Counts made from a grid point (λ = 1 error per LSB page at the median, σ = 0.5) come
    # back as that point, with the scale.
    truth = pe.PageSpread(1.0 / N, 0.5, 10_000.0)
    counts = truth.counts(8, (0.5, 0.5))
    fit = pe.fit_table5(list(counts))
    assert fit.sigma == pytest.approx(0.5)
    assert fit.r_median * N == pytest.approx(1.0, rel=1e-6)
    assert fit.scale == pytest.approx(10_000.0, rel=1e-6)


def test_a_copy_with_its_own_rber_fails_as_the_product_of_the_means():
    # ρ = 0: the copy's RBER is drawn apart from the original's, so P(both fail) is
    # E[P(page a fails)] · E[P(page b fails)], whatever the spread.
    s = pe.PageSpread(2e-5, 0.6, 1.0, 0.371)
    for types in ((0, 0), (0, 1), (1, 1)):
        got = s.both_fail(4, types, 0.0)
        want = s.fails(4, types[0]) * s.fails(4, types[1])
        assert got == pytest.approx(want, rel=1e-9)


def test_without_a_spread_correlation_changes_nothing():
    # σ = 0: every page has the median RBER, so at t = 0 both copies fail with
    # (1 − (1 − R)^N)(1 − (1 − R·σ_MSB)^N) for any ρ (N = 69,120 bits).
    r, n = 2e-5, 69_120
    want = (1 - (1 - r) ** n) * (1 - (1 - 0.371 * r) ** n)
    for rho in (0.0, 0.5, 1.0):
        got = pe.PageSpread(r, 0.0, 1.0, 0.371).both_fail(0, (0, 1), rho)[0]
        assert got == pytest.approx(want, rel=1e-9)


def test_a_copy_sharing_its_originals_rber_is_the_mean_of_the_square():
    # ρ = 1, one page type: P(both) = E[p(R)²] over the log-normal R; checked against a
    # Monte Carlo estimate (200,000 draws, a method apart from the quadrature) at t = 0,
    # where p(R) = 1 − (1 − R)^N; Jensen: it exceeds the independent copies' (E p)².
    r, sigma, n = 2e-5, 0.6, 69_120
    z = np.random.default_rng(4).standard_normal(200_000)
    p = 1 - (1 - r * np.exp(sigma * z)) ** n
    s = pe.PageSpread(r, sigma, 1.0)
    got = s.both_fail(0, (0, 0), 1.0)[0]
    assert got == pytest.approx(float(np.mean(p * p)), rel=3e-3)
    assert got > s.both_fail(0, (0, 0), 0.0)[0] * 1.05
    with pytest.raises(ValueError, match="rho"):
        s.both_fail(0, (0, 0), 1.5)
