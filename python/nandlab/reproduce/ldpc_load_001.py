"""The load of seed 001's synthetic stand-ins where the paper publishes no request rate:
the arrival rate at which the two-step baseline's read slowdown over no soft sensing is
the one Fig. 11's text states for that trace (§5.1: 120 % for Synthetic2). A calibration:
for that workload Fig. 11's number becomes an input. (Postmark's 25 % cannot be reached
by load on its stand-in: its slowdown falls from 87 % at 200 requests/s to 52 % at
60,000/s, where the device is saturated.)

``python -m nandlab.reproduce.ldpc_load_001`` prints the rates (bisection in log rate on
full-length runs, seed 1); :data:`.ldpc_in_ssd.WORKLOADS` holds them.
"""

from __future__ import annotations

import math
import sys

from .. import api

#: §5.1: "The response time delay increases range from 25% (for Postmark) to 120% (for
#: Synthtic2)".
TARGETS = {"Synthetic2": 1.20}


def slowdown(name: str, iops: float, requests: int = 20_000, seed: int = 1) -> float:
    """The baseline's mean read time over no soft sensing's, minus 1, at ``iops``."""
    from .ldpc_in_ssd import PRESET, WORKLOADS

    synth = {**WORKLOADS[name]["synthetic"], "iops": iops}
    over = {f"workload.{k}": v for k, v in synth.items()}
    over.update({"workload.kind": "synthetic", "workload.requests": requests,
                 "workload.alignment_bytes": 4096, "seed": seed,
                 "output.record_requests": False})
    base = api.run(str(PRESET), overrides=over, progress=False).summary
    none = api.run(str(PRESET), overrides={**over, "reliability.model": "none"},
                   progress=False).summary
    return base["read"]["mean_ns"] / none["read"]["mean_ns"] - 1


def calibrate(name: str, lo: float = 2_000.0, hi: float = 20_000.0, steps: int = 12) -> float:
    """The rate (requests/s) whose slowdown is ``TARGETS[name]`` (bisection in log rate;
    the slowdown must cross the target between ``lo`` and ``hi``)."""
    target = TARGETS[name]
    s_lo, s_hi = slowdown(name, lo) - target, slowdown(name, hi) - target
    if s_lo * s_hi > 0:
        raise ValueError(f"{name}: slowdown {s_lo + target:.3f} at {lo}/s and "
                         f"{s_hi + target:.3f} at {hi}/s do not bracket {target}")
    a, b = math.log(lo), math.log(hi)
    for _ in range(steps):
        mid = (a + b) / 2
        s = slowdown(name, math.exp(mid)) - target
        a, b = (mid, b) if (s < 0) == (s_lo < 0) else (a, mid)
    return math.exp((a + b) / 2)


def main(argv: list[str] | None = None) -> int:
    names = (sys.argv[1:] if argv is None else argv) or list(TARGETS)
    for name in names:
        iops = calibrate(name)
        print(f"{name}: {iops:.0f} requests/s -> slowdown {slowdown(name, iops):.3f} "
              f"(target {TARGETS[name]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
