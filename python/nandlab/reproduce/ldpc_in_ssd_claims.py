"""Seed 001's claims from the runs of every seed (:mod:`.claims`' kinds and rules): each
claim's value is computed on each seed's runs ([`seed_values`]) and judged on its spread;
the model checks come from :mod:`.ldpc_in_ssd_checks`. Used by :mod:`.ldpc_in_ssd`.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from . import paper_001
from .claims import Claim, Measured, Unreachable

#: Claims whose value depends on the LDPC code's soft levels: reported for both codes.
CODE_DEPENDENT = ("fig12_look_ahead", "fig13_progressive", "fig14_combined",
                  "fig17_parallelism", "headline_all", "energy_look_ahead",
                  "energy_progressive", "energy_both", "fig3_soft_gain", "fig10_p_sd1")
#: Claims that are a range over traces (each trace judged on its spread over seeds).
SPANS = ("fig5_write", "fig11_range", "fig15_4way_vs_2way", "fig17_parallelism")
#: Claims checked on the code's table or the paper's formula, with no SSD run.
MODEL_CHECKS = ("fig3_soft_gain", "fig3_hard_vs_bch", "fig10_p_sd1", "bake_recovery",
                "bake_retention")
#: What the paper-shaped code is built from: inputs under it, not results.
PAPER_CODE_INPUTS = {
    "energy_progressive": "the paper-shaped code's soft levels are solved so that "
                          "P_hd-fail × (1 + Σ F_i / F_0) = 35.2 % (paper_fer_001.py)",
    "fig10_p_sd1": "follows from the same construction (P_sd-fail(1) = 0.210)",
}
#: §2.2's times, which the preset is configured with: inputs (stated_timing's values).
STATED_INPUTS = {
    "sense_seven_levels": "`timing.read_latency_ns` (§4: 41 / 55 µs hard, lower / upper "
                          "page) + `ecc.max_extra_levels` 6 × `extra_sense_latency_ns` 14 µs "
                          "(§4): 125 µs on a lower page, 139 on an upper",
    "soft_transfer": "`ecc.soft_transfer = \"stated\"`, `soft_xfer_bytes = 16_000` at "
                     "`timing.bus_rate_mb_s = 200` (tests/integration/ldpc_in_ssd_reads.rs "
                     "checks it on an idle die)",
}
MARGIN = {"fig5_proportional": 0.15, "fig5_write": 0.5, "fig11_range": 0.25,
          "fig12_look_ahead": 0.5, "fig13_progressive": 0.25, "fig14_combined": 0.0,
          "fig15_4way_vs_2way": 0.0, "fig17_parallelism": 0.5, "headline_baseline": 0.25,
          "headline_all": 0.5, "energy_look_ahead": 0.25, "energy_progressive": 0.25,
          "energy_both": 0.25, "fig3_soft_gain": 0.15, "fig3_hard_vs_bch": 0.1,
          "fig10_p_sd1": 0.25, "bake_recovery": 0.1, "bake_retention": 0.1}
UNIT = {"fig5_proportional": "×", "fig14_combined": "pt", "fig15_4way_vs_2way": "pt",
        "fig17_parallelism": "pt", "fig3_soft_gain": "×", "fig3_hard_vs_bch": "×",
        "fig10_p_sd1": "", "bake_recovery": "min", "bake_retention": "min",
        "sense_seven_levels": "µs", "soft_transfer": "µs"}
WHY = {
    "fig5_proportional":
        "Each page read pays the soft step with probability P_hd-fail, plus the queueing "
        "behind others' soft steps; per request (the report's Fig. 5 table) a request of k "
        "pages waits when any page fails, with probability 1 − (1 − P_hd-fail)^k, which "
        "saturates: its delay grows less than in proportion.",
    "fig5_write":
        "Writes share the dies and channels with the extra soft sensing and transfers, and "
        "a partial-page write's read-modify-write read pays the soft step itself when its "
        "hard decode fails (it did not before every read was judged).",
    "fig11_range":
        "Synthetic2's load is calibrated to Fig. 11's 120 % (`ldpc_load_001.py`); "
        "Postmark's 25 % is out of reach of its stand-in at any load (87 % at 200/s, 52 % "
        "at 60,000/s): its reads and writes are not PostMark's.",
    "fig12_look_ahead":
        "Look-ahead saves the hard transfer + decode (28.5 µs) of the failed reads only, and "
        "only when the die is idle; the saving depends on the load.",
    "fig13_progressive":
        "With nandlab's code one extra level decodes almost every hard failure, so "
        "progressive sensing saves nearly all of the soft sensing and transfer; with the "
        "paper-shaped code a fifth of them need more levels.",
    "fig14_combined":
        "Look-ahead with progressive senses one level ahead; it adds little where "
        "progressive reads stop at level 1.",
    "fig15_4way_vs_2way":
        "4-way moves a quarter of each codeword per channel and fails hard less, but holds "
        "four dies per read and rewrites more of each group on partial writes.",
    "fig17_parallelism":
        "With 2 channels a 4-way group has two parts on each channel, so its quarters "
        "queue on the bus, and the device has a quarter of the dies for the same load; "
        "the busier the trace, the more the saving shrinks.",
    "headline_baseline":
        "The worst case is the trace whose load is calibrated to Fig. 11's 120 % "
        "(Synthetic2); so this is close to an input.",
    "headline_all":
        "All = look-ahead + progressive + 4-way interleaving; an interleaved read of part "
        "of a group holds four dies, and a write to part of a group reads and reprograms "
        "the rest of it, costs the paper's DiskSim runs may not charge.",
    "energy_look_ahead":
        "nandlab charges a cancelled look-ahead all six levels' sensing (0.7 µJ each) and "
        "counts on-chip sensing energy only; the paper's accounting of its 102.9 % is not "
        "given.",
    "energy_progressive":
        "The extra decodes are P_hd-fail × (1 + P_sd(1) + P_sd(1)P_sd(2) + …): with "
        "nandlab's code level 1 rarely fails, so the overhead is close to P_hd-fail.",
    "energy_both":
        "Measured against reads that sense hard and decode once (the paper does not say "
        "its reference); look-ahead with progressive reads senses one level ahead, not "
        "six, so its sensing overhead is small.",
    "fig3_soft_gain":
        "Model check of the FER table (no SSD run): nandlab's 1e-15 points are "
        "extrapolated by its tail model; the paper-shaped code's levels each tolerate the "
        "same factor more, so six give g^6 = 2.37×.",
    "fig3_hard_vs_bch":
        "Model check: BCH's binomial tail at t = 256 against the table's hard curve.",
    "fig10_p_sd1":
        "Model check over the preset's chips and blocks: nandlab's level 1 almost never "
        "fails where its hard decode does (a different code from the paper's).",
    "bake_recovery": "",
    "bake_retention": "Arithmetic of Eq. 6.",
}


def _mean(xs: Any) -> float:
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return statistics.fmean(xs) if xs else math.nan


def delay_ratio(norm: dict[str, float]) -> float:
    """Fig. 5's delay at P_hd-fail 30 % over that at 10 % (read times normalised to no
    soft sensing)."""
    d10 = norm["p_hd=10%"] - 1
    return (norm["p_hd=30%"] - 1) / d10 if d10 else math.nan


def seed_values(m: dict[str, Any], workloads: list[str], channels: list[int]
                ) -> dict[str, tuple[float, dict[str, float]]]:
    """Each simulated claim's value on one seed's runs (``m`` from ``metrics``): (the
    value, its value per workload)."""
    nn, nb, pct = m["read_vs_no_soft"], m["read_vs_baseline"], 100.0

    def per(f: Any) -> dict[str, float]:
        return {w: f(w) for w in workloads}

    def mean_of(d: dict[str, float]) -> tuple[float, dict[str, float]]:
        return _mean(d.values()), d

    def max_of(d: dict[str, float]) -> tuple[float, dict[str, float]]:
        xs = [x for x in d.values() if not math.isnan(x)]
        return (max(xs) if xs else math.nan), d

    par = m["all_vs_baseline_by_channels"]
    e = m["energy"]
    la = per(lambda w: pct * (nb[w]["look-ahead"] - 1))
    pr = per(lambda w: pct * (nb[w]["progressive"] - 1))
    co = per(lambda w: pct * (nb[w]["combined"] - 1))
    # Fig. 5 per page: each page read's own time (a multi-page request waits for its
    # slowest page, which saturates the delay).
    pg = m["page_read_vs_no_soft"]
    d30 = _mean(pg[w]["p_hd=30%"] - 1 for w in workloads)
    d10 = _mean(pg[w]["p_hd=10%"] - 1 for w in workloads)
    return {
        "fig5_proportional": (d30 / d10 if d10 else math.nan, per(lambda w: delay_ratio(pg[w]))),
        "fig5_write": max_of(per(lambda w: pct * (m["write_ratio_at_30"][w] - 1))),
        "fig11_range": max_of(per(lambda w: pct * (nn[w]["baseline"] - 1))),
        "fig12_look_ahead": mean_of(la),
        "fig13_progressive": mean_of(pr),
        "fig14_combined": mean_of(per(lambda w: co[w] - min(la[w], pr[w]))),
        "fig15_4way_vs_2way": max_of(per(lambda w: pct * (nb[w]["4-way"] - nb[w]["2-way"]))),
        "fig17_parallelism": max_of(per(
            lambda w: pct * (par[channels[-1]][w] - par[channels[0]][w])
            if len(channels) > 1 else math.nan)),
        "headline_baseline": max_of(per(lambda w: pct * (nn[w]["baseline"] - 1))),
        "headline_all": max_of(per(lambda w: pct * (nn[w]["combined+4-way"] - 1))),
        "energy_look_ahead": mean_of({w: pct * x["look_ahead_sense"] for w, x in e.items()}),
        "energy_progressive": mean_of({w: pct * x["progressive_decode"]
                                       for w, x in e.items()}),
        "energy_both": mean_of({w: pct * x["both_sense_decode"] for w, x in e.items()}),
    }


def _measured(key: str, per_seed: list[tuple[float, dict[str, float]]]) -> Measured:
    names = list(per_seed[0][1])
    if key in SPANS:
        return Measured.over({w: [ps[1].get(w, math.nan) for ps in per_seed] for w in names})
    pw = {w: _mean(ps[1].get(w, math.nan) for ps in per_seed) for w in names}
    return Measured.seeds([ps[0] for ps in per_seed], per_workload=pw)


def _model_value(key: str, mc: dict[str, Any], code: str) -> float:
    c = mc["codes"][code]
    return {"fig3_soft_gain": c["soft_gain"], "fig3_hard_vs_bch": c["hard_vs_bch"],
            "fig10_p_sd1": c["p_sd_fail"][0],
            "bake_recovery": mc["bake_minutes"]["recovery_eq5_T_cyc"],
            "bake_retention": mc["bake_minutes"]["retention_eq6"]}[key]


def claims(per_seed_metrics: list[dict[str, Any]], workloads: list[str],
           channels: list[int], mc: dict[str, Any], code: str = "nandlab") -> list[Claim]:
    """The claims under ``code`` (each seed's ``metrics`` of its runs); for the
    paper-shaped code only the code-dependent ones, keyed ``key@paper``."""
    per_seed = [seed_values(m, workloads, channels) for m in per_seed_metrics]
    bake = mc["bake_minutes"]
    why = {**WHY, "bake_recovery":
           f"Eq. 5 with the stated T_cyc = 25 °C gives {bake['recovery_eq5_T_cyc']:.2f} "
           f"min; the paper's 11 min is Eq. 5 with T_opt = 40 °C in its place "
           f"({bake['recovery_at_T_opt']:.2f} min)."}
    out: list[Claim] = []
    for key, (label, paper, where) in paper_001.CLAIMS.items():
        if code != "nandlab" and key not in CODE_DEPENDENT:
            continue
        k, lab = ((key, label) if code == "nandlab"
                  else (f"{key}@{code}", f"{label} — {code}-shaped code"))
        unit = UNIT.get(key, "%")
        if key in STATED_INPUTS:
            out.append(Claim.input(k, lab, where, paper, mc["stated_timing"][key], unit=unit,
                                   source=STATED_INPUTS[key]))
        elif code == "paper" and key in PAPER_CODE_INPUTS:
            value = (_model_value(key, mc, code) if key in MODEL_CHECKS
                     else _measured(key, [ps[key] for ps in per_seed]).mean)
            out.append(Claim.input(k, lab, where, paper, value, unit=unit, source=(
                "`ecc.curve_path = \"builtin:001-paper\"`: " + PAPER_CODE_INPUTS[key])))
        elif key in MODEL_CHECKS:
            unreachable = (Unreachable((bake["recovery_eq5_T_cyc"],) * 2, why[key])
                           if key == "bake_recovery" else None)
            out.append(Claim.model_check(k, lab, where, paper, _model_value(key, mc, code),
                                         why=why[key], margin=MARGIN[key], unit=unit,
                                         unreachable=unreachable))
        else:
            out.append(Claim.simulated(k, lab, where, paper,
                                       _measured(key, [ps[key] for ps in per_seed]),
                                       runs=["runs"], why=why[key], margin=MARGIN[key],
                                       unit=unit))
    return out
