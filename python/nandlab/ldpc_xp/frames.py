"""Frames drawn on the device: each bit's outcome in the all-zero (coset) view of a random
word, from the channel's per-bit law (``Channel::coset_law`` in ``nandlab-ldpc``: outcome
probabilities, their LLRs, whether each is a hard error).

This is the distribution the Rust coset pipeline draws (``transmit_coset``: one alias draw
per bit) with the array module's own generator instead of the Rust streams, so frames, and
so tallies, are reproducible per seed on one device but differ from the Rust path's frame
by frame (the decoder itself is the same bit for bit: ``tests/test_ldpc_xp.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np

#: Frames drawn per call to the generator (bounds the float64 uniforms held at once).
CHUNK = 1024


def batch_seed(stream_seed: int, first: int) -> int:
    """The generator seed of the batch starting at frame ``first`` of a point's stream."""
    return int(np.random.SeedSequence([stream_seed, first]).generate_state(1, np.uint64)[0])


def sample_outcomes(xp: ModuleType, prob: Sequence[float], frames: int, n: int, seed: int):
    """Outcome indices (``frames × n``, int32, on the device), each bit independently from
    ``prob`` (inverse CDF of one float64 uniform per bit)."""
    cdf = xp.asarray(np.cumsum(np.asarray(prob, dtype=np.float64)))
    last = len(prob) - 1
    rng = xp.random.default_rng(seed)
    out = xp.empty((frames, n), dtype=xp.int32)
    for s in range(0, frames, CHUNK):
        u = rng.random((min(CHUNK, frames - s), n), dtype=xp.float64)
        out[s:s + u.shape[0]] = xp.minimum(xp.searchsorted(cdf, u, side="right"), last)
    return out
