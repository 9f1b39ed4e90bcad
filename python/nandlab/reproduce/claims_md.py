"""The report's claim tables: judged claims (simulated, model check) with their rule,
spread and verdict; inputs and extensions with their source; per-workload values."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from .claims import JUDGED, VERDICTS, Claim

#: The report's sentence on how verdicts are computed.
RULES_MD = (
    "A verdict is computed from the numbers: nandlab's value is an interval (the 95 % "
    "interval of the mean over seeds; a single run or a model check is its own value), "
    "judged against the region the paper's value accepts — a point within half its last "
    "printed digit or the tolerance stated beside it, a range with its ends so rounded, a "
    "bound as a bound, an ordering or sign as a sign. *reproduced*: the interval lies "
    "inside the region; *close*: inside it with each end moved out by the fraction shown; "
    "*differs*: otherwise; *differs (paper)*: the paper's own stated parameters cannot "
    "give its number (the computation is shown). Inputs (values nandlab is built from) "
    "and nandlab's extensions get no verdict."
)


def format_counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{counts[v]} {v}" for v in VERDICTS if v in counts)


def claims_table(claims: Sequence[Claim]) -> str:
    """The judged claims of ``claims``, one table row each (inputs and extensions are in
    :func:`listed_table`)."""
    judged = [c for c in claims if c.judged]
    new = any(c.paper_text for c in judged)
    if not new:  # the older form: no kinds, rules or runs to show
        rows = ["| claim | paper (where) | nandlab | verdict | why it differs |",
                "|---|---|---|---|---|"]
        for c in judged:
            rows.append(f"| {c.label} | {paper_md(c)} ({c.where}) | {nandlab_md(c)} | "
                        f"**{c.verdict_text()}** | {_why(c)} |")
        return "\n".join(rows) + "\n"
    rows = ["| claim | kind | paper (where) | judged as | nandlab | verdict | runs | "
            "why it differs |", "|---|---|---|---|---|---|---|---|"]
    for c in judged:
        rows.append(f"| {c.label} | {c.kind} | {paper_md(c)} ({c.where}) | {rule_md(c)} | "
                    f"{nandlab_md(c)} | **{c.verdict_text()}** | {', '.join(c.runs) or '—'} "
                    f"| {_why(c)} |")
    return "\n".join(rows) + "\n"


def listed_table(claims: Sequence[Claim]) -> str:
    """Inputs and extensions: the value, the paper's where it has one, and its source;
    empty when there are none."""
    listed = [c for c in claims if not c.judged]
    if not listed:
        return ""
    rows = ["## Inputs and extensions (no verdict)\n",
            "Values nandlab is configured or constructed from, and nandlab's own additions: "
            "they are shown for reference and are not reproductions.\n",
            "| item | kind | paper (where) | nandlab | where it comes from |",
            "|---|---|---|---|---|"]
    for c in listed:
        paper = "—" if c.kind == "extension" else f"{paper_md(c)} ({c.where})"
        rows.append(f"| {c.label} | {c.kind} | {paper} | {nandlab_md(c)} | {c.source} |")
    return "\n".join(rows) + "\n"


def workloads_table(claims: Sequence[Claim]) -> str:
    """Each claim that averages workloads: every workload's value, the mean and median."""
    rows = []
    for c in claims:
        m = c.measured
        if m is None or not m.per_workload:
            continue
        each = ", ".join(f"{w} {_fmt(v, c)}" for w, v in m.per_workload.items())
        rows.append(f"| {c.label} | {c.unit} | {each} | "
                    f"{_fmt(_mean(m.per_workload.values()), c)} | {_fmt(m.median_workload, c)} |")
    if not rows:
        return ""
    return "\n".join(["## Per-workload values\n",
                      "Claims that average workloads: each workload's value (its mean over "
                      "seeds), their mean and median.\n",
                      "| claim | unit | each workload | mean | median |",
                      "|---|---|---|---:|---:|", *rows]) + "\n"


