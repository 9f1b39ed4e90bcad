"""Seed 001's calibration recomputed independently of the Rust core: the chip profile of
``configs/001_ldpc_in_ssd.toml`` and the shipped FER table give §5's mean hard-decision
failure probability of 28.8 % (± 0.5 %), and the per-chip values in docs/ldpc_in_ssd.md are
these numbers.

Independent of ``ChipProfile::device_mean`` (a midpoint rule over z in Rust): the table is
read with the csv module, interpolated log-log here, and the block distribution integrated
by Gauss–Hermite quadrature (numpy).
"""

from __future__ import annotations

import csv
import math
import re
import tomllib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "crates" / "nandlab-core" / "data" / "ldpc_fer.csv"
PRESET = ROOT / "configs" / "001_ldpc_in_ssd.toml"


def hard_curve() -> list[tuple[float, float]]:
    lines = [ln for ln in TABLE.read_text().splitlines() if ln and not ln.startswith("#")]
    rows = csv.DictReader(lines)
    return sorted((float(r["rber"]), float(r["fer"])) for r in rows if r["level"] == "0")


def fer(curve: list[tuple[float, float]], x: float) -> float:
    """Log-log between points, linear where an end point has FER 0; flat past the ends
    (the curve starts at FER 0, so below it the FER is 0)."""
    if x <= curve[0][0]:
        return curve[0][1]
    for (a, fa), (b, fb) in zip(curve, curve[1:], strict=False):
        if a <= x < b:
            if fa > 0 and fb > 0:
                return fa * (x / a) ** (math.log(fb / fa) / math.log(b / a))
            return fa + (fb - fa) * (x - a) / (b - a)
    return curve[-1][1]


def per_chip() -> list[tuple[float, float]]:
    cfg = tomllib.loads(PRESET.read_text())["reliability"]
    prof = cfg["chip_profile"]
    z, w = np.polynomial.hermite_e.hermegauss(120)
    w = w / w.sum()
    curve = hard_curve()
    out = []
    for f, s in zip(prof["rber_factor"], prof["block_sigma"], strict=True):
        mean_rber = cfg["nominal_rber"] * f
        p = sum(wi * fer(curve, mean_rber * math.exp(s * zi - s * s / 2))
                for zi, wi in zip(z, w, strict=True))
        out.append((mean_rber, p))
    return out


def test_mean_hard_failure_is_28_8_percent():
    chips = per_chip()
    assert len(chips) == 4
    mean = sum(p for _r, p in chips) / len(chips)
    assert abs(mean - 0.288) <= 0.005, mean
    # Fig. 9's point: the chips differ noticeably; the best fails rarely, the worst often.
    ps = sorted(p for _r, p in chips)
    assert ps[0] < 0.05 and ps[-1] > 0.5


def test_the_doc_shows_these_numbers():
    doc = (ROOT / "docs" / "ldpc_in_ssd.md").read_text()
    for i, (rber, p) in enumerate(per_chip(), start=1):
        row = re.search(rf"^\| {i} \| [^|]+ \| ([0-9.e-]+) \| ([0-9.]+) % \|", doc, re.M)
        assert row, f"chip {i} row missing"
        assert abs(float(row.group(1)) - rber) / rber < 1e-3
        assert abs(float(row.group(2)) - 100 * p) < 0.05
