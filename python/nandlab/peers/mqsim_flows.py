"""MQSim's I/O flows (``workload.xml``) as nandlab workload tables."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .common import SECTOR, Imported
from .mqsim_xml import Params

#: What nandlab's synthetic generator issues when MQSim's flow stops only at a time and
#: nandlab's closed loop has no clock limit (nandlab's own default request count).
CLOSED_LOOP_REQUESTS = 10_000


def logical_bytes(out: Imported) -> int:
    """The logical capacity nandlab computes (``ftl/mod.rs``: pages × (1 − OP), floored)."""
    d = out.config["device"]
    pages = (d["channels"] * d["chips_per_channel"] * d["dies_per_chip"] * d["planes_per_die"]
             * d["blocks_per_plane"] * d["pages_per_block"])
    return math.floor(pages * (1.0 - out.get("ftl.overprovisioning", 0.07))) * d[
        "page_size_bytes"]


def convert_flows(path: Path, nodes: list[ET.Element], flows: list[Params], dev: Params,
                  out: Imported) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = []
    closed = []
    for node, f in zip(nodes, flows, strict=True):
        if node.tag.endswith("Trace_Based"):
            tables.append(_trace(path, f, out))
        else:
            t, qd = _synthetic(f, len(flows), out)
            tables.append(t)
            if qd is not None:
                closed.append(qd)
    if closed:
        if len(closed) == len(flows):
            out.set("host.replay", "closed")
            out.set("host.queue_depth", sum(closed))
            if len(closed) > 1:
                out.differences.append(
                    "QUEUE_DEPTH flows: MQSim keeps each flow's queue full on its own; nandlab "
                    f"runs one closed loop of {sum(closed)} (the sum) over the flows' merged "
                    "requests, which all arrive at 0, so flow 0's go first")
        else:
            out.differences.append(
                "QUEUE_DEPTH flows beside trace or BANDWIDTH flows: nandlab replays open loop, "
                "so the QUEUE_DEPTH flows' requests all arrive at 0")
    if len(flows) > 1:
        out.differences.append(
            f"flows: MQSim gives each of the {len(flows)} flows its own 1/{len(flows)} of the "
            "logical space and its own NVMe queue; nandlab's flows share one address space "
            "(from 0) and one queue")
    return tables


def _trace(path: Path, f: Params, out: Imported) -> dict[str, Any]:
    given = Path(f.text("File_Path"))
    found = given if given.is_absolute() else path.parent / given
    t: dict[str, Any] = {"kind": "trace", "format": "disksim"}
    if found.is_file():
        t["path"] = str(found.resolve())
    else:
        t["path"] = str(given)
        out.missing_traces.append(str(given))
        out.differences.append(f"trace {given} is not beside {path.name}: give it when you run "
                               "(nandlab run CONFIG --trace FILE)")
    repeat = f.int("Relay_Count")
    pct = f.int("Percentage_To_Be_Executed")
    if repeat > 1:
        t["repeat"] = repeat
    elif pct < 100:
        if not found.is_file():
            raise ConfigError(f"{f.source}: <Percentage_To_Be_Executed> {pct}: the trace "
                              f"{given} must be beside {path.name} to count its lines")
        with open(found, "rb") as fh:
            lines = sum(1 for line in fh if line.strip())
        t["max_requests"] = max(1, pct * lines // 100)
    return t


def _synthetic(f: Params, n_flows: int, out: Imported) -> tuple[dict[str, Any], int | None]:
    size = f.int("Average_Request_Size") * SECTOR
    if size == 0:
        raise ConfigError(f"{f.source}: <Average_Request_Size> must be at least 1 sector")
    t: dict[str, Any] = {"kind": "synthetic", "generator": "mix",
                         "read_fraction": f.int("Read_Percentage") / 100, "size_bytes": size}
    if f.choice("Request_Size_Distribution", ("FIXED", "NORMAL")) == "NORMAL":
        out.differences.append(f"{f.source}: NORMAL request sizes become their mean, {size} B")
    dist = f.choice("Address_Distribution", ("RANDOM_UNIFORM", "RANDOM_HOTCOLD", "STREAMING"))
    if dist == "STREAMING":
        t["random_fraction"] = 0.0
    else:
        t["random_fraction"] = 1.0
        if dist == "RANDOM_HOTCOLD":
            hot = f.int("Percentage_of_Hot_Region") / 100
            if not 0 < hot < 1:
                raise ConfigError(f"{f.source}: <Percentage_of_Hot_Region> {hot * 100:g}: "
                                  "a hot/cold workload needs 1 … 99")
            # MQSim sends (100 - H) % of the requests to the hot H % of the addresses.
            t.update(address="hotcold", hot_fraction=hot, hot_access=1 - hot)
    align = f.int("Address_Alignment_Unit") * SECTOR if f.bool("Generated_Aligned_Addresses") \
        else SECTOR
    t["alignment_bytes"] = max(align, SECTOR)
    ws = f.int("Working_Set_Percentage")
    ws = 100 if not 1 <= ws <= 100 else ws  # as MQSim's Host_System does
    share = logical_bytes(out) // n_flows * ws // 100
    t["footprint_bytes"] = max(share - share % t["alignment_bytes"], size)
    total = f.int("Total_Requests_To_Generate")
    stop_ns = f.int("Stop_Time")
    if f.choice("Synthetic_Generator_Type", ("QUEUE_DEPTH", "BANDWIDTH")) == "QUEUE_DEPTH":
        if stop_ns > 0 or total == 0:
            out.differences.append(
                f"{f.source}: MQSim stops this QUEUE_DEPTH flow at Stop_Time {stop_ns / 1e9:g} s; "
                "nandlab's closed loop has no clock limit and issues workload.requests = "
                f"{total or CLOSED_LOOP_REQUESTS} (edit it)")
        t["requests"] = total or CLOSED_LOOP_REQUESTS
        t["iops"] = 0.0
        return t, f.int("Average_No_of_Reqs_in_Queue")
    bandwidth = f.int("Bandwidth")
    if bandwidth == 0:
        raise ConfigError(f"{f.source}: <Bandwidth> 0 for a BANDWIDTH flow: give bytes/s")
    # MQSim's mean inter-arrival time: 1e9 / (Bandwidth / 512 / Average_Request_Size) ns.
    t["iops"] = bandwidth / size
    if stop_ns > 0:  # MQSim: a non-zero Stop_Time wins over Total_Requests_To_Generate
        t["duration_s"] = stop_ns / 1e9
    else:
        t["requests"] = total
    return t, None
