"""Seed 004's uncorrectable critical pages (Tables 4-5) from a run's critical-page
programs: t bits corrected per physical page (§5.3.1), a page-to-page RBER spread fitted to
Table 5's Baseline column (`page_errors.py`, an input) and MSB pages at σ × the LSB RBER
(``MSB_SCALE``, from Fig. 3b, an input)."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from .. import _native
from . import paper_004
from .page_errors import PageSpread, fit_table5

#: ECC strengths of Table 5.
T_RANGE = range(9)

#: MSB pages' RBER over LSB pages' (Eq. 4's σ) behind the error counts, from 004's own
#: measurement on its chip: Fig. 3b's "up to 98.10 %" fewer page errors on MSB pages at
#: t = 3, whose largest value is the small-R limit 1 − σ^(t+1), so σ = (1 − 0.9810)^(1/4)
#: = 0.371 (an input). §3 writes σ = 0.5 "for the case in Figure 3", the value Table 1 is
#: computed with (a model check below), but 0.5 caps the cut at 93.75 % and cannot give
#: Fig. 3b's measured 98.10 % nor Table 5's 1000-P/E rows (40.75 % at t = 0 needs
#: σ ≤ 0.42: AP / BL ≥ 2σ/(1 + σ)).
MSB_SCALE = (1.0 - float(paper_004.FIG_3B_UP_TO) / 100.0) ** 0.25


def page_fail(t: int, n_bits: int, codewords: int, rber: float) -> float:
    """P(a page of ``codewords`` BCH codewords is uncorrectable) — the core's binomial tail."""
    return float(_native.core().bch_page_fail(t, n_bits, codewords, rber))


@functools.cache
def spreads() -> dict[int, PageSpread]:
    """Pages' RBER spread at each P/E level: fitted to Table 5's Baseline column at 1000
    and 3000 P/E (an input: 004 gives no spread; `page_errors.fit_table5`); at 2000 P/E
    (Table 4) the medians' geometric mean and the σ's mean (assumption)."""
    fits = {pe: fit_table5([row[0] for row in paper_004.TABLE_5[pe]], msb_scale=MSB_SCALE)
            for pe in (1000, 3000)}
    a, b = fits[1000], fits[3000]
    fits[2000] = PageSpread(math.sqrt(a.r_median * b.r_median), (a.sigma + b.sigma) / 2, 1.0,
                            MSB_SCALE)
    return fits


def fail_rates(bl: dict[str, Any], ap: dict[str, Any], mc: dict[str, Any],
               spread: PageSpread, t_max: int = 8) -> dict[str, list[float]]:
    """Per critical page programmed (read back once): P(uncorrectable), t = 0 … ``t_max``,
    under BL and AP (their runs' page-type splits); under MC every critical page has a
    backup, placed like MC's own critical pages and failing on its own, so a page is lost
    when both fail (``MC``); two sensitivity cases for what Meta-Cure's paper (not
    available here) would fix: ``MC_half``, half the pages with a valid backup (coverage);
    ``MC_shared``, every backup sharing its original's RBER (``PageSpread.both_fail`` at
    ρ = 1: correlated copies)."""
    fail = [spread.fails(t_max, pt) for pt in range(2)]

    def rate(progs: list[int]) -> np.ndarray:
        n = sum(progs)
        if n == 0:  # a run too short for a lazy-writer flush programs no critical page
            return fail[0] * math.nan
        return (progs[0] * fail[0] + progs[1] * fail[1]) / n

    mc_rate = rate(mc["critical_programs"])
    n = sum(mc["critical_programs"])
    share = [p / n if n else math.nan for p in mc["critical_programs"]]
    shared = sum((share[a] * share[b] * spread.both_fail(t_max, (a, b), 1.0)
                  for a in range(2) for b in range(2)), np.zeros_like(fail[0]))
    return {"BL": list(rate(bl["critical_programs"])), "AP": list(rate(ap["critical_programs"])),
            "MC": list(mc_rate * mc_rate), "MC_half": list(mc_rate * (1 + mc_rate) / 2),
            "MC_shared": list(shared)}
