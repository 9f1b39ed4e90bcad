"""What an import produces, and the conversions both peers share."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from ..errors import ConfigError

SECTOR = 512


@dataclass
class Imported:
    """A nandlab config and what the conversion could not carry over."""

    sources: list[str]
    config: dict[str, Any] = field(default_factory=dict)
    #: ``(parameter, value, why)`` for parameters nandlab does not model.
    not_modelled: list[tuple[str, str, str]] = field(default_factory=list)
    #: Behaviour that still differs, one sentence each.
    differences: list[str] = field(default_factory=list)
    #: Trace paths the peer names that are not where it says (checked when run instead).
    missing_traces: list[str] = field(default_factory=list)

    def set(self, dotted: str, value: Any) -> None:
        node = self.config
        *tables, leaf = dotted.split(".")
        for t in tables:
            node = node.setdefault(t, {})
        node[leaf] = value

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.config
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def checkable(self) -> dict[str, Any]:
        """The config to validate now: without its workload when a trace it names is not
        there yet (``nandlab run CONFIG --trace FILE`` gives it)."""
        if not self.missing_traces:
            return self.config
        return {k: v for k, v in self.config.items() if k != "workload"}

    def skip(self, name: str, value: str, why: str) -> None:
        self.not_modelled.append((name, value, why))

    def toml(self) -> str:
        """The config as TOML, headed by comments listing the differences and the
        parameters left out."""
        head = [f"# Imported by `nandlab config import` from {', '.join(self.sources)}.",
                "# Keys not written take nandlab's defaults (docs/config.md)."]
        if self.differences:
            head += ["#", "# Behaviour that still differs from the peer:"]
            head += [f"# - {d}" for d in self.differences]
        if self.not_modelled:
            head += ["#", "# Not modelled by nandlab (left out):"]
            head += [f"# - {n} = {v}: {why}" for n, v, why in self.not_modelled]
        return "\n".join(head) + "\n\n" + tomli_w.dumps(self.config)


def gc_threshold_blocks(free_below: float, blocks_per_plane: int, source: str) -> int:
    """nandlab's free-block count for a peer that collects a plane while its free blocks
    are fewer than ``free_below``: nandlab collects when they have fallen to the count,
    so ``free < T`` becomes ``free <= ceil(T) - 1``; clamped to nandlab's 1 … blocks − 2."""
    n = math.ceil(free_below) - 1
    hi = blocks_per_plane - 2
    if hi < 1:
        raise ConfigError(f"{source}: {blocks_per_plane} blocks per plane; nandlab needs 3")
    return min(max(n, 1), hi)


def largest_fill(cfg: Imported, wanted: float) -> float:
    """``wanted`` (a fraction of the logical space), or the largest hundredth below it
    that leaves the plane holding the most preconditioned data ``gc_threshold_blocks + 2``
    free blocks (nandlab's rule, ``ftl/precondition.rs``)."""
    d = cfg.config.get("device", {})
    planes = (d["channels"] * d["chips_per_channel"] * d["dies_per_chip"]
              * d["planes_per_die"])
    bpp, ppb = d["blocks_per_plane"], d["pages_per_block"]
    logical = math.floor(planes * bpp * ppb * (1.0 - cfg.get("ftl.overprovisioning", 0.07)))
    need = cfg.get("ftl.gc_threshold_blocks", 2) + 2
    fill = wanted
    while fill > 0:
        fill_pages = math.floor(logical * fill)
        held = math.ceil(fill_pages / planes)  # the fullest plane's pages, then blocks
        used = math.ceil(held / ppb)
        if bpp - used >= need:
            return fill
        fill = round(fill - 0.01, 2)
    return 0.0


def per_page_type(cell: str, lsb: int, csb: int, msb: int) -> list[int]:
    """A per-page-type latency list (LSB first), one value when all are the same."""
    values = {"slc": [lsb], "mlc": [lsb, msb], "tlc": [lsb, csb, msb]}[cell]
    return values[:1] if len(set(values)) == 1 else values
