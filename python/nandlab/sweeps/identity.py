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


def plan(
    spec: SweepSpec,
    version: str,
    mapper: Mapper = map,
    known: dict[str, list[str | None]] | None = None,
) -> list[Run]:
    """Every run of ``spec`` in order (workload, point, seed), validated by the core.

    A key the config does not have raises :class:`ConfigError` naming it; a bad value makes
    that run ``invalid``. Raises if two runs are the same run. ``mapper`` resolves the
    configs (``map``, or a process pool's: resolving builds the device in the core, which
    takes a while on a large one). ``known`` maps a draft's key (:func:`draft_key`: the
    config as written, trace identity, version) to ``[run id, invalid]`` from an earlier
    plan; drafts found there are not resolved again, and new ones are added to it.
    """
    known = {} if known is None else known
    workloads = spec.workloads or [Workload(name="config")]
    trace_ids = {
        w.trace: trace_identity(w.trace, spec.trace_identity) for w in workloads if w.trace
    }
    drafts: list[tuple[Workload, dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    seeds: list[int | None] = [*spec.seeds] if spec.seeds else [None]
    for wl in workloads:
        for point in spec.points:
            for seed in seeds:
                over = {**wl.overrides, **point.overrides}
                if seed is not None:
                    over["seed"] = seed
                cfg = spec.config
                if wl.trace is not None:
                    cfg = set_trace(cfg, wl.trace, wl.trace_format)
                columns = {f"config.{k}": point.overrides.get(k) for k in spec.swept}
                columns.update({t: point.tags.get(t) for t in spec.tags})
                drafts.append((wl, over, apply_overrides(cfg, over), columns))
    keys = [draft_key(cfg, trace_ids.get(wl.trace) if wl.trace else None, version)
            for wl, _o, cfg, _c in drafts]
    todo = [i for i, k in enumerate(keys) if k not in known]
    for i, (res, error, spec_error) in zip(
        todo, mapper(resolve, [drafts[i][2] for i in todo]), strict=True
    ):
        wl, over, cfg, _columns = drafts[i]
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
        known[keys[i]] = [_hash(ident), error]
    runs: list[Run] = []
    seen: dict[str, Run] = {}
    for (wl, _over, cfg, columns), key in zip(drafts, keys, strict=True):
        run_id, error = known[key]
        assert run_id is not None
        run = Run(run_id, len(runs), wl.name, columns, cfg, error)
        if run_id in seen:
            raise ConfigError(
                f"{spec.source}: runs {seen[run_id].label} and {run.label} are the "
                "same run (same resolved config, trace and seed)"
            )
        seen[run_id] = run
        runs.append(run)
    return runs


def draft_key(cfg: dict[str, Any], trace_id: dict[str, Any] | None, version: str) -> str:
    """What a run's id is computed from before the core resolves it: the same key gives
    the same id (the core is deterministic for a version)."""
    return _hash({"draft": cfg, "trace": trace_id, "version": version})


def _hash(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:ID_HEX]


def resolve(cfg: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None, bool]:
    """``(resolved config, None, False)``, or ``(None, one-line error, whether the spec is
    wrong)``: a key the config does not have is the spec's mistake; a bad value is the
    run's (it is recorded as failed)."""
    try:
        return api.check_config(cfg), None, False
    except Exception as e:
        msg = " ".join(str(e).split())
        # The core raises ConfigError for bad values too: only an unknown key is the spec's.
        return None, msg, "unknown field" in msg


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
