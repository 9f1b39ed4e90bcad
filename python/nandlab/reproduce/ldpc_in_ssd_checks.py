"""Seed 001's claims that need no SSD run (model checks of its code, timing and bake
formula) and the two analyses beside the runs: which results depend on the LDPC code,
and what 4-way interleaving's read gain is made of. Used by :mod:`.ldpc_in_ssd`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .. import _native
from . import paper_fer_001

#: The two operating points: nandlab's measured code and the paper-shaped one (their
#: tables are read from the core, which has them built in, so an installed package works).
CODES = {"nandlab": "", "paper": "builtin:001-paper"}
#: 001 §2.2: the target decoding failure probability of Fig. 3's comparison.
TARGET_FER = 1e-15
#: 001 §2.2: 4 KB + 512 B codeword; BCH over GF(2^16) (n = 36,864 bits < 2^16) corrects
#: 4096 parity bits / 16 = 256 errors.
N_BITS, BCH_T = 36_864, 256
#: Eq. 5-6 (§4.1): E_A, Boltzmann's constant, A, and the paper's temperatures and times.
E_A_EV, K_EV = 1.1, 8.617_333e-5
A_RC, T_CYC_DAYS, T_RT_DAYS = 0.022, 400.0, 30.0
T_CYC_C, T_OPT_C, T_BAKE_C = 25.0, 40.0, 105.0


def curves(code: str) -> dict[int, list[tuple[float, float]]]:
    """Level -> sorted (RBER, FER) points of a code's table."""
    import csv

    text = _native.core().fer_table(CODES[code])
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    out: dict[int, list[tuple[float, float]]] = {}
    for r in csv.DictReader(lines):
        out.setdefault(int(r["level"]), []).append((float(r["rber"]), float(r["fer"])))
    return {k: sorted(v) for k, v in out.items()}


def rber_at(curve: list[tuple[float, float]], target: float) -> float:
    """The RBER at which a (non-decreasing) FER curve reaches ``target`` (bisection in
    log RBER on the core's interpolation)."""
    lo, hi = math.log(1e-4), math.log(0.05)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if paper_fer_001.fer(curve, math.exp(mid)) < target else (lo, mid)
    return math.exp((lo + hi) / 2)


def bch_rber_at(target: float) -> float:
    core = _native.core()
    lo, hi = math.log(1e-5), math.log(0.05)
    for _ in range(200):
        mid = (lo + hi) / 2
        f = core.bch_page_fail(BCH_T, N_BITS, 1, math.exp(mid))
        lo, hi = (mid, hi) if f < target else (lo, mid)
    return math.exp((lo + hi) / 2)


def bake_minutes(t_days: float, t_from_c: float, t_bake_c: float, a: float = 1.0) -> float:
    """Eq. 5/6: a · t · exp(E_A/k · (1/T_bake − 1/T_from)), in minutes."""
    kelvin = 273.15
    return a * t_days * 1440 * math.exp(
        E_A_EV / K_EV * (1 / (t_bake_c + kelvin) - 1 / (t_from_c + kelvin)))


def stated_timing(preset: Path) -> dict[str, Any]:
    """§2.2's sensing and soft-transfer times as the preset configures them (µs): seven
    levels on a lower and an upper page, and ``soft_xfer_bytes`` over the bus."""
    import tomllib

    cfg = tomllib.loads(preset.read_text())
    t, e = cfg["timing"], cfg["ecc"]
    extra = e["max_extra_levels"] * t["extra_sense_latency_ns"]
    return {"sense_seven_levels": tuple((r + extra) / 1e3 for r in t["read_latency_ns"]),
            "soft_transfer": e["soft_xfer_bytes"] / t["bus_rate_mb_s"]}


def model_checks() -> dict[str, Any]:
    """Fig. 3's soft gain and hard LDPC vs BCH (per code), Fig. 10's level-by-level
    trade-off at the device's operating point (per code), the bake times of Eq. 5-6."""
    blocks = paper_fer_001.device_blocks()
    out: dict[str, Any] = {"codes": {}}
    bch = bch_rber_at(TARGET_FER)
    for code in CODES:
        c = curves(code)
        hard, soft = rber_at(c[0], TARGET_FER), rber_at(c[6], TARGET_FER)
        # F_L over the device: the share of reads that fail with L extra levels.
        f = [sum(w * paper_fer_001.fer(c[lvl], r) for r, w in blocks) for lvl in range(7)]
        out["codes"][code] = {
            "rber_at_1e-15": {"bch": bch, "hard": hard, "soft6": soft},
            "soft_gain": soft / hard, "hard_vs_bch": hard / bch,
            "device_fail_by_level": f,
            "p_sd_fail": [f[i] / f[i - 1] if f[i - 1] > 0 else math.nan for i in range(1, 7)],
        }
    out["bake_minutes"] = {
        "recovery_eq5_T_cyc": bake_minutes(T_CYC_DAYS, T_CYC_C, T_BAKE_C, A_RC),
        "recovery_at_T_opt": bake_minutes(T_CYC_DAYS, T_OPT_C, T_BAKE_C, A_RC),
        "retention_eq6": bake_minutes(T_RT_DAYS, T_OPT_C, T_BAKE_C),
    }
    return out


