"""SSDsim's ``page.parameters`` as a nandlab config (parameter by parameter: :mod:`.table`).

SSDsim reads ``key = value`` lines: a line starting with ``#`` or a blank is skipped, the
key is the text before ``=`` less trailing blanks, the value is read by ``sscanf`` from
after it (so ``; # comment`` after the number is ignored). A parameter the file leaves out
is 0 (its ``memset``), except ``queue_length``, 5.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import ConfigError
from . import table
from .common import SECTOR, Imported, gc_threshold_blocks, largest_fill

_NUMBER = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_PER_CHANNEL = re.compile(r"chip number\[(\d+)\]")
#: SSDsim's advanced-command bits (initialize.h).
AD_COPYBACK, AD_TWOPLANE, AD_TWOPLANE_READ = 2, 4, 16


class Parameters:
    def __init__(self, path: Path):
        self.path = path
        self.values: dict[str, tuple[int, str]] = {}  # key -> (line, value text)
        try:
            text = path.read_text(encoding="latin-1")  # its comments are GBK Chinese
        except IsADirectoryError:
            raise ConfigError(f"{path}: is a directory, not SSDsim's page.parameters") from None
        for n, line in enumerate(text.splitlines(), 1):
            if not line or line[0] in "# " or "=" not in line:
                continue
            key, _, value = line.partition("=")
            self.values[key.rstrip()] = (n, value)

    def number(self, key: str, default: float = 0, whole: bool = True) -> float:
        if key not in self.values:
            return default
        line, text = self.values[key]
        m = _NUMBER.match(text)
        where = f"{self.path}:{line}: `{key}`"
        if m is None:
            raise ConfigError(f"{where}: expected a number, got {text.split(';')[0].strip()!r}")
        v = float(m.group(1))
        if v < 0 or (whole and v != int(v)):
            raise ConfigError(f"{where}: expected a whole number ≥ 0, got {m.group(1)}")
        return v

    def whole(self, key: str, default: int = 0) -> int:
        return int(self.number(key, default))

    def required(self, key: str) -> int:
        v = self.whole(key)
        if v < 1:
            raise ConfigError(f"{self.path}: `{key}` must be at least 1 (SSDsim's default "
                              "is 0)" if key in self.values else f"{self.path}: `{key}` is "
                              "missing (SSDsim would take 0)")
        return v


def import_parameters(path: Path, out: Imported) -> None:
    p = Parameters(path)
    known = table.by_name(table.SSDSIM)
    channels = p.whole("channel number")
    for key, (_, value) in p.values.items():
        m = _PER_CHANNEL.fullmatch(key)
        name = "chip number[i]" if m else key
        row = known.get(name)
        shown = value.split(";")[0].strip()
        if m and int(m.group(1)) >= channels:
            out.skip(key, shown, "a channel past `channel number`: SSDsim does not use it")
        elif row is None:
            out.skip(key, shown, "SSDsim does not read this parameter either")
        elif row.key is None:
            out.skip(key, shown, row.note)
    _device(p, out)
    _ftl(p, out)
    if p.whole("active write") != 0:
        out.differences.append("active write = 1: SSDsim's interruptible GC from `gc "
                               "threshold` is not modelled; nandlab's GC runs at `gc hard "
                               "threshold`")


def _device(p: Parameters, out: Imported) -> None:
    channels = p.required("channel number")
    per = {int(m.group(1)): p.whole(k) for k in p.values if (m := _PER_CHANNEL.fullmatch(k))}
    used = [per.get(i, 0) for i in range(channels)]
    total = p.whole("chip number")
    if any(used):
        if len(set(used)) != 1 or used[0] == 0:
            raise ConfigError(f"{p.path}: `chip number[i]` for channels 0 … {channels - 1} "
                              f"are {used}; nandlab needs the same number on every channel")
        chips = used[0]
        if total and total != chips * channels:
            raise ConfigError(f"{p.path}: `chip number` {total} is not the channels' "
                              f"{chips} × {channels}")
    else:
        if total == 0 or total % channels:
            raise ConfigError(f"{p.path}: `chip number` {total} does not split evenly over "
                              f"{channels} channels")
        chips = total // channels
    out.set("device.channels", channels)
    out.set("device.chips_per_channel", chips)
    for key, name in (("dies_per_chip", "die number"), ("planes_per_die", "plane number"),
                      ("blocks_per_plane", "block number"), ("pages_per_block", "page number"),
                      ("page_size_bytes", "page capacity")):
        out.set(f"device.{key}", p.required(name))
    # SSDsim has one page type and one latency for every page.
    out.set("device.cell_type", "slc")
    sub, per_page = p.whole("subpage capacity"), p.whole("subpage page")
    if sub not in (0, SECTOR) or (sub and per_page * sub != p.whole("page capacity")):
        out.differences.append(f"sub-pages: SSDsim's are {sub} B ({per_page} a page); "
                               "nandlab's sectors are 512 B")
    adv = p.whole("advanced command")
    out.set("device.multi_plane", bool(adv & (AD_TWOPLANE | AD_TWOPLANE_READ)))
    out.set("timing.read_latency_ns", [p.required("t_R")])
    out.set("timing.program_latency_ns", [p.required("t_PROG")])
    out.set("timing.erase_latency_ns", p.required("t_BERS"))
    t_wc, t_rc = p.required("t_WC"), p.whole("t_RC")
    out.set("timing.bus_rate_mb_s", 1000.0 / t_wc)  # a byte per t_WC
    out.set("timing.command_latency_ns", 7 * t_wc)  # SSDsim's command + address cycles
    if t_rc and t_rc != t_wc:
        out.differences.append(f"bus: SSDsim moves read data at t_RC = {t_rc} ns a byte and "
                               f"writes at t_WC = {t_wc} ns; nandlab's bus has one rate (t_WC)")
    out.differences.append("bus: SSDsim charges 7 t_WC of command cycles (19 t_WC for a read "
                           "plus its data-out); nandlab charges command_latency_ns = 7 t_WC "
                           "on every transfer")
    capacity = p.whole("dram capacity")
    if capacity:
        out.set("cache.capacity_bytes", capacity)
    out.set("host.queue_depth", p.whole("queue_length", 5))
    out.set("host.out_of_range", "wrap")  # SSDsim takes the address modulo the capacity


def _ftl(p: Parameters, out: Imported) -> None:
    out.set("ftl.overprovisioning", p.number("overprovide", whole=False))
    out.set("ftl.striping", "CWDP")
    out.differences.append("allocation: SSDsim's static/dynamic page allocation becomes "
                           "nandlab's CWDP striping")
    adv = p.whole("advanced command")
    out.set("ftl.move_path.gc", "copyback" if adv & AD_COPYBACK else "controller")
    bpp = out.config["device"]["blocks_per_plane"]
    h = p.number("gc hard threshold", whole=False)
    ppb = out.config["device"]["pages_per_block"]
    n = gc_threshold_blocks(h * bpp, bpp, str(p.path))
    out.set("ftl.gc_threshold_blocks", n)
    out.set("ftl.gc.victim", "greedy")
    out.differences.append(
        f"GC trigger: SSDsim collects a plane while its free pages are fewer than `gc hard "
        f"threshold` {h:g} x {ppb} x {bpp} pages; nandlab counts free blocks, and collects when "
        f"they have fallen to gc_threshold_blocks = {n} (= ceil({h:g} x {bpp}) - 1)")
    fill = largest_fill(out, 1.0)
    out.set("aging.fill_fraction", fill)
    out.differences.append(
        "start state: SSDsim writes every page the trace reads before it starts "
        "(pre_process_page); nandlab writes the first aging.fill_fraction = "
        f"{fill} of the logical space (the most that leaves gc_threshold_blocks + 2 free "
        "blocks a plane); reads beyond it complete without flash")
    if p.whole("aged"):
        out.differences.append("aged = 1: SSDsim fills each plane's `aged ratio` with invalid "
                               "pages; nandlab has no such start state")
