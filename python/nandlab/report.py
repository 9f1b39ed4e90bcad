"""Rich tables for a run summary and for trace statistics (display only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table

from .summary import Summary

DASH = "—"


def fmt_ns(ns: Any) -> str:
    """A duration in ns with a readable unit: ``950 ns``, ``12.3 µs``, ``4.56 ms``, ``7.89 s``."""
    if not isinstance(ns, int | float):
        return DASH
    a = abs(ns)
    for limit, div, unit in ((1e3, 1, "ns"), (1e6, 1e3, "µs"), (1e9, 1e6, "ms")):
        if a < limit:
            return f"{ns / div:.3g} {unit}" if unit != "ns" else f"{ns:.0f} ns"
    return f"{ns / 1e9:,.3f} s" if a < 1e12 else f"{ns / 1e9:,.0f} s"


def fmt_bytes(n: Any) -> str:
    """A byte count with a binary unit: ``512 B``, ``4.0 KiB``, ``1.5 GiB``."""
    if not isinstance(n, int | float):
        return DASH
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return DASH  # unreachable


def fmt_num(x: Any, digits: int = 4) -> str:
    """An int with thousands separators; a float to ``digits`` significant digits, no exponent
    from 0.01 up, and whole (with separators) from 1000 up."""
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        if x == 0 or abs(x) >= 1000:
            return f"{x:,.0f}"
        if abs(x) >= 0.01:
            return f"{x:.{digits}g}"
        return f"{x:.{digits - 1}e}"
    return DASH if x is None else str(x)


_LATENCY_KEYS = ("mean_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns")

#: The request classes of the latency table: sections every summary has.
OPS = ("read", "write", "all")


def _latency_unit(values: list[float]) -> tuple[str, float]:
    top = max(values, default=0)
    if top < 1e6:
        return "µs", 1e3
    if top < 1e9:
        return "ms", 1e6
    return "s", 1e9


def latency_table(summary: Mapping[str, Any]) -> Table:
    """Response time (in one unit for the table) and throughput per operation class."""
    s = Summary(summary)
    # None: no request of the kind completed (a dash in the table).
    values = {(op, k): s.data[op][k] for op in OPS for k in _LATENCY_KEYS}
    unit, div = _latency_unit([v for v in values.values() if v is not None])
    t = Table(title=f"response time ({unit})", title_justify="left")
    t.add_column("op")
    for col in ("count", "mean", "p50", "p99", "p99.9", "max", "IOPS", "MB/s"):
        t.add_column(col, justify="right", no_wrap=True)
    for op in OPS:
        t.add_row(
            op,
            fmt_num(s.metric(f"{op}.count")),
            *(DASH if values[op, k] is None else f"{values[op, k] / div:,.1f}"
              for k in _LATENCY_KEYS),
            fmt_num(s.metric(f"{op}.iops")),
            fmt_num(s.metric(f"{op}.bandwidth_mb_s")),
        )
    return t


def _kv_table(title: str, rows: list[tuple[str, str]]) -> Table:
    t = Table(title=title, title_justify="left", show_header=False)
    t.add_column("metric")
    t.add_column("value", justify="right")
    for k, v in rows:
        t.add_row(k, v)
    return t


def device_table(summary: Mapping[str, Any]) -> Table:
    """Request mix, flash operations, write amplification and simulation speed."""
    s = Summary(summary)
    m = s.metric
    rows = [
        ("requests", fmt_num(m("requests.count"))),
        (
            "reads / writes / trims",
            " / ".join(fmt_num(m(f"requests.{k}")) for k in ("reads", "writes", "trims")),
        ),
        ("page reads, host + GC/WL/refresh", fmt_num(m("flash.page_reads_incl_gc"))),
        ("page programs", fmt_num(m("flash.page_programs"))),
        ("erases", fmt_num(m("flash.erases"))),
        ("GC page moves / erases",
         f"{fmt_num(m('flash.gc_page_moves'))} / {fmt_num(m('flash.gc_erases'))}"),
        ("WL page moves", fmt_num(m("flash.wl_page_moves"))),
        ("refresh page moves / erases",
         f"{fmt_num(m('flash.refresh_page_moves'))} / {fmt_num(m('flash.refresh_erases'))}"),
        ("write amplification", f"{s.number('flash.write_amplification'):.3f}"),
        ("simulated time", fmt_ns(m("sim.simulated_ns"))),
        ("wall time", f"{s.number('sim.wall_s'):.2f} s"),
        ("requests / s (wall)", fmt_num(m("sim.requests_per_s"))),
    ]
    return _kv_table("device", rows)


#: Row labels of summary keys whose name alone could be misread (key → label).
LABELS = {
    # The reliability section counts the host page reads the error model judged; GC
    # moves read pages too, which the device table's count includes.
    "page_reads": "page_reads (host, judged)",
}


def section_table(title: str, section: Mapping[str, Any]) -> Table:
    """Scalar entries of a summary section (one level of nesting flattened)."""
    rows: list[tuple[str, str]] = []
    for k, v in section.items():
        if isinstance(v, Mapping):
            rows += [(f"{k}.{k2}", fmt_num(v2)) for k2, v2 in v.items()
                     if not isinstance(v2, Mapping | list)]
        elif not isinstance(v, list):
            rows.append((LABELS.get(k, k), fmt_num(v)))
    return _kv_table(title, rows)


#: Summary sections shown by :func:`summary_view` besides the latency/device tables.
EXTRA_SECTIONS = ("reliability", "energy_uj")


def summary_view(summary: Mapping[str, Any]) -> Group:
    """The headline metrics of a run, as rich tables."""
    parts: list[Any] = [latency_table(summary), device_table(summary)]
    s = Summary(summary)
    # A run without an error model has no reliability section.
    for name in EXTRA_SECTIONS:
        if s.has(name):
            parts.append(section_table(name, summary[name]))
    return Group(*parts)


def _histogram_rows(hist: Any) -> list[tuple[str, str]]:
    """Rows of the core's size histogram: buckets ``{min_bytes, max_bytes, count}``."""
    if not isinstance(hist, list):
        return []
    return [
        (f"{fmt_bytes(b['min_bytes'])} – {fmt_bytes(b['max_bytes'] + 1)}", fmt_num(b["count"]))
        for b in hist
        if isinstance(b, Mapping) and {"min_bytes", "max_bytes", "count"} <= b.keys()
    ]


