"""The reproduction framework: a paper module declares its sweeps and its claims; this
module runs the sweeps (:func:`nandlab.sweep.run_sweep`, any executor), asks the module
for its tables, figures and claims, and writes ``report.md`` whose "paper vs nandlab"
table carries a verdict computed from each claim.

A paper module (``nandlab/reproduce/<name>.py``, listed in :data:`PAPERS`) defines
``TITLE``, ``plan(ctx) -> {sweep name: spec dict}`` and ``analyse(ctx, tables) ->
Analysis``, and ``CLAIM_API = 2`` once its claims use :mod:`.claims`' kinds and rules
(then they are checked: :func:`~.claims.check_claims`); see docs/reproduce.md.
"""

from __future__ import annotations

import importlib
import json
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..io import atomic_write, write_json
from ..summary import MissingMetric
from .claims import (
    JUDGED,
    KINDS,
    VERDICTS,
    Claim,
    Measured,
    PaperValue,
    Unreachable,
    Verdict,
    above,
    below,
    change_of_sums,
    change_pct,
    check_claims,
    counts_by_kind,
    point,
    ratio_of_sums,
    seeds_for,
    sign,
    span,
)
from .claims_md import (
    RULES_MD,
    claims_table,
    format_counts,
    judged_counts_md,
    listed_table,
    workloads_table,
)
from .papers import PAPERS as PAPERS  # re-exported: the paper modules by name
from .verdict_table import index_md

if TYPE_CHECKING:  # imported where used: `nandlab run` needs no polars before its run
    import polars as pl


#: Kept here for the paper modules: ``from .framework import Claim, point, ...``.
__all__ = ["JUDGED", "KINDS", "VERDICTS", "Analysis", "Claim", "Context", "Measured",
           "PaperValue", "Report", "Unreachable", "Verdict", "above", "below", "by_seed",
           "change_of_sums", "change_pct", "claims_table", "column", "format_counts",
           "point", "ratio_of_sums", "reproduce", "reproduce_all", "seeds_for", "sign",
           "span", "verdict_counts", "write_index"]


@dataclass
class Context:
    """What a paper module is asked to reproduce, and where."""

    out: Path
    quick: bool
    settings: Any = None
    notes: list[str] = field(default_factory=list)
    #: What ``plan`` leaves for ``analyse`` (e.g. a file analysis).
    state: dict[str, Any] = field(default_factory=dict)


@dataclass
class Analysis:
    """A paper module's result: claims, the report's body (markdown after the claims
    table), the figures written, and everything else for ``metrics.json``."""

    claims: list[Claim]
    body: str
    figures: list[str]
    metrics: dict[str, Any]
    config_text: str = ""


@dataclass
class Report:
    paper: str
    title: str
    path: Path
    #: Verdicts of the judged claims (simulated and model check together).
    counts: dict[str, int]
    wall_s: float
    #: :func:`~.claims.counts_by_kind`: verdicts per judged kind, inputs/extensions listed.
    counts_by_kind: dict[str, dict[str, int]] = field(default_factory=dict)


def paper_module(name: str) -> Any:
    if name not in PAPERS:
        raise ConfigError(
            f"no reproduction named {name!r}; there are: {', '.join(PAPERS)} (or `all`)"
        )
    return importlib.import_module(PAPERS[name])


def reproduce(
    name: str,
    out: str | Path,
    quick: bool = False,
    jobs: int | None = None,
    executor: str = "local",
    address: str | None = None,
    progress: bool = True,
    settings: Any = None,
) -> Report:
    """Runs paper ``name``'s sweeps into ``out/sweeps/`` and writes ``out/report.md``."""
    from .. import _package_version
    from ..sweeps import SweepFailed, run_sweep

    mod = paper_module(name)
    t0 = time.monotonic()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ctx = Context(out=out, quick=quick, settings=settings)
    tables: dict[str, pl.DataFrame] = {}
    sweeps: list[SweepTime] = []
    for sweep_name, spec in mod.plan(ctx).items():
        _log(f"{name}: sweep {sweep_name}")
        outcome = run_sweep(spec, out / "sweeps" / sweep_name, jobs, executor, address,
                            progress=progress, description=f"{name} {sweep_name}")
        if outcome.failed:
            raise SweepFailed(outcome)
        tables[sweep_name] = outcome.table
        sweeps.append(SweepTime(len(outcome.ran), outcome.skipped, outcome.times))
    analysis = mod.analyse(ctx, tables)
    if getattr(mod, "CLAIM_API", 1) >= 2:
        check_claims(analysis.claims)
    wall = time.monotonic() - t0
    version = _package_version()
    counts = verdict_counts(analysis.claims)
    by_kind = counts_by_kind(analysis.claims)
    write_json(out / "claims.json", [
        {**asdict(c), "verdict": c.verdict} for c in analysis.claims
    ])
    write_json(out / "metrics.json", json.loads(json.dumps(
        {**analysis.metrics, "wall_s": wall, "sweeps_time": sweeps_time(sweeps),
         "version": version, "verdicts": counts, "verdicts_by_kind": by_kind},
        default=str)))
    mode = "quick" if quick or getattr(ctx.settings, "quick", False) else "full"
    text = (
        f"# {mod.TITLE} reproduced with nandlab\n\n"
        f"nandlab {version}; mode **{mode}**; {wall_time_md(wall, sweeps)}; "
        f"Python {platform.python_version()} on {platform.machine()}.\n\n"
        f"{analysis.config_text}"
        "## Paper vs nandlab\n\n"
        f"Verdicts — {judged_counts_md(by_kind)}. {RULES_MD}\n\n"
        f"{claims_table(analysis.claims)}\n"
        + "".join(f"{t}\n" for t in (listed_table(analysis.claims),
                                     workloads_table(analysis.claims)) if t)
        + analysis.body
    )
    with atomic_write(out / "report.md") as f:
        f.write(text)
    _log(f"{name}: done in {wall:.0f} s: {out / 'report.md'}")
    return Report(name, mod.TITLE, out / "report.md", counts, wall, by_kind)


