"""BADR (seed 003): the runs as numbers — each run's metrics from the results table, their
means over seeds, and BADR's (or any policy's) change against a counterpart."""

from __future__ import annotations

import math

import polars as pl

from . import paper_003
from .claims import Measured, change_pct
from .framework import column

POLICIES = ("baseline", "rl", "dr", "badr")
#: Smallest change (%, pp) that counts as a sign (equal runs are not a reproduced sign).
SIGN = 0.1
#: Table II: basic read time and extra time per LDPC level (ns), for the latency split.
T_READ_NS = 85_000
T_RETRY_NS = 24_000
#: Per run, beside the three metrics: latency median and maximum, mean LDPC level, refreshes.
EXTRA = {"read_p50": "read.p50_ns", "read_max": "read.max_ns",
         "level": "reliability.mean_decoding_level", "refreshes": "flash.refresh_erases"}
#: Per run where the core reports them (older result stores lack them: NaN): the mean P/E
#: and reads since erase of the blocks the host page reads sensed, read-weighted — the two
#: inputs of the read-disturb error model, so where each policy leaves the hot data shows.
READ_BLOCKS = {"read_pe": "flash.host_read_blocks.pe_mean",
               "read_reads": "flash.host_read_blocks.reads_mean"}


#: (workload, wear, policy) -> the three metrics of that run.
Runs = dict[tuple[str, str, str], dict[str, float]]


def values(table: pl.DataFrame) -> dict[int, Runs]:
    """Seed -> (workload, wear, policy) -> the three metrics of that run."""
    cols = {k: column(table, k) for k in ("seed", "workload", "wear", "policy")}
    metric = {m: column(table, key) for m, (_, key, _) in paper_003.METRICS.items()}
    metric |= {m: column(table, key) for m, key in EXTRA.items()}
    metric |= {m: [math.nan if v is None else v for v in column(table, key, optional=True)]
               if key in table.columns else [math.nan] * table.height
               for m, key in READ_BLOCKS.items()}
    out: dict[int, Runs] = {}
    for i in range(table.height):
        run = {m: float(v[i]) for m, v in metric.items()}
        run["retry_ns"], run["queue_ns"] = latency_split(run["read_latency"], run["level"])
        out.setdefault(int(cols["seed"][i]), {})[
            (cols["workload"][i], cols["wear"][i], cols["policy"][i])
        ] = run
    return dict(sorted(out.items()))


def latency_split(mean_ns: float, level: float) -> tuple[float, float]:
    """A mean read latency split into its LDPC retries (the mean decoding level's extra
    sensings, 24 µs each, per page) and the rest above the 85 µs sensing (queueing and
    transfer). Per page, where a request's latency is its pages' last: an approximation
    for multi-page reads."""
    retry = level * T_RETRY_NS
    return retry, mean_ns - T_READ_NS - retry


def seed_mean(by_seed: dict[int, dict]) -> dict:
    """Each key's value (a number, or a dict of numbers) averaged over the seeds."""
    first = next(iter(by_seed.values()))
    n = len(by_seed)
    if all(isinstance(v, dict) for v in first.values()):
        return {k: {m: sum(r[k][m] for r in by_seed.values()) / n for m in v}
                for k, v in first.items()}
    return {k: sum(r[k] for r in by_seed.values()) / n for k in first}


def mean_change(runs: Runs, metric: str, of: str, against: str) -> float:
    """Mean over the (workload, wear) pairs of `of`'s change against `against` (003's "by
    an average of": its bars are per trace, normalised to the counterpart; no denominator
    here is near 0, and a pair with a 0 one, no refresh at all, is left out)."""
    pairs = {(w, u) for (w, u, _) in runs}
    xs = [change_pct(runs[(w, u, of)][metric], runs[(w, u, against)][metric])
          for (w, u) in sorted(pairs) if (w, u, of) in runs and (w, u, against) in runs]
    xs = [x for x in xs if not math.isnan(x)]
    return sum(xs) / len(xs) if xs else math.nan


def by_wear(runs: Runs, metric: str, of: str, against: str) -> dict[str, float]:
    """`mean_change` under each wear level of the runs."""
    return {u: mean_change({k: v for k, v in runs.items() if k[1] == u}, metric, of, against)
            for u in sorted({k[1] for k in runs})}


def by_workload(runs: Runs, metric: str, of: str, against: str) -> dict[str, float]:
    """`mean_change` on each workload of the runs (over the wear levels)."""
    return {w: mean_change({k: v for k, v in runs.items() if k[0] == w}, metric, of, against)
            for w in sorted({k[0] for k in runs})}


def measured_change(by_seed: dict[int, Runs], metric: str, of: str, against: str
                    ) -> Measured:
    """`mean_change` per seed, with each workload's value averaged over the seeds."""
    return Measured.seeds(
        [mean_change(r, metric, of, against) for r in by_seed.values()],
        seed_mean({k: by_workload(r, metric, of, against) for k, r in by_seed.items()}))
