"""BADR (seed 003): the report's figures and body — the count of issue 30's twelve
comparisons against 003's sign, the runs, BADR's change per workload, Fig. 2 and what DR's
and Baseline's reads met."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..io import atomic_path
from . import paper_003
from .badr_runs import POLICIES, SIGN, Runs, by_workload, seed_mean
from .claims import Claim, change_pct

if TYPE_CHECKING:
    from .badr import Settings

#: Issue 30's twelve comparisons, each with 003's sign (-1: BADR, or DR, below its
#: counterpart): BADR against Baseline, RL and DR on read latency, RBER and page moves
#: (§IV-B, Figs. 4–6: 003's nine averages), DR against Baseline at U1 and at each of U3–U6
#: (§II-B, Fig. 2) and BADR's RBER gain growing from U1 to U6 (§IV-B2, Fig. 5). RL's three
#: count here although they are not judged (its paper could not be retrieved).
COMPARISONS: tuple[tuple[str, int], ...] = (
    *((f"{m}_vs_{o}", -1 if v.startswith("-") else 1)
      for (m, o), v in paper_003.CHANGES.items()),
    ("fig2_dr_u1", -1), ("fig2_dr_u3_u6", 1), ("fig5_gain_grows", 1),
)


@dataclass(frozen=True)
class SignRow:
    key: str
    label: str
    #: 003's sign: -1 below, +1 above.
    sign: int
    #: nandlab's value(s): the mean over seeds (for U3–U6, each wear level's).
    values: dict[str, float]
    #: Every value beyond ``SIGN`` in 003's direction.
    agrees: bool


def paper_signs(claims: list[Claim]) -> list[SignRow]:
    """The twelve comparisons (:data:`COMPARISONS`) against 003's sign: nandlab's mean over
    the seeds (a comparison over U3–U6: each wear level's mean) beyond :data:`SIGN` in the
    paper's direction — a point count beside the verdicts, which judge intervals."""
    by = {c.key: c for c in claims}
    rows = []
    for key, sign in COMPARISONS:
        c = by[key]
        m = c.measured
        assert m is not None, key  # simulated claims and extensions carry their values
        vals = dict(m.per_workload) if m.shape == "span" else {"": m.mean}
        ok = bool(vals) and all(not math.isnan(v) and v * sign > SIGN for v in vals.values())
        rows.append(SignRow(key, c.label.split("; 003")[0], sign, vals, ok))
    return rows


def signs_md(rows: list[SignRow]) -> list[str]:
    """The count line and one row per comparison."""
    n = sum(r.agrees for r in rows)
    lines = [f"## Issue 30's {len(rows)} comparisons against 003's sign\n",
             f"**{n} of {len(rows)}** have 003's sign: nandlab's mean over the seeds beyond "
             f"{SIGN} (% or pp) in the paper's direction (over U3–U6: at every wear level). RL's "
             "three are counted though not judged. The verdicts above judge the seeds' "
             "intervals against 003's values; this counts directions only.\n",
             "| comparison | 003's sign | nandlab (mean over seeds) | same sign |",
             "|---|---|---|---|"]
    for r in rows:
        vals = ", ".join(f"{k} {v:+.2f}".strip() for k, v in r.values.items())
        lines.append(f"| {r.label} | {'below' if r.sign < 0 else 'above'} | {vals} | "
                     f"{'yes' if r.agrees else '**no**'} |")
    return lines + [""]


def _savefig(fig: Any, path: Path) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110, bbox_inches="tight")


