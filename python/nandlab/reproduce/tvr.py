"""``nandlab reproduce tvr``: seed 002 (Wang, Xie, Zhou, ICS'14) — threshold voltage and
MLC program/erase time, and threshold voltage reduction (TVR).

Four sweeps on ``configs/002_tvr.toml``:

- ``pe_time``: the content-dependent program/erase time model (``[timing.pe_time] model =
  "content"``, §4) on a small device written until it garbage-collects, one run per cell
  content (every cell '11', '10', '00' or '01'; random data) × P/E count × TVR off/on:
  Figs. 7–10 as the simulator charges them, and TVR's program speed-up (§5.3);
- ``ssd``: §5.5's study, the standard vs the TVR device (``[tvr] enabled``) on the traces
  002 names (excerpt, stand-ins, or the files in ``--trace-dir``) over the number of
  packages (channels here), set up as DiskSim's SSD module ships (:mod:`.tvr_ssd`);
- ``region``: the same workloads with TVR on a region of the logical pages only (§5.1:
  TVR for short-lived data), beside whole-device TVR;
- ``terms``: standard vs TVR with Eq. 3 coupling and Eq. 5 read disturb as the ``vth``
  model's error terms (§2.3-2.4; the terms are nandlab's extension).

The model numbers of §5.2–5.4 and Eq. 4 (Δ₀…Δ₅, ISPP steps, lifetime, coupling) come from
the ``tvr`` section every TVR run's summary carries. The paper's numbers and the reason
for each difference are in :mod:`.paper_002`.
"""

from __future__ import annotations

import io
import math
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from ..io import write_json
from . import tvr_fit
from .bitflip import _savefig
from .framework import Analysis, Claim, Context, column, seeds_for
from .paper_002 import END_OF_LIFE_PE, PAPER, SOURCES, WHY
from .tvr_ssd import (
    CLAIM_TIMING,
    SSD_WORKLOADS,
    TIMINGS,
    ssd_md,
    ssd_measured,
    ssd_metrics,
    ssd_spec,
)

TITLE = "Threshold voltage reduction, TVR (seed 002)"

#: Claims use the kinds and rules of :mod:`.claims` (checked by the framework).
CLAIM_API = 2

PRESET = Path(__file__).resolve().parents[1] / "configs" / "002_tvr.toml"

#: A byte whose four 2-bit cells (adjacent bits, MSB first) all take one state.
STATE_BYTES = {"11": 0xFF, "10": 0xAA, "00": 0x00, "01": 0x55}

#: nandlab page types of 002's MSB page (read with V₁ alone, programmed first: the lower
#: page, type 0 on every preset) and LSB page (docs/reliability.md, "Page-type names").
MSB, LSB = 0, 1

#: Margin of a *close* verdict (a fraction of the paper's bounds).
CLOSE_MARGIN = 0.1

#: The small device of the ``pe_time`` runs: 1 package of 8 planes × 64 blocks × 128
#: pages (256 MiB), empty at the start, so that its writes garbage-collect blocks whose
#: content the run wrote.
PE_TIME_DEVICE = {
    "device.channels": 1,
    "device.blocks_per_plane": 64,
    "ftl.gc_threshold_blocks": 4,
    "aging.fill_fraction": 0.0,
    "reliability.model": "none",
    "ecc.scheme": "none",
    "timing.pe_time.model": "content",
    "workload.kind": "synthetic",
    "workload.read_fraction": 0.0,
    "workload.iops": 0.0,
    "output.record_requests": False,
}

#: §5.1's TVR for short-lived data: the ``region`` runs program only the first half of the
#: logical pages with TVR (``[tvr.region] kind = "lpn_range"``). Liu et al. [17], whom 002
#: cites, find that 49-99 % of writes need less than a week of retention; half of a
#: uniformly written space takes half the writes, [17]'s low end. The runs report the
#: share the traces actually put there.
REGION_SHARE = 0.5

#: Eq. 3's coupling ratios (§2.3, after Cho et al. [8]) as the ``vth`` model's term.
COUPLING = {"gamma_fg1": 0.02, "gamma_fg2": 0.006}

