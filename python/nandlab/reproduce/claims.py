"""Claims and the rules that judge them (issue #28).

A :class:`Claim` is one row of a report: a number the paper states (kept as the paper
prints it), nandlab's number, and the rule that compares them. Every claim has a *kind*:

- ``simulated``: nandlab's number comes out of simulated runs (the claim names them);
- ``model check``: nandlab's model evaluated outside a run (a closed form, a solver);
- ``input``: a value nandlab was configured or constructed from (no verdict);
- ``extension``: nandlab's own addition, not a paper claim (no verdict).

Only simulated and model-check claims get verdicts, counted per kind. A verdict compares
the *interval* of nandlab's value (:class:`Measured`: the 95 % interval of the mean over
seeds; a single value is its own interval; a range over items, each item's) with the region
the paper's value accepts (:class:`PaperValue`): *reproduced* when the interval lies inside
it, *close* when it lies inside it with each finite end moved out by ``margin`` (a fraction
of that end, or of the value for a point), *inconclusive* when a spread over seeds reaches
into that widened region but not wholly (the seeds cannot tell), *differs* otherwise, and
*differs (paper)* when the paper's own stated parameters cannot give its number
(:class:`Unreachable`, with the computation shown).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Literal

from ..errors import ConfigError

Kind = Literal["simulated", "model check", "input", "extension"]
KINDS: tuple[Kind, ...] = ("simulated", "model check", "input", "extension")
#: The kinds that get verdicts (each counted on its own).
JUDGED: tuple[Kind, ...] = ("simulated", "model check")
Rule = Literal["point", "range", "bound", "sign"]
Verdict = Literal["reproduced", "close", "inconclusive", "differs", "differs (paper)"]
VERDICTS: tuple[Verdict, ...] = ("reproduced", "close", "inconclusive", "differs",
                                 "differs (paper)")

#: Two-sided 95 % quantiles of Student's t with 1 … 30 degrees of freedom (any statistics
#: table); beyond 30 the normal's 1.96 is within 2 % of t.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
        2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
        2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(dof: int) -> float:
    return _T95[dof - 1] if dof <= len(_T95) else 1.96


# --------------------------------------------------------------------------- the paper


def half_digit(text: str) -> float:
    """Half of the last printed digit of a number as printed: "40.75" -> 0.005,
    "200" -> 0.5, "3.66e-9" -> 5e-12, "2,495,552" -> 0.5 (thousands separators as
    printed)."""
    try:
        exp = Decimal(_digits(text)).as_tuple().exponent
    except InvalidOperation:
        raise ConfigError(f"paper value {text!r} is not a number as printed") from None
    return 0.5 * 10.0 ** int(exp)


@dataclass(frozen=True)
class PaperValue:
    """What the paper states, the region it accepts and how to print it. Build it with
    :func:`point`, :func:`span`, :func:`above`, :func:`below` or :func:`sign`."""

    rule: Rule
    #: The value or range as the paper prints it: (low, high), ±inf for a bound.
    value: tuple[float, float]
    #: The paper's words or digits, printed as they are ("40.75", "over two times").
    text: str
    #: Half-widths added to each end of ``value`` (the paper's rounding or a tolerance it
    #: implies); 0 for bounds and signs.
    tolerance: tuple[float, float] = (0.0, 0.0)
    #: Where a tolerance other than half the last digit comes from ("" otherwise).
    tolerance_why: str = ""

    @property
    def region(self) -> tuple[float, float]:
        (lo, hi), (tlo, thi) = self.value, self.tolerance
        return lo - tlo, hi + thi


def _digits(text: str) -> str:
    """The number in ``text`` without the thousands separators a paper prints."""
    return text.strip().replace(",", "")


def point(text: str, tolerance: float | None = None, why: str = "") -> PaperValue:
    """A single value as printed ("40.75"): reproduced within half its last printed digit,
    or within ``tolerance`` (same unit) that the paper itself implies, ``why`` saying how
    (e.g. "Tables 6-7: AP - BL spans -0.17 … +0.33 % between runs")."""
    v = float(_digits(text))
    if tolerance is not None and not why:
        raise ConfigError(f"point {text}: a stated tolerance needs its source (why=...)")
    tol = half_digit(text) if tolerance is None else tolerance
    return PaperValue("point", (v, v), text, (tol, tol), why)


def span(low: str, high: str, text: str = "") -> PaperValue:
    """A range as printed ("25.9", "34.2"); each end within half its last digit."""
    return PaperValue("range", (float(low), float(high)), text or f"{low} … {high}",
                      (half_digit(low), half_digit(high)))


def above(bound: float, text: str) -> PaperValue:
    """A lower bound in the paper's words ("over two times" as ``above(200, ...)`` in %)."""
    return PaperValue("bound", (bound, math.inf), text)


