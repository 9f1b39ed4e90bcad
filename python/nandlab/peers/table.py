"""What each MQSim and SSDsim parameter becomes in nandlab: the importer's mapping table.

One row per parameter the peer's parser reads (MQSim at commit 7ec40e3:
``src/exec/{Host,Device,Flash,IO_Flow}_Parameter_Set.cpp``; SSDsim at huaicheng/ssdsim
f411289: ``initialize.c``, ``load_parameters``). ``key`` is the nandlab key it sets, or
``None`` where nandlab does not model it; ``note`` says how it converts or why not. The
importer refuses a parameter missing from this table only if the peer would also not read
it (then it is listed as ignored), and ``docs/peers.md`` carries this table (a test
compares them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    name: str
    key: str | None
    note: str = ""


def _rows(*rows: tuple[str, str | None, str]) -> tuple[Param, ...]:
    return tuple(Param(*r) for r in rows)


#: ``ssdconfig.xml``: ``Host_Parameter_Set``, ``Device_Parameter_Set`` and its
#: ``Flash_Parameter_Set``.
MQSIM_DEVICE = _rows(
    ("PCIe_Lane_Bandwidth", "host.interface.pcie_lane_gb_per_s", "GB/s"),
    ("PCIe_Lane_Count", "host.interface.pcie_lanes", ""),
    ("SATA_Processing_Delay", "host.interface.sata_processing_ns", "with SATA"),
    ("Enable_ResponseTime_Logging", None, "nandlab records every request (`output`)"),
    ("ResponseTime_Logging_Period_Length", None, "no periodic log"),
    ("Seed", "seed", ""),
    ("Enabled_Preconditioning", "aging.fill_fraction",
     "true: the flows' largest `Initial_Occupancy_Percentage`; false: see the differences"),
    ("Memory_Type", None, "FLASH only"),
    ("HostInterface_Type", "host.interface.protocol", "NVME → nvme, SATA → sata"),
    ("IO_Queue_Depth", "host.queue_depth", "one device queue (MQSim: per flow); SATA: ≤ 32"),
    ("Queue_Fetch_Size", None, "no fetch batching"),
    ("Caching_Mechanism", "cache.capacity_bytes", "ADVANCED; SIMPLE is not modelled"),
    ("Data_Cache_Sharing_Mode", None, "one cache shared by all flows (SHARED)"),
    ("Data_Cache_Capacity", "cache.capacity_bytes", "0 when the flows' caching mode is off"),
    ("Data_Cache_DRAM_Row_Size", None, "no row-buffer misses"),
    ("Data_Cache_DRAM_Data_Rate", "cache.dram_mb_per_s", "2 × rate (MT/s) × burst (bytes)"),
    ("Data_Cache_DRAM_Data_Busrt_Size", "cache.dram_mb_per_s", "see the rate"),
    ("Data_Cache_DRAM_tRCD", "cache.dram_latency_ns", "tRCD + tCL"),
    ("Data_Cache_DRAM_tCL", "cache.dram_latency_ns", "tRCD + tCL"),
    ("Data_Cache_DRAM_tRP", None, "no row-buffer misses"),
    ("Address_Mapping", None, "page-level only (MQSim's HYBRID is a stub)"),
    ("Ideal_Mapping_Table", "ftl.mapping_cache.capacity_bytes", "true → 0 (the whole map)"),
    ("CMT_Capacity", "ftl.mapping_cache.capacity_bytes", "bytes"),
    ("CMT_Sharing_Mode", None, "one CMT shared by all flows (SHARED)"),
    ("Plane_Allocation_Scheme", "ftl.striping", "the 24 four-letter orders"),
    ("Transaction_Scheduling_Policy", None, "resources serve in event-time order"),
    ("Overprovisioning_Ratio", "ftl.overprovisioning", ""),
    ("GC_Exec_Threshold", "ftl.gc_threshold_blocks",
     "a fraction of a plane's blocks → a free-block count, see the differences"),
    ("GC_Block_Selection_Policy", "ftl.gc.victim",
     "GREEDY, RGA → greedy; FIFO → fifo; RANDOM* → greedy (not modelled)"),
    ("Use_Copyback_for_GC", "ftl.move_path.gc", "true → copyback, false → controller"),
    ("Preemptible_GC_Enabled", "scheduler.preemptible_gc",
     "true → `[scheduler] policy = \"priority\"`, `preemptible_gc = true`"),
    ("GC_Hard_Threshold", "scheduler.gc_hard_threshold_blocks",
     "⌊h × blocks⌋ − 1 (MQSim: fewer than; nandlab: at or below), when preemptible"),
    ("Dynamic_Wearleveling_Enabled", None, "always on (least-worn free block first)"),
    ("Static_Wearleveling_Enabled", "ftl.wear_leveling.policy", "true → static"),
    ("Static_Wearleveling_Threshold", "ftl.wear_leveling.threshold_pe", "P/E cycles"),
    ("Prefered_suspend_erase_time_for_read", "host.suspend.min_remaining_erase_ns",
     "MQSim's parser reads this spelling"),
    ("Preferred_suspend_erase_time_for_read", None,
     "MQSim 7ec40e3 ignores this spelling (it reads `Prefered_…`), so its default applies"),
    ("Preferred_suspend_erase_time_for_write", None, "nandlab suspends for reads only"),
    ("Preferred_suspend_write_time_for_read", "host.suspend.min_remaining_program_ns", ""),
    ("Flash_Channel_Count", "device.channels", ""),
    ("Flash_Channel_Width", "timing.bus_rate_mb_s", "rate (MT/s) × width (bytes)"),
    ("Channel_Transfer_Rate", "timing.bus_rate_mb_s", "rate (MT/s) × width (bytes)"),
    ("Chip_No_Per_Channel", "device.chips_per_channel", ""),
    ("Flash_Comm_Protocol", None, "bus time from the rate; command cycles not charged"),
    ("Flash_Technology", "device.cell_type", "SLC, MLC, TLC; `page_map = \"sequential\"`"),
    ("CMD_Suspension_Support", "host.suspend.ops",
     "NONE, PROGRAM, ERASE, PROGRAM_ERASE → none, program, erase, program_erase"),
    ("Page_Read_Latency_LSB", "timing.read_latency_ns", "one entry per page type"),
    ("Page_Read_Latency_CSB", "timing.read_latency_ns", "TLC"),
    ("Page_Read_Latency_MSB", "timing.read_latency_ns", "MLC, TLC"),
    ("Page_Program_Latency_LSB", "timing.program_latency_ns", "one entry per page type"),
    ("Page_Program_Latency_CSB", "timing.program_latency_ns", "TLC"),
    ("Page_Program_Latency_MSB", "timing.program_latency_ns", "MLC, TLC"),
    ("Block_Erase_Latency", "timing.erase_latency_ns", ""),
    ("Block_PE_Cycles_Limit", None, "no block retirement; wear feeds the error models"),
    ("Suspend_Erase_Time", "host.suspend.erase_ns", ""),
    ("Suspend_Program_Time", "host.suspend.program_ns", ""),
    ("Die_No_Per_Chip", "device.dies_per_chip", ""),
    ("Plane_No_Per_Die", "device.planes_per_die", ""),
    ("Block_No_Per_Plane", "device.blocks_per_plane", ""),
    ("Page_No_Per_Block", "device.pages_per_block", ""),
    ("Page_Capacity", "device.page_size_bytes", "bytes"),
    ("Page_Metadat_Capacity", "device.oob_bytes", "bytes"),
)

#: ``workload.xml``: one ``IO_Flow_Parameter_Set_Synthetic`` or ``…_Trace_Based`` per
#: flow of an ``IO_Scenario``; each flow becomes a ``[[workload.flows]]`` entry (or
#: ``[workload]`` when the scenario has one flow).
MQSIM_FLOW = _rows(
    ("Priority_Class", None, "no NVMe priority arbitration"),
    ("Device_Level_Data_Caching_Mode", "cache.read_allocate",
     "WRITE_CACHE; WRITE_READ_CACHE → read_allocate; TURNED_OFF → no cache"),
    ("Channel_IDs", None, "flows share the whole array"),
    ("Chip_IDs", None, "flows share the whole array"),
    ("Die_IDs", None, "flows share the whole array"),
    ("Plane_IDs", None, "flows share the whole array"),
    ("Initial_Occupancy_Percentage", "aging.fill_fraction", "the largest of the flows"),
    ("File_Path", "workload.path", "taken from workload.xml's folder when it is there"),
    ("Percentage_To_Be_Executed", "workload.max_requests", "of the trace's lines"),
    ("Relay_Count", "workload.repeat", ""),
    ("Time_Unit", None, "MQSim reads every trace in ns whatever it says"),
    ("Working_Set_Percentage", "workload.footprint_bytes", "of the flow's share of the space"),
    ("Synthetic_Generator_Type", "host.replay",
     "QUEUE_DEPTH → closed loop; BANDWIDTH → open loop at `iops`"),
    ("Read_Percentage", "workload.read_fraction", "/ 100"),
    ("Address_Distribution", "workload.address",
     "RANDOM_UNIFORM → uniform; RANDOM_HOTCOLD → hotcold; STREAMING → random_fraction 0"),
    ("Percentage_of_Hot_Region", "workload.hot_fraction",
     "hot_fraction = p/100, hot_access = 1 − p/100"),
    ("Generated_Aligned_Addresses", "workload.alignment_bytes", "false → 512"),
    ("Address_Alignment_Unit", "workload.alignment_bytes", "sectors × 512"),
    ("Request_Size_Distribution", "workload.size_bytes", "FIXED; NORMAL → its mean"),
    ("Average_Request_Size", "workload.size_bytes", "sectors × 512"),
    ("Variance_Request_Size", None, "sizes are fixed or weighted, not normal"),
    ("Seed", None, "flow seeds derive from the run's `seed`"),
    ("Average_No_of_Reqs_in_Queue", "host.queue_depth", "QUEUE_DEPTH: summed over flows"),
    ("Bandwidth", "workload.iops", "bytes/s ÷ request bytes (Poisson, as MQSim)"),
    ("Intensity", None, "an old name MQSim 7ec40e3 ignores (it reads `Bandwidth`)"),
    ("Stop_Time", "workload.duration_s", "ns → s; BANDWIDTH flows only"),
    ("Total_Requests_To_Generate", "workload.requests", "0 = until Stop_Time"),
)

#: SSDsim's ``page.parameters`` (``key = value;`` lines).
SSDSIM = _rows(
    ("dram capacity", "cache.capacity_bytes", "bytes; an LRU write buffer"),
    ("cpu sdram", None, "no controller-memory model"),
    ("channel number", "device.channels", ""),
    ("chip number", "device.chips_per_channel", "all chips ÷ channels"),
    ("chip number[i]", "device.chips_per_channel", "must be the same on every channel"),
    ("die number", "device.dies_per_chip", ""),
    ("plane number", "device.planes_per_die", ""),
    ("block number", "device.blocks_per_plane", ""),
    ("page number", "device.pages_per_block", ""),
    ("subpage page", None, "512-byte sectors (page capacity ÷ subpage capacity)"),
    ("page capacity", "device.page_size_bytes", "bytes"),
    ("subpage capacity", None, "512-byte sectors"),
    ("t_PROG", "timing.program_latency_ns", "one value for every page"),
    ("t_DBSY", None, "multi-plane dummy busy time"),
    ("t_BERS", "timing.erase_latency_ns", ""),
    ("t_CLS", None, "ONFI cycle time"),
    ("t_CLH", None, "ONFI cycle time"),
    ("t_CS", None, "ONFI cycle time"),
    ("t_CH", None, "ONFI cycle time"),
    ("t_WP", None, "ONFI cycle time"),
    ("t_ALS", None, "ONFI cycle time"),
    ("t_ALH", None, "ONFI cycle time"),
    ("t_DS", None, "ONFI cycle time"),
    ("t_DH", None, "ONFI cycle time"),
    ("t_WC", "timing.bus_rate_mb_s", "1,000 / t_WC MB/s; command_latency_ns = 7 t_WC"),
    ("t_WH", None, "ONFI cycle time"),
    ("t_ADL", None, "ONFI cycle time"),
    ("t_R", "timing.read_latency_ns", "one value for every page"),
    ("t_AR", None, "ONFI cycle time"),
    ("t_CLR", None, "ONFI cycle time"),
    ("t_RR", None, "ONFI cycle time"),
    ("t_RP", None, "ONFI cycle time"),
    ("t_WB", None, "ONFI cycle time"),
    ("t_RC", None, "read data-out cycle; nandlab's bus has one rate (t_WC's)"),
    ("t_REA", None, "ONFI cycle time"),
    ("t_CEA", None, "ONFI cycle time"),
    ("t_RHZ", None, "ONFI cycle time"),
    ("t_CHZ", None, "ONFI cycle time"),
    ("t_RHOH", None, "ONFI cycle time"),
    ("t_RLOH", None, "ONFI cycle time"),
    ("t_COH", None, "ONFI cycle time"),
    ("t_REH", None, "ONFI cycle time"),
    ("t_IR", None, "ONFI cycle time"),
    ("t_RHW", None, "ONFI cycle time"),
    ("t_WHR", None, "ONFI cycle time"),
    ("t_RST", None, "ONFI cycle time"),
    ("erase limit", None, "no block retirement; wear feeds the error models"),
    ("flash operating current", None, "energy from nandlab's own per-operation figures"),
    ("flash supply voltage", None, "energy from nandlab's own per-operation figures"),
    ("dram active current", None, "no DRAM energy"),
    ("dram standby current", None, "no DRAM energy"),
    ("dram refresh current", None, "no DRAM energy"),
    ("dram voltage", None, "no DRAM energy"),
    ("address mapping", None, "page-level (SSDsim implements only 1, page)"),
    ("wear leveling", None, "SSDsim parses it and does nothing with it"),
    ("gc", None, "GC is always on"),
    ("clean in background", None, "no background GC"),
    ("overprovide", "ftl.overprovisioning", ""),
    ("gc threshold", None, "SSDsim reads it only for its active-write mode"),
    ("buffer management", None, "the cache is LRU write-back"),
    ("scheduling algorithm", None, "FCFS (`host.scheduler = \"fifo\"`)"),
    ("quick table radio", None, "not used by page mapping"),
    ("related mapping", None, "not used by page mapping"),
    ("striping", None, "see `allocation`"),
    ("interleaving", None, "dies interleave always"),
    ("pipelining", None, "not modelled"),
    ("time_step", None, "event-driven, no time step"),
    ("small large write", None, "not modelled"),
    ("active write threshold", None, "no active-write mode"),
    ("threshold value", None, "no active-write mode"),
    ("active write", None, "no active-write mode (SSDsim's default 0)"),
    ("gc hard threshold", "ftl.gc_threshold_blocks",
     "a fraction of a plane's pages → a free-block count, see the differences"),
    ("allocation", "ftl.striping", "static and dynamic allocation → CWDP striping"),
    ("static_allocation", None, "see `allocation`"),
    ("dynamic_allocation", None, "see `allocation`"),
    ("advanced command", "device.multi_plane",
     "bits 4, 16 (two-plane) → multi_plane; bit 2 (copyback) → `ftl.move_path.gc`"),
    ("advanced command priority", None, "not modelled"),
    ("advanced command priority2", None, "not modelled"),
    ("greed CB command", None, "copyback's odd/even page rule is not modelled"),
    ("greed MPW command", None, "multi-plane writes whenever planes are free"),
    ("aged", None, "SSDsim ages a plane with invalid pages; nandlab's fill is valid data"),
    ("aged ratio", None, "see `aged`"),
    ("queue_length", "host.queue_depth", "SSDsim's default 5 when absent"),
)

TABLES = {"MQSim ssdconfig.xml": MQSIM_DEVICE, "MQSim workload.xml": MQSIM_FLOW,
          "SSDsim page.parameters": SSDSIM}


def by_name(rows: tuple[Param, ...]) -> dict[str, Param]:
    return {p.name: p for p in rows}


def markdown() -> str:
    """The tables as docs/peers.md carries them (one per file kind)."""
    out: list[str] = []
    for title, rows in TABLES.items():
        out += [f"#### {title}", "", "| parameter | nandlab | how |", "|---|---|---|"]
        for p in rows:
            key = f"`{p.key}`" if p.key else "not modelled"
            out.append(f"| `{p.name}` | {key} | {p.note} |".replace(" |  |", " | |"))
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # regenerates the docs/peers.md section
    print(markdown(), end="")
