"""Frames per second of the batched array decoder (`nandlab.ldpc_xp`) on numpy or CuPy.

    python benchmarks/ldpc_device_speed.py --device numpy --batch 64
    python benchmarks/ldpc_device_speed.py --device cuda --batch 4096

Four timings on the rate-8/9 code, each the median of ``--rounds`` runs after one warm-up;
the first three with the calibration's fixed-point decoder (NMS α = 0.75, llr_scale 4):

* ``decode, 20 iterations``: early termination off, every frame runs 20 iterations;
* ``decode, RBER 5e-3, early stop``: hard-decision frames of the calibration's channel;
* ``sample + decode, RBER 5e-3``: a whole calibration batch (frames drawn on the device
  from the channel's law, decoded, tallied: ``DeviceMeasure``);
* ``decode f32, k = 3 at 1.7e-2, w = 660 strata batch``: a batch of ``nandlab calibrate
  strata`` with the table's f32 decoder (frames with exactly 660 errors drawn on the
  device, decoded, tallied: ``StrataMeasure``; ``ldpc_stratified`` does ≈ 1,650 frames/s
  per thread there).

The frames of the first two come from the Rust channel (``ldpc_frames``) and are quantised
and copied to the device before the clock starts. The same frames also go through the Rust
fixed-point decoder (``ldpc_decode``, one thread, its SIMD kernel) in the same process, so
the last column compares the two under the same machine load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from nandlab import _native
from nandlab.ldpc_xp import DeviceMeasure, FixedBatchDecoder, array_module
from nandlab.ldpc_xp.arrays import to_host
from nandlab.ldpc_xp.strata import StrataMeasure

DECODER = {"rule": {"kind": "normalized", "alpha": 0.75}, "max_iterations": 20,
           "early_termination": True, "arithmetic": {"kind": "fixed8", "llr_scale": 4.0}}


def median_s(f, rounds: int) -> float:
    f()
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", choices=["numpy", "cuda"], default="numpy")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    core = _native.core()
    xp = array_module(a.device)
    z, shifts = core.ldpc_code()
    llr = core.ldpc_frames(0, 5e-3, 1, 0, a.batch)
    rows = []
    for label, dec_cfg in (("decode, 20 iterations", dict(DECODER, early_termination=False)),
                           ("decode, RBER 5e-3, early stop", DECODER)):
        dec = FixedBatchDecoder(z, shifts, dec_cfg, xp)
        q = xp.asarray(dec.channel_input(llr))
        s = median_s(lambda dec=dec, q=q: to_host(dec.decode(q).iterations), a.rounds)
        its = float(to_host(dec.decode(q).iterations).mean())
        cfg = json.dumps(dec_cfg)
        rust = median_s(lambda cfg=cfg: core.ldpc_decode(z, shifts, cfg, llr), a.rounds)
        rows.append((label, a.batch / s, its, a.batch / rust))
    measure = DeviceMeasure(a.device, z, shifts)
    law = core.ldpc_coset_law(0, 5e-3)
    cfg = json.dumps(DECODER)
    s = median_s(lambda: measure(cfg, *law, 1, 0, a.batch), a.rounds)
    rows.append(("sample + decode, RBER 5e-3", a.batch / s, float("nan"), float("nan")))
    strata = StrataMeasure(a.device, 3, 1.7e-2)
    s = median_s(lambda: strata.failures(1, 660, 0, a.batch), a.rounds)
    rows.append(("decode f32, k = 3 at 1.7e-2, w = 660 strata batch", a.batch / s,
                 float("nan"), float("nan")))
    print(f"device {a.device}, batch {a.batch}, median of {a.rounds}")
    print("| timing | frames/s | mean iterations | Rust fixed8, same frames, frames/s |")
    print("|---|---|---|---|")
    for label, fps, its, rust_fps in rows:
        print(f"| {label} | {fps:,.1f} | {its:.2f} | {rust_fps:,.1f} |")


if __name__ == "__main__":
    main()