def below(bound: float, text: str) -> PaperValue:
    """An upper bound in the paper's words ("below 20 %" as ``below(20, ...)``)."""
    return PaperValue("bound", (-math.inf, bound), text)


def sign(direction: Literal[1, -1], text: str, at_least: float = 0.0) -> PaperValue:
    """An ordering or sign: nandlab's value (a difference, a change) must be positive
    (``direction`` 1) or negative (-1), beyond ``at_least`` in magnitude (a smallest change
    that counts, stated in the report). ``text``: the paper's words ("lower", "A > B")."""
    region = (at_least, math.inf) if direction > 0 else (-math.inf, -at_least)
    return PaperValue("sign", region, text)


@dataclass(frozen=True)
class Unreachable:
    """The paper's own stated parameters confine its number to ``reachable`` (a range in
    the claim's unit); ``computation`` shows how (one line, e.g. "σ = 0.5 gives
    Φ(...) ... = 33.3 % at most")."""

    reachable: tuple[float, float]
    computation: str


# --------------------------------------------------------------------------- nandlab


@dataclass(frozen=True)
class Measured:
    """nandlab's value: one sample per seed (the claim computed from each seed's runs), and
    where the claim averages workloads (or other items), each one's value (its mean over
    seeds) for the report. Build with :meth:`seeds` or :meth:`over`."""

    samples: tuple[float, ...]
    per_workload: Mapping[str, float] = field(default_factory=dict)
    #: "mean": the samples are one value per seed; "span": a range over items (each
    #: item's interval), judged by its lowest and highest end.
    shape: Literal["mean", "span"] = "mean"
    #: For a span: each item's interval.
    item_intervals: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    @staticmethod
    def seeds(samples: Sequence[float], per_workload: Mapping[str, float] | None = None
              ) -> Measured:
        """One value per seed (the same claim computed on each seed's runs)."""
        return Measured(tuple(float(x) for x in samples), dict(per_workload or {}))

    @staticmethod
    def over(items: Mapping[str, Sequence[float]]) -> Measured:
        """A range over items (workloads, file types): each item's samples per seed. The
        verdict judges [lowest item's interval low, highest item's interval high]."""
        ivs = {k: _interval([float(x) for x in v]) for k, v in items.items()}
        means = {k: _mean([float(x) for x in v]) for k, v in items.items()}
        return Measured(tuple(x for v in items.values() for x in map(float, v)), means,
                        "span", ivs)

    @property
    def finite(self) -> list[float]:
        return [x for x in self.samples if not math.isnan(x)]

    @property
    def n(self) -> int:
        return len(self.samples)

    @property
    def mean(self) -> float:
        return _mean(self.samples)

    @property
    def range(self) -> tuple[float, float]:
        xs = self.finite
        return (min(xs), max(xs)) if xs and len(xs) == self.n else (math.nan, math.nan)

    @property
    def interval(self) -> tuple[float, float]:
        """What the verdict judges: the 95 % interval of the mean (t, n - 1 dof) for
        samples per seed; the items' lowest … highest interval end for a span."""
        if self.shape == "span":
            ends = list(self.item_intervals.values())
            if not ends or any(math.isnan(lo) for lo, _ in ends):
                return math.nan, math.nan
            return min(lo for lo, _ in ends), max(hi for _, hi in ends)
        return _interval(list(self.samples))

    @property
    def pieces(self) -> list[tuple[float, float]]:
        """What the verdict judges piece by piece: the interval of the mean, or each item's
        interval of a span (every item must lie in the paper's range)."""
        return list(self.item_intervals.values()) if self.shape == "span" else [self.interval]

    @property
    def median_workload(self) -> float:
        return statistics.median(self.per_workload.values()) if self.per_workload else math.nan


def _mean(xs: Sequence[float]) -> float:
    return math.nan if not xs or any(math.isnan(x) for x in xs) else statistics.fmean(xs)