#: Eq. 5 read disturb as the ``vth`` model's term (nandlab's extension). 002 gives no
#: constants, so these are assumptions: gate coupling ratio 0.6 (the usual floating-gate
#: value, 0.6-0.7); V_pass 6.0 V on the standard layout (top mean 4.9 V + 1.1 V, the usual
#: MLC V_pass of 5.5-6.5 V); b₀ = 1 per volt across the oxide; I₀ such that the standard
#: layout's erased state (V_pass - μ₀ = 7.4 V) rises 0.5 V in 10⁵ reads:
#: 0.5 / (10⁵ · e^{1 · 0.6 · 7.4}) = 5.9e-8 V per read.
READ_DISTURB = {"b0_per_v": 1.0, "gate_coupling_ratio": 0.6,
                "i0_v_per_read": 0.5 / (1e5 * math.exp(0.6 * 7.4)), "pass_margin_v": 1.1}


@dataclass
class Settings:
    """What the reproduction runs."""

    #: P/E counts of the ``pe_time`` runs: fresh, §4.1's 2×10⁵, a point past it (Fig. 9's
    #: divergence, judged there: the second last) and the end of life.
    pe_points: list[int] = field(default_factory=lambda: [0, 200_000, 700_000, END_OF_LIFE_PE])
    pe_writes: int = 80_000
    #: Packages of the ``ssd`` runs (:mod:`.tvr_ssd`: DiskSim's 8-package module, doubled).
    ssd_channels: list[int] = field(default_factory=lambda: [8, 16, 32])
    ssd_workloads: list[str] = field(default_factory=lambda: list(SSD_WORKLOADS))
    ssd_requests: int = 10_000
    #: Flash timings of the ``ssd`` runs (:data:`.tvr_ssd.TIMINGS`); the claims take
    #: :data:`.tvr_ssd.CLAIM_TIMING`'s.
    ssd_timings: list[str] = field(default_factory=lambda: list(TIMINGS))
    seed: int = 1
    #: Seeds of the ``ssd`` runs (the stand-ins' draws; the excerpt replays the same).
    ssd_seeds: list[int] = field(default_factory=lambda: seeds_for(False))
    quick: bool = False

    @classmethod
    def full(cls) -> Settings:
        return cls()

    @classmethod
    def quick_(cls) -> Settings:
        return cls(pe_points=[0, 200_000, 700_000, END_OF_LIFE_PE], pe_writes=70_000,
                   ssd_channels=[8, 16], ssd_workloads=["financial1", "postmark"],
                   ssd_requests=3_000, ssd_seeds=seeds_for(True), ssd_timings=[CLAIM_TIMING],
                   quick=True)


def _pe_time_spec(s: Settings) -> dict[str, Any]:
    cases = [{"content.source": "constant", "content.byte": b, "tags": {"content": name}}
             for name, b in STATE_BYTES.items()]
    cases.append({"content.source": "random", "tags": {"content": "random"}})
    cases.append({"content.source": "random", "timing.pe_time.compose": "mean",
                  "tags": {"content": "random, mean"}})
    return {
        "name": "pe_time",
        "config": str(PRESET),
        "seeds": [s.seed],
        "set": {**PE_TIME_DEVICE, "workload.requests": s.pe_writes},
        "case": cases,
        "grid": {"aging.initial_pe": s.pe_points, "tvr.enabled": [False, True]},
    }


def region_packages(s: Settings) -> int:
    """The package count of the ``region`` and ``terms`` runs: the preset's 8, else the most
    run."""
    return 8 if 8 in s.ssd_channels else s.ssd_channels[-1]


def logical_pages(channels: int) -> int:
    """Logical pages of the preset with ``channels`` packages (the FTL's floor of the
    physical pages times 1 - overprovisioning)."""
    cfg = tomllib.loads(PRESET.read_text())
    d = cfg["device"]
    pages = (channels * d["chips_per_channel"] * d["dies_per_chip"] * d["planes_per_die"]
             * d["blocks_per_plane"] * d["pages_per_block"])
    return math.floor(pages * (1.0 - cfg["ftl"]["overprovisioning"]))


def _claim_case() -> list[dict[str, Any]]:
    return [{**TIMINGS[CLAIM_TIMING], "tags": {"flash": CLAIM_TIMING}}]


