"""The fixed-point layered min-sum LDPC decoder on an array module: numpy on the CPU (the
reference, tested bit for bit against the Rust decoder) or CuPy on a CUDA GPU (the optional
``gpu`` extra), thousands of frames per batch (``nandlab calibrate ldpc --device``).

* :mod:`.arrays`: picking the array module for a device name;
* :mod:`.decoder`: :class:`FixedBatchDecoder`, bit-exact with ``nandlab-ldpc``'s
  ``FixedDecoder``;
* :mod:`.frames`: frames drawn on the device from the channel's per-bit law;
* :mod:`.measure`: the per-batch callback a calibration calls.
"""

from .arrays import DEVICES, array_module
from .decoder import FixedBatchDecoder
from .frames import sample_outcomes
from .measure import DeviceMeasure

__all__ = ["DEVICES", "DeviceMeasure", "FixedBatchDecoder", "array_module", "sample_outcomes"]
