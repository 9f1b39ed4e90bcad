"""BitFlip's write latency through the cells' states (part of ``nandlab reproduce bitflip``).

Seed 000 charges every page 660 µs whatever it holds, so its write-latency increase
(Fig. 15) is the encoder's alone. Seed 002 §4 measures program times that follow the cell
states (``[timing.pe_time] model = "content"``, docs/reliability.md): flipping an
error-prone unit turns its '00' and '01' cells into '11' and '10', which program faster
(002 Fig. 8: 380 vs 539.6 µs on 002's MSB page, 919 vs 1,082 µs for '11' on its LSB
page). These runs replay the stand-ins' write flows alone (000 §IV-D: "we extract the
write operations from the eight selected traces") on the read runs' file types, with 000's
one time per page (rule "fixed": Fig. 15) and with that model on under both ways of
composing a page's time from its cells (the slowest state decides, 002 §5.3; or the
share-weighted mean), and report the change of the mean program time (the states alone)
and of the mean write latency (states, encoder and queueing), BitFlip against the
baseline.

002's table is used as it is: 000 gives one time for every page and state, and 002's chip
is the only one with published per-state times. The changes are relative, so its
absolute times (a random page 810.8 µs on average under ``slowest``, not 660 µs) matter
only through the queueing they cause.
"""

from __future__ import annotations

import io
import json
import math
from typing import Any

import polars as pl

from .framework import column

#: The two composition rules of ``timing.pe_time.compose``, the headline first.
COMPOSE = ("slowest", "mean")

#: The write runs' program-time rules (tag ``program``) and what each sets beyond the read
#: runs' overrides: "fixed" is 000's one time for every page (Table III, 660 µs: Fig. 15);
#: the others the content model with its default rows (002 Fig. 8), whose type 0 row is
#: 002's first-programmed "MSB page", the page the 000 preset's `interleaved` map also
#: programs first (docs/reliability.md, "Page-type names"), under each composition rule.
RULES: dict[str, dict[str, Any]] = {
    "fixed": {},
    **{rule: {"timing.pe_time.model": "content", "timing.pe_time.compose": rule}
       for rule in COMPOSE},
}


def grid() -> dict[str, list[Any]]:
    """The write runs' grid (the rules are cases): codec."""
    return {"codec.kind": ["none", "bitflip"]}


def mean_program_ns(by_type: list[float | None] | str, programs: list[int]) -> float:
    """Mean program time per program over the page types (``pe_time`` section; a list
    holding a null reaches the results table as its JSON text)."""
    if isinstance(by_type, str):
        by_type = json.loads(by_type)
    n = sum(programs)
    if n == 0:
        return math.nan
    return sum((t or 0.0) * k for t, k in zip(by_type, programs, strict=True)) / n


def rows(table: pl.DataFrame) -> list[dict[str, Any]]:
    """One row per write run: workload, type, codec, rule, mean write latency and mean
    program time (ns), and the encoder's time per page (0 for the baseline)."""
    names = ("workload", "seed", "type", "config.codec.kind", "program")
    col = {n: column(table, n) for n in names}
    # The fixed rule's runs report no `pe_time` section (their times are the config's).
    for n in ("pe_time.program_ns_mean_by_page_type", "pe_time.programs_by_page_type"):
        col[n] = (column(table, n, optional=True) if n in table.columns
                  else [None] * table.height)
    col["write.mean_ns"] = column(table, "write.mean_ns", optional=True)  # none: no writes
    enc = (column(table, "codec.encode_ns_per_page", optional=True)
           if "codec.encode_ns_per_page" in table.columns else [None] * table.height)
    return [
        {
            "workload": col["workload"][i],
            "seed": col["seed"][i],
            "type": col["type"][i],
            "codec": col["config.codec.kind"][i],
            "program": col["program"][i],
            "write_mean_ns": col["write.mean_ns"][i],
            "program_mean_ns": (
                math.nan if col["pe_time.programs_by_page_type"][i] is None
                else mean_program_ns(col["pe_time.program_ns_mean_by_page_type"][i],
                                     list(col["pe_time.programs_by_page_type"][i]))),
            "encode_ns_per_page": enc[i] or 0,
        }
        for i in range(table.height)
    ]


def _change(sel: list[dict[str, Any]], key: str) -> float:
    """BitFlip / baseline − 1 of ``key`` (one baseline and one BitFlip row)."""
    base = next(r[key] for r in sel if r["codec"] == "none")
    bf = next(r[key] for r in sel if r["codec"] == "bitflip")
    return bf / base - 1.0


