"""Seed 002 §5.4: Eq. 8's P/E limits as functions of the erased mean μ₀ and the cell-error
limit Err*, and the fit of μ₀ (with or without Err*) to the paper's two stated limits.

Fig. 11a's table (μ₀ among it) is not in the text, so nandlab's layout fixes μ₀ = −1.40 V
by assumption (docs/reliability.md, "TVR"). Every state mean is μ₀ plus a rise that
§5.2–5.3 fix (the standard layout's 0, 3.5, 4.9, 6.3 V; the reduced layout's Δ sums), so
the mean V_th of each layout is ``μ₀ + mean rise`` and μ₀ moves both §5.4 limits:

- :func:`fit_mu0_and_limit` solves both unknowns from both limits (12.469 and 13.35×10⁵):
  the gain then equals the paper's by construction, and what is checked is whether the
  fitted values are plausible (Err* beside nandlab's own reading 7.37, μ₀ a negative erased
  mean) and how sensitive the gain is to them (:func:`sensitivity`);
- :func:`fit_mu0` solves μ₀ from the standard limit alone at a given Err*, so the TVR limit
  and the gain are a prediction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Eq. 6–7 of 002: a = −5e-4·ln V + 0.0019, b = 0.036·ln V + 0.6616.
A1, B1, A2, B2 = -5e-4, 0.0019, 0.036, 0.6616

#: §5.4's two limits, ×10⁵ P/E cycles (12.469 printed with three decimals, 13.35 with two).
PAPER_STANDARD, PAPER_TVR = 12.469, 13.35


def max_pe(v_th: float, err_limit: float) -> float:
    """Eq. 8 solved for N: ``ln((Err* + 1)/a)/b`` at mean threshold voltage ``v_th``."""
    if v_th <= 0:
        raise ValueError(f"Eq. 8 needs V_th > 0 (ln V_th), got {v_th:.4f} V")
    a, b = A1 * math.log(v_th) + B1, A2 * math.log(v_th) + B2
    if a <= 0 or b <= 0:
        raise ValueError(f"Eq. 8 has no growing error count at V_th = {v_th:.4g} V")
    return math.log((err_limit + 1) / a) / b


def err_limit_for(v_th: float, n: float) -> float:
    """The Err* at which Eq. 8 reaches ``n`` at ``v_th``: ``a·e^{b·n} − 1``."""
    a, b = A1 * math.log(v_th) + B1, A2 * math.log(v_th) + B2
    return a * math.exp(b * n) - 1


@dataclass(frozen=True)
class Fit:
    mu0_v: float
    err_limit: float
    max_pe_standard: float
    max_pe_tvr: float

    @property
    def gain(self) -> float:
        return self.max_pe_tvr / self.max_pe_standard - 1


def _evaluate(mu0: float, err: float, rise_std: float, rise_tvr: float) -> Fit:
    return Fit(mu0, err, max_pe(mu0 + rise_std, err), max_pe(mu0 + rise_tvr, err))


def _bisect(f, lo: float, hi: float) -> float:
    flo = f(lo)
    if flo * f(hi) > 0:
        raise ValueError("no root in the bracket")
    for _ in range(200):
        mid = (lo + hi) / 2
        if (f(mid) > 0) == (flo > 0):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def fit_mu0_and_limit(rise_std: float, rise_tvr: float, standard: float = PAPER_STANDARD,
                      tvr: float = PAPER_TVR) -> Fit:
    """μ₀ and Err* such that Eq. 8 gives ``standard`` and ``tvr`` at the two layouts' mean
    V_th (``μ₀ + rise``). For each μ₀, Err* follows from the standard limit; the TVR limit
    then falls strictly as μ₀ rises (the reduced mean moves away from 0 V, where Eq. 8's
    limit climbs steeply), so bisection over μ₀ ∈ (−rise_tvr, 0] finds the one root."""

    def resid(mu0: float) -> float:
        return max_pe(mu0 + rise_tvr, err_limit_for(mu0 + rise_std, standard)) - tvr

    mu0 = _bisect(resid, -rise_tvr + 1e-3, 0.0)
    return _evaluate(mu0, err_limit_for(mu0 + rise_std, standard), rise_std, rise_tvr)


def fit_mu0(rise_std: float, rise_tvr: float, err_limit: float,
            standard: float = PAPER_STANDARD) -> Fit:
    """μ₀ such that Eq. 8 at ``err_limit`` gives ``standard`` for the standard layout, on
    the branch below Eq. 8's minimum over V_th (mean V_th under ~4.8 V, where nandlab's
    and the paper's layouts lie); the TVR limit is then predicted."""
    # N(V) at a fixed Err* has one minimum; below it N falls as V rises.
    vmin = _bisect(lambda v: max_pe(v * 1.0001, err_limit) - max_pe(v, err_limit), 0.05, 40)
    mu0 = _bisect(lambda m: max_pe(m + rise_std, err_limit) - standard,
                  -rise_tvr + 1e-3, vmin - rise_std)
    return _evaluate(mu0, err_limit, rise_std, rise_tvr)


def sensitivity(fit: Fit, rise_std: float, rise_tvr: float,
                step_v: float = 0.05) -> dict[str, float]:
    """The gain (percent) at μ₀ ± ``step_v`` with Err* kept, and the gain's change per 1 %
    change of Err* with μ₀ kept: how well the two limits pin the gain."""
    out = {}
    for sign, name in ((-1, "minus"), (1, "plus")):
        out[f"gain_mu0_{name}_pct"] = 100 * _evaluate(
            fit.mu0_v + sign * step_v, fit.err_limit, rise_std, rise_tvr).gain
    out["gain_err_plus_1pct_pct"] = 100 * _evaluate(
        fit.mu0_v, fit.err_limit * 1.01, rise_std, rise_tvr).gain
    return out


def rises(means_v: list[float]) -> float:
    """A layout's mean rise above its erased mean (four states equally likely, §5.4)."""
    return sum(m - means_v[0] for m in means_v) / len(means_v)
