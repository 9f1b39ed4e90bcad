"""Refresh urgency (issue 34): how far past the read-refresh trigger blocks get while
their refresh waits behind host reads, with and without ``[scheduler]
refresh_urgent_reads``, and what bounding it costs host reads.

The case is ``configs/bench/refresh_heavy.toml``: a small MLC device full of data, one-page
reads only (``read_fraction = 1``: no GC), Zipf-skewed (θ 0.9) so a few blocks reach the
trigger (``read_count``, 200 reads) again and again, refreshed through the
controller, under ``policy = "priority"`` (refresh moves wait for moments when no host work
holds the die). Per case: the most and the mean host page reads of the refreshed block's
die between a trigger and the read of one of its moves (``flash.refresh_wait``: a bound
on the block's own reads past the trigger — nandlab moves the mapping when it decides a
refresh, so the block itself is not read again, while a device that remaps when the copy
lands would keep reading it), the longest such wait in time, how often a die's refresh
turned urgent, and host read mean / p99 / max latency and read IOPS. "no bound" runs with
a bound the run cannot reach (``refresh_urgent_reads`` = 10^9): the same schedule as
without the key, measured.

Usage: python benchmarks/refresh_urgency.py [--iops X ...] [--bounds B ...] [--requests N]
[--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import nandlab

ROOT = Path(__file__).resolve().parents[1]
PRESET = ROOT / "configs" / "bench" / "refresh_heavy.toml"
NEVER = 1_000_000_000


def run_case(iops: float, bound: int, requests: int | None) -> dict:
    overrides: dict = {"workload.iops": iops, "scheduler.refresh_urgent_reads": bound}
    if requests is not None:
        overrides["workload.requests"] = requests
    res = nandlab.run(str(PRESET), overrides=overrides, progress=False)
    m = res.metric
    w = res.summary["flash"]["refresh_wait"]
    return {
        "iops": iops,
        "bound": "no bound" if bound == NEVER else bound,
        "refresh_erases": m("flash.refresh_erases"),
        "urgent_dies": w["urgent_dies"],
        "reads_past_trigger_max": w["reads_past_trigger_max"],
        "reads_past_trigger_mean": w["reads_past_trigger_mean"],
        "wait_ms_max": w["wait_ns_max"] / 1e6,
        "read_mean_us": m("read.mean_ns") / 1e3,
        "read_p99_us": m("read.p99_ns") / 1e3,
        "read_max_us": m("read.max_ns") / 1e3,
        "read_iops": m("read.iops"),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--iops", type=float, nargs="+", default=[10_000.0, 20_000.0])
    ap.add_argument("--bounds", type=int, nargs="+", default=[NEVER, 1000, 300])
    ap.add_argument("--requests", type=int, default=None, help="workload.requests (preset: 20,000)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [run_case(i, b, args.requests) for i in args.iops for b in args.bounds]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|---" * len(cols) + "|")
    for r in rows:
        cells = [f"{v:,.1f}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int) else v
                 for v in r.values()]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
