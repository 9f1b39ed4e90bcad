"""MQSim's ``ssdconfig.xml`` and ``workload.xml`` as a nandlab config (parameter by
parameter: :mod:`.table`)."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import ConfigError
from . import table
from .common import Imported, gc_threshold_blocks, largest_fill, per_page_type
from .mqsim_flows import convert_flows
from .mqsim_xml import Params, device_params, flow_params

#: MQSim's `max_ongoing_gc_reqs_per_plane` (SSD_Device.cpp passes 10): its GC threshold
#: is never below it.
MAX_ONGOING_GC = 10
STRIPINGS = {"".join(p) for p in itertools.permutations("CWDP")}
VICTIMS = {"GREEDY": "greedy", "RGA": "greedy", "FIFO": "fifo", "RANDOM": "greedy",
           "RANDOM_P": "greedy", "RANDOM_PP": "greedy"}
SUSPEND = {"NONE": "none", "PROGRAM": "program", "ERASE": "erase",
           "PROGRAM_ERASE": "program_erase"}
FLOW_TAGS = ("IO_Flow_Parameter_Set_Synthetic", "IO_Flow_Parameter_Set_Trace_Based")


def import_device(path: Path | None, root: ET.Element | None, out: Imported) -> Params:
    """Converts ``ssdconfig.xml`` (``root``; ``None``: MQSim's defaults throughout)."""
    p = device_params(path or Path("<MQSim defaults>"), root if root is not None
                      else ET.Element("Execution_Parameter_Set"))
    _list_unconverted(p, table.MQSIM_DEVICE, out)
    p.choice("Memory_Type", ("FLASH",))
    if p.choice("Address_Mapping", ("PAGE_LEVEL", "HYBRID")) == "HYBRID":
        raise ConfigError(f"{p.source}: <Address_Mapping>: HYBRID is a stub in MQSim; "
                          "nandlab maps pages (PAGE_LEVEL)")
    out.set("seed", p.int("Seed"))
    cell = p.choice("Flash_Technology", ("SLC", "MLC", "TLC")).lower()
    for key, tag in (("channels", "Flash_Channel_Count"),
                     ("chips_per_channel", "Chip_No_Per_Channel"),
                     ("dies_per_chip", "Die_No_Per_Chip"), ("planes_per_die", "Plane_No_Per_Die"),
                     ("blocks_per_plane", "Block_No_Per_Plane"),
                     ("pages_per_block", "Page_No_Per_Block"),
                     ("page_size_bytes", "Page_Capacity"),
                     ("oob_bytes", "Page_Metadat_Capacity")):
        out.set(f"device.{key}", p.int(tag))
    out.set("device.cell_type", cell)
    # MQSim's page type is the page index mod 2 on MLC: nandlab's sequential map.
    out.set("device.page_map", "sequential")
    if cell == "tlc":
        out.differences.append("TLC page types: MQSim makes pages 0-5 LSB, 6-7 CSB, then "
                               "pairs in turn; nandlab's sequential map takes index mod 3")
    lat = {k: p.int(f"Page_{k}") for k in (
        "Read_Latency_LSB", "Read_Latency_CSB", "Read_Latency_MSB",
        "Program_Latency_LSB", "Program_Latency_CSB", "Program_Latency_MSB")}
    out.set("timing.read_latency_ns", per_page_type(
        cell, lat["Read_Latency_LSB"], lat["Read_Latency_CSB"], lat["Read_Latency_MSB"]))
    out.set("timing.program_latency_ns", per_page_type(
        cell, lat["Program_Latency_LSB"], lat["Program_Latency_CSB"],
        lat["Program_Latency_MSB"]))
    out.set("timing.erase_latency_ns", p.int("Block_Erase_Latency"))
    out.set("timing.bus_rate_mb_s",
            float(p.int("Channel_Transfer_Rate") * p.int("Flash_Channel_Width")))
    _ftl(p, out)
    _host(p, out)
    _caches(p, out)
    return p


def _ftl(p: Params, out: Imported) -> None:
    out.set("ftl.overprovisioning", p.float("Overprovisioning_Ratio"))
    scheme = p.text("Plane_Allocation_Scheme").upper()
    if scheme in STRIPINGS:
        out.set("ftl.striping", scheme)
    else:
        out.set("ftl.striping", "CWDP")
        out.differences.append(f"Plane_Allocation_Scheme {scheme} confines a flow to part of "
                               "the array; nandlab stripes every write over all of it (CWDP)")
    blocks = p.int("Block_No_Per_Plane")
    x = p.float("GC_Exec_Threshold")
    mq = max(math.floor(x * blocks), 1, MAX_ONGOING_GC)
    n = gc_threshold_blocks(mq, blocks, p.source)
    out.set("ftl.gc_threshold_blocks", n)
    out.differences.append(
        f"GC trigger: MQSim collects a plane while its free blocks are fewer than "
        f"max(floor(GC_Exec_Threshold {x} x {blocks} blocks), {MAX_ONGOING_GC}) = {mq}; "
        f"nandlab when they have fallen to gc_threshold_blocks = {n}")
    policy = p.choice("GC_Block_Selection_Policy", tuple(VICTIMS))
    out.set("ftl.gc.victim", VICTIMS[policy])
    if policy == "RGA":
        out.differences.append(f"GC victim: MQSim's RGA takes the block with the most invalid "
                               f"pages among log2({blocks}) random ones; nandlab's greedy "
                               "looks at every block of the plane")
    elif policy.startswith("RANDOM"):
        out.differences.append(f"GC victim: MQSim's {policy} picks a random block; nandlab "
                               "has no random victim and uses greedy")
    move = "copyback" if p.bool("Use_Copyback_for_GC") else "controller"
    out.set("ftl.move_path.gc", move)
    out.set("ftl.move_path.wear_leveling", move)
    if p.bool("Static_Wearleveling_Enabled"):
        out.set("ftl.wear_leveling.policy", "static")
        out.set("ftl.wear_leveling.threshold_pe", p.int("Static_Wearleveling_Threshold"))
    else:
        out.set("ftl.wear_leveling.policy", "none")
    if not p.bool("Dynamic_Wearleveling_Enabled"):
        out.differences.append("Dynamic_Wearleveling_Enabled = false: nandlab always opens "
                               "the least-worn free block")
    if p.bool("Preemptible_GC_Enabled"):
        # MQSim: GC is urgent while a plane has fewer than floor(h x blocks) free blocks;
        # nandlab's hard threshold counts "at or below" and must lie in [1, soft threshold).
        hard = math.floor(p.float("GC_Hard_Threshold") * blocks) - 1
        out.set("scheduler.policy", "priority")
        out.set("scheduler.preemptible_gc", True)
        out.set("scheduler.gc_hard_threshold_blocks", min(max(hard, 1), n - 1))
    else:
        out.differences.append("Preemptible_GC_Enabled = false: MQSim still queues GC "
                               "transactions beside host I/O; nandlab's default `fifo` "
                               "reserves a GC job's moves and erases when the FTL decides them")


def _host(p: Params, out: Imported) -> None:
    proto = p.choice("HostInterface_Type", ("NVME", "SATA")).lower()
    out.set("host.interface.protocol", proto)
    out.set("host.interface.pcie_lanes", p.int("PCIe_Lane_Count"))
    out.set("host.interface.pcie_lane_gb_per_s", p.float("PCIe_Lane_Bandwidth"))
    out.set("host.interface.sata_processing_ns", p.int("SATA_Processing_Delay"))
    depth = p.int("IO_Queue_Depth")
    if proto == "sata" and depth > 32:
        out.differences.append(f"IO_Queue_Depth {depth}: MQSim sizes SATA's NCQ by it; "
                               "nandlab's NCQ holds 32 (host.queue_depth = 32)")
        depth = 32
    out.set("host.queue_depth", depth)
    # MQSim and SSDsim wrap an address past the logical space.
    out.set("host.out_of_range", "wrap")
    out.set("host.suspend.ops", SUSPEND[p.choice("CMD_Suspension_Support", tuple(SUSPEND))])
    out.set("host.suspend.program_ns", p.int("Suspend_Program_Time"))
    out.set("host.suspend.erase_ns", p.int("Suspend_Erase_Time"))
    out.set("host.suspend.min_remaining_program_ns", p.int("Preferred_suspend_write_time_for_read"))
    out.set("host.suspend.min_remaining_erase_ns", p.int("Prefered_suspend_erase_time_for_read"))
    if out.get("host.suspend.ops") != "none":
        out.differences.append(
            "suspension: nandlab lets a read suspend a program/erase as MQSim intends; MQSim "
            "7ec40e3 never does (TSU_OutOfOrder::service_read_transaction falls through to "
            'return false); host.suspend.ops = "none" reproduces its results')


def _caches(p: Params, out: Imported) -> None:
    if p.choice("Caching_Mechanism", ("SIMPLE", "ADVANCED")) == "SIMPLE":
        out.differences.append("Caching_Mechanism SIMPLE: nandlab's cache is MQSim's ADVANCED")
    out.set("cache.capacity_bytes", p.int("Data_Cache_Capacity"))
    out.set("cache.dram_latency_ns", p.int("Data_Cache_DRAM_tRCD") + p.int("Data_Cache_DRAM_tCL"))
    out.set("cache.dram_mb_per_s", float(2 * p.int("Data_Cache_DRAM_Data_Rate")
                                         * p.int("Data_Cache_DRAM_Data_Busrt_Size")))
    ideal = p.bool("Ideal_Mapping_Table")
    out.set("ftl.mapping_cache.capacity_bytes", 0 if ideal else p.int("CMT_Capacity"))
    if not ideal:
        out.differences.append("mapping cache: nandlab's starts cold; MQSim's preconditioning "
                               "warms it (compare steady state)")


def _list_unconverted(p: Params, rows: tuple[table.Param, ...], out: Imported) -> None:
    known = table.by_name(rows)
    for name, value in p.values.items():
        row = known.get(name)
        if row is None:
            out.skip(name, value.strip(), "MQSim 7ec40e3 does not read this parameter either")
        elif row.key is None:
            out.skip(name, value.strip(), row.note)


def scenarios(path: Path, root: ET.Element) -> list[ET.Element]:
    if root.tag != "MQSim_IO_Scenarios":
        raise ConfigError(f"{path}: expected <MQSim_IO_Scenarios> (MQSim's workload.xml), "
                          f"found <{root.tag}>")
    found = root.findall("IO_Scenario")
    if not found:
        raise ConfigError(f"{path}: no <IO_Scenario>")
    return found


def import_workload(path: Path, root: ET.Element, scenario: int | None, dev: Params,
                    out: Imported) -> None:
    """Converts one ``IO_Scenario`` of ``workload.xml`` (1-based; ``None``: the first)."""
    found = scenarios(path, root)
    if scenario is not None and not 1 <= scenario <= len(found):
        raise ConfigError(f"--scenario {scenario}: {path} has scenarios 1 … {len(found)}")
    if scenario is None and len(found) > 1:
        out.differences.append(f"{path.name} has {len(found)} scenarios, which MQSim runs in "
                               "turn; this is scenario 1 (`--scenario N` imports another)")
    nodes = [n for n in found[(scenario or 1) - 1] if n.tag in FLOW_TAGS]
    if not nodes:
        raise ConfigError(f"{path}: scenario {scenario or 1} has no flow")
    flows = [flow_params(path, n, i) for i, n in enumerate(nodes)]
    for f in flows:
        _list_unconverted(f, table.MQSIM_FLOW, out)
    modes = {f.choice("Device_Level_Data_Caching_Mode", (
        "TURNED_OFF", "WRITE_CACHE", "READ_CACHE", "WRITE_READ_CACHE")) for f in flows}
    if modes == {"TURNED_OFF"}:
        out.set("cache.capacity_bytes", 0)
    elif len(modes) > 1 or "READ_CACHE" in modes:
        out.differences.append(f"caching modes {sorted(modes)}: nandlab has one write-back "
                               "cache for every flow")
    out.set("cache.read_allocate", "WRITE_READ_CACHE" in modes)
    tables = convert_flows(path, nodes, flows, dev, out)
    if len(tables) == 1:
        out.config["workload"] = tables[0]
    else:
        out.config["workload"] = {"flows": tables}
    set_fill(dev, flows, out)


def occupancy(flows: list[Params]) -> float:
    return max(f.int("Initial_Occupancy_Percentage") for f in flows) / 100.0


def set_fill(dev: Params, flows: list[Params] | None, out: Imported) -> None:
    """``aging.fill_fraction`` from preconditioning and the flows' occupancy."""
    if dev.bool("Enabled_Preconditioning") and flows:
        want = occupancy(flows)
        why = "the flows' largest Initial_Occupancy_Percentage"
    else:
        want = 1.0
        out.differences.append(
            "no preconditioning: MQSim starts empty and serves a read of a page never written "
            "from flash (it maps one on the read); nandlab starts with the logical space "
            "written (aging.fill_fraction), so such reads go to flash too, but its free pool "
            "starts at the over-provisioned blocks")
        why = "a full device"
    fill = largest_fill(out, want)
    out.set("aging.fill_fraction", fill)
    if fill < want:
        out.differences.append(f"aging.fill_fraction {fill} instead of {want} ({why}): "
                               "nandlab's fill must leave gc_threshold_blocks + 2 free "
                               "blocks in every plane")
