"""Layered min-sum on an array module, a batch of frames at once, in the Rust decoders'
arithmetic: 8-bit fixed point (``FixedDecoder``, ``crates/nandlab-ldpc/src/fixed.rs``,
docs/ldpc.md §2) or ``f32`` (``MinSumDecoder``, ``decoder.rs``), bit for bit.

Written as whole-array operations so that numpy or CuPy runs a batch of ``B`` frames (one
row each) through every check of a layer at once. Per layer, check ``m`` and edge ``b``
(variable ``v``): ``Q = Λ_v − R``; the smallest magnitude ``m1`` and the second ``m2`` (equal
to ``m1`` when it occurs twice); the edge holding the first ``m1`` gets ``m2``, the others
``m1``, through the rule; the sign is the product of the other edges' signs;
``Λ_v = Q + R'``. The syndrome of the signs (``Λ < 0`` decides 1) is tested before the first
iteration and after every iteration (early termination) or after the last one; a frame's
decisions and iteration count are frozen when it first passes or reaches the limit, and the
frame leaves the batch.

* :class:`FixedBatchDecoder` (``fixed8``): channel LLRs are quantised to
  ``q = clamp(round(L · llr_scale), ±31)`` in float32, halves rounded away from zero (the
  Rust ``quantize``); ``Q`` and ``Λ`` are clamped to ±127; the magnitude is scaled by
  ``⌊x · round(256 α) / 256⌋`` (normalized) or reduced by ``round(β · llr_scale)``, floored
  at 0 (offset), then clamped to ``⌊(127 − 31) / d_v⌋``. Values are held in int16 (every
  intermediate fits: ``|Q|, |R| ≤ 127``, ``127 · 255 < 2^15``), so the arithmetic is exact
  on either module.
* :class:`F32BatchDecoder` (``f32``): float32 throughout, no clamps; the magnitude is
  ``α · x`` or ``max(x − β, 0)`` in float32, the minima start at the Rust ``BIG`` (1e4),
  and a sign is the f32 sign bit (``−0.0`` counts as negative, as Rust XORs the bits).
  Every step is one correctly rounded IEEE operation in the Rust order, so numpy and CuPy
  give the Rust values exactly.
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


class BatchDecoder:
    """What both arithmetics share: the layers of the QC code, the syndrome test and the
    decoding loop; a subclass gives the message type and the layer update.

    ``shifts[row][col]`` is the QC base matrix (``None`` = zero block, the convention of
    ``QcCode``: check ``row·z + m`` involves variable ``col·z + (m + s) mod z``);
    ``decoder`` is ``DecoderConfig`` as JSON (``rule``, ``max_iterations``,
    ``early_termination``, ``arithmetic``).
    """

    #: The array type of ``Λ`` and ``R`` (a numpy dtype name, the same in CuPy).
    dtype = ""

    def __init__(
        self,
        z: int,
        shifts: Sequence[Sequence[int | None]],
        decoder: Mapping[str, Any],
        xp: ModuleType = np,
    ) -> None:
        self.xp = xp
        self.z = z
        self.n = len(shifts[0]) * z
        self.max_iterations = int(decoder["max_iterations"])
        self.early_termination = bool(decoder["early_termination"])
        if decoder["rule"]["kind"] not in ("normalized", "offset"):
            raise ConfigError(f"decoder rule {decoder['rule']!r}: use normalized or offset")
        m = np.arange(z)[:, None]
        # Per layer, the variable of each (check, edge): shape (z, degree).
        self.layers = []
        for row in shifts:
            cols = [c for c, s in enumerate(row) if s is not None]
            idx = np.array([c * z for c in cols])[None, :] + (m + np.array(
                [row[c] for c in cols])[None, :]) % z
            self.layers.append(xp.asarray(idx))
        self._configure(decoder, shifts)

    def _configure(self, decoder: Mapping[str, Any],
                   shifts: Sequence[Sequence[int | None]]) -> None:
        """Checks the arithmetic and sets the subclass's rule constants."""
        raise NotImplementedError

    def channel_input(self, llr: np.ndarray) -> np.ndarray:
        """Channel LLRs as the decoder takes them (host)."""
        raise NotImplementedError

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
        raise NotImplementedError

    def decode(self, q) -> Outcome:
        """Decodes frames ``q`` (B × n, :meth:`channel_input`'s values, on the device)."""
        xp = self.xp
        frames = q.shape[0]
        if q.ndim != 2 or q.shape[1] != self.n:
            raise ConfigError(f"frames of shape {tuple(q.shape)}: need (frames, {self.n})")
        # Frames last: a layer gathers whole rows of B values per edge.
        app = xp.ascontiguousarray(xp.asarray(q).T.astype(self.dtype))
        r = [xp.zeros((self.z, idx.shape[1], frames), dtype=self.dtype) for idx in self.layers]
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


