"""What the sensor workload of `nandlab reproduce asymmetric` can be served at, per scheme:
each scheme's sensor case (BL, AP, MC, as the reproduction runs it) with arrivals far
faster than the device serves them, so the one-deep host queue never runs dry and the
served rate is the device's capacity for that scheme (GC and, for MC, backup programs
included). The reproduction's `SENSOR_IOPS` is chosen below the smallest of them.

Usage: python benchmarks/sensor_capacity.py [--quick] [--requests N]
Prints requests/s served per scheme.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from nandlab import api
from nandlab.reproduce import asymmetric
from nandlab.reproduce.framework import Context

#: Arrivals this fast keep the device busy (its capacity is a few hundred requests/s).
FLOOD_IOPS = 5000.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="the quick run's sensor length")
    ap.add_argument("--requests", type=int, help="requests per run (default: the reproduction's)")
    args = ap.parse_args()
    spec = asymmetric.plan(Context(out=Path("."), quick=args.quick))["runs"]
    for case in spec["case"]:
        tags = case["tags"]
        if tags["gen"] != "sensor":
            continue
        overrides = {**spec["set"], **{k: v for k, v in case.items() if k != "tags"},
                     "seed": spec["seeds"][0], "workload.iops": FLOOD_IOPS}
        if args.requests:
            overrides["workload.requests"] = args.requests
        res = api.run(spec["config"], overrides=overrides, progress=False)
        served = res.summary["all"]["iops"]
        print(f"{tags['scheme']}: {served:.1f} requests/s served", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
