"""Seed 001 Fig. 3 and Fig. 10 from the shipped LDPC FER table, and the soft/hard RBER
ratio at equal FER.

Usage: python benchmarks/ldpc_figures.py [table.csv] [out_dir]

Reads ``crates/nandlab-core/data/ldpc_fer.csv`` (columns
``level,rber,frames,failures,fer,fer_lo,fer_hi,extrapolated,stratified,thin_share,thin,
support_failures``) and
writes

* ``ldpc_fig10.png``: FER vs RBER per number of extra soft sensing levels k = 0..6 (Fig. 10):
  measured points with 95 % Clopper-Pearson bars, zero-failure points at their upper bound
  (open triangles), points from error-count strata as squares with their 95 % bootstrap
  bars (``stratified`` rows; hollow where ``thin``: one stratum of fewer than 5 failures
  carries more than 10 % of the estimate or holds it up), each level's tail model dashed
  (``extrapolated`` rows);
* ``ldpc_fig03.png``: the same curves down to FER 1e-16 with BCH of the same redundancy
  (4 KiB data + 512 B parity: GF(2^16), t = 4096 / 16 = 256 bits, FER = P[errors > t] for
  Binomial(36 864, RBER) raw errors) and the 1e-15 target of §2.2 (Fig. 3);

and prints the RBER each scheme tolerates at FER 0.5, 1e-2, 1e-4, 1e-8 and 1e-15 with the
soft/hard ratios (``*`` = read off a tail model, not measured; ``†`` = read off stratified
rows). The curves are the ladder's:
log-log between rows, the first segment extended below the first row (as
``nandlab_core::ecc::FerCurves::fer``).
"""

from __future__ import annotations

import csv
import math
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "crates/nandlab-core/data/ldpc_fer.csv"
FER_TARGETS = (0.5, 1e-2, 1e-4, 1e-8, 1e-15)
DATA_BITS, PARITY_BITS = 4096 * 8, 512 * 8

Row = dict[str, float]


def load(path: Path) -> dict[int, list[Row]]:
    """Rows per level, sorted by RBER."""
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    curves: dict[int, list[Row]] = defaultdict(list)
    for row in csv.DictReader(lines):
        curves[int(row["level"])].append({k: float(v) for k, v in row.items()})
    return {k: sorted(v, key=lambda p: p["rber"]) for k, v in sorted(curves.items())}


def bch_t(data_bits: int = DATA_BITS, parity_bits: int = PARITY_BITS) -> tuple[int, int]:
    """(m, t) of a binary BCH code over GF(2^m) for ``data_bits`` with ``parity_bits``:
    the smallest m whose 2^m - 1 holds the codeword, t = parity_bits // m."""
    m = 1
    while 2**m - 1 < data_bits + parity_bits:
        m += 1
    return m, parity_bits // m


def bch_fer(rber: np.ndarray, n: int, t: int) -> np.ndarray:
    """P[Binomial(n, rber) > t], summed in log space (exact to double precision)."""
    k = np.arange(n + 1)
    log_c = np.concatenate([[0.0], np.cumsum(np.log((n - k[1:] + 1) / k[1:]))])
    out = []
    for p in np.atleast_1d(rber):
        lp = log_c[t + 1 :] + k[t + 1 :] * math.log(p) + (n - k[t + 1 :]) * math.log1p(-p)
        top = lp.max()
        out.append(min(1.0, math.exp(top) * np.exp(lp - top).sum()))
    return np.array(out)


def ladder_fer(rows: list[Row], x: float) -> float:
    """The ladder's FER at RBER ``x`` (log-log between rows, linear where one end is 0,
    first segment extended below, last FER above)."""
    pts = [(r["rber"], r["fer"]) for r in rows]
    if x >= pts[-1][0]:
        return pts[-1][1]
    (a, fa), (b, fb) = pts[0], pts[1]
    for (a2, fa2), (b2, fb2) in zip(pts, pts[1:], strict=False):
        if a2 <= x < b2:
            (a, fa), (b, fb) = (a2, fa2), (b2, fb2)
            break
    if fa > 0 and fb > 0:
        return fa * (x / a) ** (math.log(fb / fa) / math.log(b / a))
    if x < a:
        return fa
    return fa + (fb - fa) * (x - a) / (b - a)


def source(*rows: Row) -> str:
    """How a segment's FER was obtained: ``*`` touches a tail-model row, ``†`` a stratified
    row (and no model row), ``""`` measured rows only."""
    if any(r.get("extrapolated", 0.0) > 0 for r in rows):
        return "*"
    return "†" if any(r.get("stratified", 0.0) > 0 for r in rows) else ""


def rber_at(rows: list[Row], target: float) -> tuple[float, str] | None:
    """Largest RBER whose ladder FER is at most ``target`` (log-log inversion on the
    segment that crosses it) and the segment's :func:`source` mark (``*`` below the first
    row)."""
    for ra, rb in reversed(list(zip(rows, rows[1:], strict=False))):
        (a, fa), (b, fb) = (ra["rber"], ra["fer"]), (rb["rber"], rb["fer"])
        if fa <= target <= fb and fa > 0 and fb > fa:
            s = math.log(fb / fa) / math.log(b / a)
            return a * (target / fa) ** (1 / s), source(ra, rb)
    (a, fa), (b, fb) = (rows[0]["rber"], rows[0]["fer"]), (rows[1]["rber"], rows[1]["fer"])
    if 0 < target < fa and fb > fa:
        s = math.log(fb / fa) / math.log(b / a)
        return a * (target / fa) ** (1 / s), "*"
    return None


