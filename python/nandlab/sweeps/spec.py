"""The sweep spec: a TOML file (or a dict of the same shape) naming a base config and the
values to sweep. Every key is checked here; a mistake is one :class:`ConfigError` line
naming the key, before any run starts.

```toml
config = "../demo.toml"            # base config (path relative to this file, or a table)
seeds = [1, 2]                     # or repeat = 3 (the config's seed, +1, +2)
trace_identity = "stat"            # or "content": hash trace files instead of path/size/mtime

[set]                              # overrides applied to every run
"workload.requests" = 2000

[grid]                             # cartesian product of these values
"ftl.gc_policy" = ["greedy", "cost_benefit"]

[[case]]                           # explicit combinations; crossed with the grid
"reliability.nominal_rber" = 4e-3
tags = { reference = "baseline" }  # extra columns of the results table

[[trace]]                          # the workloads: traces ...
path = "hm_0.csv"
format = "msr"
max_requests = 5000                # optional: this trace's `workload.max_requests`

[[workload]]                       # ... and/or synthetic workloads (keys of [workload])
name = "read_mostly"
read_fraction = 0.9
```
Without ``[[trace]]`` or ``[[workload]]`` the base config's own workload runs.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import check_key, load_config, parse_toml_text
from ..errors import ConfigError

TOP_KEYS = ("name", "config", "seeds", "repeat", "trace_identity", "set", "grid", "case",
            "trace", "workload")
TRACE_KEYS = ("path", "format", "name", "max_requests")
TRACE_IDENTITIES = ("stat", "content")
#: Columns of the results table that tags may not take.
RESERVED_COLUMNS = ("run_id", "workload", "seed", "version")


@dataclass(frozen=True)
class Workload:
    """One entry of the workload axis: a trace file or a set of ``workload.*`` overrides."""

    name: str
    overrides: dict[str, Any] = field(default_factory=dict)
    trace: Path | None = None
    trace_format: str | None = None


@dataclass(frozen=True)
class Point:
    """One combination of swept values (dotted key -> value) and its tags."""

    overrides: dict[str, Any]
    tags: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SweepSpec:
    """A validated spec: the base config (``[set]`` applied) and the three axes."""

    source: str
    name: str
    config: dict[str, Any]
    swept: list[str]
    tags: list[str]
    points: list[Point]
    workloads: list[Workload]
    seeds: list[int] | None
    trace_identity: str


def load_spec(spec: str | os.PathLike | Mapping[str, Any]) -> SweepSpec:
    """Reads and checks a spec: a TOML file path, or a dict (paths relative to the cwd)."""
    if isinstance(spec, Mapping):
        return parse_spec(dict(spec), "sweep spec", Path.cwd(), "sweep")
    p = Path(spec).expanduser()
    if not p.is_file():
        raise ConfigError(f"sweep spec {p}: no such file")
    data = parse_toml_text(p.read_text(encoding="utf-8"), source=str(p))
    return parse_spec(data, f"sweep spec {p}", p.resolve().parent, p.stem)


def parse_spec(data: dict[str, Any], source: str, base_dir: Path, default_name: str) -> SweepSpec:
    def fail(msg: str) -> ConfigError:
        return ConfigError(f"{source}: {msg}")

    _no_unknown(data, TOP_KEYS, "", fail)
    if "config" not in data:
        raise fail("`config` (the base config: a file path or a table) is missing")
    base = data["config"]
    if isinstance(base, str):
        path = _path(base, base_dir)
        if not path.is_file():
            raise fail(f"`config`: {path} does not exist")
        config_src: Any = path
    elif isinstance(base, Mapping):
        config_src = dict(base)
    else:
        raise fail("`config` must be a file path or a table")
    fixed = _dotted(_table(data, "set", fail), "set", fail)
    config = load_config(config_src, fixed)

    grid = _grid(data, fail)
    cases = _cases(data, fail)
    points = [
        Point({**case.overrides, **dict(combo)}, case.tags)
        for case in cases
        for combo in itertools.product(*([(k, v) for v in vs] for k, vs in grid.items()))
    ]
    swept = list(dict.fromkeys([k for c in cases for k in c.overrides] + list(grid)))
    tags = list(dict.fromkeys(t for c in cases for t in c.tags))

    ident = data.get("trace_identity", "stat")
    if ident not in TRACE_IDENTITIES:
        raise fail(f"`trace_identity` must be one of {', '.join(TRACE_IDENTITIES)}, not {ident!r}")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name:
        raise fail("`name` must be a non-empty string")
    return SweepSpec(
        source=source,
        name=name,
        config=config,
        swept=swept,
        tags=tags,
        points=points,
        workloads=_workloads(data, base_dir, fail),
        seeds=_seeds(data, config, fail),
        trace_identity=ident,
    )


def _no_unknown(table: Mapping[str, Any], known: tuple[str, ...], where: str, fail: Any) -> None:
    for k in table:
        if k not in known:
            raise fail(f"unknown key `{where}{k}` (expected one of {', '.join(known)})")


def _table(data: Mapping[str, Any], key: str, fail: Any) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise fail(f"`{key}` must be a table")
    return dict(value)


def _dotted(table: Mapping[str, Any], where: str, fail: Any) -> dict[str, Any]:
    """Nested tables flattened to dotted keys (``[set.ftl] gc_policy`` = ``"ftl.gc_policy"``)."""
    out: dict[str, Any] = {}
    for key, value in _flatten(table, ""):
        try:
            out[check_key(key)] = value
        except ConfigError as e:
            raise fail(f"`{where}`: {e}") from None
    return out


def _flatten(table: Mapping[str, Any], prefix: str) -> Iterator[tuple[str, Any]]:
    for k, v in table.items():
        if isinstance(v, Mapping):
            yield from _flatten(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


def _grid(data: Mapping[str, Any], fail: Any) -> dict[str, list[Any]]:
    if "grid" not in data:
        return {}
    grid = _dotted(_table(data, "grid", fail), "grid", fail)
    if not grid:
        raise fail("`grid` is empty: give each swept key a list of values, or drop [grid]")
    for k, v in grid.items():
        if not isinstance(v, list):
            raise fail(f"`grid.{k}` must be a list of values, not {v!r}")
        if not v:
            raise fail(f"`grid.{k}` is an empty list: the grid would have no runs")
    return grid


def _cases(data: Mapping[str, Any], fail: Any) -> list[Point]:
    raw = data.get("case")
    if raw is None:
        return [Point({})]
    if not isinstance(raw, list) or not raw:
        raise fail("`case` must be a non-empty array of tables ([[case]])")
    out = []
    for i, case in enumerate(raw):
        if not isinstance(case, Mapping):
            raise fail(f"`case[{i}]` must be a table")
        case = dict(case)
        tags = case.pop("tags", {})
        if not isinstance(tags, Mapping):
            raise fail(f"`case[{i}].tags` must be a table")
        for t, v in tags.items():
            if t in RESERVED_COLUMNS or "." in t:
                raise fail(f"`case[{i}].tags.{t}`: a tag may not be named {t!r}")
            if isinstance(v, Mapping | list):
                raise fail(f"`case[{i}].tags.{t}` must be a number, string or boolean")
        out.append(Point(_dotted(case, f"case[{i}]", fail), dict(tags)))
    return out


def _path(value: str, base_dir: Path) -> Path:
    p = Path(value).expanduser()
    return p if p.is_absolute() else base_dir / p


def _workloads(data: Mapping[str, Any], base_dir: Path, fail: Any) -> list[Workload]:
    out: list[Workload] = []
    for key in ("trace", "workload"):
        entries = data.get(key, [])
        if not isinstance(entries, list):
            raise fail(f"`{key}` must be an array of tables ([[{key}]])")
        for i, e in enumerate(entries):
            if not isinstance(e, Mapping):
                raise fail(f"`{key}[{i}]` must be a table")
            out.append(_trace(e, i, base_dir, fail) if key == "trace" else _synthetic(e, i, fail))
    names = [w.name for w in out]
    for n in names:
        if names.count(n) > 1:
            raise fail(f"two workloads are named {n!r}; give each a distinct `name`")
    return out


def _trace(e: Mapping[str, Any], i: int, base_dir: Path, fail: Any) -> Workload:
    _no_unknown(e, TRACE_KEYS, f"trace[{i}].", fail)
    if not isinstance(e.get("path"), str):
        raise fail(f"`trace[{i}].path` (the trace file) is missing")
    p = _path(e["path"], base_dir)
    if not p.is_file():
        raise fail(f"`trace[{i}].path`: trace {p} does not exist")
    fmt = e.get("format", "auto")
    if not isinstance(fmt, str):
        raise fail(f"`trace[{i}].format` must be a string")
    over = {}
    if "max_requests" in e:
        n = e["max_requests"]
        if not _uint(n) or n < 1:
            raise fail(f"`trace[{i}].max_requests` must be a positive integer, not {n!r}")
        over["workload.max_requests"] = n
    return Workload(name=str(e.get("name", p.stem)), overrides=over, trace=p.resolve(),
                    trace_format=fmt)


def _synthetic(e: Mapping[str, Any], i: int, fail: Any) -> Workload:
    e = dict(e)
    name = e.pop("name", None)
    if not isinstance(name, str) or not name:
        raise fail(f"`workload[{i}].name` is missing")
    over = {f"workload.{k}": v for k, v in _dotted(e, f"workload[{i}]", fail).items()}
    over.setdefault("workload.kind", "synthetic")
    return Workload(name=name, overrides=over)


def _seeds(data: Mapping[str, Any], config: Mapping[str, Any], fail: Any) -> list[int] | None:
    """The seeds to run, or None for the config's own seed."""
    if "seeds" in data and "repeat" in data:
        raise fail("give `seeds` or `repeat`, not both")
    if "seeds" in data:
        seeds = data["seeds"]
        if not isinstance(seeds, list) or not seeds or not all(_uint(s) for s in seeds):
            raise fail("`seeds` must be a non-empty list of non-negative integers")
        if len(set(seeds)) != len(seeds):
            raise fail("`seeds` lists a seed twice")
        return list(seeds)
    if "repeat" in data:
        n = data["repeat"]
        if not _uint(n) or n < 1:
            raise fail("`repeat` must be a positive integer")
        first = config.get("seed", 0)
        if not _uint(first):
            raise fail("`repeat` needs the base config's `seed` to be a non-negative integer")
        return [first + i for i in range(n)]
    return None


def _uint(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0