def paper_md(c: Claim) -> str:
    """The paper's value as the paper prints it (the older form: from ``paper``)."""
    if c.paper_text:
        return c.paper_text if c.rule in ("bound", "sign") or c.paper_text == "—" \
            else f"{c.paper_text} {c.unit}"
    return _range(c.paper, c.unit)


def rule_md(c: Claim) -> str:
    lo, hi = c.region
    if c.rule == "point":
        tol = c.tolerance[0]
        src = c.tolerance_why or "half the last printed digit"
        return f"point ± {_g(tol)} ({src})"
    if c.rule == "range":
        return f"range {_g(lo)} … {_g(hi)} (ends ± half a digit)"
    if c.rule == "bound":
        return f"bound > {_g(lo)} {c.unit}" if math.isfinite(lo) else f"bound < {_g(hi)} {c.unit}"
    return f"sign > {_g(lo)} {c.unit}" if math.isfinite(lo) else f"sign < {_g(hi)} {c.unit}"


def nandlab_md(c: Claim) -> str:
    m = c.measured
    if m is None or (m.n <= 1 and m.shape == "mean"):
        lo, hi = c.nandlab
        if not c.paper_text:
            text = _range(c.nandlab, c.unit)
        else:
            text = f"{_fmt(lo, c)} {c.unit}" if lo == hi else \
                f"{_fmt(lo, c)} … {_fmt(hi, c)} {c.unit}"
    elif m.shape == "span":
        lo, hi = c.nandlab
        text = (f"{_fmt(lo, c)} … {_fmt(hi, c)} {c.unit} (lowest … highest 95 % interval "
                f"of {len(m.item_intervals)} items)")
    else:
        lo, hi = c.nandlab
        rlo, rhi = m.range
        text = (f"{_fmt(m.mean, c)} {c.unit} (95 % interval {_fmt(lo, c)} … {_fmt(hi, c)}; "
                f"{m.n} seeds, range {_fmt(rlo, c)} … {_fmt(rhi, c)})")
    if m is not None and m.per_workload:
        text += f"; median over workloads {_fmt(m.median_workload, c)}"
    if c.unreachable is not None and c.verdict == "differs (paper)":
        rlo, rhi = c.unreachable.reachable
        text += f"; the paper's parameters allow {_g(rlo)} … {_g(rhi)} only: " \
                f"{c.unreachable.computation}"
    return text


def judged_counts_md(counts: dict[str, dict[str, int]]) -> str:
    """'simulated: 2 reproduced, ...; model check: ...' for the kinds that have claims."""
    parts = [f"{k}: {format_counts(counts[k])}" for k in JUDGED if sum(counts[k].values())]
    listed = counts.get("listed", {})
    if sum(listed.values()):
        parts.append(", ".join(f"{n} {k}{'s' if n != 1 else ''} listed" for k, n in
                               listed.items() if n))
    return "; ".join(parts) or "no claims"


def _why(c: Claim) -> str:
    return c.why if c.verdict != "reproduced" else ""


def _decimals(text: str) -> int | None:
    try:
        exp = int(Decimal(text.strip()).as_tuple().exponent)
    except (InvalidOperation, ValueError):
        return None
    return max(0, -exp)


def _fmt(x: float, c: Claim) -> str:
    """nandlab's number with one digit more than the paper prints (so half a digit shows;
    an input's as many)."""
    if math.isnan(x):
        return "n/a"
    first = c.paper_text.split(" … ")[0] if c.paper_text else ""
    d = _decimals(first) if first else None
    if d is None or (x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e6)):
        return _g(x)
    return f"{x:.{min(d + c.judged, 6)}f}"


def _g(x: float) -> str:
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.4g}"


def _mean(xs) -> float:
    xs = list(xs)
    return math.fsum(xs) / len(xs) if xs else math.nan


def _range(r: tuple[float, float], unit: str) -> str:
    lo, hi = r
    if math.isnan(lo):
        return "n/a"
    return f"{_num(lo)} {unit}" if lo == hi else f"{_num(lo)} … {_num(hi)} {unit}"


def _num(x: float) -> str:
    if x != 0 and abs(x) < 0.05:
        return f"{x:.3f}"
    return f"{x:.1f}"