def fig10(curves: dict[int, list[Row]], out: Path) -> None:
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    for level, pts in curves.items():
        seen = [p for p in pts if p["failures"] > 0 and not p.get("stratified")]
        strata = [p for p in pts if p.get("stratified")]
        model = [p for p in pts if p["extrapolated"] > 0] + (strata or seen)[:1]
        label = "hard (k=0)" if level == 0 else f"k={level} extra level{'s' if level > 1 else ''}"
        line = ax.errorbar(
            [p["rber"] for p in seen],
            [p["fer"] for p in seen],
            yerr=[[p["fer"] - p["fer_lo"] for p in seen], [p["fer_hi"] - p["fer"] for p in seen]],
            marker="o",
            ms=3,
            capsize=2,
            label=label,
        )
        colour = line[0].get_color()
        joined = strata + seen[:1]
        ax.plot([p["rber"] for p in joined], [p["fer"] for p in joined], "-", color=colour, lw=1)
        for p in strata:
            bar = [[p["fer"] - p["fer_lo"]], [p["fer_hi"] - p["fer"]]]
            ax.errorbar([p["rber"]], [p["fer"]], yerr=bar, marker="s", ms=4, capsize=2,
                        color=colour, mfc="none" if p.get("thin") else colour)
        bound = [p for p in pts if p["failures"] == 0 and p["fer_hi"] < 0.5]
        ax.plot([p["rber"] for p in bound], [p["fer_hi"] for p in bound], "v", mfc="none",
                color=colour, ms=4)
        ax.plot([p["rber"] for p in model], [p["fer"] for p in model], "--", color=colour, lw=1)
    ax.set_xlim(5e-3, 2.6e-2)
    ax.legend(fontsize=7, title="solid: measured; squares: strata; dashed: tail model",
              title_fontsize=7, loc="lower right")
    finish(fig, ax, out, "Fig. 10: rate-8/9 4 KB QC-LDPC, layered NMS, MLC Vth channel", 1e-9)


def finish(fig, ax, out: Path, title: str, fer_min: float) -> None:
    """Log FER axis from ``fer_min``, labels, grid; saves and closes."""
    ax.set_yscale("log")
    ax.set_ylim(fer_min, 1.5)
    ax.set_xlabel("raw bit error rate (hard decision)")
    ax.set_ylabel("frame (decoding) failure rate")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    plt.close(fig)


def fig03(curves: dict[int, list[Row]], out: Path) -> None:
    m, t = bch_t()
    n = DATA_BITS + m * t
    x = np.geomspace(1e-3, 3e-2, 300)
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    ax.plot(x, bch_fer(x, n, t), "k-", lw=1.5, label=f"BCH, t={t} (n={n})")
    for level, pts in curves.items():
        y = [ladder_fer(pts, v) for v in x]
        label = "LDPC hard" if level == 0 else f"LDPC soft, k={level}"
        first_measured = min(p["rber"] for p in pts if p["failures"] > 0)
        (line,) = ax.plot(x[x >= first_measured], np.array(y)[x >= first_measured], lw=1.2,
                          label=label)
        ax.plot(x[x <= first_measured], np.array(y)[x <= first_measured], "--",
                color=line.get_color(), lw=1)
    ax.axhline(1e-15, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_xlim(2e-3, 3e-2)
    ax.legend(fontsize=7)
    finish(fig, ax, out, "Fig. 3: 4 KiB + 512 B redundancy; dashed = tail model", 1e-16)


def ratio_table(curves: dict[int, list[Row]]) -> list[str]:
    """Markdown rows: tolerable RBER per scheme at each target FER, and soft/hard ratios."""
    m, t = bch_t()
    n = DATA_BITS + m * t
    grid = np.geomspace(1e-4, 5e-2, 4000)
    bch = bch_fer(grid, n, t)
    head = "| FER | BCH t=256 | hard | " + " | ".join(f"k={k}" for k in list(curves)[1:])
    lines = [head + " | k=6 / hard |", "|" + "---|" * (len(curves) + 3)]
    for f in FER_TARGETS:
        cells, hard = [], None
        bch_x = float(grid[np.searchsorted(bch, f) - 1]) if bch[0] < f < bch[-1] else math.nan
        for level, pts in curves.items():
            r = rber_at(pts, f)
            if r is None:
                cells.append("–")
                continue
            hard = r[0] if level == 0 else hard
            cells.append(f"{r[0]:.2e}{r[1]}")
        six = rber_at(curves[max(curves)], f)
        ratio = f"{six[0] / hard:.2f}" if six and hard else "–"
        lines.append(f"| {f:g} | {bch_x:.2e} | " + " | ".join(cells) + f" | {ratio} |")
    return lines


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else TABLE
    out_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "benchmarks"
    curves = load(src)
    fig10(curves, out_dir / "ldpc_fig10.png")
    fig03(curves, out_dir / "ldpc_fig03.png")
    print("\n".join(ratio_table(curves)))
    print(f"wrote {out_dir / 'ldpc_fig10.png'} and {out_dir / 'ldpc_fig03.png'}")


if __name__ == "__main__":
    main()
