"""The per-batch callback of ``nandlab calibrate ldpc --device numpy|cuda``.

The Rust calibration (``calibrate_on`` in ``nandlab-ldpc``) walks the grid, builds each
point's channel, applies the stopping rule and writes the table; for every batch it calls
:class:`DeviceMeasure` with the point's per-bit law, which draws the frames on the device,
decodes them with :class:`~.decoder.FixedBatchDecoder` and returns the tally.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from .arrays import array_module, batch_memory, to_host
from .decoder import FixedBatchDecoder
from .frames import batch_seed, sample_outcomes


class DeviceMeasure:
    """Simulates batches of coset frames of the rate-8/9 code on ``device``."""

    def __init__(self, device: str, z: int, shifts: Sequence[Sequence[int | None]]) -> None:
        self.device = device
        self.xp = array_module(device)
        self.z, self.shifts = z, shifts
        self._decoders: dict[str, FixedBatchDecoder] = {}

    def decoder(self, decoder_json: str) -> FixedBatchDecoder:
        """The decoder for these settings (built once)."""
        if decoder_json not in self._decoders:
            self._decoders[decoder_json] = FixedBatchDecoder(
                self.z, self.shifts, json.loads(decoder_json), self.xp)
        return self._decoders[decoder_json]

    def __call__(
        self,
        decoder_json: str,
        prob: Sequence[float],
        llr: Sequence[float],
        err: Sequence[bool],
        stream_seed: int,
        first: int,
        count: int,
    ) -> tuple[int, int, int, int, int]:
        """``(frames, failures, miscorrections, iterations, raw_errors)`` of frames
        ``first .. first + count`` of the point with coset law ``(prob, llr, err)``."""
        xp = self.xp
        dec = self.decoder(decoder_json)
        with batch_memory(self.device, count):
            outcome = sample_outcomes(xp, prob, count, dec.n, batch_seed(stream_seed, first))
            q_of = xp.asarray(dec.channel_input(np.asarray(llr, dtype=np.float32)))
            out = dec.decode(q_of[outcome])
        per_outcome = to_host(xp.bincount(outcome.ravel(), minlength=len(err)))
        raw = int(per_outcome[np.asarray(err, dtype=bool)].sum())
        wrong = to_host(out.decisions.any(axis=1))
        conv = to_host(out.converged)
        its = int(to_host(out.iterations).astype(np.int64).sum())
        failures = int(wrong.sum())
        return count, failures, int((wrong & conv).sum()), its, raw