@dataclass(frozen=True)
class SweepTime:
    """One sweep of a reproduction: runs simulated by this call, runs found in the store,
    and every call that simulated runs into that store (:meth:`Store.times`, this one
    last when it ran any)."""

    ran: int
    found: int
    times: list[dict[str, Any]]


def sweeps_time(sweeps: list[SweepTime]) -> dict[str, Any]:
    """The runs simulated now and found in the stores, and the time the found ones took
    when they were simulated (as far as their stores recorded it)."""
    earlier = [t for s in sweeps for t in (s.times[:-1] if s.ran else s.times)]
    jobs = sorted({t["jobs"] for s in sweeps for t in s.times if t.get("jobs") is not None})
    return {"ran": sum(s.ran for s in sweeps), "found": sum(s.found for s in sweeps),
            "found_timed": sum(t["runs"] for t in earlier),
            "found_wall_s": sum(t["wall_s"] for t in earlier), "jobs": jobs}


def wall_time_md(wall_s: float, sweeps: list[SweepTime]) -> str:
    """The header's time: this call's wall time and what it did — runs simulated now, or
    found in the store and how long they took when simulated (a re-analysis of a finished
    run takes seconds; its runs took what the store recorded)."""
    t = sweeps_time(sweeps)
    jobs = f" with `--jobs {', '.join(map(str, t['jobs']))}`" if t["jobs"] else ""
    text = f"wall time {wall_s:,.0f} s"
    if not t["found"]:
        return f"{text} ({t['ran']} runs simulated{jobs})"
    text += f" ({t['ran']} runs simulated now, {t['found']} found in the store"
    if not t["found_timed"]:
        return f"{text}; the store did not record how long those took)"
    part = "" if t["found_timed"] >= t["found"] else f" {t['found_timed']} of them"
    return f"{text};{part} simulated earlier in {t['found_wall_s']:,.0f} s{jobs})"


def reproduce_all(out: str | Path, quick: bool = False, **kw: Any) -> Path:
    """Every paper into ``out/<name>/``; ``out/index.md`` lists the verdict counts."""
    out = Path(out)
    return write_index(out, [reproduce(name, out / name, quick=quick, **kw) for name in PAPERS],
                       quick)


def write_index(out: Path, reports: list[Report], quick: bool) -> Path:
    """``out/index.md`` (:mod:`.verdict_table`): per paper and claim kind the verdict
    counts, and every judged claim not reproduced with its cause; the reports lie in
    ``out/<paper>/``."""
    papers = [(r.paper, r.title, json.loads((r.path.parent / "claims.json").read_text()))
              for r in reports]
    with atomic_write(out / "index.md") as f:
        f.write(index_md(papers, quick))
    return out / "index.md"


def verdict_counts(claims: list[Claim]) -> dict[str, int]:
    """Verdicts of the judged claims (inputs and extensions have none)."""
    return {v: sum(c.verdict == v for c in claims) for v in VERDICTS}


def column(df: pl.DataFrame, name: str, optional: bool = False) -> list[Any]:
    """A results-table column as a list; a missing column, or a missing value in a
    required one, is an error naming the metric."""
    if name not in df.columns:
        raise MissingMetric(f"metric `{name}` is not in the results table")
    values = df[name].to_list()
    if not optional and any(v is None for v in values):
        raise MissingMetric(f"metric `{name}` is missing from some runs")
    return values


def by_seed(table: pl.DataFrame) -> dict[int, pl.DataFrame]:
    """A results table split by its ``seed`` column, in seed order: compute a claim on
    each part and pass the values to :meth:`Measured.seeds`."""
    import polars as pl

    seeds = sorted(set(column(table, "seed")))
    return {s: table.filter(pl.col("seed") == s) for s in seeds}


def _log(msg: str) -> None:
    print(f"reproduce: {msg}", file=sys.stderr, flush=True)
