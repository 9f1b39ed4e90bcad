"""Shared fixtures: the real core and the shared traces."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

#: ``../shared/traces`` beside the repository root.
SHARED_TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "traces"


@pytest.fixture
def real_core():
    """The compiled core; skips with the reason when it is not built."""
    try:
        mod = importlib.import_module("nandlab._core")
    except ImportError as e:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test the compiled core, but it is not importable: {e}")
        pytest.skip(
            f"nandlab._core is not built ({e}); run `pip install -e .` or `maturin develop`"
        )
    if not hasattr(mod, "simulate"):
        pytest.skip("this build of nandlab._core has no simulate() yet")
    return mod


@pytest.fixture
def shared_traces():
    """The shared trace folder; skips when ``../shared/traces`` is absent, except under
    ``CI=true``, where it fails: CI must run the real-trace tests."""
    if not SHARED_TRACES.is_dir():
        reason = f"shared traces not found at {SHARED_TRACES}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return SHARED_TRACES


@pytest.fixture(scope="session")
def quick_reproduction(tmp_path_factory):
    """``quick_reproduction(paper) -> (folder, Report)``: that paper's ``--quick``
    reproduction, run once per session and shared by the paper's tests and the README
    verdict test (each run is tens of seconds)."""
    from nandlab.reproduce import framework

    root = tmp_path_factory.mktemp("quick")
    runs = {}

    def get(paper):
        if paper not in runs:
            pytest.importorskip("matplotlib")
            out = root / paper
            runs[paper] = out, framework.reproduce(paper, out, quick=True, jobs=2,
                                                   progress=False)
        return runs[paper]

    return get


@pytest.fixture
def cuda_missing_error():
    """The one-line error ``--device cuda`` gives on this machine; skips where CuPy and a
    CUDA device are present (there ``--device cuda`` runs)."""
    from nandlab.ldpc_xp import array_module

    try:
        array_module("cuda")
    except Exception as e:
        return str(e)
    pytest.skip("CuPy and a CUDA device are present: --device cuda runs")


@pytest.fixture
def xp_of():
    """``xp_of(device)``: numpy for ``numpy``; for ``cuda`` CuPy on a CUDA device, or a skip
    that says which is missing (the array decoders' CuPy cases run only where both are)."""

    def get(name):
        if name == "numpy":
            import numpy

            return numpy
        try:
            import cupy
        except ImportError as e:
            pytest.skip(f"CuPy is not installed ({e}); pip install 'nandlab[gpu]' on a GPU "
                        "machine")
        try:
            if cupy.cuda.runtime.getDeviceCount() < 1:
                pytest.skip("CuPy sees no CUDA device")
        except Exception as e:
            pytest.skip(f"CuPy sees no CUDA device ({e})")
        return cupy

    return get
