"""Error-count strata ``f(w)`` measured with the array decoder (``nandlab calibrate
strata``): the device twin of ``stratified::measure_stratum`` and the ``ldpc_stratified``
tool (docs/ldpc.md §"Soft strata").

For each requested error count ``w``, batches of conditioned frames (:mod:`.conditioned`)
are decoded until ``min_failures`` failed or ``max_frames`` ran; a failure is any decision
bit 1 (the all-zero view). After every stratum the tallies are written, atomically, as the
``ldpc_stratified --out`` document that Rust builds (``_core.ldpc_strata_json``), so
``ldpc_extend --strata FILE`` pools device and CPU files alike and a run killed at a time
limit keeps every finished stratum.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from time import monotonic

import numpy as np

from .. import _native
from ..errors import ConfigError
from .arrays import array_module, batch_memory, to_host
from .conditioned import conditioned_outcomes, stratum_batch_seed
from .decoder import batch_decoder


@dataclass
class StratumTally:
    """Frames with ``w`` errors run so far, how many failed, and the seconds they took."""

    w: int
    frames: int = 0
    failures: int = 0
    wall_s: float = 0.0


class StrataMeasure:
    """Decodes batches of frames with exactly ``w`` errors of the calibration's channel at
    ``(level, rber)`` on ``device``, with the shipped table's decoder unless
    ``decoder_json`` names another."""

    def __init__(self, device: str, level: int, rber: float,
                 decoder_json: str | None = None) -> None:
        core = _native.core()
        self.device = device
        self.xp = array_module(device)
        z, shifts = core.ldpc_code()
        self.decoder_json = decoder_json or core.ldpc_table_decoder()
        self.decoder = batch_decoder(z, shifts, json.loads(self.decoder_json), self.xp)
        self.prob, llr, self.err = core.ldpc_coset_law(level, rber)
        self.llr_of = self.xp.asarray(self.decoder.channel_input(np.asarray(llr)))

    @property
    def n(self) -> int:
        return self.decoder.n

    def failures(self, seed: int, w: int, batch: int, count: int) -> int:
        """Failed frames among the ``count`` frames of batch number ``batch`` of stratum
        ``w`` of run ``seed``."""
        with batch_memory(self.device, count):
            outcome = conditioned_outcomes(self.xp, self.prob, self.err, w, count, self.n,
                                           stratum_batch_seed(seed, w, batch))
            out = self.decoder.decode(self.llr_of[outcome])
            return int(to_host(out.decisions.any(axis=1)).sum())


def write_atomically(path: Path, text: str) -> None:
    """``text`` to ``path`` through a temporary file beside it (never half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def check_inputs(errors: Sequence[int], n: int, max_frames: int, min_failures: int,
                 batch: int, seed: int, time_budget_s: float | None, out: Path) -> None:
    """One-line errors for requests that cannot run; ``out`` must be writable."""
    if not errors:
        raise ConfigError("--errors: give at least one error count, e.g. 646,650")
    if len(set(errors)) != len(errors):
        raise ConfigError(f"--errors {','.join(map(str, errors))}: an error count repeats")
    for w in errors:
        if not 0 <= w <= n:
            raise ConfigError(f"--errors: w = {w} must lie in 0 … n = {n}")
    for name, v in (("--frames", max_frames), ("--min-failures", min_failures),
                    ("--batch", batch)):
        if v < 1:
            raise ConfigError(f"{name} {v}: must be at least 1")
    if not 0 <= seed < 2**64:
        raise ConfigError(f"--seed {seed}: must lie in 0 … 2^64 − 1")
    if time_budget_s is not None and not time_budget_s > 0:
        raise ConfigError(f"--time-budget-s {time_budget_s}: must be positive")
    probe = out.with_name(out.name + ".tmp")  # an unwritable --out fails before decoding
    probe.write_text("")
    probe.unlink()


def measure_strata(
    measure: StrataMeasure,
    level: int,
    rber: float,
    errors: Sequence[int],
    max_frames: int,
    min_failures: int,
    seed: int,
    batch: int,
    out: Path,
    device: str,
    time_budget_s: float | None = None,
    report: Callable[[StratumTally], None] = lambda _: None,
) -> list[StratumTally]:
    """Measures the strata ``errors`` in turn, writing ``out`` after each; once
    ``time_budget_s`` has passed no new batch starts (the unfinished stratum is written with
    its frames so far). Returns the tallies written."""
    check_inputs(errors, measure.n, max_frames, min_failures, batch, seed, time_budget_s, out)
    core = _native.core()
    t0 = monotonic()
    done: list[StratumTally] = []
    for w in errors:
        t = StratumTally(w)
        start = monotonic()
        over = False
        while t.frames < max_frames and t.failures < min_failures:
            if time_budget_s is not None and monotonic() - t0 >= time_budget_s:
                over = True
                break
            count = min(batch, max_frames - t.frames)
            t.failures += measure.failures(seed, w, t.frames // batch, count)
            t.frames += count
        t.wall_s = monotonic() - start
        if t.frames:
            done.append(t)
            write_atomically(out, core.ldpc_strata_json(
                level, rber, measure.decoder_json, seed,
                [(s.w, s.frames, s.failures) for s in done], monotonic() - t0, device))
            report(t)
        if over:
            break
    return done