def _region_spec(ssd: dict[str, Any], s: Settings) -> dict[str, Any]:
    """The ``ssd`` runs' workloads and seeds on a TVR region of the first ``REGION_SHARE``
    of the logical pages, at :func:`region_packages`, with the claims' flash timing."""
    c = region_packages(s)
    return {**ssd, "name": "region", "seeds": s.ssd_seeds, "case": _claim_case(),
            "set": {**ssd["set"], "device.channels": c, "tvr.enabled": True,
                    "tvr.region.kind": "lpn_range", "tvr.region.first_lpn": 0},
            "grid": {"tvr.region.end_lpn": [int(REGION_SHARE * logical_pages(c))]}}


def _terms_spec(ssd: dict[str, Any], s: Settings) -> dict[str, Any]:
    """Standard vs TVR with Eq. 3 coupling and Eq. 5 read disturb on, on the first ``ssd``
    workload at :func:`region_packages`: the TVR run's ``tvr.terms`` prices both terms on
    both layouts, and both runs read with them."""
    first = ssd["trace"][:1] if "trace" in ssd else []
    spec = {k: v for k, v in ssd.items() if k not in ("trace", "workload")}
    spec["trace" if first else "workload"] = first or ssd["workload"][:1]
    terms = {**{f"reliability.vth_coupling.{k}": v for k, v in COUPLING.items()},
             **{f"reliability.vth_read_disturb.{k}": v for k, v in READ_DISTURB.items()}}
    return {**spec, "name": "terms", "seeds": [s.seed], "case": _claim_case(),
            "set": {**ssd["set"], "device.channels": region_packages(s), **terms},
            "grid": {"tvr.enabled": [False, True]}}


def plan(ctx: Context) -> dict[str, dict[str, Any]]:
    s = ctx.settings or (Settings.quick_() if ctx.quick else Settings.full())
    ctx.settings = s
    notes: list[str] = []
    ssd = {**ssd_spec(s.ssd_channels, s.ssd_workloads, s.ssd_requests, s.ssd_seeds,
                      s.ssd_timings, notes), "config": str(PRESET)}
    ctx.notes.extend(notes)
    return {"pe_time": _pe_time_spec(s), "ssd": ssd, "region": _region_spec(ssd, s),
            "terms": _terms_spec(ssd, s)}


def _rows(df: pl.DataFrame, names: list[str]) -> list[dict[str, Any]]:
    cols = {n: column(df, n) for n in names}
    return [{n: cols[n][i] for n in names} for i in range(df.height)]


def pe_time_metrics(df: pl.DataFrame) -> dict[str, Any]:
    """Program time per state and page type (µs), erase time (ms), from the runs."""
    rows = _rows(df, ["content", "config.aging.initial_pe", "config.tvr.enabled",
                      "pe_time.program_ns_mean_by_page_type", "pe_time.erase_ns_mean",
                      "pe_time.erases"])
    by: dict[tuple[str, int, bool], dict[str, Any]] = {}
    for r in rows:
        by[(r["content"], int(r["config.aging.initial_pe"]), bool(r["config.tvr.enabled"]))] = {
            "program_us": [t / 1e3 for t in r["pe_time.program_ns_mean_by_page_type"]],
            "erase_ms": (r["pe_time.erase_ns_mean"] or math.nan) / 1e6,
            "erases": r["pe_time.erases"],
        }
    return {f"{c}|{pe}|{'tvr' if t else 'standard'}": v for (c, pe, t), v in sorted(by.items())}


def region_metrics(df: pl.DataFrame, ssd: dict[str, Any], packages: int) -> dict[str, Any]:
    """Per workload, over the same seeds as the ``ssd`` runs: the TVR region's reduction of
    the mean response time beside the whole device's (both against the standard runs' mean),
    the share of programs in the region, reads at risk."""
    rows = _rows(df, ["workload", "all.mean_ns", "tvr.regions.tvr.programs",
                      "tvr.regions.standard.programs", "tvr.regions.tvr.reads_at_risk"])
    by: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["workload"], []).append(r)
    out: dict[str, Any] = {}
    for name, rs in by.items():
        base = ssd[f"{name}|{packages}"]
        mean_us = sum(r["all.mean_ns"] for r in rs) / len(rs) / 1e3
        tvr_programs = sum(r["tvr.regions.tvr.programs"] for r in rs)
        programs = tvr_programs + sum(r["tvr.regions.standard.programs"] for r in rs)
        out[name] = {
            "mean_us": mean_us,
            "reduction_pct": 100 * (1 - mean_us / base["standard"]["mean_us"]),
            "whole_device_reduction_pct": base["reduction_pct"],
            "tvr_program_share": tvr_programs / max(programs, 1),
            "reads_at_risk": sum(r["tvr.regions.tvr.reads_at_risk"] for r in rs),
        }
    return out