class FixedBatchDecoder(BatchDecoder):
    """The 8-bit fixed-point decoder (``arithmetic = {"kind": "fixed8", "llr_scale": …}``)."""

    dtype = "int16"

    def _configure(self, decoder: Mapping[str, Any],
                   shifts: Sequence[Sequence[int | None]]) -> None:
        arith = decoder.get("arithmetic", {})
        if arith.get("kind") != "fixed8" or not arith.get("llr_scale", 0) > 0:
            raise ConfigError(f"decoder arithmetic {arith!r}: need fixed8 with a llr_scale")
        self.llr_scale = float(arith["llr_scale"])
        rule = decoder["rule"]
        if rule["kind"] == "normalized":
            mul = _round_f32(np.float32(rule["alpha"]) * np.float32(256.0))
            self.rule = ("scale", int(min(max(mul, 0.0), 255.0)))
        else:
            beta = _round_f32(np.float32(rule["beta"]) * np.float32(self.llr_scale))
            self.rule = ("offset", int(min(max(beta, 0.0), 127.0)))
        col_weight = max(
            1, max(sum(row[c] is not None for row in shifts) for c in range(len(shifts[0])))
        )
        self.r_max = (QMAX - CH_MAX) // col_weight

    def channel_input(self, llr: np.ndarray) -> np.ndarray:
        """Quantised channel LLRs (int8, host)."""
        return quantize(llr, self.llr_scale)

    def _layer(self, app, r, idx) -> None:
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


#: The Rust decoder's start value of both minima (``decoder.rs`` ``BIG``): a check whose
#: edges all exceed it sends it, and a degree-1 check's second minimum is it.
BIG = np.float32(1.0e4)


class F32BatchDecoder(BatchDecoder):
    """The ``f32`` decoder (``arithmetic = {"kind": "f32"}`` or absent)."""

    dtype = "float32"

    def _configure(self, decoder: Mapping[str, Any],
                   shifts: Sequence[Sequence[int | None]]) -> None:
        arith = decoder.get("arithmetic", {"kind": "f32"})
        if arith.get("kind") != "f32":
            raise ConfigError(f"decoder arithmetic {arith!r}: need f32")
        rule = decoder["rule"]
        self.rule = ("scale", np.float32(rule["alpha"])) if rule["kind"] == "normalized" \
            else ("offset", np.float32(rule["beta"]))

    def channel_input(self, llr: np.ndarray) -> np.ndarray:
        """The LLRs as float32 (host)."""
        return np.asarray(llr, dtype=np.float32)

    def _apply(self, x):
        """``MinSumRule::apply`` in float32 (``α · x``: IEEE products commute, and the
        array first keeps CuPy's operator)."""
        kind, c = self.rule
        if kind == "scale":
            return x * c
        return self.xp.maximum(x - c, np.float32(0.0))

    def _layer(self, app, r, idx) -> None:
        xp = self.xp
        q = app[idx]
        q -= r
        a = xp.abs(q)
        m1 = a.min(axis=1, keepdims=True)
        at_min = a == m1
        twice = at_min.sum(axis=1, keepdims=True, dtype=xp.int32) >= 2
        a[at_min] = np.inf
        m2 = xp.where(twice, m1, a.min(axis=1, keepdims=True))
        # Rust's minima start at BIG: neither exceeds it.
        m1 = self._apply(xp.minimum(m1, BIG))
        m2 = self._apply(xp.minimum(m2, BIG))
        # Where m1 occurs twice m2 = m1, so "the first edge at m1" may read "every edge at m1";
        # where every |Q| ≥ BIG both are BIG.
        mag = xp.where(at_min, m2, m1)
        neg = xp.signbit(q)
        parity = (neg.sum(axis=1, keepdims=True, dtype=xp.int32) & 1).astype(bool)
        rn = xp.where(parity ^ neg, -mag, mag)
        r[...] = rn
        q += rn
        app[idx] = q


def batch_decoder(
    z: int,
    shifts: Sequence[Sequence[int | None]],
    decoder: Mapping[str, Any],
    xp: ModuleType = np,
) -> BatchDecoder:
    """The array decoder of the arithmetic ``decoder`` names (``f32`` when absent)."""
    kind = decoder.get("arithmetic", {"kind": "f32"}).get("kind")
    if kind == "fixed8":
        return FixedBatchDecoder(z, shifts, decoder, xp)
    if kind == "f32":
        return F32BatchDecoder(z, shifts, decoder, xp)
    raise ConfigError(f"decoder arithmetic {kind!r}: use f32 or fixed8")
