"""Access to the compiled core, ``nandlab._core``, imported on first use.

Going through :func:`core` (rather than importing ``_core`` at module load) keeps the
pure-Python parts importable without the extension and lets tests substitute a double
by placing it in ``sys.modules["nandlab._core"]``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import NandlabError


class CoreMissingError(NandlabError, ImportError):
    """The compiled extension is not built or not importable."""


def core() -> ModuleType:
    """Returns the ``nandlab._core`` module (or the double a test put in its place)."""
    try:
        return importlib.import_module("nandlab._core")
    except ImportError as e:
        raise CoreMissingError(
            "the compiled core nandlab._core is not importable "
            f"({e}); build it with `pip install -e .` or `maturin develop`"
        ) from e