def terms_metrics(df: pl.DataFrame) -> dict[str, Any]:
    """The Eq. 3/5 terms: the TVR run's ``tvr.terms`` and each run's simulated RBER."""
    model = model_metrics(df)
    rows = _rows(df, ["config.tvr.enabled", "reliability.rber_mean",
                      "reliability.uncorrectable_pages"])
    runs = {("tvr" if r["config.tvr.enabled"] else "standard"): {
        "rber_mean": r["reliability.rber_mean"],
        "uncorrectable_pages": r["reliability.uncorrectable_pages"]} for r in rows}
    terms = {k.removeprefix("terms."): v for k, v in model.items() if k.startswith("terms.")}
    return {"terms": terms, "runs": runs, "rber_plain": {
        lay: [model[f"{lay}.rber_lsb_page"], model[f"{lay}.rber_msb_page"]]
        for lay in ("standard", "reduced")}}


def added_by_reads(terms: dict[str, Any], layout: str) -> float:
    """RBER the most reads priced add to ``layout``'s pages (mean of LSB and MSB pages)."""
    add = [terms[f"{layout}.rber_{p}_page"][-1] - terms[f"{layout}.rber_{p}_page"][0]
           for p in ("lsb", "msb")]
    return sum(add) / 2


def model_metrics(df: pl.DataFrame) -> dict[str, Any]:
    """The ``tvr`` summary section of the first TVR run (every TVR run carries the same)."""
    tvr = df.filter(pl.col("config.tvr.enabled"))
    if tvr.height == 0:
        raise RuntimeError("no TVR run in the ssd sweep")
    names = [c for c in tvr.columns if c.startswith("tvr.")]
    first = {c.removeprefix("tvr."): tvr[c][0] for c in names}
    # A list metric's cell is a Series: as a list, for the JSON outputs.
    return {k: v.to_list() if isinstance(v, pl.Series) else v for k, v in first.items()}


def nandlab_values(s: Settings, pt: dict[str, Any], model: dict[str, Any],
                   terms: dict[str, Any]) -> dict[str, float]:
    """nandlab's value of every claim."""
    eol = s.pe_points[-1]

    def prog(content: str, pe: int = 0, mode: str = "standard") -> list[float]:
        return pt[f"{content}|{pe}|{mode}"]["program_us"]

    d = model["deltas_v"]
    rand, rand_tvr = prog("random"), prog("random", mode="tvr")
    v: dict[str, Any] = {
        "delta0": d[0], "delta1": d[1], "delta2": d[2],
        "msb_rise": sum(d[:4]), "lsb_rise": d[0] + d[1],
        "steps_msb_before": model["program_steps_msb.before"],
        "steps_lsb_before": model["program_steps_lsb.before"],
        "steps_msb_after": model["program_steps_msb.after"],
        "steps_lsb_after": model["program_steps_lsb.after"],
        "speedup_model": 100 * model["program_speedup"],
        "speedup_sim": 100 * (1 - sum(rand_tvr) / sum(rand)),
        "max_pe_standard": model["max_pe_1e5.standard"],
        "max_pe_tvr": model["max_pe_1e5.reduced"],
        "lifetime_gain": 100 * model["lifetime_gain"],
        "lifetime_gain_mu0_fit": 100 * mu0_fits(model)["mu0_only"].gain,
        "lifetime_gain_fitted": 100 * mu0_fits(model)["both"].gain,
        "coupling": 100 * model["coupling_reduction_cho_2v"],
        "read_disturb_leakage": 100 * terms["leakage_factor"],
        "read_disturb_rber": 1e6 * (added_by_reads(terms, "reduced")
                                    - added_by_reads(terms, "standard")),
        "fig8_msb_11": prog("11")[MSB],
        "fig8_msb_ratio": prog("00")[MSB] / prog("11")[MSB],
        "fig8_lsb_11": prog("11")[LSB],
        "fig8_lsb_10": prog("10")[LSB],
        "program_pe_early": 100 * (1 - prog("11", 200_000)[MSB] / prog("11")[MSB]),
        "program_pe_late": 100 * (1 - prog("11", eol)[MSB] / prog("11", 200_000)[MSB]),
        "erase_01": pt["01|0|standard"]["erase_ms"],
        "erase_11": pt["11|0|standard"]["erase_ms"],
        "erase_eol": pt[f"random|{eol}|standard"]["erase_ms"],
    }
    for k, state in zip(("fig7_s0", "fig7_s1", "fig7_s2", "fig7_s3"), STATE_BYTES, strict=True):
        v[k] = sum(prog(state)) / 2
    for k in (1, 2, 3):
        v[f"fig7_faster_s{k}"] = 100 * (1 - v["fig7_s0"] / v[f"fig7_s{k}"])
    late = s.pe_points[-2]
    v["fig9_divergence"] = (pt[f"01|{late}|standard"]["erase_ms"]
                            - pt[f"10|{late}|standard"]["erase_ms"])
    return v


