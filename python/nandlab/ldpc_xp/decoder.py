"""Layered min-sum in 8-bit fixed point on an array module, a batch of frames at once.

The same decoder as ``nandlab-ldpc``'s ``FixedDecoder`` (``crates/nandlab-ldpc/src/fixed.rs``,
docs/ldpc.md §2), written as whole-array operations so that numpy or CuPy runs a batch of
``B`` frames (one row each) through every check of a layer at once:

* channel LLRs are quantised to ``q = clamp(round(L · llr_scale), ±31)`` in float32,
  halves rounded away from zero (the Rust ``quantize``);
* per layer, check ``m`` and edge ``b`` (variable ``v``): ``Q = clamp(Λ_v − R, ±127)``; the
  smallest magnitude ``m1`` and the second ``m2`` (equal to ``m1`` when it occurs twice);
  the edge holding the first ``m1`` gets ``m2``, the others ``m1``; the magnitude is scaled
  by ``⌊x · round(256 α) / 256⌋`` (normalized) or reduced by ``round(β · llr_scale)``,
  floored at 0 (offset), then clamped to ``⌊(127 − 31) / d_v⌋``; its sign is the product of
  the other edges' signs; ``Λ_v = clamp(Q + R', ±127)``;
* the syndrome of the signs (``Λ < 0`` decides 1) is tested before the first iteration and
  after every iteration (early termination) or after the last one; a frame's decisions and
  iteration count are frozen when it first passes or reaches the limit, and the frame
  leaves the batch.

Values are held in int16 (every intermediate fits: ``|Q|, |R| ≤ 127``, ``127 · 255 < 2^15``)
and stored as int8 values, so the arithmetic is exact on either module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from ..errors import ConfigError

#: Largest fixed-point magnitude.
QMAX = 127
#: Largest quantised channel LLR magnitude (6 bits).
CH_MAX = 31


def quantize(llr: np.ndarray, llr_scale: float) -> np.ndarray:
    """``clamp(round(llr · llr_scale), ±31)`` as int8, in float32 (the Rust ``quantize``)."""
    y = np.clip(np.asarray(llr, dtype=np.float32) * np.float32(llr_scale), -CH_MAX, CH_MAX)
    y = y.astype(np.float32)
    return np.trunc(y + np.copysign(np.float32(0.5), y)).astype(np.int8)


def _round_f32(x: np.float32) -> float:
    """``f32::round``: halves away from zero."""
    return float(np.trunc(x + np.copysign(np.float32(0.5), x)))


@dataclass(frozen=True)
class Outcome:
    """Per frame: whether its decisions form a codeword, iterations run, decisions (0/1)."""

    converged: Any
    iterations: Any
    decisions: Any


class FixedBatchDecoder:
    """The 8-bit fixed-point layered min-sum decoder on array module ``xp``.

    ``shifts[row][col]`` is the QC base matrix (``None`` = zero block, the convention of
    ``QcCode``: check ``row·z + m`` involves variable ``col·z + (m + s) mod z``);
    ``decoder`` is ``DecoderConfig`` as JSON (``rule``, ``max_iterations``,
    ``early_termination``, ``arithmetic = {"kind": "fixed8", "llr_scale": ...}``).
    """

    def __init__(
        self,
        z: int,
        shifts: Sequence[Sequence[int | None]],
        decoder: Mapping[str, Any],
        xp: ModuleType = np,
    ) -> None:
        arith = decoder.get("arithmetic", {})
        if arith.get("kind") != "fixed8" or not arith.get("llr_scale", 0) > 0:
            raise ConfigError(f"decoder arithmetic {arith!r}: the array decoder is fixed8 only")
        self.xp = xp
        self.z = z
        self.n = len(shifts[0]) * z
        self.llr_scale = float(arith["llr_scale"])
        self.max_iterations = int(decoder["max_iterations"])
        self.early_termination = bool(decoder["early_termination"])
        rule = decoder["rule"]
        if rule["kind"] == "normalized":
            mul = _round_f32(np.float32(rule["alpha"]) * np.float32(256.0))
            self.rule = ("scale", int(min(max(mul, 0.0), 255.0)))
        elif rule["kind"] == "offset":
            beta = _round_f32(np.float32(rule["beta"]) * np.float32(self.llr_scale))
            self.rule = ("offset", int(min(max(beta, 0.0), 127.0)))
        else:
            raise ConfigError(f"decoder rule {rule!r}: use normalized or offset")
        col_weight = max(
            1, max(sum(row[c] is not None for row in shifts) for c in range(len(shifts[0])))
        )
        self.r_max = (QMAX - CH_MAX) // col_weight
        m = np.arange(z)[:, None]
        # Per layer, the variable of each (check, edge): shape (z, degree).
        self.layers = []
        for row in shifts:
            cols = [c for c, s in enumerate(row) if s is not None]
            idx = np.array([c * z for c in cols])[None, :] + (m + np.array(
                [row[c] for c in cols])[None, :]) % z
            self.layers.append(xp.asarray(idx))

    def quantize(self, llr: np.ndarray) -> np.ndarray:
        """Quantised channel LLRs (int8, host)."""
        return quantize(llr, self.llr_scale)

    def satisfied(self, app) -> Any:
        """Per frame, whether the signs of ``app`` (n × B) satisfy every check."""
        xp = self.xp
        hard = (app < 0).astype(xp.uint8)
        ok = xp.ones(app.shape[1], dtype=bool)
        for idx in self.layers:
            ok &= ~((hard[idx].sum(axis=1, dtype=xp.uint8) & 1).astype(bool).any(axis=0))
        return ok

    def _layer(self, app, r, idx) -> None:
        """One layer on every frame: ``app`` is n × B, the layer's messages ``r`` z × d × B."""
        xp = self.xp
        q = app[idx]
        q -= r
        xp.clip(q, -QMAX, QMAX, out=q)
        a = xp.abs(q)
        m1 = a.min(axis=1, keepdims=True)
        at_min = a == m1
        twice = at_min.sum(axis=1, keepdims=True, dtype=xp.uint8) >= 2
        a[at_min] = QMAX
        m2 = xp.where(twice, m1, a.min(axis=1, keepdims=True))
        kind, c = self.rule
        if kind == "scale":
            m1, m2 = (m1 * c) >> 8, (m2 * c) >> 8
        else:
            m1, m2 = xp.maximum(m1 - c, 0), xp.maximum(m2 - c, 0)
        m1, m2 = xp.minimum(m1, self.r_max), xp.minimum(m2, self.r_max)
        # Where m1 occurs twice m2 = m1, so "the first edge at m1" may read "every edge at m1".
        mag = xp.where(at_min, m2, m1)
        neg = q < 0
        parity = (neg.sum(axis=1, keepdims=True, dtype=xp.uint8) & 1).astype(bool)
        rn = xp.where(parity ^ neg, -mag, mag)
        r[...] = rn
        q += rn
        xp.clip(q, -QMAX, QMAX, out=q)
        app[idx] = q

    def decode(self, q) -> Outcome:
        """Decodes quantised frames ``q`` (B × n int8, on the device)."""
        xp = self.xp
        frames = q.shape[0]
        if q.ndim != 2 or q.shape[1] != self.n:
            raise ConfigError(f"frames of shape {tuple(q.shape)}: need (frames, {self.n})")
        # Frames last: a layer gathers whole rows of B values per edge.
        app = xp.ascontiguousarray(xp.asarray(q).T.astype(xp.int16))
        r = [xp.zeros((self.z, idx.shape[1], frames), dtype=xp.int16) for idx in self.layers]
        converged = xp.zeros(frames, dtype=bool)
        iterations = xp.zeros(frames, dtype=xp.uint32)
        decisions = xp.zeros((frames, self.n), dtype=xp.uint8)
        alive = xp.arange(frames)
        it = 0
        while alive.shape[0]:
            if it == 0 or self.early_termination or it >= self.max_iterations:
                ok = self.satisfied(app)
                done = ok | (it >= self.max_iterations)
                if bool(done.any()):
                    ids = alive[done]
                    converged[ids] = ok[done]
                    iterations[ids] = it
                    decisions[ids] = (app[:, done] < 0).T.astype(xp.uint8)
                    keep = ~done
                    alive, app = alive[keep], xp.ascontiguousarray(app[:, keep])
                    r = [xp.ascontiguousarray(x[:, :, keep]) for x in r]
                    if not alive.shape[0]:
                        break
            for idx, rl in zip(self.layers, r, strict=True):
                self._layer(app, rl, idx)
            it += 1
        return Outcome(converged, iterations, decisions)