def figures(out: Path, runs: dict, fig2: dict, s: Settings) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    fig, ax = plt.subplots(figsize=(6, 3.2))
    wear = [u for u in s.fig2_wear if (u, "baseline") in fig2]
    for i, p in enumerate(("baseline", "dr")):
        ax.bar([j + (i - 0.5) * 0.4 for j in range(len(wear))],
               [fig2[(u, p)] for u in wear], 0.4, label=p)
    ax.set_xticks(range(len(wear)), wear)
    ax.set_ylabel("mean page RBER")
    ax.legend()
    fig.tight_layout()
    _savefig(fig, out / "fig2_rber_baseline_vs_dr.png")
    plt.close(fig)
    written.append("fig2_rber_baseline_vs_dr.png")
    names = {"read_latency": ("fig4_read_latency.png", "mean read latency (µs)", 1e-3),
             "rber": ("fig5_rber.png", "mean page RBER", 1.0),
             "page_moves": ("fig6_page_moves.png", "refresh page moves", 1.0)}
    workloads = sorted({w for (w, _, _) in runs})
    for metric, (name, ylabel, scale) in names.items():
        fig, axes = plt.subplots(1, len(s.wear), figsize=(4 * len(s.wear), 3.2), squeeze=False)
        for ax, u in zip(axes[0], s.wear, strict=True):
            for i, p in enumerate(POLICIES):
                ax.bar([j + (i - 1.5) * 0.2 for j in range(len(workloads))],
                       [runs[(w, u, p)][metric] * scale for w in workloads], 0.2, label=p)
            ax.set_xticks(range(len(workloads)), workloads)
            ax.set_title(u)
        axes[0][0].set_ylabel(ylabel)
        axes[0][0].legend(fontsize=8)
        fig.tight_layout()
        _savefig(fig, out / name)
        plt.close(fig)
        written.append(name)
    return written


def changes_md(by_seed: dict[int, Runs]) -> list[str]:
    """BADR's change against each counterpart per workload (over the wear levels): the
    mean over seeds, the median and the range [lowest, highest] of the seeds' values."""
    lines = ["## BADR's change per workload (%, over U1, U4, U6): mean, median [range] "
             "over seeds\n", "| metric | against | workload | mean | median | range |",
             "|---|---|---|---:|---:|---|"]
    for metric, other in paper_003.CHANGES:
        per_seed = [by_workload(r, metric, "badr", other) for r in by_seed.values()]
        for w in sorted(per_seed[0]):
            xs = [x[w] for x in per_seed if not math.isnan(x[w])]
            if not xs:
                continue
            lines.append(f"| {metric} | {other} | {w} | {sum(xs) / len(xs):+.2f} | "
                         f"{statistics.median(xs):+.2f} | [{min(xs):+.2f}, {max(xs):+.2f}] |")
    return lines + [""]


def _num(x: float) -> str:
    """A whole number, or a dash where the runs lack it (a store from an older core)."""
    return "—" if math.isnan(x) else f"{x:.0f}"


def _differs(dr: dict[str, float], base: dict[str, float]) -> str:
    """What DR's host reads met that Baseline's did not: their blocks' mean P/E and reads
    since erase (read-weighted), or a dash where the runs lack them."""
    dpe, drd = dr["read_pe"] - base["read_pe"], change_pct(dr["read_reads"], base["read_reads"])
    if math.isnan(dpe) or math.isnan(drd):
        return "—"
    wear = (f"{abs(dpe):.0f} P/E {'more' if dpe > 0 else 'less'} worn" if abs(dpe) >= 1
            else "as worn")
    reads = (f"read {abs(drd):.1f} % {'more' if drd > 0 else 'less'} since erase"
             if abs(drd) >= SIGN else "as often read")
    return f"{wear}, {reads}"