def mu0_fits(model: dict[str, Any]) -> dict[str, tvr_fit.Fit]:
    """§5.4's limits with μ₀ fitted (:mod:`.tvr_fit`): ``mu0_only`` at the run's Err*,
    ``both`` μ₀ and Err* together; the layouts' rises come from the run's ``tvr`` section."""
    rs, rt = tvr_fit.rises(model["standard.means_v"]), tvr_fit.rises(model["reduced.means_v"])
    return {"mu0_only": tvr_fit.fit_mu0(rs, rt, model["err_limit_cell_errors"]),
            "both": tvr_fit.fit_mu0_and_limit(rs, rt)}


def fit_md(model: dict[str, Any]) -> str:
    """The μ₀ fit's values and sensitivity (report text)."""
    rs, rt = tvr_fit.rises(model["standard.means_v"]), tvr_fit.rises(model["reduced.means_v"])
    f = mu0_fits(model)
    one, both = f["mu0_only"], f["both"]
    sens = tvr_fit.sensitivity(both, rs, rt)
    return (
        "\n## Eq. 8's P/E limits with μ₀ fitted (§5.4)\n\n"
        f"nandlab's layout assumes μ₀ = {model['standard.means_v'][0]:.2f} V (Fig. 11a is not "
        "in the text); every mean is μ₀ plus rises §5.2–5.3 fix (mean rise "
        f"{rs:.4f} V standard, {rt:.4f} V reduced), so μ₀ sets both layouts' mean V_th. "
        f"**μ₀ alone** (Err* = {one.err_limit:.3f}, the RBER limit × 16,384 bits): μ₀ = "
        f"{one.mu0_v:.3f} V gives {one.max_pe_standard:.3f} and {one.max_pe_tvr:.3f}×10⁵, "
        f"gain {100 * one.gain:+.2f} % (a prediction). **μ₀ and Err*** fitted to 12.469 and "
        f"13.35: μ₀ = {both.mu0_v:.3f} V, Err* = {both.err_limit:.3f} "
        f"({100 * (both.err_limit / one.err_limit - 1):+.1f} % from nandlab's reading), "
        f"limits {both.max_pe_standard:.3f} and {both.max_pe_tvr:.3f}, gain "
        f"{100 * both.gain:+.2f} % by construction. Sensitivity: μ₀ ∓ 0.05 V gives "
        f"{sens['gain_mu0_minus_pct']:+.2f} / {sens['gain_mu0_plus_pct']:+.2f} %, Err* + 1 % "
        f"gives {sens['gain_err_plus_1pct_pct']:+.2f} %: the gain is set by how close the "
        "reduced mean sits to 0 V, where Eq. 8's limit climbs steeply (`ln V_th`), so the "
        "two printed limits pin μ₀ to a few hundredths of a volt and the gain is not a "
        "robust property of Eq. 8.\n")


#: The sweeps each simulated claim comes from.
RUNS = {"speedup_sim": ["pe_time"], "ssd_response": ["ssd"], "ssd_trend": ["ssd"]}


