"""What the sensor workload of `nandlab reproduce asymmetric` can be served at, per scheme:
each scheme's sensor case (BL, AP, MC, as the reproduction runs it) with arrivals far
faster than the device serves them, so the one-deep host queue never runs dry and the
served rate is the device's capacity for that scheme (GC and, for MC, backup programs
included). The reproduction's `SENSOR_IOPS` is chosen below the smallest of them.

Usage: python benchmarks/sensor_capacity.py [--quick]
Prints requests/s served per scheme.
"""

from __future__ import annotations

import argparse

from nandlab.reproduce import asymmetric


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="the quick run's sensor length")
    args = ap.parse_args()
    for scheme, served in asymmetric.sensor_capacity(args.quick).items():
        print(f"{scheme}: {served:.1f} requests/s served")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