def interleave_split(nb: dict[str, dict[str, float]], workloads: list[str]) -> dict[str, Any]:
    """4-way's read time over the baseline's, split: the P_hd-fail part is a plain
    (1-way) run whose codewords have the 4-way codeword's RBER distribution
    (``4-way-rber``); the rest (4-way over that run) is the transfer split over four
    channels and the dies it holds."""
    out = {}
    for w in workloads:
        total, rber_only = nb[w].get("4-way", math.nan) - 1, nb[w].get("4-way-rber", math.nan) - 1
        out[w] = {"total": total, "p_hd_part": rber_only, "transfer_part": total - rber_only}
    return out


def gain_share(split: dict[str, Any]) -> float:
    """The transfer part's share of 4-way's read gain, over the workloads' summed gains."""
    tot = sum(v["total"] for v in split.values() if not math.isnan(v["total"]))
    xfer = sum(v["transfer_part"] for v in split.values() if not math.isnan(v["transfer_part"]))
    return xfer / tot if tot else math.nan


def _fmt(x: tuple[float, float], unit: str) -> str:
    lo, hi = x
    if math.isnan(lo):
        return "—"
    v = f"{lo:.3g}" if lo == hi else f"{lo:.3g} … {hi:.3g}"
    return f"{v} {unit}".strip()


def codes_md(nandlab: list[Any], paper: list[Any]) -> str:
    """The code-dependent claims under both codes, and whether the verdict depends on it."""
    by_key = {c.key.split("@")[0]: c for c in paper}
    rows = ["\n## Two operating points: which results depend on the code\n",
            "The runs whose reads step through soft levels 1–5 (progressive, both, all "
            "techniques) ran with both codes: nandlab's measured rate-8/9 code "
            "(`ldpc_fer.csv`) and the paper-shaped one (`builtin:001-paper`: the same hard "
            "curve, so the same P_hd-fail; soft levels built from §5.5's numbers, "
            "P_sd-fail(1) ≈ 0.21). Every other claim's runs are the same for both.\n",
            "| claim | nandlab's code | paper-shaped code | verdicts |", "|---|---|---|---|"]
    for c in nandlab:
        p = by_key.get(c.key)
        if p is None:
            continue
        same = "same" if p.verdict == c.verdict else "depend on the code"
        rows.append(f"| {c.label} | {_fmt(c.nandlab, c.unit)} ({c.verdict or c.kind}) | "
                    f"{_fmt(p.nandlab, p.unit)} ({p.verdict or p.kind}) | {same} |")
    return "\n".join(rows) + "\n"


def split_md(split: dict[str, Any], share: float) -> str:
    rows = ["\n## 4-way interleaving's read gain, split\n",
            "Read time over the baseline's, minus 1. *P_hd-fail part*: a plain device whose "
            "codewords have the 4-way codeword's RBER distribution (`4-way-rber`: one chip "
            "factor 1.0, σ(ln) 0.040, the mean of four chips' factors); *transfer part*: "
            "4-way over that run (a quarter of each codeword per channel, n dies held, "
            "group rewrites). Share of the summed gain from the transfer part: "
            f"{100 * share:.0f} %.\n",
            "| workload | 4-way | P_hd-fail part | transfer part |", "|---|---|---|---|"]
    for w, v in split.items():
        rows.append(f"| {w} | {100 * v['total']:+.1f} % | {100 * v['p_hd_part']:+.1f} % | "
                    f"{100 * v['transfer_part']:+.1f} % |")
    return "\n".join(rows) + "\n"


def inputs_md() -> str:
    """The paper's numbers nandlab is configured with (inputs, not results)."""
    return (
        "\n## Inputs (configured from the paper, not reproduced)\n\n"
        "| paper | value | in nandlab |\n|---|---|---|\n"
        "| §5 P_hd-fail at 10k P/E | 28.8 % | device mean RBER calibrated under the hard "
        "curve (the same for both codes) |\n"
        "| §5.5 progressive decode energy | +35.2 % | builds the paper-shaped code's soft "
        "levels (so `energy_progressive@paper` is an input) |\n")
