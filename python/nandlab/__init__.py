"""nandlab: a reliability-aware, trace-driven NAND-flash SSD simulator.

>>> import nandlab
>>> r = nandlab.run("configs/demo.toml", overrides={"ftl.gc.victim": "greedy"})
>>> r.metric("write.p99_ns"), r.requests.height
>>> table = nandlab.sweep("configs/sweeps/demo_gc.toml", out="results/demo_gc")

(Paths from the repository root; ``docs/config.md`` lists every config key.)

The engine is the compiled core ``nandlab._core``; it is imported on first use.
"""

from __future__ import annotations

from typing import Any

from .api import (
    OP_NAMES,
    Result,
    calibrate_ldpc,
    check_config,
    run,
    states,
    trace_convert,
    trace_info,
)
from .config import apply_overrides, deep_merge, load_config, parse_override
from .errors import ConfigError, MissingFileError, NandlabError, NotAFileError, TraceError
from .summary import MissingMetric, Summary

__all__ = [
    "OP_NAMES",
    "REQUEST_SCHEMA",
    "ConfigError",
    "MissingFileError",
    "MissingMetric",
    "NandlabError",
    "NotAFileError",
    "Result",
    "Summary",
    "SweepFailed",
    "TraceError",
    "__version__",
    "apply_overrides",
    "calibrate_ldpc",
    "check_config",
    "deep_merge",
    "load_config",
    "parse_override",
    "run",
    "states",
    "sweep",
    "trace_convert",
    "trace_info",
]


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nandlab")
    except PackageNotFoundError:
        from . import _native

        return str(_native.core().__version__)


def __getattr__(name: str) -> Any:
    # Resolved lazily: importing nandlab needs neither the compiled core nor polars (a
    # `nandlab run` imports polars on its record thread, while the simulation runs).
    if name == "__version__":
        return _package_version()
    if name == "REQUEST_SCHEMA":
        from .records import request_schema

        return request_schema()
    if name in ("SweepFailed", "sweep"):
        from . import sweeps

        return getattr(sweeps, name)
    raise AttributeError(f"module 'nandlab' has no attribute {name!r}")
