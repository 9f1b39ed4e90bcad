"""Config loading: TOML files or strings or dicts, ``extends`` merging, dotted-key overrides.

Everything here is plain Python data; validation of keys and values is the core's job
(:func:`nandlab.check_config`), which names the offending key.
"""

from __future__ import annotations

import copy
import math
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomli_w

from .errors import ConfigError, MissingFileError, NotAFileError

ConfigSource = str | os.PathLike | Mapping

#: A dotted key such as ``ftl.gc_policy``: bare TOML key segments joined by dots.
_KEY_RE = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")

#: Keys holding file paths (or lists of them); a relative path is taken relative to the
#: config file that sets it when such a file exists there (otherwise it is left for the
#: current directory). So is each ``[[workload.flows]]`` entry's ``path``.
PATH_KEYS = ("workload.path", "content.files", "ecc.curve_path")

#: Top-level key naming base config file(s) that this one is laid over.
EXTENDS_KEY = "extends"


def load_config(
    config: ConfigSource,
    overrides: Mapping[str, Any] | None = None,
    *,
    trace: str | os.PathLike | None = None,
    trace_format: str | None = None,
) -> dict[str, Any]:
    """Loads a config and applies the trace choice and overrides, in that order.

    ``config`` is a path to a TOML file (``str`` or ``Path``), a TOML string (a ``str``
    containing ``=`` or a newline that is not an existing file), or a dict (copied).
    ``overrides`` maps dotted keys to values: ``{"ftl.gc_policy": "greedy"}``.
    ``trace_format`` without ``trace`` needs a config whose workload is a trace.
    """
    if isinstance(config, Mapping):
        cfg = _with_extends(copy.deepcopy(dict(config)), Path.cwd(), "<dict>", ())
    elif isinstance(config, os.PathLike):
        cfg = read_toml_file(config)
    elif isinstance(config, str):
        if _looks_like_toml_text(config):
            cfg = parse_toml_text(config)
        else:
            cfg = read_toml_file(config)
    else:
        raise ConfigError(
            f"config must be a TOML file path, a TOML string or a dict, not {type(config).__name__}"
        )
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ConfigError(
            "overrides must map dotted keys to values, e.g. {\"ftl.gc.victim\": \"greedy\"}, "
            f"not a {type(overrides).__name__}"
        )
    if trace is not None or trace_format is not None:
        cfg = set_trace(cfg, trace, trace_format)
    if overrides:
        cfg = apply_overrides(cfg, overrides)
    if trace is None and trace_format is not None:
        wl = cfg.get("workload")
        if not (isinstance(wl, Mapping) and wl.get("kind") == "trace"):
            raise ConfigError(
                f"trace format {trace_format!r} given without a trace: give the trace too "
                '(--trace FILE, trace=...) or set workload.kind = "trace" and workload.path'
            )
    return cfg


def _looks_like_toml_text(text: str) -> bool:
    if "\n" in text or "=" in text:
        return not os.path.isfile(text)
    return text.strip() == ""


def read_toml_file(path: str | os.PathLike, _chain: tuple[Path, ...] = ()) -> dict[str, Any]:
    """Reads a TOML config file, resolving ``extends`` and relative paths in it."""
    p = Path(path).expanduser()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MissingFileError(f"no such file: {p}") from None
    except IsADirectoryError:
        raise NotAFileError(f"{p}: is a directory, not a config file") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p}: not a UTF-8 text file ({e.reason} at byte {e.start})") from e
    cfg = parse_toml_text(text, source=str(p))
    base_dir = p.resolve().parent
    _resolve_paths(cfg, base_dir)
    return _with_extends(cfg, base_dir, str(p), (*_chain, p.resolve()))


