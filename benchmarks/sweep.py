"""Sweep throughput: 64 short runs (the demo device shrunk to 64 blocks per plane, 500
requests each: 2 GC thresholds × 32 seeds) with 1 job, then 2 jobs, each into a fresh
folder.

Usage: python benchmarks/sweep.py [--jobs 1 2] [--runs 64]
Prints the wall time per job count and checks that the tables are the same.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from nandlab.sweeps import run_sweep

ROOT = Path(__file__).resolve().parents[1]


def spec(runs: int) -> dict:
    seeds = list(range(1, runs // 2 + 1))
    return {
        "config": str(ROOT / "configs" / "demo.toml"),
        "seeds": seeds,
        "set": {
            "workload.requests": 500,
            "device.blocks_per_plane": 64,
            "output.record_requests": False,
        },
        # Two values × runs/2 seeds = `runs` runs.
        "grid": {"ftl.gc_threshold_blocks": [2, 3]},
        "name": "bench",
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--runs", type=int, default=64)
    args = ap.parse_args()
    tables = []
    for jobs in args.jobs:
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            o = run_sweep(spec(args.runs), d, jobs=jobs, progress=False)
            wall = time.perf_counter() - t0
        tables.append(o.table.sort("run_id"))
        print(f"{len(o.runs)} runs, {jobs} job(s): {wall:.1f} s ({wall / len(o.runs):.2f} s/run)")
    same = all(t.equals(tables[0]) for t in tables)
    print(f"tables identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
