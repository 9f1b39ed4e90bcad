"""Result identity check for refactors: SHA-256 of each reference run's ``summary.json``
with the wall-clock fields removed (``sim.wall_s``, ``sim.requests_per_s``), so the same
config and seed must give the same hash before and after a change that is meant not to move
results.

Cases: the demo preset; DTRS (../shared/traces) on the seed-001 preset with no error model
and with the ``empirical`` overlay; with ``--presets``, DTRS on each of the five seed
presets as configured (``host.out_of_range = "wrap"`` where a preset's device is smaller
than the trace's addresses); and, with ``--bitflip``, the BitFlip quick reproduction's
``runs.csv`` (every read run's metrics; its file corpus is this machine's, so compare
hashes taken on one machine).
A change that only adds summary keys (or config keys, which the resolved config echoes)
is checked with ``--drop``: the named dotted keys are removed before hashing, e.g.
``--drop config --drop flash.skipped_pages`` must give the old hashes taken with the same
``--drop``.
Usage: python benchmarks/identity.py [--presets] [--bitflip] [--json] [--drop KEY ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import nandlab

ROOT = Path(__file__).resolve().parents[1]
TRACES = ROOT.parent / "shared" / "traces"
OVERLAYS = ROOT / "benchmarks" / "overlays"
WALL_CLOCK = ("wall_s", "requests_per_s")


DROP: list[str] = []


def summary_hash(summary: dict) -> str:
    s = json.loads(json.dumps(summary))
    for key in [f"sim.{k}" for k in WALL_CLOCK] + DROP:
        *parents, leaf = key.split(".")
        node = s
        for p in parents:
            node = node.get(p, {})
        node.pop(leaf, None)
    return hashlib.sha256(json.dumps(s, sort_keys=True).encode()).hexdigest()[:16]


#: The five seed presets (000 BitFlip ... 004 Asymmetric Programming).
PRESETS = ("000_bitflip", "001_ldpc_in_ssd", "002_tvr", "003_badr", "004_asymmetric")


def run_case(
    config: Path, trace: Path | None, overlay: str | None, extra: dict | None = None
) -> str:
    overrides: dict = dict(extra or {})
    if overlay:
        import tomllib

        flat = tomllib.loads((OVERLAYS / f"{overlay}.toml").read_text())
        overrides |= {f"{sec}.{k}": v for sec, kv in flat.items() for k, v in kv.items()}
    res = nandlab.run(
        str(config),
        trace=str(trace) if trace else None,
        trace_format="disksim" if trace else None,
        overrides=overrides,
        progress=False,
    )
    return summary_hash(res.summary)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bitflip", action="store_true", help="also the BitFlip quick run")
    ap.add_argument("--presets", action="store_true", help="also DTRS on the five presets")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--drop", action="append", default=[],
                    help="dotted summary key left out of the hash")
    args = ap.parse_args()
    DROP.extend(args.drop)
    cfg = ROOT / "configs"
    hashes = {"demo": run_case(cfg / "demo.toml", None, None)}
    dtrs = TRACES / "msprod_DTRS100M.trace"
    if dtrs.is_file():
        hashes["dtrs_none"] = run_case(cfg / "001_ldpc_in_ssd.toml", dtrs, "none")
        hashes["dtrs_empirical"] = run_case(cfg / "001_ldpc_in_ssd.toml", dtrs, "empirical")
        for name in PRESETS if args.presets else ():
            wrap = {"host.out_of_range": "wrap"}
            hashes[f"dtrs_{name[:3]}"] = run_case(cfg / f"{name}.toml", dtrs, None, wrap)
    else:
        print(f"skipped DTRS cases: {dtrs} not found", file=sys.stderr)
    if args.bitflip:
        from nandlab.reproduce import framework

        with tempfile.TemporaryDirectory() as d:
            framework.reproduce("bitflip", d, quick=True, progress=False)
            runs = (Path(d) / "runs.csv").read_bytes()
        hashes["bitflip_quick_runs"] = hashlib.sha256(runs).hexdigest()[:16]
    if args.json:
        print(json.dumps(hashes))
    else:
        for k, v in hashes.items():
            print(f"{k:20s} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
