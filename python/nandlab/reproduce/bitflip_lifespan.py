"""Seed 000 §IV-C (Fig. 14): P/E cycles BitFlip gains at equal RBER, through a one-week
RBER(P/E) relation.

000 maps each RBER to a P/E count with "the one-week column of Table 4" of FlexLevel
(Guo et al., DAC'15). That table is not in 000's text and could not be retrieved here
(searched; only FlexLevel's abstract is reachable). In its place the relation is
*measured* in nandlab: the ``lifespan`` sweep reads random data, written once and aged one
week, on a 2y-nm MLC threshold-voltage model (``reliability.model = "vth"``, preset
``dong-mlc``: Dong, Xie, Zhang, TCAS-I 2011, constants in research/models.md §1.2; its
retention term grows with P/E as N^0.5 … N^0.6) at :data:`PE_POINTS`, and takes each run's
mean page RBER. The relation's level does not matter, only its shape: BitFlip's RBER is
the baseline's times ``c_BitFlip / c_baseline`` (the content factors of the read runs), and
the gain at baseline RBER R is ``PE(R) / PE(R·c_f/c_b) − 1``, averaged over the swept
RBERs, with ``PE`` the log–log interpolation of the measured points (straight-line
extrapolation in log–log outside them). With a power law RBER ∝ PE^k this is the former
``(c_b/c_f)^(1/k) − 1``; the measured curve steepens with wear, so its local k is larger
where the RBER is higher.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl

from .framework import column

#: P/E counts of the ``lifespan`` runs: from a fresh chip past the 3 k-cycle MLC rating
#: 000 cites (§I) to 100 k, so the curve brackets the swept 4e-3 … 13e-3.
PE_POINTS = [300, 1000, 2000, 3000, 5000, 7000, 10_000, 15_000, 20_000, 30_000, 50_000, 100_000]

#: The device of the ``lifespan`` runs: one small package (its size does not move the
#: expected page RBER) prefilled with random data aged 7 days, 400 random 4 KiB reads.
RUN_SET = {
    "device.channels": 1,
    "device.chips_per_channel": 1,
    "device.dies_per_chip": 1,
    "device.blocks_per_plane": 64,
    "reliability.model": "vth",
    "reliability.vth_preset": "dong-mlc",
    "reliability.error_draw": "expected",
    "ecc.scheme": "none",
    "content.source": "random",
    "aging.fill_fraction": 1.0,
    "aging.retention_days": 7.0,
    "workload.kind": "synthetic",
    "workload.read_fraction": 1.0,
    "workload.requests": 400,
    "workload.iops": 0.0,
    "output.record_requests": False,
}


def spec(preset: Path, seed: int) -> dict[str, Any]:
    """The ``lifespan`` sweep: :data:`RUN_SET` at every :data:`PE_POINTS` count."""
    return {"name": "lifespan", "config": str(preset), "seeds": [seed], "set": dict(RUN_SET),
            "grid": {"aging.initial_pe": PE_POINTS}}


def curve(table: pl.DataFrame) -> list[tuple[float, float]]:
    """(P/E, mean page RBER) of the runs, by P/E; a run with no RBER is an error."""
    pe = column(table, "config.aging.initial_pe")
    rber = column(table, "reliability.rber_mean")
    pts = sorted((float(p), float(r)) for p, r in zip(pe, rber, strict=True))
    if any(not (r > 0) for _, r in pts):
        raise RuntimeError(f"lifespan runs without a positive RBER: {pts}")
    if any(b[1] <= a[1] for a, b in zip(pts, pts[1:], strict=False)):
        raise RuntimeError(f"the one-week RBER does not grow with P/E: {pts}")
    return pts


def pe_at(pts: list[tuple[float, float]], rber: float) -> float:
    """P/E at which the curve reaches ``rber`` (log–log interpolation; the end segments
    extended outside)."""
    logs = [(math.log(r), math.log(p)) for p, r in pts]
    x = math.log(rber)
    i = next((k for k in range(1, len(logs) - 1) if x <= logs[k][0]), len(logs) - 1)
    (x0, y0), (x1, y1) = logs[i - 1], logs[i]
    return math.exp(y0 + (y1 - y0) * (x - x0) / (x1 - x0))


def local_exponent(pts: list[tuple[float, float]], rber: float) -> float:
    """d ln RBER / d ln PE of the curve at ``rber`` (the segment it falls in)."""
    lo, hi = pe_at(pts, rber / 1.01), pe_at(pts, rber * 1.01)
    return math.log(1.01 ** 2) / math.log(hi / lo)


def gain(pts: list[tuple[float, float]], rbers: list[float], c_base: float,
         c_flip: float) -> float:
    """Mean over the baseline RBERs ``rbers`` of PE(R)/PE(R·c_flip/c_base) − 1."""
    if not (c_base > 0 and c_flip > 0):
        return math.nan
    g = [pe_at(pts, r) / pe_at(pts, r * c_flip / c_base) - 1 for r in rbers]
    return sum(g) / len(g)


def implied_exponent(ratio: float, gain: float) -> float:
    """The exponent k of a power law RBER ∝ PE^k under which lowering the RBER by the
    factor ``ratio`` (BitFlip / baseline) gains ``gain`` P/E cycles: ln(1/ratio)/ln(1+gain)."""
    return math.log(1 / ratio) / math.log(1 + gain)


def method_md(pts: list[tuple[float, float]], rbers: list[float]) -> str:
    """The report's lifespan method line, with the curve's local exponent over the sweep."""
    ks = [local_exponent(pts, r) for r in rbers]
    return (
        "- **Lifespan**: 000's RBER→P/E map (FlexLevel Table 4, one-week column) is not "
        "available; nandlab measures one in its place (`lifespan` runs, "
        "`nandlab.reproduce.bitflip_lifespan`): random data aged 7 days on the `dong-mlc` "
        "Vth model, mean page RBER at P/E "
        + ", ".join(f"{p:,.0f}: {r:.2e}" for p, r in pts)
        + f". Over the swept RBERs its local exponent d ln RBER / d ln PE is "
        f"{min(ks):.2f} … {max(ks):.2f} (the former power law used 1.71). Gain at baseline "
        "RBER R: PE(R)/PE(R·c_BitFlip/c_base) − 1, averaged over the sweep.\n"
    )
