"""Frames with exactly ``w`` hard errors, drawn on the device (the array twin of
``ConditionedChannel`` in ``crates/nandlab-ldpc/src/conditioned.rs``).

Given ``W = w`` errors in a frame of ``n`` bits, the error positions are a uniform
``w``-subset, each erroneous bit's outcome follows the coset law restricted to error outcomes
and every other bit's the law restricted to correct ones (each side renormalised). The
positions are the ``w`` smallest of ``n`` float64 uniform keys per frame (``argpartition``:
exactly ``w`` positions whatever the keys; their set is uniform because the keys are
exchangeable); outcomes are drawn by inverse CDF as in :mod:`.frames`.

The generator is the array module's ``default_rng``, seeded from ``(seed, w, batch)``
(:func:`stratum_batch_seed`), so a stratum's frames depend on the seed, ``w``, the batch
size and the device only, not on timing.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np

from ..errors import ConfigError
from .frames import CHUNK


def stratum_batch_seed(seed: int, w: int, batch: int) -> int:
    """The generator seed of batch number ``batch`` of stratum ``w`` of run ``seed``."""
    return int(np.random.SeedSequence([seed, w, batch]).generate_state(1, np.uint64)[0])


class ConditionedLaw:
    """One side of the coset law: the outcome indices of ``prob`` whose hard-error flag is
    ``want`` and their cumulative conditional probabilities (on the device)."""

    def __init__(self, xp: ModuleType, prob: Sequence[float], err: Sequence[bool],
                 want: bool) -> None:
        p = np.asarray(prob, dtype=np.float64)
        self.index = np.flatnonzero(np.asarray(err, dtype=bool) == want)
        total = p[self.index].sum()
        self.empty = not total > 0
        cdf = np.cumsum(p[self.index]) / total if not self.empty else np.ones(1)
        self.cdf = xp.asarray(cdf)
        self.index_xp = xp.asarray(self.index.astype(np.int32))

    def draw(self, xp: ModuleType, u):
        """Outcome indices (int32) for uniforms ``u``."""
        last = self.index.shape[0] - 1
        return self.index_xp[xp.minimum(xp.searchsorted(self.cdf, u, side="right"), last)]


def conditioned_outcomes(xp: ModuleType, prob: Sequence[float], err: Sequence[bool], w: int,
                         frames: int, n: int, seed: int):
    """Outcome indices (``frames × n``, int32, on the device) of frames holding exactly
    ``w`` hard errors of the law ``(prob, err)``."""
    if not 0 <= w <= n:
        raise ConfigError(f"w = {w}: must lie in 0 … n = {n}")
    bad, good = (ConditionedLaw(xp, prob, err, e) for e in (True, False))
    if (w > 0 and bad.empty) or (w < n and good.empty):
        raise ConfigError(f"w = {w}: the law lacks error or correct outcomes")
    rng = xp.random.default_rng(seed)
    out = xp.empty((frames, n), dtype=xp.int32)
    for s in range(0, frames, CHUNK):
        rows = min(CHUNK, frames - s)
        if w < n:
            block = good.draw(xp, rng.random((rows, n), dtype=xp.float64))
        else:
            block = xp.empty((rows, n), dtype=xp.int32)
        if w > 0:
            keys = rng.random((rows, n), dtype=xp.float64)
            pos = xp.argpartition(keys, w - 1, axis=1)[:, :w]
            flat = (xp.arange(rows, dtype=xp.int64)[:, None] * n + pos).ravel()
            block.reshape(-1)[flat] = bad.draw(xp, rng.random(rows * w, dtype=xp.float64))
        out[s:s + rows] = block
    return out
