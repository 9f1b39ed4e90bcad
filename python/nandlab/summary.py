"""Typed access to a run's ``summary.json``: a metric that is not there is an error that
names it, never a silent default.

>>> s = Summary(result.summary)
>>> s.read.p99_ns                      # typed: the headline tables are dataclasses
>>> s.metric("read.p99_ns")            # any metric by dotted name
>>> s.metric("read.p99_nss")           # MissingMetric: `read.p99_nss` ... (read has: ...)
>>> s.flat()                           # {"read.p99_ns": ..., ...}: every scalar metric
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

#: Summary fields that measure the machine, not the simulation: left out of
#: :meth:`Summary.flat` so that the same runs give the same table on any machine.
WALL_CLOCK = ("sim.wall_s", "sim.requests_per_s")

Scalar = int | float | str | bool | None


class MissingMetric(KeyError):
    """A metric key that the summary does not hold."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class RequestCounts:
    """Requests served, by kind (the core's ``RequestCounts``)."""

    count: int
    reads: int
    writes: int
    trims: int


@dataclass(frozen=True)
class LatencyTable:
    """Response times and throughput of one kind of request over the run's span (the
    core's ``LatencySummary``; the mean, percentiles and maximum are ``None`` when no
    request of the kind completed: statistics over nothing)."""

    count: int
    bytes: int
    mean_ns: float | None
    p50_ns: int | None
    p99_ns: int | None
    p999_ns: int | None
    max_ns: int | None
    iops: float
    bandwidth_mb_s: float


@dataclass(frozen=True)
class FlowTable:
    """One flow's requests and latencies (``workload.flows``)."""

    id: int
    requests: RequestCounts
    read: LatencyTable
    write: LatencyTable
    all: LatencyTable


@dataclass(frozen=True)
class SimInfo:
    """The run itself: simulated time, events, and its wall-clock cost."""

    simulated_ns: int
    events: int
    mapping_entries: int
    wall_s: float
    requests_per_s: float


T = TypeVar("T")


def _typed(cls: type[T], data: Any, key: str) -> T:
    """``cls`` from the summary's table ``data`` at ``key``: the field names must match
    exactly, so a schema change in the core is an error naming it, not a default."""
    if not isinstance(data, Mapping):
        raise MissingMetric(f"`{key}` is {data!r}, not a table")
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    if set(data) != set(names):
        raise MissingMetric(f"`{key}` has keys {sorted(data)}, {cls.__name__} has {names}")
    return cls(**data)


@dataclass(frozen=True)
class Summary:
    """A run's summary (the core's JSON, parsed). ``config`` is the resolved config.

    The core's schema is ``crates/nandlab-core/src/metrics/summary/``: sections a run does
    not have (no error model, no DRAM cache...) are absent, means over nothing are ``null``.
    """

    data: Mapping[str, Any]

    @classmethod
    def from_json(cls, text: str) -> Summary:
        return cls(json.loads(text))

    @property
    def version(self) -> str:
        return str(self.metric("version"))

    @property
    def seed(self) -> int:
        return int(self.metric("seed"))

    @property
    def config(self) -> Mapping[str, Any]:
        return self._node("config")

    @property
    def requests(self) -> RequestCounts:
        return _typed(RequestCounts, self._node("requests"), "requests")

    @property
    def read(self) -> LatencyTable:
        return _typed(LatencyTable, self._node("read"), "read")

    @property
    def write(self) -> LatencyTable:
        return _typed(LatencyTable, self._node("write"), "write")

    @property
    def all(self) -> LatencyTable:
        return _typed(LatencyTable, self._node("all"), "all")

    @property
    def sim(self) -> SimInfo:
        return _typed(SimInfo, self._node("sim"), "sim")

    @property
    def flows(self) -> list[FlowTable]:
        """Per-flow tables; empty for a run without ``[[workload.flows]]``."""
        out = []
        for i, f in enumerate(self.data.get("flows") or []):
            key = f"flows[{i}]"
            out.append(FlowTable(
                id=int(f["id"]), requests=_typed(RequestCounts, f["requests"], key + ".requests"),
                read=_typed(LatencyTable, f["read"], key + ".read"),
                write=_typed(LatencyTable, f["write"], key + ".write"),
                all=_typed(LatencyTable, f["all"], key + ".all")))
        return out

    def has(self, key: str) -> bool:
        """Whether the dotted ``key`` (a metric or a section) is present."""
        try:
            self._node(key)
        except MissingMetric:
            return False
        return True

    def metric(self, key: str) -> Any:
        """The value at dotted ``key`` (``"read.p99_ns"``); :class:`MissingMetric` when absent.

        A metric that is ``null`` in this run (a mean over nothing, e.g.
        ``pe_time.erase_ns_mean`` when nothing was erased) is missing too: ask :meth:`has`.
        """
        value = self._node(key)
        if isinstance(value, Mapping):
            raise MissingMetric(f"`{key}` is a section ({', '.join(value)}), not a metric")
        return value

    def number(self, key: str) -> float:
        """The metric at ``key`` as a float; an error naming it when it is not a number."""
        value = self.metric(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise MissingMetric(f"`{key}` is {value!r}, not a number")
        return float(value)

    def flat(self) -> dict[str, Any]:
        """Every metric as ``{dotted key: value}``: scalars, lists of scalars as lists, other
        lists as JSON text; the config and the wall-clock fields are left out."""
        out: dict[str, Any] = {}
        for key, value in _leaves(self.data, ""):
            if key.startswith("config.") or key == "config" or key in WALL_CLOCK:
                continue
            if isinstance(value, list) and not all(_is_scalar(v) for v in value):
                value = json.dumps(value, sort_keys=True)
            out[key] = value
        return out

    def _node(self, key: str) -> Any:
        node: Any = self.data
        parts = key.split(".")
        for i, part in enumerate(parts):
            here = ".".join(parts[: i + 1])
            if isinstance(node, Mapping) and part in node and node[part] is None:
                raise MissingMetric(
                    f"metric `{key}` is not in the run's summary (`{here}` is empty in this run)"
                )
            if not isinstance(node, Mapping) or part not in node:
                where = ".".join(parts[:i]) or "the summary"
                have = ", ".join(node) if isinstance(node, Mapping) else "no keys"
                raise MissingMetric(
                    f"metric `{key}` is not in the run's summary ({where} has: {have})"
                )
            node = node[part]
        return node


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, int | float | str | bool)


def _leaves(node: Mapping[str, Any], prefix: str) -> Iterator[tuple[str, Any]]:
    for k, v in node.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            yield from _leaves(v, key + ".")
        else:
            yield key, v