def parse_toml_text(text: str, source: str = "<string>") -> dict[str, Any]:
    """Parses TOML text; a syntax error names the source and the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{source}: invalid TOML: {e}") from e


def _with_extends(
    cfg: dict[str, Any], base_dir: Path, source: str, chain: tuple[Path, ...]
) -> dict[str, Any]:
    bases = cfg.pop(EXTENDS_KEY, None)
    if bases is None:
        return cfg
    if isinstance(bases, str):
        bases = [bases]
    if not isinstance(bases, list) or not all(isinstance(b, str) for b in bases):
        raise ConfigError(f"{source}: `{EXTENDS_KEY}` must be a file path or a list of paths")
    merged: dict[str, Any] = {}
    for b in bases:
        bp = Path(b).expanduser()
        if not bp.is_absolute():
            bp = base_dir / bp
        if bp.resolve() in chain:
            raise ConfigError(f"{source}: `{EXTENDS_KEY}` forms a cycle through {bp}")
        if not bp.is_file():
            raise ConfigError(f"{source}: `{EXTENDS_KEY}` names {b!r}, which is not a file")
        merged = deep_merge(merged, read_toml_file(bp, chain))
    return deep_merge(merged, cfg)


def _resolve_paths(cfg: dict[str, Any], base_dir: Path) -> None:
    for key in PATH_KEYS:
        section, _, leaf = key.partition(".")
        table = cfg.get(section)
        if not isinstance(table, dict) or leaf not in table:
            continue
        value = table[leaf]
        if isinstance(value, str):
            table[leaf] = _resolve_one(value, base_dir)
        elif isinstance(value, list):
            table[leaf] = [_resolve_one(v, base_dir) if isinstance(v, str) else v for v in value]
    # Each [[workload.flows]] entry is a workload table with a `path` of its own.
    wl = cfg.get("workload")
    flows = wl.get("flows") if isinstance(wl, dict) else None
    for flow in flows if isinstance(flows, list) else []:
        if isinstance(flow, dict) and isinstance(flow.get("path"), str):
            flow["path"] = _resolve_one(flow["path"], base_dir)


def _resolve_one(value: str, base_dir: Path) -> str:
    if not value:
        return value  # an empty path means "the default" (e.g. the shipped FER table)
    p = Path(value).expanduser()
    if p.is_absolute():
        return str(p)
    candidate = base_dir / p
    return str(candidate) if candidate.exists() else value


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """A new dict: ``over`` laid on ``base``; tables merge key by key, anything else replaces."""
    out = copy.deepcopy(dict(base))
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def set_trace(
    cfg: Mapping[str, Any], trace: str | os.PathLike | None, trace_format: str | None
) -> dict[str, Any]:
    """A new config replaying ``trace``: ``workload.kind = "trace"``, ``path`` and ``format``.

    Other workload keys stay (the core ignores the keys of the kind not chosen, and trace
    keys such as ``max_requests`` still apply). A new trace without a format is
    auto-detected.
    """
    out = copy.deepcopy(dict(cfg))
    wl = out.get("workload")
    wl = dict(wl) if isinstance(wl, Mapping) else {}
    if trace is not None:
        wl["kind"] = "trace"
        wl["path"] = os.path.abspath(os.fspath(Path(trace).expanduser()))
        wl["format"] = trace_format or "auto"
    elif trace_format is not None:
        wl["format"] = trace_format
    out["workload"] = wl
    return out


def check_key(key: str) -> str:
    """Returns ``key`` if it is a dotted key (``a.b_c.d-e``), else raises ConfigError."""
    if not isinstance(key, str) or not _KEY_RE.fullmatch(key):
        raise ConfigError(
            f"bad config key {key!r}: expected dotted names such as ftl.gc_policy"
        )
    return key


def parse_value(text: str) -> Any:
    """Parses an override value as a TOML value; a bare word is a string.

    ``0.1`` → float, ``8`` → int, ``true`` → bool, ``"greedy"`` or ``greedy`` → str,
    ``[1, 2]`` → list, ``{a = 1}`` → dict.
    """
    s = text.strip()
    if not s:
        raise ConfigError('missing value (write "" for an empty string)')
    try:
        doc = tomllib.loads(f"v = {s}")
    except tomllib.TOMLDecodeError as e:
        if s[0] in "\"'[{":
            raise ConfigError(f"{s!r} is not a valid TOML value ({e})") from e
        return s
    if set(doc) != {"v"}:
        return s
    return doc["v"]


def parse_override(item: str) -> tuple[str, Any]:
    """Parses one ``KEY=VALUE`` override (the CLI's ``--set``) into ``(key, value)``."""
    key, sep, value = item.partition("=")
    if not sep:
        raise ConfigError(f"--set {item!r}: expected KEY=VALUE, e.g. ftl.gc_policy=greedy")
    key = key.strip()
    try:
        check_key(key)
        return key, parse_value(value)
    except ConfigError as e:
        raise ConfigError(f"--set {item!r}: {e}") from None


def parse_overrides(items: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """Parses several ``KEY=VALUE`` items; a later one for the same key wins."""
    return dict(parse_override(i) for i in items)


def apply_overrides(cfg: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """A new config with each dotted key set; missing tables are created.

    A dict value is merged into an existing table; any other value replaces.
    """
    out = copy.deepcopy(dict(cfg))
    for key, value in overrides.items():
        parts = check_key(key).split(".")
        node = out
        for i, part in enumerate(parts[:-1]):
            nxt = node.get(part)
            if nxt is None:
                nxt = node[part] = {}
            elif not isinstance(nxt, dict):
                prefix = ".".join(parts[: i + 1])
                raise ConfigError(
                    f"cannot set {key}: {prefix} is a {type(nxt).__name__}, not a table"
                )
            node = nxt
        leaf = parts[-1]
        if isinstance(value, Mapping) and isinstance(node.get(leaf), dict):
            node[leaf] = deep_merge(node[leaf], value)
        else:
            node[leaf] = copy.deepcopy(value)
    return out


def check_finite(cfg: Any, path: str = "") -> None:
    """Raises :class:`ConfigError` naming the first key whose value is NaN or infinite
    (TOML allows ``nan`` and ``inf``; no nandlab setting takes them, and JSON, which the
    core reads, cannot carry them)."""
    if isinstance(cfg, float) and not math.isfinite(cfg):
        raise ConfigError(f"config key `{path or '<root>'}`: {cfg} is not a value nandlab can "
                          "use (every number must be finite)")
    if isinstance(cfg, Mapping):
        for k, v in cfg.items():
            check_finite(v, f"{path}.{k}" if path else str(k))
    elif isinstance(cfg, list | tuple):
        for i, v in enumerate(cfg):
            check_finite(v, f"{path}[{i}]")


def dumps_toml(doc: Mapping[str, Any]) -> str:
    """``doc`` as TOML text (tomli-w). ``None`` values are left out: TOML has no null, and
    an absent key means the same default."""
    return tomli_w.dumps(_without_none(doc))


def _without_none(node: Any) -> Any:
    if isinstance(node, Mapping):
        return {k: _without_none(v) for k, v in node.items() if v is not None}
    if isinstance(node, list | tuple):
        return [_without_none(v) for v in node]
    return node
