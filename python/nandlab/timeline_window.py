"""The timeline's window as the command line gives it (``--timeline 100ms``). Apart from
:mod:`nandlab.timeline`, which imports polars: ``nandlab run --timeline`` has the core
write ``timeline.parquet`` and needs no polars at all (its import alone is ~650 M
instructions, 6 % of a DTRS ×10 run)."""

from __future__ import annotations

import re

_UNITS_NS = {"ns": 1, "us": 1_000, "µs": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


def parse_window(text: str) -> int:
    """A window length such as ``100ms``, ``1s``, ``500us`` or ``250000`` (ns) in ns."""
    m = re.fullmatch(r"\s*([0-9][0-9_]*(?:\.[0-9]+)?)\s*(ns|us|µs|ms|s)?\s*", text)
    if m is None:
        raise ValueError(f"--timeline {text!r}: expected a duration such as 100ms, 1s or 500us")
    ns = float(m.group(1).replace("_", "")) * _UNITS_NS[m.group(2) or "ns"]
    if ns < 1 or ns != int(ns):
        raise ValueError(f"--timeline {text!r}: must be a whole number of ns, at least 1")
    return int(ns)
