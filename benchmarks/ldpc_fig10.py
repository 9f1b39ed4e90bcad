"""Plot the shipped LDPC FER table like seed 001 Fig. 10 (and Fig. 3).

Usage: python benchmarks/ldpc_fig10.py [table.csv] [out.png]

Reads ``crates/nandlab-core/data/ldpc_fer.csv`` (columns
``level,rber,frames,failures,fer,fer_lo,fer_hi``; ``#`` comment lines at the top) and draws
frame error rate vs raw bit error rate, one curve per number of extra soft sensing levels
k = 0..6, with the 95 % Clopper-Pearson intervals as error bars. Points with zero failures
are drawn at their upper bound as open markers (FER below that bound).
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def load(path: Path) -> dict[int, list[dict[str, float]]]:
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    curves: dict[int, list[dict[str, float]]] = defaultdict(list)
    for row in csv.DictReader(lines):
        curves[int(row["level"])].append({k: float(v) for k, v in row.items()})
    return curves


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "crates/nandlab-core/data/ldpc_fer.csv"
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "benchmarks/ldpc_fig10.png"
    curves = load(src)
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    for level in sorted(curves):
        pts = sorted(curves[level], key=lambda p: p["rber"])
        seen = [p for p in pts if p["failures"] > 0]
        zero = [p for p in pts if p["failures"] == 0]
        label = "hard (k=0)" if level == 0 else f"k={level} extra level{'s' if level > 1 else ''}"
        line = ax.errorbar(
            [p["rber"] for p in seen],
            [p["fer"] for p in seen],
            yerr=[[p["fer"] - p["fer_lo"] for p in seen], [p["fer_hi"] - p["fer"] for p in seen]],
            marker="o",
            ms=4,
            capsize=2,
            label=label,
        )
        colour = line[0].get_color()
        ax.plot(
            [p["rber"] for p in zero], [p["fer_hi"] for p in zero], "v",
            mfc="none", color=colour, ms=4,
        )
    ax.set_yscale("log")
    ax.set_xlabel("raw bit error rate (hard decision)")
    ax.set_ylabel("frame (decoding) failure rate")
    ax.set_title("rate-8/9 4 KB QC-LDPC, layered NMS, MLC Vth channel")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
