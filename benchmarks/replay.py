"""Trace-replay benchmark: simulated requests per second and peak memory.

Replays real trace excerpts from ../shared/traces on the seed-001 device preset (256 GiB,
preconditioned full) with the release build of `crates/nandlab-core/examples/replay.rs`
(a plain Rust process, so the peak RSS is the simulator's, not a Python interpreter's):
each trace once and 10x longer, with no error model and with the `nominal`, `empirical`
and `vth` error models (benchmarks/overlays/). Times are the best of `--runs` runs
(the cases take turns) and include building and preconditioning the device. Prints a
Markdown table.
Usage: python benchmarks/replay.py [--repeat-long 10] [--runs 5] [--models none,vth]
"""

from __future__ import annotations

import argparse
import json
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


OVERLAYS = ROOT / "benchmarks" / "overlays"


def replay(exe: Path, config: Path, trace: Path, fmt: str, repeat: int, overlay: str) -> dict:
    extra = [str(OVERLAYS / f"{overlay}.toml")]
    out = subprocess.run(
        [str(exe), str(config), str(trace), fmt, str(repeat), *extra],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--config", default=str(ROOT / "configs" / "001_ldpc_in_ssd.toml"))
    ap.add_argument("--repeat-long", type=int, default=10)
    ap.add_argument("--runs", type=int, default=5, help="runs per case; the best is kept")
    ap.add_argument("--models", default="none,nominal,empirical,vth",
                    help="comma-separated overlays of benchmarks/overlays/ to run")
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
        models = args.models.split(",")
        cases = [(r, overlay) for overlay in models for r in (1, args.repeat_long)]
        # Runs of the cases take turns, so a slow spell of a shared machine hits all alike.
        runs: dict[tuple[int, str], list[dict]] = {c: [] for c in cases}
        for _ in range(args.runs):
            for repeat, overlay in cases:
                run = replay(exe, Path(args.config), trace, fmt, repeat, overlay)
                runs[(repeat, overlay)].append(run)
        for repeat, overlay in cases:
            best = min(runs[(repeat, overlay)], key=lambda r: r["total_s"])
            best["peak_rss_mb"] = max(r["peak_rss_mb"] for r in runs[(repeat, overlay)])
            rows.append((name, repeat, overlay, best))
    print("| trace | length | error model | requests | total s | of which setup s "
          "| requests/s | requests/s after setup | peak RSS MB |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for name, repeat, overlay, r in rows:
        print(
            f"| {name} | {repeat}x | {overlay} | {r['requests']:,} | {r['total_s']:.3f} "
            f"| {r['setup_s']:.3f} | {r['requests_per_s']:,.0f} "
            f"| {r['requests'] / r['replay_s']:,.0f} | {r['peak_rss_mb']:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