def _interval(xs: list[float]) -> tuple[float, float]:
    if not xs or any(math.isnan(x) for x in xs):
        return math.nan, math.nan
    m = statistics.fmean(xs)
    if len(xs) == 1:
        return m, m
    h = t95(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return m - h, m + h


# --------------------------------------------------------------------------- helpers


def seeds_for(quick: bool, first: int = 1) -> list[int]:
    """The seeds a plan runs: three in full mode, two in quick mode (#28: a simulated claim
    is measured over >= 3 seeds, >= 2 in quick mode)."""
    return list(range(first, first + (2 if quick else 3)))


def ratio_of_sums(numerators: Sequence[float], denominators: Sequence[float]) -> float:
    """Σ numerators / Σ denominators (NaN when the denominators sum to 0): the aggregate
    of per-row ratios that tiny denominators cannot dominate, unlike their average."""
    den = math.fsum(denominators)
    return math.fsum(numerators) / den if den else math.nan


def change_pct(new: float, old: float) -> float:
    """Relative change of ``new`` against ``old`` in percent (NaN when ``old`` is 0)."""
    return (new / old - 1.0) * 100.0 if old else math.nan


def change_of_sums(new: Sequence[float], old: Sequence[float]) -> float:
    """Relative change of Σ new against Σ old in percent (a ratio of sums)."""
    return (ratio_of_sums(new, old) - 1.0) * 100.0


# --------------------------------------------------------------------------- the claim


@dataclass(frozen=True)
class Claim:
    """A number the paper states, beside nandlab's, and the rule that compares them.

    Build new claims with :meth:`simulated`, :meth:`model_check`, :meth:`input` or
    :meth:`extension`. The positional form ``Claim(key, label, where, paper, nandlab,
    margin, why, unit)`` is the older one (a simulated range claim, no runs named, the
    paper's (low, high) printed to one decimal); a module that sets ``CLAIM_API = 2`` gets
    its claims checked (:func:`check_claims`).

    ``paper`` and ``nandlab`` are (low, high) in ``unit``: the paper's value and the
    interval the verdict judges. ``margin``: the fraction of a bound (or a point's value)
    that *close* moves each end out by. ``why``: the cause of a difference, shown unless
    the claim is reproduced; for inputs and extensions, ``source`` says where the value
    comes from.
    """

    key: str
    label: str
    where: str
    paper: tuple[float, float]
    nandlab: tuple[float, float]
    margin: float
    why: str
    unit: str = "%"
    kind: Kind = "simulated"
    rule: Rule = "range"
    #: The paper's value as printed ("" for the older form: printed from ``paper``).
    paper_text: str = ""
    #: Half-widths added to the paper's ends before judging (its rounding, or ``tolerance_why``).
    tolerance: tuple[float, float] = (0.0, 0.0)
    tolerance_why: str = ""
    #: The sweeps (or runs) a simulated claim is computed from, listed in the report.
    runs: tuple[str, ...] = ()
    measured: Measured | None = None
    unreachable: Unreachable | None = None
    #: Inputs and extensions: where the value comes from (config key, doc, paper section).
    source: str = ""

    # ----------------------------------------------------------------- construction

    @staticmethod
    def simulated(key: str, label: str, where: str, paper: PaperValue,
                  nandlab: Measured | float, runs: Sequence[str], why: str = "",
                  margin: float = 0.1, unit: str = "%",
                  unreachable: Unreachable | None = None) -> Claim:
        """A number that comes out of simulated runs; ``runs`` names the sweeps (at least
        one: a simulated claim naming none is refused)."""
        if not runs:
            raise ConfigError(f"claim {key}: a simulated claim must name the runs it is "
                              "computed from (runs=...)")
        return _judged("simulated", key, label, where, paper, nandlab, why, margin, unit,
                       tuple(runs), unreachable)

    @staticmethod
    def model_check(key: str, label: str, where: str, paper: PaperValue,
                    nandlab: Measured | float, why: str = "", margin: float = 0.1,
                    unit: str = "%", unreachable: Unreachable | None = None) -> Claim:
        """nandlab's model evaluated outside a run (closed form, solver, tail bound)."""
        return _judged("model check", key, label, where, paper, nandlab, why, margin, unit,
                       (), unreachable)

    @staticmethod
    def input(key: str, label: str, where: str, paper: PaperValue | None,
              nandlab: float | tuple[float, float], source: str, unit: str = "%") -> Claim:
        """A value (or (low, high)) nandlab is configured or constructed from; listed,
        never judged."""
        return _listed("input", key, label, where, paper, nandlab, source, unit)

    @staticmethod
    def extension(key: str, label: str, nandlab: Measured | float, source: str,
                  unit: str = "%", runs: Sequence[str] = ()) -> Claim:
        """nandlab's own addition (no paper value); listed, never judged."""
        m = nandlab if isinstance(nandlab, Measured) else Measured.seeds([nandlab])
        return Claim(key, label, "nandlab", (math.nan, math.nan), m.interval, 0.0, "", unit,
                     "extension", "range", "—", runs=tuple(runs), measured=m, source=source)

    # ----------------------------------------------------------------- judging

    @property
    def judged(self) -> bool:
        return self.kind in JUDGED

    @property
    def region(self) -> tuple[float, float]:
        (lo, hi), (tlo, thi) = self.paper, self.tolerance
        return lo - tlo, hi + thi

    @property
    def verdict(self) -> Verdict | None:
        """None for inputs and extensions."""
        if not self.judged:
            return None
        region = self.region
        wide = _widen(region, self.margin, self.paper)
        pieces = self.measured.pieces if self.measured is not None else [self.nandlab]
        states = []
        for lo, hi in pieces:
            if math.isnan(lo) or math.isnan(hi):
                states.append("differs")
            elif _inside((lo, hi), region):
                states.append("reproduced")
            elif _inside((lo, hi), wide):
                states.append("close")
            # A spread over seeds that reaches into the widened region cannot tell (the
            # older form's range is a span of values, not a spread).
            elif self.measured is not None and lo < hi and _meets((lo, hi), wide):
                states.append("inconclusive")
            else:
                states.append("differs")
        v: Verdict = next(x for x in ("differs", "inconclusive", "close", "reproduced")
                          if x in states)
        if v == "reproduced":
            return v
        if self.unreachable is not None and not _meets(self.region,
                                                       self.unreachable.reachable):
            return "differs (paper)"
        return v

    def verdict_text(self) -> str:
        v = self.verdict
        if v == "close":
            return f"close (within {self.margin:.0%} of the paper's bounds)"
        return v or "—"


def _judged(kind: Kind, key: str, label: str, where: str, paper: PaperValue,
            nandlab: Measured | float, why: str, margin: float, unit: str,
            runs: tuple[str, ...], unreachable: Unreachable | None) -> Claim:
    if not isinstance(paper, PaperValue):
        raise ConfigError(f"claim {key}: paper= takes point(...), span(...), above(...), "
                          "below(...) or sign(...)")
    m = nandlab if isinstance(nandlab, Measured) else Measured.seeds([nandlab])
    return Claim(key, label, where, paper.value, m.interval, margin, why, unit, kind,
                 paper.rule, paper.text, paper.tolerance, paper.tolerance_why, runs, m,
                 unreachable)


def _listed(kind: Kind, key: str, label: str, where: str, paper: PaperValue | None,
            nandlab: float | tuple[float, float], source: str, unit: str) -> Claim:
    if not source:
        raise ConfigError(f"claim {key}: an {kind} says where its value comes from (source=)")
    pv = paper.value if paper else (math.nan, math.nan)
    lo, hi = nandlab if isinstance(nandlab, tuple) else (nandlab, nandlab)
    return Claim(key, label, where, pv, (float(lo), float(hi)), 0.0, "", unit, kind,
                 paper.rule if paper else "range", paper.text if paper else "—",
                 source=source)


def _inside(x: tuple[float, float], region: tuple[float, float]) -> bool:
    return region[0] <= x[0] and x[1] <= region[1]


def _meets(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _widen(region: tuple[float, float], margin: float, paper: tuple[float, float]
           ) -> tuple[float, float]:
    """Each finite end moved out by ``margin`` of the paper's end (infinite ends stay)."""
    lo, hi = region
    return (lo - margin * abs(paper[0]) if math.isfinite(lo) else lo,
            hi + margin * abs(paper[1]) if math.isfinite(hi) else hi)


def cause(verdict: str | None, why: str) -> str:
    """The cause shown beside a verdict: an inconclusive one says first that the spread over
    seeds decided it."""
    if verdict == "inconclusive":
        return ("The spread over seeds is too wide to tell (see its interval); " + why).strip()
    return why


def check_claims(claims: Sequence[Claim]) -> None:
    """The new API's rules, for a module that opted in (``CLAIM_API = 2``): every judged
    claim prints the paper's value as the paper does, a simulated one names its runs,
    inputs and extensions say where their value comes from, keys are unique."""
    seen: set[str] = set()
    for c in claims:
        if c.key in seen:
            raise ConfigError(f"claim {c.key}: key used twice")
        seen.add(c.key)
        if c.kind not in KINDS:
            raise ConfigError(f"claim {c.key}: kind {c.kind!r} is not one of {KINDS}")
        if c.kind == "simulated" and not c.runs:
            raise ConfigError(f"claim {c.key}: a simulated claim must name the runs it is "
                              "computed from (runs=...)")
        if c.judged and not c.paper_text:
            raise ConfigError(f"claim {c.key}: the paper's value as printed is missing "
                              "(build it with point/span/above/below/sign)")
        if not c.judged and not c.source:
            raise ConfigError(f"claim {c.key}: an {c.kind} says where its value comes from")


def counts_by_kind(claims: Sequence[Claim]) -> dict[str, dict[str, int]]:
    """Verdict counts of each judged kind, and how many inputs and extensions are listed."""
    out: dict[str, dict[str, int]] = {
        k: {v: sum(c.kind == k and c.verdict == v for c in claims) for v in VERDICTS}
        for k in JUDGED
    }
    out["listed"] = {k: sum(c.kind == k for c in claims) for k in ("input", "extension")}
    return out
