"""Per-trace characteristics of the eight MSR Cambridge traces of seed 000 (Table V), which
``reproduce bitflip`` replays as synthetic stand-ins, each number with its source.

What is published per trace, and where:

- **read data and read ratio by bytes**: seed 000, Table V (:data:`.paper_000.TABLE_V`);
- **write ratio by requests and mean request size**: Wu, Mao, Lin, Jiang, "GC-aware
  request steering" (GCaR), IEEE TPDS 2017, Table 4 — hm_0, wdev_0, mds_0, rsrch_0 only;
- **trace length**: one week (Narayanan et al., "Write off-loading", FAST'08, §2);
- **burstiness**: none per trace. The MSR volumes' peak rates are "over an order of
  magnitude higher than average load" (Narayanan et al., "Everest", OSDI'08, §1) and storage
  inter-arrival times are best fitted by a two-phase hyper-exponential (Wajahat et al.,
  Performance Evaluation 142, 2020). That fit is made to the real hm_0 excerpt's gaps, the
  read flow's and the write flow's apart (:data:`EXCERPT_BURSTS`: 000 replays a trace's
  reads alone and its writes alone), and assumed for all eight: each stand-in flow is its
  fit's exact on/off equivalent (``[workload.bursts]``, an interrupted Poisson process) with
  hm_0's requests per burst and rate inside a burst for that operation, at the flow's own
  weekly mean rate.

Nothing found gives proj_3, web_0, web_1 or src2_0's request sizes or request split, nor
any trace's locality. Those four use the size mix measured on the real hm_0 excerpt
(:data:`EXCERPT_SIZES`) for reads and writes alike, so their request split equals Table V's
byte split. Addresses are uniform over the device for every stand-in: a per-trace footprint
would not change what is read, because the file content repeats every few MB across the
logical space (``content.mapping = "adjacent"``), so any footprint above that sees the same
content mix.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from . import paper_000

#: Request-size mix measured on the real ``msr_hm_0_first899.csv`` excerpt with ``nandlab
#: trace info`` (4 KB 62 %, 8 KB 13 %, 16 KB 8 %, 32 KB 5 %, 64 KB 2 %, the rest between):
#: sub-4 KB requests folded into 4 KB, the others rounded up to the next power of two.
EXCERPT_SIZES = {4096: 64, 8192: 14, 16384: 9, 32768: 8, 65536: 5}

#: Bursts of the real ``msr_hm_0_first899.csv`` excerpt, per operation: op -> (rate inside
#: a burst in requests/s, requests per burst). Each flow's gaps (FILETIME ticks of 100 ns;
#: a gap of 0 ticks taken as half a tick) fitted by maximum likelihood (:func:`fit_h2`)
#: with a two-phase hyper-exponential, the distribution Wajahat et al. (Perf. Eval. 2020)
#: find fits storage traces best, and taken to its exact on/off equivalent
#: (:func:`ipp_of_h2`):
#:
#: - reads (407, over 127 s; gap coefficient of variation 11.5): 98.5 % of the gaps have
#:   mean 2.18 ms, the rest 19.5 s — read episodes of 65.6 reads at 451 reads/s;
#: - writes (492; CV 3.0): 78.4 % at mean 7.9 µs, the rest 1.19 s — bursts of 3.62 writes
#:   at 99,135 writes/s.
#:
#: (All 899 gaps together fit 70.5 % at 25.8 µs: 2.386 requests per burst at 27,334/s, the
#: former stand-ins' bursts, split by each flow's share. The reads alone burst otherwise:
#: long, slow episodes, so a read flow is not a thinning of the mixed bursts.)
EXCERPT_BURSTS: dict[str, tuple[float, float]] = {
    "read": (451.28, 65.616),
    "write": (99_135.0, 3.6220),
}

#: The largest ``bursts.peak_to_mean`` the core takes (docs/workloads.md). Only web_1's
#: write flow (0.0963 writes/s over the week) would need more (1.03 × 10^6): it bursts at
#: 96,000 writes/s, 3 % below the fit's rate.
PEAK_TO_MEAN_MAX = 1e6


def fit_h2(gaps_s: list[float], iterations: int = 2000) -> tuple[float, float, float]:
    """Maximum-likelihood two-phase hyper-exponential of the gaps, by expectation
    maximisation from a fixed start (p = 0.7, means 100 µs and 1 s): (p, rate 1, rate 2),
    rate 1 the faster phase."""
    import numpy as np

    g = np.asarray(gaps_s, dtype=float)
    if g.size < 2 or np.any(g <= 0):
        raise ValueError("need at least two positive gaps")
    p, l1, l2 = 0.7, 1e4, 1.0
    for _ in range(iterations):
        a = p * l1 * np.exp(-l1 * g)
        b = (1 - p) * l2 * np.exp(-l2 * g)
        w = a / (a + b)
        p, l1, l2 = w.mean(), w.sum() / (w * g).sum(), (1 - w).sum() / ((1 - w) * g).sum()
    return (float(p), float(l1), float(l2)) if l1 >= l2 else (float(1 - p), float(l2), float(l1))


def ipp_of_h2(p: float, rate1: float, rate2: float) -> tuple[float, float, float]:
    """The interrupted Poisson process whose gaps are H2(p, rate1, rate2) (Kuczura, Bell
    Syst. Tech. J. 52, 1973): (rate inside a burst λ = p·r1 + (1−p)·r2, requests per burst
    λ/α, mean rate), with OFF→ON rate β = r1·r2/λ and ON→OFF rate α = r1 + r2 − λ − β."""
    lam = p * rate1 + (1 - p) * rate2
    beta = rate1 * rate2 / lam
    alpha = rate1 + rate2 - lam - beta
    return lam, lam / alpha, lam * beta / (alpha + beta)


#: GCaR (TPDS 2017) Table 4: trace -> (write ratio by requests, mean request size in KB,
#: taken as 1024 B as block sizes are).
GCAR_TABLE_4: dict[str, tuple[float, float]] = {
    "hm_0": (0.645, 9.2),
    "wdev_0": (0.800, 16.0),
    "mds_0": (0.881, 14.1),
    "rsrch_0": (0.907, 17.3),
}

#: Length of every MSR Cambridge trace (FAST'08, §2: one week of block traces).
TRACE_S = 7 * 24 * 3600


def mean_size(mix: Mapping[int, float]) -> float:
    """Mean request size of a size -> weight mix, in bytes."""
    return sum(s * w for s, w in mix.items()) / sum(mix.values())


def tilted(mean_bytes: float) -> dict[int, float]:
    """The excerpt's size mix tilted to ``mean_bytes``: weights p_i·exp(λ·s_i/64 KB) with λ
    set by bisection so the mean matches — of all mixes on the same sizes with that mean,
    the one closest (Kullback–Leibler) to the measured one. Weights rounded to 1e-6."""
    sizes = sorted(EXCERPT_SIZES)
    if not sizes[0] < mean_bytes < sizes[-1]:
        raise ValueError(f"mean {mean_bytes} B outside the mix's sizes")
    top = sizes[-1]

    def mix(lam: float) -> dict[int, float]:
        w = {s: EXCERPT_SIZES[s] * math.exp(lam * s / top) for s in sizes}
        total = sum(w.values())
        return {s: v / total for s, v in w.items()}

    lo, hi = -50.0, 50.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mean_size(mix(mid)) < mean_bytes else (lo, mid)
    return {s: round(v, 6) for s, v in mix((lo + hi) / 2).items()}


@dataclass(frozen=True)
class Trace:
    """One stand-in's characteristics (sizes in bytes, rates in requests/s)."""

    name: str
    #: Share of requests that are reads.
    read_requests: float
    read_sizes: dict[int, float]
    write_sizes: dict[int, float]
    #: Mean arrival rate over the week.
    iops: float
    source: str

    def bursts(self, op: str) -> dict[str, float]:
        """``[workload.bursts]`` of the ``op`` ("read"/"write") flow: hm_0 excerpt's rate
        inside a burst for that op (:data:`EXCERPT_BURSTS`) over the flow's mean rate, at
        most :data:`PEAK_TO_MEAN_MAX`, and its requests per burst."""
        rate, size = EXCERPT_BURSTS[op]
        share = self.read_requests if op == "read" else 1 - self.read_requests
        ratio = min(PEAK_TO_MEAN_MAX, max(1.0, rate / (self.iops * share)))
        return {"peak_to_mean": ratio, "burst_requests": size}

    @property
    def mean_bytes(self) -> float:
        r = self.read_requests
        return r * mean_size(self.read_sizes) + (1 - r) * mean_size(self.write_sizes)


def trace(name: str) -> Trace:
    """Trace ``name``'s stand-in. With GCaR's request split w and mean size S, and Table V's
    byte read ratio R: reads are R·S/(1−w) and writes (1−R)·S/w bytes on average, so both
    sources hold at once. The rate is the week's traffic (Table V's read data, GB taken as
    10^9 B, over R) over the week, in requests of the mean size."""
    read_gb, ratio = paper_000.TABLE_V[name]
    if name in GCAR_TABLE_4:
        w, kb = GCAR_TABLE_4[name]
        size = kb * 1024
        reads = tilted(ratio * size / (1 - w))
        writes = tilted((1 - ratio) * size / w)
        read_requests = 1 - w
        source = "Table V read ratio and volume; GCaR Table 4 request split and mean size"
    else:
        reads = writes = dict(EXCERPT_SIZES)
        size = mean_size(EXCERPT_SIZES)
        read_requests = ratio
        source = "Table V read ratio and volume; sizes of the hm_0 excerpt (none published)"
    iops = read_gb * 1e9 / ratio / TRACE_S / size
    return Trace(name, read_requests, reads, writes, iops, source)