def dr_vs_baseline_md(runs: Runs, fig2_runs: Runs) -> list[str]:
    """Issue 30's done-means orderings as computed lines, and per workload and wear what
    DR's reads met against Baseline's (the cause a reader can check): RBER, the read
    blocks' mean P/E and reads since erase, refreshes."""
    work = sorted({w for (w, _, _) in runs})
    wear = sorted({u for (_, u, _) in runs})

    def rber(w: str, u: str, p: str) -> float:
        return runs[(w, u, p)]["rber"]

    lines = ["## DR against Baseline per workload: what their reads met\n"]
    if "U6" in wear:
        above = [w for w in work if change_pct(rber(w, "U6", "dr"), rber(w, "U6", "baseline"))
                 > SIGN]
        lowest = [w for w in work
                  if min((rber(w, "U6", p), p) for p in POLICIES)[1] == "badr"]
        lines.append(f"- Under U6, DR's RBER above Baseline's (by more than {SIGN} %) on "
                     f"{len(above)} of {len(work)} workloads ({', '.join(above) or 'none'}); "
                     f"BADR's the lowest of the four on {len(lowest)} of {len(work)} "
                     f"({', '.join(lowest) or 'none'}).")
    if "U1" in wear:
        at = [w for w in work if change_pct(rber(w, "U1", "dr"), rber(w, "U1", "baseline"))
              <= SIGN]
        lines.append(f"- Under U1, DR's RBER at or below Baseline's (within +{SIGN} %) on "
                     f"{len(at)} of {len(work)} ({', '.join(at) or 'none'}).")
    lines += ["", "Means over the seeds. The error model's RBER of a read grows with its "
              "block's P/E and its reads since erase; the columns give both, read-weighted "
              "over the host page reads (`flash.host_read_blocks`), for Baseline / DR, and "
              "the refreshes (blocks refreshed) each made. 003 says only that DR lets "
              "blocks of different P/E bear the same reads (§II-B); nandlab opens DR's "
              "destinations and Baseline's new block by the same rule (in turn, any wear), "
              "so a difference in P/E here is where the hot pages happened to land.\n",
              "| workload | wear | RBER DR vs Baseline | read blocks' P/E | reads since "
              "erase at a read | refreshes | DR's reads met |",
              "|---|---|---:|---:|---:|---:|---|"]
    rows = [(w, u, runs) for w in work for u in wear]
    rows += [(f"{w} (Fig. 2)", u, fig2_runs) for (w, u, p) in sorted(fig2_runs)
             if p == "baseline"]
    def pair(b: float, d: float) -> str:
        return f"{_num(b)} / {_num(d)}"

    for name, u, src in rows:
        w = name.split(" ")[0]
        b, d = src[(w, u, "baseline")], src[(w, u, "dr")]
        lines.append(
            f"| {name} | {u} | {change_pct(d['rber'], b['rber']):+.2f} % | "
            f"{pair(b['read_pe'], d['read_pe'])} | {pair(b['read_reads'], d['read_reads'])} | "
            f"{pair(b['refreshes'], d['refreshes'])} | {_differs(d, b)} |")
    return lines + [""]


def _met(dr: dict[str, float], base: dict[str, float]) -> tuple[bool, bool, bool, bool]:
    """Whether DR's host reads met blocks more worn, more read since erase, less worn, less
    read than Baseline's (read-weighted P/E by 1 or more, reads by more than ``SIGN`` %)."""
    dpe = dr["read_pe"] - base["read_pe"]
    drd = change_pct(dr["read_reads"], base["read_reads"])
    return dpe >= 1, drd > SIGN, dpe <= -1, drd < -SIGN


def pair_causes_md(by_seed: dict[int, Runs]) -> list[str]:
    """Per wear level, over the (workload, seed) pairs: where DR's RBER is above Baseline's,
    whether its reads met more-worn blocks or blocks read more since erase (the error
    model's two inputs); where it is not, whether they met less-worn or less-read ones. A
    difference with neither has no cause in what the reads met. Empty for runs without the
    read blocks' means (a store from an older core)."""
    wear = sorted({u for runs in by_seed.values() for (_, u, _) in runs})
    lines = []
    for u in wear:
        above: dict[str, list[str]] = {"worn": [], "read": [], "neither": []}
        below: dict[str, list[str]] = {"fewer": [], "neither": []}
        for seed, runs in by_seed.items():
            for w in sorted({w for (w, uu, _) in runs if uu == u}):
                b, d = runs.get((w, u, "baseline")), runs.get((w, u, "dr"))
                if b is None or d is None or any(
                        math.isnan(x) for x in (b["read_pe"], d["read_pe"], b["read_reads"],
                                                d["read_reads"])):
                    continue
                worn, read, less_worn, less_read = _met(d, b)
                name = f"{w} {seed}"
                if change_pct(d["rber"], b["rber"]) > SIGN:
                    key = "worn" if worn else "read" if read else "neither"
                    above[key].append(name)
                else:
                    below["fewer" if less_worn or less_read else "neither"].append(name)
        n_above, n_below = sum(map(len, above.values())), sum(map(len, below.values()))
        if not n_above + n_below:
            continue

        def names(xs: list[str]) -> str:
            return f" ({', '.join(xs)})" if xs else ""

        lines.append(
            f"- {u}: DR above Baseline (by more than {SIGN} %) in {n_above} of "
            f"{n_above + n_below} (workload, seed) pairs — its reads on more-worn blocks in "
            f"{len(above['worn'])}{names(above['worn'])}, otherwise on blocks read more since "
            f"erase in {len(above['read'])}{names(above['read'])}, neither in "
            f"{len(above['neither'])}{names(above['neither'])}; at or below in {n_below} — "
            f"its reads on less-worn or less-read blocks in {len(below['fewer'])}, neither "
            f"in {len(below['neither'])}{names(below['neither'])}.")
    if not lines:
        return []
    return ["Per (workload, seed) pair, what DR's reads met where its RBER is above "
            "Baseline's (more worn: read-weighted P/E higher by 1 or more; more read: reads "
            f"since erase higher by more than {SIGN} %):\n", *lines, ""]


