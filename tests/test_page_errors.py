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
