"""The full-plan smoke check (issue #28 item 5): a paper's *full* plan, of which only the
first and last run of every sweep are simulated (with few requests), and its analysis on
tables of the full plan's shape, so that schema and analysis errors of full mode show
in minutes instead of at the end of a long run.

Every planned run's row gets the metrics of the first simulated run (the first half of
the plan) or the last one (the second half), under its own workload, seed and swept
columns, built by the store's own column typing. The numbers mean nothing; the analysis
must get through them, figures and report included.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import polars as pl

from ..sweeps import SweepFailed, run_sweep
from ..sweeps.spec import RESERVED_COLUMNS, SweepSpec, Workload, load_spec
from ..sweeps.store import _column
from .framework import Analysis, Context, paper_module

#: Requests per simulated run (each flow of a workload scaled to its share).
REQUESTS = 300


def ends(spec: SweepSpec) -> tuple[SweepSpec, SweepSpec]:
    """The sweep's first and last run (runs go workload, point, seed) as one-run sweeps."""
    wls = spec.workloads or [Workload(name="config")]
    seeds = spec.seeds or [None]

    def one(i: int) -> SweepSpec:
        p = spec.points[i]
        return dataclasses.replace(
            spec, points=[dataclasses.replace(p, overrides=_shrunk_overrides(p.overrides))],
            workloads=[dataclasses.replace(wls[i], overrides=_shrunk_overrides(
                wls[i].overrides))] if spec.workloads else [],
            seeds=None if seeds[i] is None else [seeds[i]], config=shrink_config(spec.config))

    return one(0), one(-1)


def shrink_config(cfg: dict[str, Any], requests: int = REQUESTS) -> dict[str, Any]:
    """``cfg`` with its own workload cut to ``requests`` (a trace: ``max_requests``)."""
    wl = dict(cfg.get("workload") or {})
    wl.update(_shrunk({k: v for k, v in wl.items() if k in ("requests", "flows")}, requests))
    wl["max_requests"] = min(int(wl.get("max_requests", requests)), requests)
    return {**cfg, "workload": wl}


def _shrunk_overrides(over: dict[str, Any], requests: int = REQUESTS) -> dict[str, Any]:
    """Dotted overrides with ``workload.requests`` / ``workload.flows`` cut."""
    wl = {k.removeprefix("workload."): v for k, v in over.items()
          if k in ("workload.requests", "workload.flows")}
    return {**over, **{f"workload.{k}": v for k, v in _shrunk(wl, requests).items()}}


def _shrunk(wl: dict[str, Any], requests: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "requests" in wl:
        out["requests"] = min(int(wl["requests"]), requests)
    flows = wl.get("flows")
    if isinstance(flows, list) and flows:
        total = sum(int(f.get("requests", 0)) for f in flows) or 1
        out["flows"] = [
            {**f, "requests": max(1, math.ceil(requests * int(f["requests"]) / total))}
            if "requests" in f else f for f in flows]
    return out


def fill(spec: SweepSpec, first: pl.DataFrame, last: pl.DataFrame) -> pl.DataFrame:
    """The full plan's table: one row per planned run (workload, point, seed order) with
    its own identity columns and the metrics of ``first`` (first half) or ``last``."""
    wls = spec.workloads or [Workload(name="config")]
    ident = {"run_id", *RESERVED_COLUMNS, *(f"config.{k}" for k in spec.swept), *spec.tags}
    rows = []
    plan = [(w, p, s) for w in wls for p in spec.points for s in (spec.seeds or [None])]
    for i, (w, p, s) in enumerate(plan):
        src = (first if i < len(plan) / 2 else last).row(0, named=True)
        rows.append({
            "run_id": f"smoke-{i}", "workload": w.name,
            "seed": src["seed"] if s is None else s,
            **{f"config.{k}": p.overrides.get(k) for k in spec.swept},
            **{t: p.tags.get(t) for t in spec.tags},
            **{k: v for k, v in src.items() if k not in ident},
        })
    names = list(dict.fromkeys(k for row in rows for k in row))
    return pl.DataFrame([_column(n, [row.get(n) for row in rows]) for n in names])


def smoke(name: str, out: str | Path, jobs: int = 1) -> Analysis:
    """Paper ``name``'s full plan: the ends of every sweep simulated into ``out/sweeps``,
    the analysis run on the filled tables (figures written into ``out``)."""
    mod = paper_module(name)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ctx = Context(out=out, quick=False)
    tables = {}
    for sweep_name, raw in mod.plan(ctx).items():
        spec = load_spec(raw)
        parts = []
        for end, part in zip(("first", "last"), ends(spec), strict=True):
            outcome = run_sweep(part, out / "sweeps" / sweep_name / end, jobs, progress=False)
            if outcome.failed:
                raise SweepFailed(outcome)
            parts.append(outcome.table)
        tables[sweep_name] = fill(spec, *parts)
    return mod.analyse(ctx, tables)