def claims(s: Settings, values: dict[str, float], ssd: dict[str, Any]) -> list[Claim]:
    response, trend = ssd_measured(s.ssd_channels, ssd)
    measured: dict[str, Any] = {**values, "ssd_response": response, "ssd_trend": trend}
    out = []
    for key, (label, paper, where, unit, kind) in PAPER.items():
        v = measured[key]
        why = WHY.get(key, "")
        if kind == "simulated":
            margin = 0.0 if paper.rule == "sign" else CLOSE_MARGIN
            out.append(Claim.simulated(key, label, where, paper, v, RUNS.get(key, ["pe_time"]),
                                       why=why, margin=margin, unit=unit))
        elif kind == "model check":
            margin = 0.0 if paper.rule in ("sign", "bound") else CLOSE_MARGIN
            out.append(Claim.model_check(key, label, where, paper, v, why=why, margin=margin,
                                         unit=unit))
        elif kind == "input":
            out.append(Claim.input(key, label, where, paper, v, SOURCES.get(
                key, "a value nandlab is configured from"), unit=unit))
        else:
            out.append(Claim.extension(key, label, v, SOURCES[key], unit=unit,
                                       runs=["terms"]))
    return out


def figures(out: Path, s: Settings, pt: dict[str, Any], ssd: dict[str, Any],
            model: dict[str, Any]) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    written: list[str] = []

    def done(fig: Any, name: str) -> None:
        fig.tight_layout()
        _savefig(fig, out / name)
        plt.close(fig)
        written.append(name)

    states = list(STATE_BYTES)
    # Fig. 7: program time by state (mean of both page types) vs P/E.
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for st in states:
        ys = [sum(pt[f"{st}|{pe}|standard"]["program_us"]) / 2 for pe in s.pe_points]
        ax.plot([pe / 1e5 for pe in s.pe_points], ys, marker="o", label=f"'{st}'")
    fig7 = [PAPER[k][1].value[0] for k in ("fig7_s0", "fig7_s3")]
    ax.scatter([0, 0], fig7, marker="x", color="k")
    ax.set_xlabel("P/E cycles (×10⁵)")
    ax.set_ylabel("program time (µs)")
    ax.set_title("Fig. 7: program time by state (x: paper, fresh)")
    ax.legend(fontsize=8)
    done(fig, "fig07_program_time_by_state.png")

    # Fig. 8: by page type and state, fresh.
    fig, ax = plt.subplots(figsize=(6, 3.2))
    x = np.arange(len(states))
    for i, (t, name) in enumerate(((MSB, "MSB page (type 0)"), (LSB, "LSB page (type 1)"))):
        ax.bar(x + (i - 0.5) * 0.4, [pt[f"{st}|0|standard"]["program_us"][t] for st in states],
               0.4, label=name)
    ax.set_xticks(x, [f"'{st}'" for st in states])
    ax.set_ylabel("program time (µs)")
    ax.set_title("Fig. 8: program time by page type (fresh)")
    ax.legend(fontsize=8)
    done(fig, "fig08_program_time_by_page_type.png")

    # Figs. 9-10: erase time vs P/E by block content.
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for st in states:
        ax.plot([pe / 1e5 for pe in s.pe_points],
                [pt[f"{st}|{pe}|standard"]["erase_ms"] for pe in s.pe_points], marker="o",
                label=f"'{st}'")
    ax.set_xlabel("P/E cycles (×10⁵)")
    ax.set_ylabel("erase time (ms)")
    ax.set_title("Figs. 9–10: erase time by block content")
    ax.legend(fontsize=8)
    done(fig, "fig09_erase_time.png")

    # Fig. 11: the standard and the reduced Vth layouts.
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
    for ax, key, title in ((axes[0], "standard", "(a) standard"),
                           (axes[1], "reduced", "(b) TVR, retention free")):
        means, sig = model[f"{key}.means_v"], model[f"{key}.sigmas_v"]
        v = np.linspace(min(means) - 4 * max(sig), max(means) + 4 * max(sig), 800)
        for mu, sd, st in zip(means, sig, ("'11'", "'10'", "'00'", "'01'"), strict=True):
            ax.plot(v, 0.25 * np.exp(-0.5 * ((v - mu) / sd) ** 2) / (sd * math.sqrt(2 * math.pi)),
                    label=st)
        for r in model[f"{key}.read_refs_v"]:
            ax.axvline(r, color="grey", ls="--", lw=0.8)
        ax.set_title(f"Fig. 11{title}")
        ax.set_xlabel("V_th (V)")
    axes[0].set_ylabel("density")
    axes[1].legend(fontsize=8)
    done(fig, "fig11_vth_layouts.png")

    # §5.5: response-time reduction per workload vs packages.
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for flash, ls in zip(TIMINGS, ("-", "--"), strict=True):
        runs = ssd.get(flash, {})
        for n in sorted({k.split("|")[0] for k in runs}):
            cs = [c for c in s.ssd_channels if f"{n}|{c}" in runs]
            ax.plot(cs, [runs[f"{n}|{c}"]["reduction_pct"] for c in cs], marker="o", ls=ls,
                    label=f"{n} ({flash})")
    ax.axhspan(11, 35, color="grey", alpha=0.2, label="paper 11–35 %")
    ax.set_xlabel("packages (channels)")
    ax.set_ylabel("mean response time reduction (%)")
    ax.set_title("§5.5: TVR vs standard SSD")
    ax.legend(fontsize=7)
    done(fig, "ssd_response_reduction.png")
    return written