def trace_view(path: str, info: Mapping[str, Any]) -> Group:
    """Trace statistics as rich tables; every quantity with its unit."""
    ratio = info.get("read_ratio")
    bratio = info.get("read_bytes_ratio")
    pages = info.get("footprint_pages")
    rows = [
        ("format", f"{info.get('format', DASH)} (time in {info.get('time_unit', DASH)})"),
        ("requests", fmt_num(info.get("requests"))),
        (
            "reads / writes / trims",
            " / ".join(fmt_num(info.get(k)) for k in ("reads", "writes", "trims")),
        ),
        ("writes flagged critical (disksim column 6)", fmt_num(info.get("critical_writes"))),
        ("read ratio (by count)", f"{ratio:.1%}" if isinstance(ratio, int | float) else DASH),
        ("read ratio (by bytes)", f"{bratio:.1%}" if isinstance(bratio, int | float) else DASH),
        ("total bytes (all requests)", fmt_bytes(info.get("total_bytes"))),
        ("mean request size", fmt_bytes(info.get("mean_size_bytes"))),
        (
            "footprint (distinct 4 KiB pages touched)",
            f"{fmt_num(pages)} pages = {fmt_bytes(info.get('footprint_bytes'))}"
            if isinstance(pages, int) else fmt_bytes(info.get("footprint_bytes")),
        ),
        (
            "repeated-address ratio (of pages read)",
            f"{rep:.2%} of {fmt_num(info.get('read_footprint_pages'))} pages"
            if isinstance(rep := info.get("repeated_address_ratio"), int | float) else DASH,
        ),
        ("max offset + size", fmt_bytes(info.get("max_offset_end_bytes"))),
        ("duration", fmt_ns(info.get("duration_ns"))),
        ("mean inter-arrival", fmt_ns(info.get("mean_interarrival_ns"))),
        ("streams", fmt_num(info.get("streams"))),
        ("arrivals earlier than the one before", fmt_num(info.get("backwards_arrivals"))),
    ]
    parts: list[Any] = [_kv_table(path, rows)]
    hist = _histogram_rows(info.get("size_histogram"))
    if hist:
        t = Table(title="request sizes", title_justify="left")
        t.add_column("size (from – below)", justify="right")
        t.add_column("requests", justify="right")
        for r in hist:
            t.add_row(*r)
        parts.append(t)
    return Group(*parts)


def states_view(files: Sequence[Mapping[str, Any]], unit_bytes: int) -> Table:
    """Cell-state make-up of files (``nandlab states``)."""
    names = [name for name, _ in files[0]["state_shares"]] if files else []
    t = Table(title=f"MLC cell states (units of {unit_bytes:,} B)", title_justify="left")
    t.add_column("file")
    for n in names:
        t.add_column(f"'{n}'", justify="right")
    for col in ("error-prone", "error-prone units", "after BitFlip"):
        t.add_column(col, justify="right")
    for f in files:
        shares = [f"{v:.1%}" for _, v in f["state_shares"]]
        t.add_row(
            Path(f["path"]).name,
            *shares,
            f"{f['error_prone_share']:.1%}",
            f"{f['error_prone_unit_share']:.1%}",
            f"{f['error_prone_share_after_flip']:.1%}",
        )
    return t
