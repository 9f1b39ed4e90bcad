"""Runs of a sweep and their identities.

A run's id is a hash of what decides its result: the fully resolved config (the core's
:func:`nandlab.check_config`, every default filled in), the trace's identity (path, size
and modification time, or the SHA-256 of its content on request), the seed and the nandlab
version. The same run asked for again, by any spec, has the same id.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import api
from ..config import apply_overrides, set_trace
from ..errors import ConfigError
from .spec import SweepSpec, Workload

#: Length of a run id (hex digits of SHA-256).
ID_HEX = 16

Mapper = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]


@dataclass(frozen=True)
class Run:
    """One run of a sweep: its id, what it sweeps (columns) and the config to simulate.

    ``invalid``: the core's one-line reason when the config is refused (a bad value); such
    a run is recorded as failed without being simulated.
    """

    run_id: str
    index: int
    workload: str
    columns: dict[str, Any]
    config: dict[str, Any] = field(repr=False)
    invalid: str | None = None

    @property
    def label(self) -> str:
        cols = " ".join(f"{k}={v}" for k, v in self.columns.items())
        return f"{self.run_id} ({self.workload} {cols})".replace(" )", ")")


def plan(spec: SweepSpec, version: str, mapper: Mapper = map) -> list[Run]:
    """Every run of ``spec`` in order (workload, point, seed), validated by the core.

    A key the config does not have raises :class:`ConfigError` naming it; a bad value makes
    that run ``invalid``. Raises if two runs are the same run. ``mapper`` resolves the
    configs (``map``, or a process pool's: resolving builds the device in the core, which
    takes a while on a large one).
    """
    workloads = spec.workloads or [Workload(name="config")]
    trace_ids = {
        w.trace: trace_identity(w.trace, spec.trace_identity) for w in workloads if w.trace
    }
    drafts: list[tuple[Workload, dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    for wl in workloads:
        for point in spec.points:
            for seed in spec.seeds or [None]:
                over = {**wl.overrides, **point.overrides}
                if seed is not None:
                    over["seed"] = seed
                cfg = spec.config
                if wl.trace is not None:
                    cfg = set_trace(cfg, wl.trace, wl.trace_format)
                columns = {f"config.{k}": point.overrides.get(k) for k in spec.swept}
                columns.update({t: point.tags.get(t) for t in spec.tags})
                drafts.append((wl, over, apply_overrides(cfg, over), columns))
    runs: list[Run] = []
    seen: dict[str, Run] = {}
    resolved = mapper(resolve, [cfg for _wl, _over, cfg, _cols in drafts])
    for (wl, over, cfg, columns), (res, error, spec_error) in zip(drafts, resolved, strict=True):
        if spec_error:
            raise ConfigError(f"{spec.source}: {error}")
        if res is not None and wl.trace is not None and spec.trace_identity == "content":
            # The content hash stands for the file wherever it lies.
            res = copy.deepcopy(res)
            res.get("workload", {}).pop("path", None)
        ident = {
            "config": res if res is not None else cfg,
            "trace": trace_ids.get(wl.trace) if wl.trace else None,
            "seed": over.get("seed"),
            "version": version,
        }
        text = json.dumps(ident, sort_keys=True, default=str)
        run_id = hashlib.sha256(text.encode()).hexdigest()[:ID_HEX]
        run = Run(run_id, len(runs), wl.name, columns, cfg, error)
        if run_id in seen:
            raise ConfigError(
                f"{spec.source}: runs {seen[run_id].label} and {run.label} are the "
                "same run (same resolved config, trace and seed)"
            )
        seen[run_id] = run
        runs.append(run)
    return runs


def resolve(cfg: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None, bool]:
    """``(resolved config, None, False)``, or ``(None, one-line error, whether the spec is
    wrong)``: a key the config does not have is the spec's mistake; a bad value is the
    run's (it is recorded as failed)."""
    try:
        return api.check_config(cfg), None, False
    except Exception as e:
        msg = " ".join(str(e).split())
        return None, msg, "unknown field" in msg or isinstance(e, ConfigError)


def trace_identity(path: Path, how: str) -> dict[str, Any]:
    """``stat``: path, size and mtime (ns); ``content``: size and SHA-256 of the bytes."""
    st = path.stat()
    if how == "stat":
        return {"path": str(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return {"size": st.st_size, "sha256": h.hexdigest()}
