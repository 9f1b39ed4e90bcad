"""The reproduction framework: a paper module declares its sweeps and its claims; this
module runs the sweeps (:func:`nandlab.sweep.run_sweep`, any executor), asks the module
for its tables, figures and claims, and writes ``report.md`` whose "paper vs nandlab"
table carries a verdict computed from each claim.

A paper module (``nandlab/reproduce/<name>.py``, listed in :data:`PAPERS`) defines
``TITLE``, ``plan(ctx) -> {sweep name: spec dict}`` and ``analyse(ctx, tables) ->
Analysis``; see docs/reproduce.md for the recipe.
"""

from __future__ import annotations

import importlib
import json
import math
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import polars as pl

from ..errors import ConfigError
from ..io import atomic_write, write_json
from ..summary import MissingMetric

#: Paper modules by the name `nandlab reproduce NAME` takes.
PAPERS: dict[str, str] = {
    "bitflip": "nandlab.reproduce.bitflip",
    "ldpc-in-ssd": "nandlab.reproduce.ldpc_in_ssd",
    "asymmetric": "nandlab.reproduce.asymmetric",
    "tvr": "nandlab.reproduce.tvr",
    "badr": "nandlab.reproduce.badr",
}

Verdict = Literal["reproduced", "close", "differs"]
VERDICTS: tuple[Verdict, ...] = ("reproduced", "close", "differs")


@dataclass(frozen=True)
class Claim:
    """A number the paper states, beside nandlab's, and the rule that compares them.

    ``paper`` and ``nandlab`` are (low, high) ranges (low == high for a single value), in
    ``unit``. The verdict is *reproduced* when nandlab's range lies inside the paper's,
    *close* when it lies inside the paper's with each bound moved out by ``margin`` (a
    fraction of that bound: 0.1 widens 25.9 … 34.2 to 23.3 … 37.6), and *differs*
    otherwise (also when nandlab has no value). ``why``: the module's sentence on
    the cause of a difference, shown unless the claim is reproduced.
    """

    key: str
    label: str
    where: str
    paper: tuple[float, float]
    nandlab: tuple[float, float]
    margin: float
    why: str
    unit: str = "%"

    @property
    def verdict(self) -> Verdict:
        lo, hi = self.nandlab
        plo, phi = self.paper
        if math.isnan(lo) or math.isnan(hi):
            return "differs"
        if plo <= lo and hi <= phi:
            return "reproduced"
        if plo - self.margin * abs(plo) <= lo and hi <= phi + self.margin * abs(phi):
            return "close"
        return "differs"

    def verdict_text(self) -> str:
        v = self.verdict
        return f"close (within {self.margin:.0%} of the paper's bounds)" if v == "close" else v


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
    counts: dict[str, int]
    wall_s: float


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
    for sweep_name, spec in mod.plan(ctx).items():
        _log(f"{name}: sweep {sweep_name}")
        outcome = run_sweep(spec, out / "sweeps" / sweep_name, jobs, executor, address,
                            progress=progress, description=f"{name} {sweep_name}")
        if outcome.failed:
            raise SweepFailed(outcome)
        tables[sweep_name] = outcome.table
    analysis = mod.analyse(ctx, tables)
    wall = time.monotonic() - t0
    version = _package_version()
    counts = verdict_counts(analysis.claims)
    write_json(out / "claims.json", [
        {**asdict(c), "verdict": c.verdict} for c in analysis.claims
    ])
    write_json(out / "metrics.json", json.loads(json.dumps(
        {**analysis.metrics, "wall_s": wall, "version": version, "verdicts": counts},
        default=str)))
    mode = "quick" if quick or getattr(ctx.settings, "quick", False) else "full"
    text = (
        f"# {mod.TITLE} reproduced with nandlab\n\n"
        f"nandlab {version}; mode **{mode}**; wall time {wall:.0f} s; "
        f"Python {platform.python_version()} on {platform.machine()}.\n\n"
        f"{analysis.config_text}"
        "## Paper vs nandlab\n\n"
        f"Verdicts: {format_counts(counts)}. A verdict is computed from the numbers: "
        "*reproduced* — nandlab's range lies inside the paper's; *close* — inside it "
        "with each bound moved out by the fraction shown; *differs* — otherwise.\n\n"
        f"{claims_table(analysis.claims)}\n{analysis.body}"
    )
    with atomic_write(out / "report.md") as f:
        f.write(text)
    _log(f"{name}: done in {wall:.0f} s: {out / 'report.md'}")
    return Report(name, mod.TITLE, out / "report.md", counts, wall)


def reproduce_all(out: str | Path, quick: bool = False, **kw: Any) -> Path:
    """Every paper into ``out/<name>/``; ``out/index.md`` lists the verdict counts."""
    out = Path(out)
    return write_index(out, [reproduce(name, out / name, quick=quick, **kw) for name in PAPERS],
                       quick)


def write_index(out: Path, reports: list[Report], quick: bool) -> Path:
    """``out/index.md``: the verdict counts of ``reports`` (each in ``out/<paper>/``)."""
    lines = ["# nandlab reproductions\n", f"Mode: {'quick' if quick else 'full'}.\n",
             "| paper | reproduced | close | differs | report |", "|---|---|---|---|---|"]
    for r in reports:
        c = r.counts
        lines.append(f"| {r.title} | {c['reproduced']} | {c['close']} | {c['differs']} | "
                     f"[{r.paper}/report.md]({r.paper}/report.md) |")
    with atomic_write(out / "index.md") as f:
        f.write("\n".join(lines) + "\n")
    return out / "index.md"


def verdict_counts(claims: list[Claim]) -> dict[str, int]:
    return {v: sum(c.verdict == v for c in claims) for v in VERDICTS}


def format_counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{counts[v]} {v}" for v in VERDICTS)


def claims_table(claims: list[Claim]) -> str:
    rows = ["| claim | paper (where) | nandlab | verdict | why it differs |",
            "|---|---|---|---|---|"]
    for c in claims:
        why = c.why if c.verdict != "reproduced" else ""
        rows.append(f"| {c.label} | {_range(c.paper, c.unit)} ({c.where}) | "
                    f"{_range(c.nandlab, c.unit)} | **{c.verdict_text()}** | {why} |")
    return "\n".join(rows) + "\n"


def column(df: pl.DataFrame, name: str, optional: bool = False) -> list[Any]:
    """A results-table column as a list; a missing column, or a missing value in a
    required one, is an error naming the metric."""
    if name not in df.columns:
        raise MissingMetric(f"metric `{name}` is not in the results table")
    values = df[name].to_list()
    if not optional and any(v is None for v in values):
        raise MissingMetric(f"metric `{name}` is missing from some runs")
    return values


def _range(r: tuple[float, float], unit: str) -> str:
    lo, hi = r
    if math.isnan(lo):
        return "n/a"
    return f"{_num(lo)} {unit}" if lo == hi else f"{_num(lo)} … {_num(hi)} {unit}"


def _num(x: float) -> str:
    if x != 0 and abs(x) < 0.05:
        return f"{x:.3f}"
    return f"{x:.1f}"


def _log(msg: str) -> None:
    print(f"reproduce: {msg}", file=sys.stderr, flush=True)
