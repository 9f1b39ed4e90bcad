"""The layered min-sum LDPC decoders on an array module: numpy on the CPU (the reference,
tested bit for bit against the Rust decoders) or CuPy on a CUDA GPU (the optional ``gpu``
extra), thousands of frames per batch (``nandlab calibrate ldpc|strata --device``).

* :mod:`.arrays`: picking the array module for a device name;
* :mod:`.decoder`: :class:`FixedBatchDecoder` and :class:`F32BatchDecoder`, bit-exact with
  ``nandlab-ldpc``'s ``FixedDecoder`` and ``MinSumDecoder``;
* :mod:`.frames`: frames drawn on the device from the channel's per-bit law;
* :mod:`.conditioned`: frames with exactly ``w`` hard errors (error-count strata);
* :mod:`.measure`: the per-batch callback a calibration calls;
* :mod:`.strata`: strata ``f(w)`` measured on the device (``nandlab calibrate strata``).
"""

from .arrays import DEVICES, array_module
from .decoder import F32BatchDecoder, FixedBatchDecoder, batch_decoder
from .frames import sample_outcomes
from .measure import DeviceMeasure

__all__ = ["DEVICES", "DeviceMeasure", "F32BatchDecoder", "FixedBatchDecoder", "array_module",
           "batch_decoder", "sample_outcomes"]