def _mean(xs: list[float]) -> float:
    xs = [x for x in xs if not math.isnan(x)]
    return sum(xs) / len(xs) if xs else math.nan


def metrics(runs: list[dict[str, Any]], paper_workloads: list[str]) -> dict[str, Any]:
    """Per rule: per workload and per type, the program-time and write-latency changes
    (means over the other of the two), the encoder's share of the baseline write, and the
    range of the write-latency change over the paper's traces (percent)."""
    out: dict[str, Any] = {}
    for rule in RULES:
        sub = [r for r in runs if r["program"] == rule and r["write_mean_ns"]]
        pairs = {}
        for r in sub:
            pairs.setdefault((r["workload"], r["type"], r["seed"]), []).append(r)
        per = {
            k: {"program": _change(v, "program_mean_ns"), "write": _change(v, "write_mean_ns"),
                "encoder": (next(r["encode_ns_per_page"] for r in v if r["codec"] == "bitflip")
                            / next(r["write_mean_ns"] for r in v if r["codec"] == "none"))}
            for k, v in pairs.items() if len(v) == 2
        }

        def by(i: int, per: dict = per) -> dict[str, dict[str, float]]:
            names = list(dict.fromkeys(k[i] for k in per))
            return {n: {q: _mean([v[q] for k, v in per.items() if k[i] == n])
                        for q in ("program", "write", "encoder")} for n in names}

        wl = by(0)
        paper = [wl[w]["write"] * 100 for w in paper_workloads if w in wl]
        out[rule] = {"by_workload": wl, "by_type": by(1),
                     "range_pct": (min(paper), max(paper)) if paper else (math.nan, math.nan)}
    return out


def explain(m: dict[str, Any]) -> str:
    """Why the write-latency change with state-dependent program times differs from the
    paper's increase (the numbers are the runs')."""
    s, mean = m["slowest"], m["mean"]

    def span(rule: dict[str, Any], q: str) -> str:
        v = [x[q] * 100 for x in rule["by_workload"].values()]
        return f"{min(v):+.3f} … {max(v):+.3f} %"

    return (
        "000 charges 660 µs for every page, so its increase is the encoder's; with 002 §4's "
        "per-state program times flipping turns '00'/'01' cells into faster '11'/'10' ones: "
        f"the mean program time changes by {span(s, 'program')} over the traces when a "
        f"page takes its slowest cell's time ({span(mean, 'program')} if it took the mean "
        f"of its cells'), against an encoder of {span(s, 'encoder')} of the baseline's "
        "write; a 4 KiB page of real data nearly always keeps some slow cell, so under the "
        "slowest-cell rule only pages that lose every slow state (e.g. zero runs) speed up."
    )


def body_md(m: dict[str, Any], workloads: list[dict[str, Any]]) -> str:
    """The report's section on the write runs."""
    f = io.StringIO()
    w = f.write
    w("\n## Write latency through the cells' states (002 §4 program times)\n\n")
    w("The stand-ins' write flows alone (000 §IV-D) on the read runs' file types at the "
      "first swept RBER, with `timing.pe_time.model = \"content\"` (seed 002's per-state "
      "program times; "
      "`nandlab.reproduce.bitflip_writes`). Change = BitFlip / baseline − 1: of the mean "
      "program time (the states alone) and of the mean write latency (states, the "
      "encoder's 160 ns per page and queueing); encoder = its time over the baseline's "
      "mean write latency.\n\n")
    w("| workload | program, slowest | write, slowest | program, mean | write, mean | "
      "encoder |\n|---|---|---|---|---|---|\n")
    names = [wl["name"] for wl in workloads if wl["name"] in m["slowest"]["by_workload"]]
    for n in names:
        s, a = m["slowest"]["by_workload"][n], m["mean"]["by_workload"][n]
        w(f"| {n} | {s['program'] * 100:+.3f} % | {s['write'] * 100:+.3f} % | "
          f"{a['program'] * 100:+.3f} % | {a['write'] * 100:+.3f} % | "
          f"{s['encoder'] * 100:.4f} % |\n")
    w("\n| file type | program, slowest | program, mean |\n|---|---|---|\n")
    for t, s in m["slowest"]["by_type"].items():
        w(f"| {t} | {s['program'] * 100:+.3f} % | "
          f"{m['mean']['by_type'][t]['program'] * 100:+.3f} % |\n")
    w("\n")
    return f.getvalue()
