"""Techniques rated side by side (issue 37, item 5): the demo drive
(``configs/endurance/demo.toml``) rated for JESD218 enterprise with one technique changed
at a time, each as config overrides taken from a seed preset; writes the table into
docs/endurance.md between its ``endurance-compare`` markers (and prints it).

Usage: python benchmarks/endurance_compare.py [--check]   (--check: print only)
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import Any

from nandlab import endurance

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "configs" / "endurance" / "demo.toml"
DOC = ROOT / "docs" / "endurance.md"
BEGIN, END = "<!-- endurance-compare:begin -->", "<!-- endurance-compare:end -->"

#: (name, where the setting comes from, overrides on the demo drive).
VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    ("demo: LDPC curve (001), greedy GC, least-worn block opening, no static WL",
     "configs/endurance/demo.toml", {}),
    ("BCH t = 49 over 4 KiB instead of LDPC", "configs/002_tvr.toml [ecc]",
     {"ecc.scheme": "bch", "ecc.codeword_data_bytes": 4096, "ecc.codeword_parity_bytes": 98,
      "ecc.t": 49}),
    ("003's FTL: blocks opened in turn, static WL (threshold 4,000 P/E)",
     "configs/003_badr.toml [ftl]",
     {"ftl.block_opening": "in_turn", "ftl.wear_leveling.policy": "static",
      "ftl.wear_leveling.threshold_pe": 4000}),
    ("cost-benefit GC victims instead of greedy", "ftl.gc.victim",
     {"ftl.gc.victim": "cost_benefit"}),
]


def rate_all() -> list[dict[str, Any]]:
    rows = []
    for name, source, overrides in VARIANTS:
        t0 = time.process_time()
        r = endurance.rate(CONFIG, "enterprise", overrides=overrides, sensitivity=False)
        later = r.rows[1:] or r.rows
        waf = sum(x["write_amplification"] for x in later) / len(later)
        rows.append({
            "name": name, "source": source, "tbw": r.rated_tbw, "dwpd": r.dwpd,
            "limiting": r.limiting, "waf": waf, "pe_mean": r.rows[-1]["pe_mean"] if r.rows else 0.0,
            "cpu_s": time.process_time() - t0,
        })
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    base = rows[0]["tbw"]
    lines = [
        "| technique | setting from | rated TBW | DWPD (5 y) | vs demo | limited by | WAF "
        "| P/E mean at the rating |",
        "|---|---|---:|---:|---:|---|---:|---:|",
    ]
    for x in rows:
        tbw = x["tbw"]
        rel = "" if tbw is None or not base else f"{(tbw - base) / base:+.1%}"
        tbw_s = "not rated" if tbw is None else f"{tbw:.2f}"
        dwpd = "" if x["dwpd"] is None else f"{x['dwpd']:.2f}"
        lines.append(
            f"| {x['name']} | {x['source']} | {tbw_s} | {dwpd} | {rel} | {x['limiting']} | "
            f"{x['waf']:.2f} | {x['pe_mean']:,.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="print the table, leave the docs")
    a = ap.parse_args()
    rows = rate_all()
    text = table(rows)
    print(text)
    print("CPU s per rating:", [round(x["cpu_s"], 1) for x in rows])
    if a.check:
        return
    doc = DOC.read_text()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(doc):
        raise SystemExit(f"{DOC}: no {BEGIN} … {END} markers")
    tmp = DOC.with_suffix(".md.tmp")
    tmp.write_text(pattern.sub(lambda _: f"{BEGIN}\n{text}\n{END}", doc))
    tmp.replace(DOC)


if __name__ == "__main__":
    main()
