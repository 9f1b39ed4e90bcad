"""Preemptible GC against today's foreground GC (issue 34): host read latency at equal
write amplification on the GC-heavy synthetic case ``configs/bench/gc_heavy.toml`` (70 %
writes of 4 KiB at random addresses on a small MLC device full of data).

Runs the preset under ``[scheduler] policy = "fifo"`` (a GC job is reserved when the write
that triggers it runs: the die is held for the whole job), ``"priority"`` without
preemptible GC (GC still urgent; only the order of other background work changes: none
here; host reads go ahead of queued host writes), ``"priority"`` with ``preemptible_gc``
(GC waits for idle dies until the hard threshold), that with host transactions in arrival
order (``host_order = "arrival"``: what host reads first adds), and preemptible GC plus
idle-time GC; prints read and write mean / p99 / max latency,
write amplification and GC erases, and the p99 ratio against FIFO.

Usage: python benchmarks/gc_scheduling.py [--requests N] [--iops X] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import nandlab

ROOT = Path(__file__).resolve().parents[1]
PRESET = ROOT / "configs" / "bench" / "gc_heavy.toml"

PREEMPTIBLE = {
    "scheduler.policy": "priority",
    "scheduler.preemptible_gc": True,
    "scheduler.gc_hard_threshold_blocks": 2,
}
CASES = {
    "fifo": {"scheduler.policy": "fifo"},
    "priority": {"scheduler.policy": "priority"},
    "preemptible": PREEMPTIBLE,
    "preemptible_arrival": PREEMPTIBLE | {"scheduler.host_order": "arrival"},
    "preemptible_idle": PREEMPTIBLE
    | {"scheduler.idle_gc_after_ns": 1_000_000, "scheduler.idle_gc_threshold_blocks": 12},
}


def headline(result: nandlab.Result) -> dict:
    """The read/write latencies, WAF and GC erases both GC benchmarks tabulate."""
    m = result.metric
    return {
        "read_mean_us": m("read.mean_ns") / 1e3,
        "read_p99_us": m("read.p99_ns") / 1e3,
        "read_max_us": m("read.max_ns") / 1e3,
        "write_mean_us": m("write.mean_ns") / 1e3,
        "write_p99_us": m("write.p99_ns") / 1e3,
        "waf": m("flash.write_amplification"),
        "gc_erases": m("flash.gc_erases"),
    }


def run_case(overrides: dict) -> dict:
    return headline(nandlab.run(str(PRESET), overrides=overrides, progress=False))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=None, help="workload.requests (preset: 20,000)")
    ap.add_argument("--iops", type=float, default=None, help="workload.iops (preset: 100)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    extra: dict = {}
    if args.requests is not None:
        extra["workload.requests"] = args.requests
    if args.iops is not None:
        extra["workload.iops"] = args.iops
    if args.seed is not None:
        extra["seed"] = args.seed
    rows = {name: run_case(ov | extra) for name, ov in CASES.items()}
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    base = rows["fifo"]["read_p99_us"]
    cols = list(next(iter(rows.values())))
    print("| case | " + " | ".join(cols) + " | read p99 / fifo |")
    print("|---" * (len(cols) + 2) + "|")
    for name, r in rows.items():
        cells = " | ".join(f"{v:,.1f}" if isinstance(v, float) else f"{v:,}" for v in r.values())
        print(f"| {name} | {cells} | {r['read_p99_us'] / base:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
