"""Uncorrectable page errors as seed 004 defines them (§5.3.1: "ECC strength indicates the
number of bits of errors that can be corrected by the BCH code for one physical page"): a
page of ``n_bits`` (Table 2: 8192 + 448 bytes = 69,120 bits) fails when more than t of its
bits are wrong, t counted per page, not per 1 KiB codeword.

One RBER for every page makes the count fall far faster with t than 004's Table 5 (a
binomial tail falls by about λ/(t + 2) per extra bit, λ = N·R the mean errors per page),
so pages differ: the RBER of a page is log-normal, median ``r_median``, log-standard
deviation ``sigma`` (page-to-page variation of MLC RBER is log-normal-like in published
characterisations, e.g. Mielke et al., IRPS 2008, 004's ref. [37], whose per-page error
counts spread over decades). 004 gives no spread, so :func:`fit_table5` fits (count scale,
r_median, sigma) to the Baseline column of Table 5 at one P/E level, an input, and the
Asymmetric Programming column is then predicted with σ_MSB = 0.5 (Eq. 4): a model check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Bits of one physical page of 004's chip (Table 2: 8192 + 448 bytes).
PAGE_BITS = (8192 + 448) * 8

#: Gauss-Hermite nodes for the expectation over a standard normal (probabilists' form).
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(40)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


#: Terms of the upper tail summed when it is the smaller side.
_TAIL_TERMS = 400


def tails(t_max: int, rber, n_bits: int = PAGE_BITS) -> np.ndarray:
    """P(more than t of a page's ``n_bits`` bits are wrong), t = 0 … ``t_max`` (rows), at
    raw bit error rates ``rber`` (columns): the binomial tail, from the pmf's recurrence
    p(i + 1) = p(i)·(n − i)/(i + 1)·R/(1 − R), taking whichever side is smaller so that
    small tails keep their digits."""
    r = np.clip(np.atleast_1d(np.asarray(rber, dtype=float)), 1e-300, 1.0 - 1e-12)
    ratio = r / (1.0 - r)
    p = np.exp(n_bits * np.log1p(-r))
    pmf = np.empty((t_max + 1 + _TAIL_TERMS, r.size))
    for i in range(pmf.shape[0]):
        pmf[i] = p
        p = p * (n_bits - i) / (i + 1) * ratio
    cdf = np.cumsum(pmf[: t_max + 1], axis=0)
    rev = np.cumsum(pmf[::-1], axis=0)[::-1]  # rev[i] = sum of pmf[i:]
    upper = rev[1 : t_max + 2]
    return np.where(cdf > 0.5, upper, 1.0 - cdf)


def page_fail(t: int, rber: float, n_bits: int = PAGE_BITS) -> float:
    """P(more than ``t`` of a page's ``n_bits`` bits are wrong) at raw bit error rate
    ``rber`` (see :func:`tails`)."""
    return float(tails(t, rber, n_bits)[t, 0])


def spread_tails(t_max: int, r_median: float, sigma: float,
                 n_bits: int = PAGE_BITS) -> np.ndarray:
    """:func:`tails` averaged over pages whose RBER is log-normal (median ``r_median``,
    log-sd ``sigma``; 40-node Gauss-Hermite quadrature, exact for ``sigma`` = 0)."""
    if sigma == 0.0:
        return tails(t_max, r_median, n_bits)[:, 0]
    return tails(t_max, r_median * np.exp(sigma * _NODES), n_bits) @ _WEIGHTS


def lognormal_mean(r_median: float, sigma: float) -> float:
    """E[R] by the same quadrature (closed form: r_median · exp(σ²/2))."""
    return float(np.dot(_WEIGHTS, r_median * np.exp(sigma * _NODES)))


@dataclass(frozen=True)
class PageSpread:
    """Pages' RBER: log-normal, median ``r_median`` (LSB pages), log-sd ``sigma``; MSB
    pages at ``msb_scale`` × (Eq. 4's σ); ``scale``: critical page reads behind the counts."""

    r_median: float
    sigma: float
    scale: float
    msb_scale: float = 0.5

    def fails(self, t_max: int, page_type: int) -> np.ndarray:
        """P(uncorrectable), t = 0 … ``t_max``, for a page of ``page_type`` (0 LSB, 1 MSB)."""
        r = self.r_median * (self.msb_scale if page_type == 1 else 1.0)
        return spread_tails(t_max, r, self.sigma)

    def both_fail(self, t_max: int, page_types: tuple[int, int], rho: float) -> np.ndarray:
        """P(a page and its copy are both uncorrectable), t = 0 … ``t_max``, the page and
        the copy of ``page_types`` (0 LSB, 1 MSB), their log-RBERs normal with correlation
        ``rho``: 0 = each page's RBER its own, 1 = the copy shares its original's (given
        the RBERs, their bit errors are independent). Nested 40-node quadrature."""
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"rho must lie in [0, 1], got {rho}")
        a, b = (self.r_median * (self.msb_scale if pt == 1 else 1.0) for pt in page_types)
        first = tails(t_max, a * np.exp(self.sigma * _NODES))  # (t, node of the first)
        z = rho * _NODES[:, None] + math.sqrt(1.0 - rho * rho) * _NODES[None, :]
        second = (tails(t_max, (b * np.exp(self.sigma * z)).ravel())
                  .reshape(t_max + 1, _NODES.size, _NODES.size) @ _WEIGHTS)
        return (first * second) @ _WEIGHTS

    def counts(self, t_max: int, split: tuple[float, ...]) -> np.ndarray:
        """Expected uncorrectable pages, t = 0 … ``t_max``, among ``scale`` pages split
        by page type as given."""
        return np.asarray(
            self.scale * sum(s * self.fails(t_max, pt) for pt, s in enumerate(split)),
            dtype=float)


def fit_table5(counts: list[int], split: tuple[float, float] = (0.5, 0.5),
               msb_scale: float = 0.5) -> PageSpread:
    """(scale, r_median, sigma) minimising the squared log error of the Baseline column
    ``counts`` (t = 0, 1, ...), whose pages are split (LSB, MSB) as ``split`` (a type-blind
    FTL: half and half). A grid over sigma and the median's mean errors per page, the
    scale in closed form (the mean log ratio)."""
    logc = np.log(np.asarray(counts, dtype=float))
    t_max = len(counts) - 1
    lams = np.logspace(-1.5, 1.5, 61)  # median errors per LSB page
    best: tuple[float, PageSpread] | None = None
    for sigma in np.linspace(0.0, 2.0, 41):
        # Every median at once: rows t, columns the medians (quadrature inside).
        spread = np.exp(sigma * _NODES)
        p = sum(share * (tails(t_max, np.outer(lams / PAGE_BITS * scale, spread).ravel())
                         .reshape(t_max + 1, lams.size, spread.size) @ _WEIGHTS)
                for share, scale in zip(split, (1.0, msb_scale), strict=True))
        with np.errstate(divide="ignore"):
            logp = np.log(p)
        log_scale = np.mean(logc[:, None] - logp, axis=0)
        err = np.sum((logc[:, None] - logp - log_scale) ** 2, axis=0)
        err[~np.isfinite(err)] = np.inf
        i = int(np.argmin(err))
        if best is None or err[i] < best[0]:
            best = (float(err[i]), PageSpread(float(lams[i] / PAGE_BITS), float(sigma),
                                              math.exp(float(log_scale[i])), msb_scale))
    assert best is not None
    return best[1]