def body_md(s: Settings, pt: dict[str, Any], ssd: dict[str, Any], model: dict[str, Any],
            notes: list[str]) -> str:
    f = io.StringIO()
    w = f.write
    w("\n## Program and erase time by content (`pe_time` runs)\n\n")
    w("Mean program time per page type (µs; 002's MSB page = type 0, programmed first) "
      "and mean erase time (ms), standard device, `compose = \"slowest\"` unless noted:\n\n")
    w("| content | P/E | MSB page | LSB page | erase | TVR MSB | TVR LSB |\n"
      "|---|---|---|---|---|---|---|\n")
    for c in [*STATE_BYTES, "random", "random, mean"]:
        for pe in s.pe_points:
            a, t = pt[f"{c}|{pe}|standard"], pt[f"{c}|{pe}|tvr"]
            w(f"| {c} | {pe:,} | {a['program_us'][MSB]:.1f} | {a['program_us'][LSB]:.1f} | "
              f"{a['erase_ms']:.3f} | {t['program_us'][MSB]:.1f} | {t['program_us'][LSB]:.1f} |\n")
    w(ssd_md(ssd, s.ssd_workloads))
    w(f"\n**Model** (the `tvr` section of a TVR run): Δ = "
      f"{', '.join(f'{x:.4f}' for x in model['deltas_v'])} V; standard means "
      f"{', '.join(f'{x:.3f}' for x in model['standard.means_v'])} V, reduced "
      f"{', '.join(f'{x:.3f}' for x in model['reduced.means_v'])} V; reduced-layout RBER "
      f"MSB {model['reduced.rber_msb_page']:.2e}, LSB {model['reduced.rber_lsb_page']:.2e}; "
      f"Eq. 4 coupling reduction of the layouts {100 * model['coupling_reduction_layouts']:.1f} %; "
      f"V_pass lower by {model['pass_voltage_drop_v']:.2f} V.\n")
    w("\n**Method.** Program/erase times: `[timing.pe_time] model = \"content\"` (defaults = "
      "002 §4, docs/reliability.md); a page takes its slowest state's time. TVR: "
      "`[tvr] enabled = true` scales each page type's program time by its ISPP steps "
      "after/before (Eq. 14) and, with the preset's `vth` model, reads the reduced layout; "
      "the SSD runs use fixed times per page type (reproduce/tvr_ssd.py: DiskSim's SSD module's "
      "for the claims, the preset's 002 MLC times beside them). The rows of Fig. 8, "
      "§4.1's P/E factors and Figs. 9–10 check that the simulator charges the configured "
      "constants (they are inputs, not predictions); Fig. 7 and §5 are computed.\n")
    for n in notes:
        w(f"\nNote: {n}\n")
    return f.getvalue()


