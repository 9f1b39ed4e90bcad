"""The array module (``xp``) behind a device name: ``numpy`` (CPU) or ``cuda`` (CuPy)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

import numpy as np

from ..errors import ConfigError

#: Devices of the array decoder (``cpu`` is the Rust path and needs none of this).
DEVICES = ("numpy", "cuda")

INSTALL_HINT = "pip install 'nandlab[gpu]' (CuPy for CUDA 12, cupy-cuda12x)"


def array_module(device: str) -> ModuleType:
    """``numpy`` for ``numpy``; CuPy for ``cuda``, checked to import and to see a GPU.

    Raises :class:`ConfigError` (one line) when CuPy is missing or finds no CUDA device.
    """
    if device == "numpy":
        return np
    if device != "cuda":
        raise ConfigError(f"unknown device {device!r}: use cpu, numpy or cuda")
    try:
        import cupy
    except ImportError as e:
        raise ConfigError(f"--device cuda needs CuPy ({e}): {INSTALL_HINT}") from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # CUDA driver or runtime missing: CuPy raises its own types
        raise ConfigError(f"--device cuda: CuPy sees no CUDA device ({e})") from None
    if count < 1:
        raise ConfigError("--device cuda: CuPy sees no CUDA device")
    return cupy


def to_host(a) -> np.ndarray:
    """A numpy copy of an array of either module."""
    return a.get() if hasattr(a, "get") else np.asarray(a)


@contextmanager
def batch_memory(device: str, frames: int) -> Iterator[None]:
    """Turns running out of host (numpy ``MemoryError``) or GPU memory (CuPy's
    ``OutOfMemoryError``, matched by name so CuPy stays optional) while a batch of
    ``frames`` runs into a one-line :class:`ConfigError` naming ``--batch``."""
    try:
        yield
    except Exception as e:
        if isinstance(e, MemoryError) or type(e).__name__ == "OutOfMemoryError":
            raise ConfigError(f"--batch {frames}: out of memory on {device}; "
                              "use a smaller --batch") from None
        raise
