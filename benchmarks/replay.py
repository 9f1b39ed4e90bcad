"""Trace-replay benchmark: simulated requests per second and peak memory.

Replays real trace excerpts from ../shared/traces on the seed-001 device preset with the
release build of `crates/nandlab-core/examples/replay.rs` (a plain Rust process, so the
peak RSS is the simulator's and not a Python interpreter's), once and 10x longer, and
prints a Markdown table. Usage: python benchmarks/replay.py [--repeat-long 10] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACES = ROOT.parent / "shared" / "traces"
CASES = [
    ("msprod_DTRS100M.trace", "disksim"),
    ("mqsim_wsrch-small.trace", "disksim"),
]


def build() -> Path:
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "nandlab-core", "--example", "replay"],
        cwd=ROOT,
        check=True,
    )
    return ROOT / "target" / "release" / "examples" / "replay"


def replay(exe: Path, config: Path, trace: Path, fmt: str, repeat: int) -> dict:
    out = subprocess.run(
        [str(exe), str(config), str(trace), fmt, str(repeat)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--config", default=str(ROOT / "configs" / "001_ldpc_in_ssd.toml"))
    ap.add_argument("--repeat-long", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3, help="runs per case; the median is kept")
    args = ap.parse_args()
    if not TRACES.is_dir():
        print(f"skipped: {TRACES} not found (the trace excerpts live beside the repository)")
        return 0
    exe = build()
    rows = []
    for name, fmt in CASES:
        trace = TRACES / name
        if not trace.exists():
            print(f"skipped: {trace} not found")
            continue
        for repeat in (1, args.repeat_long):
            runs = [replay(exe, Path(args.config), trace, fmt, repeat) for _ in range(args.runs)]
            best = sorted(runs, key=lambda r: r["total_s"])[len(runs) // 2]
            best["rss_spread_mb"] = statistics.pstdev(r["peak_rss_mb"] for r in runs)
            rows.append((name, repeat, best))
    print("| trace | repeat | requests | total s | setup s | requests/s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, repeat, r in rows:
        print(
            f"| {name} | {repeat}x | {r['requests']:,} | {r['total_s']:.3f} | {r['setup_s']:.3f} "
            f"| {r['requests_per_s']:,.0f} | {r['peak_rss_mb']:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
