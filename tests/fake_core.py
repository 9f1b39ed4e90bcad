"""A test double of ``nandlab._core`` following the binding contract (not shipped).

It resolves configs against a small default set, "simulates" ``workload.count``
requests with a seeded NumPy generator, reads DiskSim-like ASCII traces for
``trace_info``/``trace_convert``, and can be told to fail: ``workload.fail_after = N``
raises NandlabError after N requests; a trace line ``bad`` fails a conversion midway.
"""

from __future__ import annotations

import copy
import json
import types
from pathlib import Path

import numpy as np

from nandlab.errors import ConfigError, NandlabError, TraceError

__version__ = "0.0.0+fake"


DEFAULTS = {
    "seed": 0,
    "device": {"channels": 2, "chips_per_channel": 1, "page_size_bytes": 4096},
    "ftl": {"overprovisioning": 0.07, "gc_policy": "greedy"},
    "host": {"queue_depth": 32},
    "workload": {"kind": "synthetic", "count": 1000},
    "output": {"record_requests": True},
}
GC_POLICIES = {"greedy", "cost_benefit", "fifo"}
PROGRESS_EVERY = 100


def _merge(base, over, path=""):
    out = copy.deepcopy(base)
    for k, v in over.items():
        key = f"{path}{k}"
        if k not in base:
            if path.startswith("workload."):
                out[k] = v
                continue
            raise ConfigError(f"config key `{key}`: unknown field")
        if isinstance(base[k], dict):
            if not isinstance(v, dict):
                raise ConfigError(f"config key `{key}`: expected a table")
            out[k] = _merge(base[k], v, key + ".")
        else:
            out[k] = v
    return out


def _resolve(config_json: str) -> dict:
    cfg = _merge(DEFAULTS, json.loads(config_json))
    policy = cfg["ftl"]["gc_policy"]
    if policy not in GC_POLICIES:
        raise ConfigError(f"config key `ftl.gc_policy`: unknown variant `{policy}`")
    if not isinstance(cfg["seed"], int) or cfg["seed"] < 0:
        raise ConfigError("config key `seed`: expected a non-negative integer")
    return cfg


def validate_config(config_json: str) -> str:
    return json.dumps(_resolve(config_json))


def _stats(lat: np.ndarray, mask: np.ndarray) -> dict:
    x = lat[mask]
    if len(x) == 0:
        return {"count": 0, "mean_ns": 0.0, "p50_ns": 0, "p99_ns": 0, "p999_ns": 0, "max_ns": 0,
                "iops": 0.0, "bandwidth_mb_s": 0.0}
    return {
        "count": int(len(x)),
        "mean_ns": float(x.mean()),
        "p50_ns": int(np.percentile(x, 50)),
        "p99_ns": int(np.percentile(x, 99)),
        "p999_ns": int(np.percentile(x, 99.9)),
        "max_ns": int(x.max()),
        "iops": 1.0,
        "bandwidth_mb_s": 1.0,
    }


def simulate(config_json: str, progress=None):
    cfg = _resolve(config_json)
    wl = cfg["workload"]
    n = int(wl.get("count", 1000))
    fail_after = wl.get("fail_after")
    for done in range(0, n, PROGRESS_EVERY):
        if fail_after is not None and done >= fail_after:
            raise NandlabError("workload: simulated failure")
        if progress is not None and progress(done, n) is False:
            raise NandlabError("cancelled")
    rng = np.random.default_rng(cfg["seed"])
    arrival = np.cumsum(rng.integers(1, 1000, n)).astype(np.uint64)
    latency = rng.integers(1000, 100_000, n).astype(np.uint64)
    op = rng.integers(0, 2, n).astype(np.uint8)
    cols = {
        "arrival_ns": arrival,
        "latency_ns": latency,
        "offset_bytes": (rng.integers(0, 1 << 20, n) * 4096).astype(np.uint64),
        "size_bytes": np.full(n, 4096, dtype=np.uint64),
        "op": op,
    }
    summary = {
        "version": __version__,
        "seed": cfg["seed"],
        "config": cfg,
        "requests": {"count": n, "reads": int((op == 0).sum()), "writes": int((op == 1).sum()),
                     "trims": 0},
        "read": _stats(latency, op == 0),
        "write": _stats(latency, op == 1),
        "all": _stats(latency, op >= 0),
        "flash": {"page_reads_incl_gc": 1, "page_programs": 2, "erases": 0, "gc_page_moves": 0,
                  "gc_erases": 0, "wl_page_moves": 0, "write_amplification": 1.0},
        "sim": {"simulated_ns": int(arrival[-1]) if n else 0, "wall_s": 0.01,
                "requests_per_s": 1e5, "mapping_entries": n},
    }
    return json.dumps(summary), (cols if cfg["output"]["record_requests"] else None)


def _read_trace(path: str) -> list[list[str]]:
    p = Path(path)
    if not p.is_file():
        raise NandlabError(f"{path}: cannot open trace")
    return [line.split() for line in p.read_text().splitlines() if line.strip()]


def trace_info(path: str, format: str = "auto", time_unit: str | None = None) -> str:
    if format not in ("auto", "disksim", "msr"):
        raise ConfigError(f"unknown trace format `{format}`")
    rows = _read_trace(path)
    reads = sum(1 for r in rows if r[-1] == "1")
    return json.dumps({
        "path": path, "format": "disksim", "time_unit": "ns", "mean_size_bytes": 4096.0,
        "backwards_arrivals": 0, "requests": len(rows), "reads": reads,
        "writes": len(rows) - reads, "trims": 0,
        "read_ratio": reads / len(rows) if rows else 0.0, "read_bytes_ratio": 0.5,
        "total_bytes": 4096 * len(rows),
        "size_histogram": [{"min_bytes": 4096, "max_bytes": 8191, "count": len(rows)}],
        "footprint_pages": 1, "footprint_bytes": 4096, "max_offset_end_bytes": 8192,
        "duration_ns": 1000,
        "mean_interarrival_ns": 10.0, "streams": 1,
    })


def trace_convert(src: str, src_format: str, dst: str, dst_format: str) -> int:
    if dst_format not in ("disksim", "msr"):
        raise ConfigError(f"unknown output trace format `{dst_format}`")
    n = 0
    with open(dst, "w") as f:
        for row in _read_trace(src):
            if row == ["bad"]:
                raise TraceError(f"{src}:{n + 1}: bad record")
            f.write(" ".join(row) + "\n")
            n += 1
    return n


def as_module() -> types.ModuleType:
    """This double as a module object to put at ``sys.modules["nandlab._core"]``."""
    mod = types.ModuleType("nandlab._core")
    for name in ("__version__", "NandlabError", "ConfigError", "TraceError", "simulate",
                 "validate_config", "trace_info", "trace_convert"):
        setattr(mod, name, globals()[name])
    return mod
