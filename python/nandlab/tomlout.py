"""A small TOML writer for configs (``tomllib`` only reads).

Tables become ``[a.b]`` sections; lists (also of tables) are written inline. ``None``
values are left out: TOML has no null, and an absent key means the same default.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def dumps(doc: Mapping[str, Any]) -> str:
    """TOML text for a dict of plain data (str, int, float, bool, list, dict, dates)."""
    lines: list[str] = []
    _table(doc, [], lines)
    return "\n".join(lines).strip("\n") + "\n"


def _table(table: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    subtables = []
    for k, v in table.items():
        if v is None:
            continue
        if isinstance(v, Mapping):
            subtables.append((k, v))
        else:
            lines.append(f"{key(k)} = {value(v)}")
    for k, v in subtables:
        sub = [*path, k]
        lines.append("")
        lines.append("[" + ".".join(key(p) for p in sub) + "]")
        _table(v, sub, lines)


def key(k: str) -> str:
    """A bare key when possible, else a quoted one."""
    return k if _BARE_KEY.fullmatch(k) else string(k)


def string(s: str) -> str:
    """A TOML basic string."""
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def value(v: Any) -> str:
    """One TOML value, written inline."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, _dt.date | _dt.time):
        return v.isoformat()
    if isinstance(v, Mapping):
        items = [f"{key(k)} = {value(x)}" for k, x in v.items() if x is not None]
        return "{" + ", ".join(items) + "}" if items else "{}"
    if isinstance(v, list | tuple):
        if any(x is None for x in v):
            raise ValueError("TOML cannot hold null inside an array")
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"cannot write a {type(v).__name__} as TOML")
