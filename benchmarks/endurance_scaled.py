"""Scaled check of ``nandlab endurance`` (issue 37, validation 2): on a drive small enough
to simulate every write to the end, the fast-forwarded rating must agree with a run that
simulates every host write until the drive fails, within 5 %.

The drive: 2 planes x 64 blocks x 64 pages of 4 KiB (32 MiB raw), 25 % over-provisioning
(each plane needs 48 blocks of data + GC's 4, so it has 12 spare), greedy GC, no error
model and no ECC (so only wear-out can end its life), blocks retired at ``--limit`` P/E
cycles; the JESD219 enterprise workload (40 % reads). The full simulation runs the same
config in one ``_core.Session`` in steps of ``--step`` requests until the core reports
"the drive failed"; its TB written is the host's at the start of the failing step (the
step's own writes, under 0.2 % of the total here, are the resolution).

Usage: python benchmarks/endurance_scaled.py [--limit 200] [--step 500] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import time

from nandlab import _native, endurance
from nandlab.config import load_config
from nandlab.errors import NandlabError

PAGE = 4096


def drive(limit: int, seed: int) -> dict:
    return {
        "seed": seed,
        "device": {
            "channels": 1, "chips_per_channel": 1, "dies_per_chip": 1, "planes_per_die": 2,
            "blocks_per_plane": 64, "pages_per_block": 64, "page_size_bytes": PAGE,
        },
        "ftl": {"overprovisioning": 0.25, "retire_pe_limit": limit},
        "reliability": {"model": "none"},
        "ecc": {"scheme": "none"},
        # The first epoch (20,000 requests, about 4 drive writes) brings GC to its steady
        # state; later ones simulate 2,000 and fast-forward the rest.
        "workload": {"kind": "synthetic", "generator": "jesd219", "requests": 20_000,
                     "read_fraction": 0.4, "iops": 2000.0},
    }


def full_simulation(cfg: dict, step: int) -> tuple[float, int]:
    """TB written before the step in which the drive failed, and the requests taken."""
    cfg = load_config(cfg)
    cfg["workload"]["requests"] = endurance.ENDLESS_REQUESTS
    session = _native.core().Session(json.dumps(cfg))
    before = 0.0
    while True:
        try:
            session.advance(step)
        except NandlabError as e:
            # GC finding no free block with blocks retired is the drive failing too
            # (as endurance.py counts it).
            if "the drive failed" not in str(e) and "no free block left" not in str(e):
                raise
            # The failing step wrote at most `step` requests more than `before`.
            return before, session.requests()
        flash = json.loads(session.summary())["flash"]
        before = flash["host_page_programs"] * PAGE / 1e12


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--step", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    cfg = drive(a.limit, a.seed)
    t0 = time.perf_counter()
    full, requests = full_simulation(cfg, a.step)
    t1 = time.perf_counter()
    r = endurance.rate(cfg, "enterprise", sensitivity=False)
    t2 = time.perf_counter()
    assert r.rated_tbw is not None
    diff = (r.rated_tbw - full) / full
    print(json.dumps({
        "limit": a.limit, "seed": a.seed,
        "full_tb": full, "full_requests": requests, "full_wall_s": round(t1 - t0, 1),
        "rated_tb": r.rated_tbw, "limiting": r.limiting, "epochs": r.epochs,
        "rated_wall_s": round(t2 - t1, 1), "relative_difference": diff,
        "within_5_percent": abs(diff) <= 0.05,
    }))


if __name__ == "__main__":
    main()
