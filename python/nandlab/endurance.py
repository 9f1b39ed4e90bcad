"""Endurance rating as JEDEC JESD218 defines it (``nandlab endurance``; docs/endurance.md).

The drive is aged in epochs of host writes, in one simulation paused between them
(``_core.Session``): its data layout, free pool, per-page history, retired blocks and wear
carry from one epoch to the next. The first epoch simulates the configured workload once
from the ``aging`` fill (bringing GC to its steady state); each later one simulates a
tenth as many requests (``epoch_requests``) and then fast-forwards the wear in place to
the epoch's bytes: every block in service gains an equal share of the blocks the rest of
the epoch's host pages program at the write amplification just measured; the spread
between blocks is the one the FTL itself makes in the simulated requests. At the epoch's
end the class's requirements are checked:

- capacity: every plane keeps enough blocks in service for its share of the logical space
  and GC's free blocks (ftl/retire.rs), or the drive has failed;
- UBER after the class's power-off retention (time and temperature, scaled by Arrhenius
  to the error model's temperature), computed exactly from each codeword's failure
  probability at the strongest ECC level (``_core.retention_uber``; not sampled).

Within the first failing epoch wear grows linearly, so the failure point is found there
(the plane's k-th retirement in closed form, the UBER crossing by bisection). The rated
TBW is the host bytes written by then; DWPD spreads it over the warranty period.

Not modelled: JESD218's functional failure requirement (FFR ≤ 3 %) is a population rate,
and one simulated drive has none; it is reported as not evaluated. Fast-forwarding wear
does not advance the clock: the data's age is what the simulated requests give it.
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

import numpy as np

from . import _native
from .api import trace_info
from .config import ConfigSource, load_config
from .errors import ConfigError, NandlabError


@dataclass(frozen=True)
class EnduranceClass:
    """A JESD218 application class (JESD218B Table 1; docs/endurance.md cites it)."""

    name: str
    active_c: float  #: temperature in active use (power on), °C
    hours_per_day: float  #: active use per day
    retention_days: float  #: power-off retention time
    retention_c: float  #: power-off retention temperature, °C
    ffr: float  #: functional failure requirement (population fraction)
    uber: float  #: uncorrectable bit error rate requirement


#: The two classes: client 40 °C active 8 h/day, 1 year at 30 °C off, UBER ≤ 1e-15;
#: enterprise 55 °C active 24 h/day, 3 months at 40 °C off, UBER ≤ 1e-16; FFR ≤ 3 % both.
CLASSES = {
    "client": EnduranceClass("client", 40.0, 8.0, 365.0, 30.0, 0.03, 1e-15),
    "enterprise": EnduranceClass("enterprise", 55.0, 24.0, 365.0 / 4, 40.0, 0.03, 1e-16),
}

#: P/E limit used when the config sets none: past any wear the seed models are fitted
#: to (the core's ``aging.initial_pe`` bound), so no block retires and only the UBER limits.
NO_LIMIT_PE = 10_000_000
TB = 1e12
#: The most an epoch may grow over the one before (the step rule sizes it within this).
MAX_GROWTH = 10.0
#: Later epochs simulate this fraction (1 / divisor) of the first epoch's requests: the
#: first brings the drive from the ``aging`` fill to GC's steady state, the later ones
#: start in it and only measure it (docs/endurance.md) ...
LATER_DIVISOR = 10
#: ... but no more than this many: later epochs only sample the steady state's write
#: amplification (the demo's 90,000 measure it within ±2 %), where a tenth of the 256 GiB
#: 001 drive's first epoch (one drive write, 48 M requests) would cost minutes an epoch.
LATER_MAX = 1_000_000
#: Requests of a synthetic workload that sets neither ``requests`` nor ``duration_s``.
DEFAULT_REQUESTS = 10_000
#: A workload no rating runs out of: synthetic requests, and copies of a trace.
ENDLESS_REQUESTS = 2**62
ENDLESS_REPEAT = 2**31


def endurance_class(name: str) -> EnduranceClass:
    """The class called ``name``, or a one-line error listing the classes."""
    try:
        return CLASSES[name]
    except KeyError:
        raise ConfigError(
            f"unknown endurance class {name!r}: use one of {', '.join(sorted(CLASSES))}"
        ) from None


@dataclass(frozen=True)
class Drive:
    """What the spare-area check needs of the device (the core's own rule, ftl/retire.rs)."""

    planes: int
    blocks_per_plane: int
    pages_per_block: int
    page_bytes: int
    logical_pages: int
    gc_threshold_blocks: int

    @classmethod
    def of(cls, cfg: Mapping[str, Any]) -> Drive:
        d, f = cfg["device"], cfg["ftl"]
        planes = d["channels"] * d["chips_per_channel"] * d["dies_per_chip"] * d["planes_per_die"]
        pages = planes * d["blocks_per_plane"] * d["pages_per_block"]
        return cls(
            planes=planes,
            blocks_per_plane=d["blocks_per_plane"],
            pages_per_block=d["pages_per_block"],
            page_bytes=d["page_size_bytes"],
            logical_pages=math.floor(pages * (1.0 - f["overprovisioning"])),
            gc_threshold_blocks=f["gc_threshold_blocks"],
        )

    @property
    def capacity_bytes(self) -> int:
        return self.logical_pages * self.page_bytes

    def spare_at_start(self, in_service: np.ndarray) -> np.ndarray:
        """Spare blocks of each plane with ``in_service`` blocks (negative: failed)."""
        share = -(-self.logical_pages // self.planes)
        data = -(-share // self.pages_per_block)
        return in_service - data - self.gc_threshold_blocks - 2


@dataclass
class Rating:
    """What ``nandlab endurance`` reports (``endurance.json``)."""

    endurance_class: str
    rated_tbw: float | None
    dwpd: float | None
    warranty_years: float
    limiting: str
    capacity_bytes: int
    retire_pe_limit: int | None
    epochs: int
    requirements: dict[str, Any]
    sensitivity: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("rows")
        return d


@dataclass
class _Epoch:
    """One epoch's measurements: the run's and the fast-forwarded wear."""

    pe_start: np.ndarray
    slope: np.ndarray  #: P/E gained per unit of the epoch's length (f from 0 to 1)
    bytes: float
    summary: dict[str, Any]
    forward: np.ndarray  #: P/E cycles the fast-forward adds to each block


def rate(
    config: ConfigSource,
    class_name: str,
    *,
    overrides: Mapping[str, Any] | None = None,
    warranty_years: float = 5.0,
    max_step: float = 0.1,
    max_epochs: int = 200,
    retention_c: float | None = None,
    sensitivity: bool = True,
    epoch_requests: int | None = None,
    log: Callable[[str], None] | None = None,
) -> Rating:
    """Rates the drive of ``config`` for ``class_name``; see the module docstring.

    ``max_step``: the largest step one epoch may take towards a requirement, as a
    fraction of the whole way (P/E towards the limit, spare blocks, UBER decades); the
    epoch length adapts to it. ``sensitivity``: rate again with half the step and report
    the change (the first epoch, which the step does not size, is simulated once: the
    second rating continues a copy of the paused simulation, beside the first).
    ``retention_c``: the power-off temperature instead of the class's.
    ``epoch_requests``: requests simulated in each epoch after the first (default a
    tenth of the first's, which are the configured workload's, at most ``LATER_MAX``).
    """
    cls = endurance_class(class_name)
    if not (0 < max_step <= 1):
        raise ConfigError(f"max step {max_step} must be in (0, 1]")
    if warranty_years <= 0:
        raise ConfigError(f"warranty period {warranty_years} years must be positive")
    if epoch_requests is not None and epoch_requests < 1:
        raise ConfigError(f"epoch requests {epoch_requests} must be at least 1")
    if max_epochs < 1:
        raise ConfigError(f"max epochs {max_epochs} must be at least 1")
    cfg = load_config(config, overrides)
    life = _Life.start(cfg, cls, retention_c, epoch_requests, log)
    life.epoch(0)
    if not sensitivity:
        return life.rating(max_step, max_epochs, warranty_years)

    def half_of(paused: _Life) -> tuple[Rating, list[str]]:
        lines: list[str] = []  # logged after the first rating's
        paused.log = lines.append
        return paused.rating(max_step / 2, max_epochs * 2, warranty_years), lines

    if "fork" in multiprocessing.get_all_start_methods():
        half = _beside(lambda: half_of(life))
    else:  # no copy of the paused simulation: the first epoch is simulated again

        def half(wait: bool) -> tuple[Rating, list[str]] | None:
            again = _Life.start(cfg, cls, retention_c, epoch_requests, None)
            again.epoch(0)
            return half_of(again) if wait else None

    rating = life.rating(max_step, max_epochs, warranty_years)
    if rating.rated_tbw is None:
        half(False)
        return rating
    done = half(True)
    assert done is not None
    h, lines = done
    if log:
        for line in lines:
            log(line)
    rating.sensitivity = {
        "max_step": max_step / 2,
        "rated_tbw": h.rated_tbw,
        "epochs": h.epochs,
        "relative_change": None
        if h.rated_tbw is None or rating.rated_tbw == 0
        else (h.rated_tbw - rating.rated_tbw) / rating.rated_tbw,
    }
    return rating


_T = TypeVar("_T")


def _beside(run: Callable[[], _T]) -> Callable[[bool], _T | None]:
    """Starts ``run`` in a copy of this process (``fork``: the paused simulation is copied
    as it stands, not simulated again), running beside this one; returns a function that
    waits for its result (``True``) or stops it (``False``)."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)

    def child() -> None:
        try:
            send.send(("ok", run()))
        except BaseException as e:  # handed to the parent, which raises it
            send.send(("error", e))

    proc = ctx.Process(target=child, daemon=True)
    proc.start()
    send.close()

    def result(wait: bool) -> _T | None:
        try:
            if not wait:
                proc.terminate()
                return None
            try:
                kind, value = recv.recv()
            except EOFError:
                raise NandlabError(
                    f"the half-step rating's process ended without a result (exit code "
                    f"{proc.exitcode})"
                ) from None
            if kind == "error":
                raise value
            return value
        finally:
            proc.join()
            recv.close()

    return result


@dataclass
class _Life:
    """One rating's progress: the drive paused between epochs and the epochs so far."""

    cls: EnduranceClass
    drive: Drive
    limit: int
    configured: int | None
    first_requests: int
    later_requests: int
    requirements: dict[str, Any]
    uber_at: Callable[[np.ndarray], dict[str, float]]
    aging: _Aging | None
    log: Callable[[str], None] | None
    rows: list[dict[str, Any]] = field(default_factory=list)
    written: float = 0.0
    #: host bytes of the next epoch (the first epoch is its simulated requests alone)
    epoch_bytes: float = 0.0
    last_bytes: float = 0.0  #: host bytes of the last epoch
    ended: bool = False
    rated: float | None = None
    limiting: str = ""

    @classmethod
    def start(
        cls,
        cfg0: dict[str, Any],
        klass: EnduranceClass,
        retention_c: float | None,
        epoch_requests: int | None,
        log: Callable[[str], None] | None,
    ) -> _Life:
        core = _native.core()
        cfg = copy.deepcopy(cfg0)
        out = cfg.setdefault("output", {})
        out["record_requests"] = False
        out.pop("timeline_ns", None)  # the session would keep one for the whole life
        configured = cfg.setdefault("ftl", {}).get("retire_pe_limit")
        limit = int(configured) if configured is not None else NO_LIMIT_PE
        cfg["ftl"]["retire_pe_limit"] = limit
        # Resolved without the initial wear, which may already fail the drive (the first
        # epoch reports that).
        probe = copy.deepcopy(cfg)
        probe.get("aging", {}).pop("initial_pe", None)
        resolved = json.loads(core.validate_config(json.dumps(probe)))
        drive = Drive.of(resolved)
        first_requests, endless = _workload_plan(resolved["workload"])
        later_requests = epoch_requests or min(
            max(first_requests // LATER_DIVISOR, 1), LATER_MAX
        )
        cfg["workload"] = {**cfg.get("workload", {}), **endless}
        off_c = klass.retention_c if retention_c is None else retention_c
        requirements = {
            "uber": klass.uber,
            "retention_days": klass.retention_days,
            "retention_c": off_c,
            "active_c": klass.active_c,
            "hours_per_day": klass.hours_per_day,
            "ffr": klass.ffr,
            "ffr_evaluated": False,
        }
        config_json = json.dumps(resolved)

        def uber_at(pe: np.ndarray) -> dict[str, float]:
            alive = pe[pe < limit]
            days = klass.retention_days
            return json.loads(core.retention_uber(config_json, alive.tolist(), days, off_c))

        # Failing at once (a retention temperature out of range, say) fails before any run.
        uber_at(np.zeros(1))
        aging = _Aging.start(core, cfg, drive, limit)
        return cls(
            klass, drive, limit, configured, first_requests, later_requests, requirements,
            uber_at, aging, log,
        )

    def epoch(self, k: int) -> None:
        """Simulates epoch ``k``, fast-forwards its wear and checks the requirements;
        ``ended`` once one fails (``rated``, ``limiting``)."""
        requests = self.first_requests if k == 0 else self.later_requests
        aging = self.aging
        epoch = None if aging is None else aging.epoch(requests, self.epoch_bytes)
        if aging is None or epoch is None:  # the drive failed before or in the simulation
            self.ended, self.rated, self.limiting = True, self.written, "capacity (spare area)"
            return
        fail_f, why = _first_failure(epoch, self.drive, self.limit, self.cls, self.uber_at)
        f = 1.0 if fail_f is None else fail_f
        pe_end = np.minimum(epoch.pe_start + f * epoch.slope, self.limit)
        end_written = self.written + f * epoch.bytes
        check = self.uber_at(pe_end)
        self.rows.append(_row(k, end_written, pe_end, epoch, check, self.limit, self.drive))
        if self.log:
            self.log(
                f"epoch {k}: {end_written / TB:.3f} TB written, P/E mean {pe_end.mean():.1f} "
                f"max {pe_end.max():.0f}, WAF {self.rows[-1]['write_amplification']:.3f}, "
                f"UBER {check['uber']:.3g}"
            )
        if fail_f is None and not aging.fast_forward(epoch):
            fail_f, why = 1.0, "capacity (spare area)"
        if fail_f is not None:
            self.ended, self.rated, self.limiting = True, end_written, why
            return
        self.written = end_written
        self.last_bytes = epoch.bytes

    def rating(self, max_step: float, max_epochs: int, warranty_years: float) -> Rating:
        """Runs the epochs after the first, each sized by ``max_step`` from the one
        before, until a requirement fails or ``max_epochs`` have run."""
        for k in range(1, max_epochs):
            if self.ended:
                break
            step = _largest_change(self.rows, self.limit, self.cls.uber)
            grow = min(MAX_GROWTH, max(0.25, max_step / max(step, 1e-12)))
            self.epoch_bytes = max(self.last_bytes * grow, 1.0)
            self.epoch(k)
        if not self.ended:
            self.limiting = (
                f"none within {max_epochs} epochs ({self.written / TB:.3f} TB written)"
            )
        rated = self.rated
        return Rating(
            endurance_class=self.cls.name,
            rated_tbw=None if rated is None else rated / TB,
            dwpd=None
            if rated is None
            else rated / self.drive.capacity_bytes / (warranty_years * 365.0),
            warranty_years=warranty_years,
            limiting=self.limiting,
            capacity_bytes=self.drive.capacity_bytes,
            retire_pe_limit=self.configured,
            epochs=len(self.rows),
            requirements=self.requirements,
            rows=self.rows,
        )


def _workload_plan(w: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
    """Requests of the first epoch (the configured workload once: ``workload.requests``,
    or a trace's requests) and the workload keys that make the session's stream endless
    (later epochs continue it)."""
    if w.get("kind") == "trace":
        first = w.get("max_requests") or trace_info(w["path"], w.get("format", "auto"))["requests"]
        return int(first), {"repeat": ENDLESS_REPEAT}
    first = w.get("requests") or DEFAULT_REQUESTS
    return int(first), {"requests": ENDLESS_REQUESTS, "duration_s": None}


@dataclass
class _Aging:
    """The drive in one simulation paused between epochs (``_core.Session``): its data
    layout, free pool and per-page history carry over, so only the first epoch starts
    from the ``aging`` fill; wear is fast-forwarded in place."""

    session: Any
    drive: Drive
    limit: int
    pe: np.ndarray
    programs: int  #: host and moved page programs so far
    host: int  #: host page programs so far
    #: judged page reads, their RBER sum and decoded-at-level counts so far
    reads: tuple[int, float, np.ndarray] = (0, 0.0, np.zeros(0))

    @classmethod
    def start(cls, core: Any, cfg: Mapping[str, Any], drive: Drive, limit: int) -> _Aging | None:
        """The drive as configured, or ``None`` when it has failed before it runs."""
        try:
            session = core.Session(json.dumps(cfg))
        except NandlabError as e:
            if "the drive failed" in str(e):
                return None
            raise
        flash = json.loads(session.summary())["flash"]
        pe = np.asarray(flash["retirement"]["pe_by_block"], dtype=float)
        return cls(session, drive, limit, pe, 0, 0)

    def epoch(self, requests: int, epoch_bytes: float) -> _Epoch | None:
        """Simulates ``requests`` more requests, then plans the wear fast-forward to
        ``epoch_bytes`` of host writes (at least the simulated ones): every block in
        service gains the same share of the blocks the epoch's remaining host pages
        program at the write amplification just measured (each block is erased before it
        is programmed again). ``None``: the drive failed in the simulation."""
        try:
            more = self.session.advance(requests)
        except NandlabError as e:
            # GC finding no free block once blocks have retired is the drive failing too
            # (blocks it erases retire rather than return to the pool); before any has
            # retired it is the configuration's over-provisioning.
            worn = bool((self.pe >= self.limit).any())
            if "the drive failed" in str(e) or (worn and "no free block left" in str(e)):
                return None
            raise
        summary = json.loads(self.session.summary())
        flash = summary["flash"]
        host = flash["host_page_programs"] - self.host
        # Host and moved pages (the summary's write amplification counts every move).
        programs = round(flash["write_amplification"] * flash["host_page_programs"]) - self.programs
        if host == 0:
            raise ConfigError(
                "the workload writes nothing: an endurance rating needs host writes "
                "(workload.read_fraction < 1, or a trace with writes)"
            )
        if not more:
            raise NandlabError("the workload ended: an endurance rating needs an endless one")
        self.host += host
        self.programs += programs
        simulated = np.asarray(flash["retirement"]["pe_by_block"], dtype=float)
        d = self.drive
        remaining = max(epoch_bytes / d.page_bytes - host, 0.0)
        alive = simulated < self.limit
        mean = programs / host * remaining / d.pages_per_block / max(int(alive.sum()), 1)
        forward = _spread_evenly(mean, simulated, alive)
        summary["steady_write_amplification"] = programs / host
        summary["epoch_reads"] = self._epoch_reads(summary.get("reliability") or {})
        start = self.pe
        end = simulated + forward
        self.pe = end
        return _Epoch(
            pe_start=start,
            slope=end - start,
            bytes=(host + remaining) * d.page_bytes,
            summary=summary,
            forward=forward,
        )

    def _epoch_reads(self, rel: Mapping[str, Any]) -> dict[str, float | None]:
        """The epoch's own read statistics (the summary's are the session's so far): mean
        RBER and decoding level of the pages judged in it, from the growing sums, and
        the host reads' p99 latency since the last epoch."""
        reads = int(rel.get("page_reads") or 0)
        rber_sum = float(rel.get("rber_mean") or 0.0) * reads
        levels = np.asarray(rel.get("decoded_at_level") or [], dtype=float)
        n0, sum0, levels0 = self.reads
        n = reads - n0
        by_level = levels - np.pad(levels0, (0, len(levels) - len(levels0)))
        self.reads = (reads, rber_sum, levels)
        p99 = self.session.read_quantile_since_mark(0.99)
        return {
            "rber_mean": (rber_sum - sum0) / n if n > 0 else None,
            "decode_level_mean": float(by_level @ np.arange(len(levels))) / n if n > 0 else None,
            "read_p99_ns": p99,
        }

    def fast_forward(self, epoch: _Epoch) -> bool:
        """Adds the epoch's planned wear in place; ``False`` if that fails the drive."""
        try:
            self.session.add_wear(epoch.forward.astype(np.int64).tolist())
        except NandlabError as e:
            if "the drive failed" in str(e):
                return False
            raise
        return True


def _spread_evenly(mean: float, pe: np.ndarray, alive: np.ndarray) -> np.ndarray:
    """Whole P/E cycles adding up to ``mean`` per block in service (rounded), the odd
    ones to the least-worn blocks (a leveling FTL's choice; ties by block number)."""
    n = int(alive.sum())
    out = np.zeros(len(pe))
    if n == 0 or mean <= 0:
        return out
    base = math.floor(mean)
    extra = round((mean - base) * n)
    out[alive] = base
    order = np.lexsort((np.arange(len(pe)), pe))
    order = order[alive[order]][:extra]
    out[order] += 1
    return out


def _first_failure(
    epoch: _Epoch,
    drive: Drive,
    limit: int,
    cls: EnduranceClass,
    uber_at: Callable[[np.ndarray], dict[str, float]],
) -> tuple[float | None, str]:
    """The fraction of the epoch at which a requirement first fails, and which."""
    candidates: list[tuple[float, str]] = []
    f_cap = _capacity_failure(epoch, drive, limit)
    if f_cap is not None:
        candidates.append((f_cap, "capacity (spare area)"))

    def pe_at(f: float) -> np.ndarray:
        return np.minimum(epoch.pe_start + f * epoch.slope, limit)

    if uber_at(pe_at(0.0))["uber"] > cls.uber:
        candidates.append((0.0, "UBER after power-off retention"))
    elif uber_at(pe_at(1.0))["uber"] > cls.uber:
        lo, hi = 0.0, 1.0
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            if uber_at(pe_at(mid))["uber"] > cls.uber:
                hi = mid
            else:
                lo = mid
        candidates.append((hi, "UBER after power-off retention"))
    if not candidates:
        return None, ""
    return min(candidates)


def _capacity_failure(epoch: _Epoch, drive: Drive, limit: int) -> float | None:
    """Fraction of the epoch at which some plane retires one block more than it has spare
    (blocks reach the limit one by one as wear grows linearly), or ``None``."""
    bpp = drive.blocks_per_plane
    start = epoch.pe_start.reshape(drive.planes, bpp)
    slope = epoch.slope.reshape(drive.planes, bpp)
    retired = start >= limit
    spare = drive.spare_at_start(bpp - retired.sum(axis=1))
    if (spare < 0).any():
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(retired, np.inf, np.where(slope > 0, (limit - start) / slope, np.inf))
    t.sort(axis=1)
    # The (spare + 1)-th retirement of each plane fails it.
    f = t[np.arange(drive.planes), np.minimum(spare, bpp - 1)]
    first = float(f.min())
    return first if first <= 1.0 else None


def _largest_change(rows: list[dict[str, Any]], limit: int, uber_limit: float) -> float:
    """The epoch's largest step towards a requirement, as a fraction of the whole way from
    the first epoch: the most-worn block's P/E towards the retirement limit, the spare
    blocks used, and the UBER in decades towards the class's."""
    first, b = rows[0], rows[-1]
    a = rows[-2] if len(rows) >= 2 else None
    changes = []
    if limit < NO_LIMIT_PE:
        changes.append((b["pe_max"] - (a["pe_max"] if a else 0.0)) / limit)
    if a is not None:
        spare0 = max(first["spare_blocks_min"], 1)
        changes.append((a["spare_blocks_min"] - b["spare_blocks_min"]) / spare0)
        if a["uber"] > 0 and b["uber"] > 0 and first["uber"] < uber_limit:
            way = max(math.log10(uber_limit) - math.log10(first["uber"]), 1.0)
            changes.append(abs(math.log10(b["uber"]) - math.log10(a["uber"])) / way)
    return max(changes, default=0.0)


def _row(
    k: int,
    written: float,
    pe: np.ndarray,
    epoch: _Epoch,
    check: Mapping[str, float],
    limit: int,
    drive: Drive,
) -> dict[str, Any]:
    s = epoch.summary
    bpp = drive.blocks_per_plane
    retired = pe >= limit
    in_service = bpp - retired.reshape(drive.planes, bpp).sum(axis=1)
    reads = s["epoch_reads"]
    p50, p99, p999 = np.percentile(pe, [50, 99, 99.9])
    return {
        "epoch": k,
        "tb_written": written / TB,
        "drive_writes": written / drive.capacity_bytes,
        "epoch_tb": epoch.bytes / TB,
        "pe_mean": float(pe.mean()),
        "pe_p50": float(p50),
        "pe_p99": float(p99),
        "pe_p999": float(p999),
        "pe_max": float(pe.max()),
        "write_amplification": s["steady_write_amplification"],
        "run_write_amplification": s["flash"]["write_amplification"],
        "wear_leveling_efficiency": float(pe.max() / pe.mean()) if pe.mean() > 0 else 1.0,
        "retired_blocks": int(retired.sum()),
        "spare_blocks_min": int(drive.spare_at_start(in_service).min()),
        "rber_epoch_mean": reads["rber_mean"],
        "decode_level_epoch_mean": reads["decode_level_mean"],
        "read_p99_epoch_ns": reads["read_p99_ns"],
        "rber_retention": check["rber_mean"],
        "uber": check["uber"],
        "uber_worst_block": check["uber_worst_block"],
    }
