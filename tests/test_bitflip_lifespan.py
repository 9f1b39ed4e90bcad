"""The one-week RBER(P/E) map of ``reproduce bitflip``'s lifespan claim
(``nandlab.reproduce.bitflip_lifespan``), against hand computations on power laws."""

from __future__ import annotations

import math

import polars as pl
import pytest

from nandlab.reproduce import bitflip_lifespan as bl

# RBER = 1e-3 · (PE/1000)^2 at 1000, 2000, 4000 P/E: a power law with k = 2.
SQUARE = [(1000.0, 1e-3), (2000.0, 4e-3), (4000.0, 1.6e-2)]


def test_pe_at_interpolates_and_extends_a_power_law():
    assert bl.pe_at(SQUARE, 2e-3) == pytest.approx(1000 * math.sqrt(2))
    assert bl.pe_at(SQUARE, 1.6e-2) == pytest.approx(4000)
    # Outside the points the end segments continue: RBER 2.5e-4 at 500, 6.4e-2 at 8000.
    assert bl.pe_at(SQUARE, 2.5e-4) == pytest.approx(500)
    assert bl.pe_at(SQUARE, 6.4e-2) == pytest.approx(8000)
    assert bl.local_exponent(SQUARE, 3e-3) == pytest.approx(2.0)


def test_gain_is_the_power_laws_root_of_the_content_ratio():
    # BitFlip's page RBER half the baseline's: PE(R)/PE(R/2) - 1 = 2^(1/2) - 1 everywhere.
    g = bl.gain(SQUARE, [2e-3, 5e-3, 1e-2], c_base=1.2, c_flip=0.6)
    assert g == pytest.approx(math.sqrt(2) - 1)
    assert math.isnan(bl.gain(SQUARE, [2e-3], c_base=0.0, c_flip=0.6))


def test_curve_orders_points_and_refuses_a_falling_one():
    t = pl.DataFrame({"config.aging.initial_pe": [2000, 1000],
                      "reliability.rber_mean": [4e-3, 1e-3]})
    assert bl.curve(t) == [(1000.0, 1e-3), (2000.0, 4e-3)]
    bad = pl.DataFrame({"config.aging.initial_pe": [1000, 2000],
                        "reliability.rber_mean": [4e-3, 1e-3]})
    with pytest.raises(RuntimeError, match="does not grow"):
        bl.curve(bad)


def test_implied_exponent_inverts_the_gain_of_a_power_law():
    # On RBER ∝ PE^2 halving the RBER gains √2 − 1; the exponent comes back from both.
    g = bl.gain(SQUARE, [2e-3, 5e-3], c_base=1.2, c_flip=0.6)
    assert bl.implied_exponent(0.5, g) == pytest.approx(2.0)
    assert bl.implied_exponent(0.25, 1.0) == pytest.approx(2.0)  # ln 4 / ln 2


def test_flipped_shares_and_the_exponent_a_paper_point_implies():
    from nandlab.reproduce import bitflip

    # Half the error-prone states flipped: '00' 0.3 → 0.15 (+0.15 to '11'), '01' likewise.
    after = bitflip.flipped_shares({"00": 0.3, "01": 0.3, "10": 0.2, "11": 0.2}, 0.5)
    assert after == pytest.approx({"00": 0.15, "01": 0.15, "10": 0.35, "11": 0.35})
    # Content factors 4·(.46·.3 + .44·.3 + .05·.4) = 1.16 and 4·(.46·.15 + .44·.15 + .05·.7)
    # = 0.68; a 30 % gain then needs k = ln(1.16/0.68) / ln 1.3 = 2.0357.
    ratio = bitflip.content_factor(after) / bitflip.content_factor(
        {"00": 0.3, "01": 0.3, "10": 0.2, "11": 0.2})
    assert ratio == pytest.approx(0.68 / 1.16)
    assert bl.implied_exponent(ratio, 0.3) == pytest.approx(0.534082 / 0.262364, rel=1e-5)