def body_md(by_seed: dict[int, Runs], fig2: dict, s: Settings, fig2_runs: Runs,
            claims: list[Claim]) -> str:
    runs = seed_mean(by_seed)
    lines = signs_md(paper_signs(claims))
    lines += [f"## Runs (Figs. 4–6), means over seeds {', '.join(map(str, s.seeds))}\n",
             "Read latency: mean, median and maximum per run; the mean split into LDPC "
             "retries (mean decoding level × 24 µs) and queueing and transfer (the rest above "
             "the 85 µs sensing). Refreshes: blocks refreshed. P/E and reads since erase: "
             "of the block each host page read sensed, read-weighted (what the reads met; the "
             "error model's RBER grows with both).\n",
             "| workload | wear | policy | mean read (µs) | median (µs) | max (ms) | "
             "LDPC retries (µs) | queueing (µs) | RBER | refresh page moves | refreshes | "
             "P/E at a read | reads since erase at a read |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for (w, u, p), v in sorted(runs.items()):
        lines.append(f"| {w} | {u} | {p} | {v['read_latency'] / 1e3:.1f} | "
                     f"{v['read_p50'] / 1e3:.1f} | {v['read_max'] / 1e6:.2f} | "
                     f"{v['retry_ns'] / 1e3:.1f} | {v['queue_ns'] / 1e3:.1f} | "
                     f"{v['rber']:.4e} | {v['page_moves']:.0f} | {v['refreshes']:.0f} | "
                     f"{_num(v['read_pe'])} | {_num(v['read_reads'])} |")
    lines += [""] + changes_md(by_seed)
    idle = sorted({w for (w, _, _), v in runs.items()}
                  - {w for (w, _, _), v in runs.items() if v["page_moves"] > 0})
    if idle:
        lines += ["", f"No block reached the refresh threshold in {', '.join(idle)}: every "
                  "policy ran the same there: those runs count as no change in the read "
                  "latency and RBER means and are left out of the page-move means (0 of 0)."]
    lines += ["", f"## Fig. 2: mean page RBER, workload {s.fig2_workload}\n",
              "| wear | Baseline | DR | DR vs Baseline |", "|---|---:|---:|---:|"]
    for u in s.fig2_wear:
        if (u, "baseline") in fig2:
            b, d = fig2[(u, "baseline")], fig2[(u, "dr")]
            lines.append(f"| {u} | {b:.4e} | {d:.4e} | {change_pct(d, b):+.2f} % |")
    lines += [""] + dr_vs_baseline_md(runs, fig2_runs) + pair_causes_md(by_seed)
    lines += ["Not reproduced: §IV-B4's bookkeeping time on an ARM Cortex-A7 (host CPU "
              "time, not simulated). Policies and the choices where 003 is vague: "
              "docs/read_refresh.md.", ""]
    return "\n".join(lines)


def config_md(s: Settings) -> str:
    device = ", ".join(f"`{k} = {v}`" for k, v in s.device.items()) or "as the preset"
    return (
        f"Preset `configs/003_badr.toml`; device {device}; workloads "
        f"{', '.join(s.workloads)}; prediction window {s.window_requests} requests; "
        f"seeds {', '.join(map(str, s.seeds))} (each claim: one value per seed).\n\n"
    )