def extension_md(region: dict[str, Any], terms: dict[str, Any]) -> str:
    """The TVR region study and the Eq. 3/5 terms."""
    f = io.StringIO()
    w = f.write
    w("\n## TVR region for short-lived data (`region` runs, §5.1)\n\n"
      f"TVR on the first {REGION_SHARE:.0%} of the logical pages only "
      "(`[tvr.region] kind = \"lpn_range\"`), beside whole-device TVR, both against the "
      "standard device:\n\n"
      "| workload | programs in the region | region: reduction | whole device: reduction | "
      "TVR reads at risk |\n|---|---|---|---|---|\n")
    for n, v in sorted(region.items()):
        w(f"| {n} | {v['tvr_program_share']:.0%} | {v['reduction_pct']:.1f} % | "
          f"{v['whole_device_reduction_pct']:.1f} % | {v['reads_at_risk']} |\n")
    t = terms["terms"]
    w("\n## Coupling and read disturb as RBER terms (`terms` runs; nandlab's extension)\n\n"
      "002 uses Eq. 3–5 to argue direction only. nandlab's `vth` model turns them into error "
      "terms (docs/reliability.md): Eq. 3 with 002's γ_fg1 = 0.02, γ_fg2 = 0.006 and Eq. 5 "
      "with assumed constants (`READ_DISTURB` in `reproduce/tvr.py`: b₀ = "
      f"{READ_DISTURB['b0_per_v']:g}/V, α_G = {READ_DISTURB['gate_coupling_ratio']:g}, "
      f"V_pass = top mean + {READ_DISTURB['pass_margin_v']:g} V, I₀ = "
      f"{READ_DISTURB['i0_v_per_read']:.3g} V per read). TVR lowers V_pass by "
      f"{t['pass_voltage_drop_v']:.3f} V, so Eq. 5's leakage falls to "
      f"{t['leakage_factor']:.3f} of the standard's.\n\n"
      "| layout | RBER LSB / MSB, no terms | with coupling | "
      + " | ".join(f"+ {r:,.0f} reads" for r in t["reads"][1:])
      + " | erased-state rise at the most reads |\n|---|---|---|"
      + "---|" * (len(t["reads"]) - 1) + "---|\n")
    for lay in ("standard", "reduced"):
        lsb, msb = t[f"{lay}.rber_lsb_page"], t[f"{lay}.rber_msb_page"]
        plain = terms["rber_plain"][lay]
        cells = [f"{a:.2e} / {b:.2e}" for a, b in zip(lsb, msb, strict=True)]
        w(f"| {lay} | {plain[0]:.2e} / {plain[1]:.2e} | {' | '.join(cells)} | "
          f"{t[f'{lay}.erased_rise_v'][-1]:.3f} V |\n")
    runs = terms["runs"]
    w("\nThe same terms in the simulator (first `ssd` workload, both terms on): mean read "
      f"RBER standard {runs['standard']['rber_mean']:.2e}, TVR {runs['tvr']['rber_mean']:.2e} "
      f"({runs['tvr']['uncorrectable_pages']} uncorrectable pages; the reduced layout is "
      "solved at the limit without the terms, so coupling alone takes it past 4.5e-4).\n")
    return f.getvalue()


def analyse(ctx: Context, tables: dict[str, pl.DataFrame]) -> Analysis:
    s: Settings = ctx.settings
    pt = pe_time_metrics(tables["pe_time"])
    all_ssd = ssd_metrics(tables["ssd"])
    ssd = all_ssd[CLAIM_TIMING]
    model = model_metrics(tables["ssd"])
    region = region_metrics(tables["region"], ssd, region_packages(s))
    terms = terms_metrics(tables["terms"])
    values = nandlab_values(s, pt, model, terms["terms"])
    cl = claims(s, values, ssd)
    figs = figures(ctx.out, s, pt, all_ssd, model)
    m = {"settings": asdict(s), "pe_time": pt, "ssd": all_ssd, "region": region, "terms": terms,
         "model": model, "values": values, "notes": ctx.notes}
    write_json(ctx.out / "runs.json", {"pe_time": pt, "ssd": all_ssd, "region": region,
                                       "terms": terms})
    config_text = (
        f"Seed {s.seed}. Config: `configs/002_tvr.toml` (DiskSim-SSD-like, 002's chip "
        f"timing, `vth` on the standard layout, BCH t = 49 per 4 KiB). `pe_time` runs: one "
        f"256 MiB package, empty, {s.pe_writes:,} random 4 KiB writes, P/E "
        f"{', '.join(f'{p:,}' for p in s.pe_points)}. `ssd` runs: packages "
        f"{', '.join(map(str, s.ssd_channels))}, at most {s.ssd_requests:,} requests each, "
        f"flash timing {', '.join(s.ssd_timings)} (claims: {CLAIM_TIMING}); "
        f"`region` and `terms` runs at {region_packages(s)} packages.\n\n"
    )
    body = body_md(s, pt, all_ssd, model, ctx.notes) + fit_md(model) + extension_md(region, terms)
    return Analysis(claims=cl, body=body, figures=figs,
                    metrics=m, config_text=config_text)
