"""The full-plan smoke check (issue #28 item 5): a paper's *full* plan, of which only a few
runs of every sweep are simulated (with few requests), and its analysis on tables of the
full plan's shape, so that schema and analysis errors of full mode show in minutes
instead of at the end of a long run.

The runs simulated: the sweep's first and last run, and as many more as it takes for
every value of every swept key and tag to occur once (a metric some configurations
lack, e.g. a scheduler's, is then in the table as it would be), their workloads and seeds
taken in turn. Every planned run's row gets the metrics of the simulated run of its own
point (else the nearest simulated run before it), under its own workload, seed and swept
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
from ..sweeps.spec import RESERVED_COLUMNS, Point, SweepSpec, Workload, load_spec
from ..sweeps.store import _column
from .framework import Analysis, Context, paper_module

#: Requests per simulated run (each flow of a workload scaled to its share).
REQUESTS = 500
#: Papers whose full runs are not cut: their metrics need the full request count (seed
#: 002's program/erase times need the 80,000 writes that bring GC; seed 004's backups
#: need the critical reads of its whole run), and their full runs take seconds.
UNCUT: tuple[str, ...] = ("tvr", "asymmetric")


def picks(spec: SweepSpec) -> list[int]:
    """Indices of the points to simulate: the first, and points until every (column,
    value) of the swept keys and tags that is a name, a flag or absent occurs (those
    decide which metrics a run has; numbers only move them)."""
    seen: set[tuple[str, str]] = set()
    chosen = []
    for i, p in enumerate(spec.points):
        pairs = _pairs(p)
        if i == 0 or not pairs <= seen:
            seen |= pairs
            chosen.append(i)
    return chosen


def _pairs(p: Point) -> set[tuple[str, str]]:
    return {(k, repr(v)) for k, v in [*p.overrides.items(), *p.tags.items()]
            if _weight(v) > 1}


def subset(spec: SweepSpec, w: int, points: list[int], s: int, cut: bool = True
           ) -> SweepSpec:
    """``spec`` reduced to workload ``w``, ``points`` and seed ``s`` (indices), with few
    requests if ``cut``."""
    pts = [spec.points[p] for p in points]
    seeds = spec.seeds
    wl = spec.workloads[w] if spec.workloads else None
    sub = dataclasses.replace(spec, points=pts, workloads=[wl] if wl else [],
                              seeds=None if seeds is None else [seeds[s]])
    if not cut:
        return sub
    trace = wl.trace is not None if wl else (spec.config.get("workload") or {}).get(
        "kind") == "trace"
    return dataclasses.replace(
        sub, points=[dataclasses.replace(p, overrides=_shrunk_overrides(p.overrides))
                     for p in pts],
        workloads=[dataclasses.replace(wl, overrides=_shrunk_overrides(wl.overrides))]
        if wl else [], config=shrink_config(spec.config, trace=trace))


def shrink_config(cfg: dict[str, Any], trace: bool, requests: int = REQUESTS
                  ) -> dict[str, Any]:
    """``cfg`` with its own workload cut to ``requests`` (a trace: ``max_requests``)."""
    wl = dict(cfg.get("workload") or {})
    wl.update(_shrunk({k: v for k, v in wl.items() if k in ("requests", "flows")}, requests))
    if trace:
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


def fill(spec: SweepSpec, src_rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The full plan's table: one row per planned run (workload, point, seed order) with
    its own identity columns and the metrics of the simulated run (a row of ``src_rows``)
    most like it (most swept values and tags in common, names and absent keys before
    numbers, then the same workload; the first on a tie)."""
    wls = spec.workloads or [Workload(name="config")]
    seeds: list[int | None] = [*spec.seeds] if spec.seeds else [None]
    tags = [{k: r.get(k) for k in spec.tags} for r in src_rows]
    swept = [{k: r.get(f"config.{k}") for k in spec.swept} for r in src_rows]
    ident = {"run_id", *RESERVED_COLUMNS, *(f"config.{k}" for k in spec.swept), *spec.tags}
    rows = []
    i = 0
    for w in wls:
        for p in spec.points:
            scores = [sum(_weight(v) for k, v in swept[j].items() if p.overrides.get(k) == v)
                      + sum(_weight(v) for k, v in tags[j].items() if p.tags.get(k) == v)
                      + 0.5 * (src_rows[j]["workload"] == w.name) for j in range(len(src_rows))]
            src = src_rows[scores.index(max(scores))]
            for seed in seeds:
                rows.append({
                    "run_id": f"smoke-{i}", "workload": w.name,
                    "seed": src["seed"] if seed is None else seed,
                    **{f"config.{k}": p.overrides.get(k) for k in spec.swept},
                    **{t: p.tags.get(t) for t in spec.tags},
                    **{k: v for k, v in src.items() if k not in ident},
                })
                i += 1
    names = list(dict.fromkeys(k for row in rows for k in row))
    return pl.DataFrame([_column(n, [row.get(n) for row in rows]) for n in names])


def _weight(value: Any) -> int:
    """A policy, scheme or absent key (which metrics a run has) outweighs a number."""
    return 10 if value is None or isinstance(value, str | bool) else 1


def smoke(name: str, out: str | Path, jobs: int = 1) -> Analysis:
    """Paper ``name``'s full plan: the :func:`picks` of every sweep (first workload and
    seed) and its last run simulated into ``out/sweeps``, the analysis run on the filled
    tables (figures written into ``out``)."""
    mod = paper_module(name)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ctx = Context(out=out, quick=False)
    cut = name not in UNCUT
    tables = {}
    for sweep_name, raw in mod.plan(ctx).items():
        spec = load_spec(raw)
        last = (max(1, len(spec.workloads)) - 1, [len(spec.points) - 1],
                len(spec.seeds or [None]) - 1)
        parts = []
        # A sweep the analysis checks point by point (e.g. a curve that must grow) is
        # simulated whole: copied metrics would make it flat.
        chosen = (list(range(len(spec.points)))
                  if sweep_name in getattr(mod, "SMOKE_WHOLE", ()) else picks(spec))
        for end, (w, pts, s) in (("picks", (0, chosen, 0)), ("last", last)):
            outcome = run_sweep(subset(spec, w, pts, s, cut), out / "sweeps" / sweep_name / end,
                                jobs, progress=False)
            if outcome.failed:
                raise SweepFailed(outcome)
            parts += outcome.table.to_dicts()
        tables[sweep_name] = fill(spec, parts)
    return mod.analyse(ctx, tables)
