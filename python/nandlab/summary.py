"""Typed access to a run's ``summary.json``: a metric that is not there is an error that
names it, never a silent default.

>>> s = Summary(result.summary)
>>> s.metric("read.p99_ns")            # an int or a float
>>> s.metric("read.p99_nss")           # MissingMetric: `read.p99_nss` ... (read has: ...)
>>> s.flat()                           # {"read.p99_ns": ..., ...}: every scalar metric
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

#: Summary fields that measure the machine, not the simulation: left out of
#: :meth:`Summary.flat` so that the same runs give the same table on any machine.
WALL_CLOCK = ("sim.wall_s", "sim.requests_per_s")

Scalar = int | float | str | bool | None


class MissingMetric(KeyError):
    """A metric key that the summary does not hold."""

    def __str__(self) -> str:
        return str(self.args[0])


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
