"""`nandlab config import`: MQSim's ssdconfig.xml + workload.xml and SSDsim's
page.parameters as nandlab configs.

The fixtures are written here with the keys and values of the peers' shipped files
(MQSim 7ec40e3 `ssdconfig.xml`, `workload.xml`; huaicheng/ssdsim f411289
`page.parameters`); every expected value is worked out by hand from the peer's rule in the
comment beside it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import nandlab
from cli_errors import cli
from nandlab.peers import import_files, table

ROOT = Path(__file__).resolve().parents[1]

HOST = {"PCIe_Lane_Bandwidth": "1.00000", "PCIe_Lane_Count": "4",
        "SATA_Processing_Delay": "400000", "Enable_ResponseTime_Logging": "false",
        "ResponseTime_Logging_Period_Length": "1000000"}
DEVICE = {
    "Seed": "321", "Enabled_Preconditioning": "false", "Memory_Type": "FLASH",
    "HostInterface_Type": "NVME", "IO_Queue_Depth": "65535", "Queue_Fetch_Size": "512",
    "Caching_Mechanism": "ADVANCED", "Data_Cache_Sharing_Mode": "SHARED",
    "Data_Cache_Capacity": "268435456", "Data_Cache_DRAM_Row_Size": "8192",
    "Data_Cache_DRAM_Data_Rate": "100", "Data_Cache_DRAM_Data_Busrt_Size": "1",
    "Data_Cache_DRAM_tRCD": "13", "Data_Cache_DRAM_tCL": "13", "Data_Cache_DRAM_tRP": "13",
    "Address_Mapping": "PAGE_LEVEL", "Ideal_Mapping_Table": "false",
    "CMT_Capacity": "2097152", "CMT_Sharing_Mode": "SHARED",
    "Plane_Allocation_Scheme": "CWDP", "Transaction_Scheduling_Policy": "PRIORITY_OUT_OF_ORDER",
    "Overprovisioning_Ratio": "0.07", "GC_Exec_Threshold": "0.05000",
    "GC_Block_Selection_Policy": "RGA", "Use_Copyback_for_GC": "false",
    "Preemptible_GC_Enabled": "false", "GC_Hard_Threshold": "0.005000",
    "Dynamic_Wearleveling_Enabled": "true", "Static_Wearleveling_Enabled": "true",
    "Static_Wearleveling_Threshold": "100",
    "Preferred_suspend_erase_time_for_read": "700000",
    "Preferred_suspend_erase_time_for_write": "700000",
    "Preferred_suspend_write_time_for_read": "100000", "Flash_Channel_Count": "8",
    "Flash_Channel_Width": "1", "Channel_Transfer_Rate": "333", "Chip_No_Per_Channel": "4",
    "Flash_Comm_Protocol": "NVDDR2",
}
FLASH = {
    "Flash_Technology": "MLC", "CMD_Suspension_Support": "ERASE",
    "Page_Read_Latency_LSB": "75000", "Page_Read_Latency_CSB": "75000",
    "Page_Read_Latency_MSB": "75000", "Page_Program_Latency_LSB": "750000",
    "Page_Program_Latency_CSB": "750000", "Page_Program_Latency_MSB": "750000",
    "Block_Erase_Latency": "3800000", "Block_PE_Cycles_Limit": "10000",
    "Suspend_Erase_Time": "700000", "Suspend_Program_Time": "100000", "Die_No_Per_Chip": "2",
    "Plane_No_Per_Die": "2", "Block_No_Per_Plane": "2048", "Page_No_Per_Block": "256",
    "Page_Capacity": "8192", "Page_Metadat_Capacity": "448",
}
FLOW = {"Priority_Class": "HIGH", "Device_Level_Data_Caching_Mode": "WRITE_CACHE",
        "Channel_IDs": "0,1,2,3,4,5,6,7", "Chip_IDs": "0,1,2,3", "Die_IDs": "0,1",
        "Plane_IDs": "0,1"}
SYNTHETIC = {
    **FLOW, "Initial_Occupancy_Percentage": "75", "Working_Set_Percentage": "50",
    "Synthetic_Generator_Type": "QUEUE_DEPTH", "Read_Percentage": "0",
    "Address_Distribution": "RANDOM_UNIFORM", "Percentage_of_Hot_Region": "0",
    "Generated_Aligned_Addresses": "true", "Address_Alignment_Unit": "16",
    "Request_Size_Distribution": "FIXED", "Average_Request_Size": "8",
    "Variance_Request_Size": "0", "Seed": "798", "Average_No_of_Reqs_in_Queue": "16",
    "Intensity": "32768", "Stop_Time": "10000000000", "Total_Requests_To_Generate": "0",
}
TRACE = {**FLOW, "Initial_Occupancy_Percentage": "70", "File_Path": "traces/tpcc-small.trace",
         "Percentage_To_Be_Executed": "100", "Relay_Count": "1", "Time_Unit": "NANOSECOND"}

SSDSIM = """#parameter file
dram capacity = 131074;     #the unit is B
chip number[0] = 2;
chip number[1] = 2;
chip number[2] = 0;
channel number = 2;   #the number of channel
chip number = 4;
die number = 2;
plane number = 2;
block number = 2048;
page number = 64;
subpage page = 4;
page capacity = 2048;
subpage capacity = 512;
t_PROG = 200000;             #the unit is ns
t_DBSY = 50;
t_BERS = 1500000;
t_WC = 25;
t_R = 20000;
t_RC = 25;
erase limit=100000;
flash operating current=25000.0;
address mapping=1;
wear leveling=1;
gc=1;
overprovide=0.10;
gc threshold=0.30;
buffer management=0;
scheduling algorithm=1;
gc hard threshold=0.30;
allocation=0;
static_allocation=2;
dynamic_allocation=0;
advanced command=31;
advanced command priority=0;
greed CB command=0;
greed MPW command=1;
aged=0;
aged ratio=0.7;
"""


def tags(d: dict[str, str], indent: str) -> str:
    return "".join(f"{indent}<{k}>{v}</{k}>\n" for k, v in d.items())


def ssdconfig(**over: str) -> str:
    dev = {**DEVICE, **{k: v for k, v in over.items() if k in DEVICE}}
    flash = {**FLASH, **{k: v for k, v in over.items() if k in FLASH}}
    return ('<?xml version="1.0" encoding="us-ascii"?>\n<Execution_Parameter_Set>\n'
            f"<Host_Parameter_Set>\n{tags(HOST, ' ')}</Host_Parameter_Set>\n"
            f"<Device_Parameter_Set>\n{tags(dev, ' ')}<Flash_Parameter_Set>\n"
            f"{tags(flash, '  ')}</Flash_Parameter_Set>\n</Device_Parameter_Set>\n"
            "</Execution_Parameter_Set>")


def workload(*scenarios: list[tuple[str, dict[str, str]]]) -> str:
    out = ['<?xml version="1.0" encoding="us-ascii"?>\n<MQSim_IO_Scenarios>']
    for flows in scenarios:
        out.append("<IO_Scenario>")
        for kind, params in flows:
            out.append(f"<IO_Flow_Parameter_Set_{kind}>\n{tags(params, ' ')}"
                       f"</IO_Flow_Parameter_Set_{kind}>")
        out.append("</IO_Scenario>")
    return "\n".join(out) + "\n</MQSim_IO_Scenarios>"


#: The shipped workload.xml: two 2-flow synthetic scenarios, then the TPC-C trace.
SHIPPED_WORKLOAD = workload(
    [("Synthetic", SYNTHETIC), ("Synthetic", {**SYNTHETIC, "Seed": "6533",
                                              "Average_No_of_Reqs_in_Queue": "2"})],
    [("Synthetic", {**SYNTHETIC, "Priority_Class": "URGENT", "Read_Percentage": "100"}),
     ("Synthetic", {**SYNTHETIC, "Read_Percentage": "100", "Seed": "6533"})],
    [("Trace_Based", TRACE)],
)


@pytest.fixture
def mqsim(tmp_path):
    (tmp_path / "ssdconfig.xml").write_text(ssdconfig())
    (tmp_path / "workload.xml").write_text(SHIPPED_WORKLOAD)
    (tmp_path / "traces").mkdir()
    (tmp_path / "traces" / "tpcc-small.trace").write_text("0 0 8 8 1\n100 0 16 8 0\n")
    return tmp_path


def test_mqsim_shipped_config_imports_with_each_rule(mqsim):
    imp = import_files([mqsim / "ssdconfig.xml", mqsim / "workload.xml"], scenario=3)
    c = imp.config
    assert c["seed"] == 321
    assert c["device"] == {
        "channels": 8, "chips_per_channel": 4, "dies_per_chip": 2, "planes_per_die": 2,
        "blocks_per_plane": 2048, "pages_per_block": 256, "page_size_bytes": 8192,
        "oob_bytes": 448, "cell_type": "mlc", "page_map": "sequential"}
    # One latency for both MLC page types collapses to one value.
    assert c["timing"] == {"read_latency_ns": [75_000], "program_latency_ns": [750_000],
                           "erase_latency_ns": 3_800_000, "bus_rate_mb_s": 333.0}
    # MQSim: collect while free < max(floor(0.05 * 2048), 1, 10) = 102; nandlab: at 101.
    assert c["ftl"]["gc_threshold_blocks"] == 101
    assert c["ftl"]["gc"] == {"victim": "greedy"}  # RGA is not modelled
    assert c["ftl"]["move_path"] == {"gc": "controller", "wear_leveling": "controller"}
    assert c["ftl"]["wear_leveling"] == {"policy": "static", "threshold_pe": 100}
    assert c["ftl"]["mapping_cache"] == {"capacity_bytes": 2_097_152}
    # tRCD + tCL = 26 ns; 2 x 100 MT/s x 1-byte bursts = 200 MB/s.
    assert c["cache"] == {"capacity_bytes": 268_435_456, "dram_latency_ns": 26,
                          "dram_mb_per_s": 200.0, "read_allocate": False}
    assert c["host"]["interface"] == {"protocol": "nvme", "pcie_lanes": 4,
                                      "pcie_lane_gb_per_s": 1.0, "sata_processing_ns": 400_000}
    assert c["host"]["queue_depth"] == 65535 and c["host"]["out_of_range"] == "wrap"
    # The shipped Preferred_suspend_erase_time_for_read is a spelling MQSim does not read:
    # its default (700 us) applies, and the tag is listed as not modelled.
    assert c["host"]["suspend"] == {"ops": "erase", "program_ns": 100_000, "erase_ns": 700_000,
                                    "min_remaining_program_ns": 100_000,
                                    "min_remaining_erase_ns": 700_000}
    # 128 planes x 2048 x 256 pages x 0.93 = 62,411,243 logical pages; full, the fullest
    # plane holds ceil(62,411,243 / 128) = 487,588 pages in 1,905 blocks: 143 free >= 103.
    assert c["aging"] == {"fill_fraction": 1.0}
    trace = c["workload"]
    assert trace == {"kind": "trace", "format": "disksim",
                     "path": str((mqsim / "traces" / "tpcc-small.trace").resolve())}
    skipped = {n for n, _, _ in imp.not_modelled}
    assert {"Queue_Fetch_Size", "Block_PE_Cycles_Limit", "Preferred_suspend_erase_time_for_read",
            "Priority_Class", "Time_Unit", "Transaction_Scheduling_Policy"} <= skipped
    assert any("GC trigger" in d and "= 102" in d for d in imp.differences)
    assert any("RGA" in d for d in imp.differences)
    assert any("never does" in d for d in imp.differences)  # MQSim's suspension fall-through


def test_every_parameter_is_mapped_or_listed(mqsim):
    imp = import_files([mqsim / "ssdconfig.xml", mqsim / "workload.xml"], scenario=3)
    mapped = {p.name for p in table.MQSIM_DEVICE + table.MQSIM_FLOW if p.key}
    listed = {n for n, _, _ in imp.not_modelled}
    for name in [*HOST, *DEVICE, *FLASH, *TRACE]:
        assert name in mapped or name in listed, name
    # Each not-modelled line is in the TOML's head, and the TOML reads back as the config.
    text = imp.toml()
    assert "# - Queue_Fetch_Size = 512: no fetch batching" in text
    assert tomllib.loads(text) == imp.config


#: Keys that need a companion setting to exist (a policy's parameter).
NEEDS = {"ftl.wear_leveling.threshold_pe": {"ftl.wear_leveling.policy": "static"}}


def test_the_mapping_table_names_real_keys_and_docs_carry_it(real_core):
    keys = {p.key for rows in table.TABLES.values() for p in rows if p.key}
    for key in sorted(keys):
        try:
            nandlab.check_config({}, {**NEEDS.get(key, {}), key: 1})
        except nandlab.NandlabError as e:  # a bad value is fine, an unknown key is not
            assert "unknown field" not in str(e), (key, str(e))
    peers = (ROOT / "docs" / "peers.md").read_text()
    assert table.markdown() in peers, "docs/peers.md: run python/nandlab/peers/table.py"
    # The worked example in docs/peers.md agrees with the importer on the keys the old
    # text dropped.
    for needle in ("gc_threshold_blocks = 101", 'ftl.move_path.gc =\n"controller"',
                   'ftl.gc.victim = "greedy"'):
        assert needle in peers, needle


def test_imported_mqsim_config_checks_and_replays_tpcc(mqsim, tmp_path, real_core,
                                                       shared_traces):
    out = tmp_path / "mqsim.toml"
    r = cli("config", "import", mqsim / "ssdconfig.xml", mqsim / "workload.xml",
            "--scenario", "3", "--out", out)
    assert r.exit_code == 0, r.stderr
    assert re.match(r"wrote .*mqsim\.toml: \d+ parameters not modelled", r.stderr)
    assert cli("config", "check", out).exit_code == 0
    res = nandlab.run(out, trace=shared_traces / "mqsim_tpcc-small.trace", progress=False)
    # SOURCES.md: 6,999 requests, 62.6 % reads.
    assert res.summary["requests"]["count"] == 6999
    assert round(res.summary["requests"]["reads"] / 6999, 3) == 0.626


def test_mqsim_synthetic_scenario_becomes_flows(mqsim, real_core):
    imp = import_files([mqsim / "workload.xml", mqsim / "ssdconfig.xml"])  # scenario 1
    c = imp.config
    assert c["host"]["replay"] == "closed"
    assert c["host"]["queue_depth"] == 16 + 2
    flows = c["workload"]["flows"]
    # Each flow: its half of 62,411,243 pages x 8 KiB, 50 % of it, down to 16 x 512 B.
    half = 62_411_243 * 8192 // 2 * 50 // 100
    assert [f["footprint_bytes"] for f in flows] == [half - half % 8192] * 2
    assert flows[0] == {"kind": "synthetic", "generator": "mix", "read_fraction": 0.0,
                        "size_bytes": 4096, "random_fraction": 1.0, "alignment_bytes": 8192,
                        "footprint_bytes": half - half % 8192, "requests": 10_000,
                        "iops": 0.0}
    assert any("3 scenarios" in d for d in imp.differences)
    assert any("Stop_Time 10 s" in d for d in imp.differences)
    assert "Intensity" in {n for n, _, _ in imp.not_modelled}  # MQSim ignores it too
    nandlab.check_config(c)


def test_mqsim_bandwidth_flow_and_hot_cold(tmp_path, real_core):
    flow = {**SYNTHETIC, "Synthetic_Generator_Type": "BANDWIDTH", "Bandwidth": "4096000",
            "Address_Distribution": "RANDOM_HOTCOLD", "Percentage_of_Hot_Region": "20",
            "Stop_Time": "0", "Total_Requests_To_Generate": "500", "Read_Percentage": "70"}
    (tmp_path / "w.xml").write_text(workload([("Synthetic", flow)]))
    (tmp_path / "s.xml").write_text(ssdconfig(Enabled_Preconditioning="true"))
    imp = import_files([tmp_path / "s.xml", tmp_path / "w.xml"])
    wl = imp.config["workload"]
    # 4,096,000 B/s / 4,096 B = 1,000 requests/s; MQSim's hot 20 % takes 80 %.
    assert wl["iops"] == 1000.0 and wl["requests"] == 500
    assert (wl["address"], wl["hot_fraction"], wl["hot_access"]) == ("hotcold", 0.2, 0.8)
    assert wl["read_fraction"] == 0.7
    assert imp.config["aging"]["fill_fraction"] == 0.75  # preconditioning: the occupancy
    assert "replay" not in imp.config["host"]
    res = nandlab.run(imp.config, overrides={"workload.requests": 50}, progress=False)
    assert res.summary["requests"]["count"] == 50


@pytest.mark.parametrize(("hard", "blocks", "expect"), [
    # MQSim: urgent while free blocks < floor(h x B); nandlab: urgent at or below the count.
    ("0.005000", "2048", 9),   # floor(10.24) = 10 -> 9
    ("0.025", "128", 2),       # floor(3.2) = 3 -> 2 (benchmarks/mqsim_gc's case)
    ("0.0", "128", 1),         # never urgent in MQSim; nandlab's least is 1
])
def test_preemptible_gc_imports_as_the_priority_scheduler(tmp_path, hard, blocks, expect):
    (tmp_path / "w.xml").write_text(workload([("Synthetic", SYNTHETIC)]))
    (tmp_path / "s.xml").write_text(ssdconfig(Preemptible_GC_Enabled="true",
                                              GC_Hard_Threshold=hard, Block_No_Per_Plane=blocks))
    c = import_files([tmp_path / "s.xml", tmp_path / "w.xml"]).config
    assert c["scheduler"] == {"policy": "priority", "preemptible_gc": True,
                              "gc_hard_threshold_blocks": expect}
    assert expect < c["ftl"]["gc_threshold_blocks"]
    (tmp_path / "s.xml").write_text(ssdconfig(Preemptible_GC_Enabled="false"))
    imp = import_files([tmp_path / "s.xml", tmp_path / "w.xml"])
    assert "scheduler" not in imp.config
    assert any(d.startswith("Preemptible_GC_Enabled = false") for d in imp.differences)


def test_ssdsim_parameters_import_with_each_rule(tmp_path, real_core, shared_traces):
    p = tmp_path / "page.parameters"
    p.write_text(SSDSIM)
    imp = import_files([p])
    c = imp.config
    assert c["device"] == {
        "channels": 2, "chips_per_channel": 2, "dies_per_chip": 2, "planes_per_die": 2,
        "blocks_per_plane": 2048, "pages_per_block": 64, "page_size_bytes": 2048,
        "cell_type": "slc", "multi_plane": True}  # 31 has the two-plane bits 4 and 16
    # A byte per t_WC = 25 ns is 40 MB/s; 7 t_WC = 175 ns of command cycles.
    assert c["timing"] == {"read_latency_ns": [20_000], "program_latency_ns": [200_000],
                           "erase_latency_ns": 1_500_000, "bus_rate_mb_s": 40.0,
                           "command_latency_ns": 175}
    assert c["cache"] == {"capacity_bytes": 131_074}
    assert c["host"] == {"queue_depth": 5, "out_of_range": "wrap"}  # queue_length's default
    # Free pages < 0.30 x 64 x 2048: free blocks < 614.4, i.e. <= 614.
    assert c["ftl"]["gc_threshold_blocks"] == 614
    assert c["ftl"]["move_path"] == {"gc": "copyback"}  # 31 has the copyback bit 2
    assert c["ftl"]["overprovisioning"] == 0.10
    # 16 planes x 2048 x 64 x 0.9 = 1,887,436 pages. At 0.77 the fullest plane holds
    # ceil(1,453,325 / 16) = 90,833 pages in 1,420 blocks (628 free >= 616); at 0.78,
    # 92,013 pages in 1,438 blocks (610 free).
    assert c["aging"]["fill_fraction"] == 0.77
    skipped = {n for n, _, _ in imp.not_modelled}
    assert {"t_DBSY", "erase limit", "gc threshold", "aged", "chip number[2]"} <= skipped
    out = tmp_path / "ssdsim.toml"
    assert cli("config", "import", p, "-o", out).exit_code == 0
    assert cli("config", "check", out).exit_code == 0
    res = nandlab.run(out, trace=shared_traces / "ssdsim_example_fin1.ascii", progress=False)
    assert res.summary["requests"]["count"] == 10_000  # SOURCES.md


@pytest.mark.parametrize("files,needle", [
    ({"a.xml": "<Execution_Parameter_Set><Device_Parameter_Set><Flash_Channel_Count>eight"
               "</Flash_Channel_Count></Device_Parameter_Set></Execution_Parameter_Set>"},
     "<Flash_Channel_Count>: expected a whole number, got 'eight'"),
    ({"a.xml": "<Execution_Parameter_Set><Device_Parameter_Set>"},
     "not well-formed XML"),
    ({"a.xml": "<Something/>"}, "<Something> is neither MQSim's ssdconfig.xml"),
    ({"a.xml": "<Execution_Parameter_Set><Device_Parameter_Set><GC_Block_Selection_Policy>"
               "BEST</GC_Block_Selection_Policy></Device_Parameter_Set>"
               "</Execution_Parameter_Set>"},
     "<GC_Block_Selection_Policy>: expected one of GREEDY, RGA, FIFO"),
    ({"w.xml": workload([("Synthetic", {k: v for k, v in SYNTHETIC.items()
                                        if k != "Read_Percentage"})])},
     "flow 0: <Read_Percentage> is missing"),
    ({"p.parameters": "channel number = two;\n"}, "p.parameters:1: `channel number`: "
                                                   "expected a number, got 'two'"),
    ({"p.parameters": "channel number = 2;\nchip number[0] = 2;\nchip number[1] = 1;\n"},
     "nandlab needs the same number on every channel"),
    ({"p.parameters": "channel number = 2;\nchip number = 4;\n"}, "`die number` is missing"),
    ({"a.txt": "hello\n"}, "not an MQSim XML file or an SSDsim parameter file"),
])
def test_bad_peer_files_are_one_line_errors(tmp_path, files, needle):
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(tmp_path / name)
    r = cli("config", "import", *paths)
    assert r.exit_code == 2, r.output
    assert len(r.stderr.splitlines()) == 1 and needle in r.stderr, r.stderr


def test_bad_import_arguments(mqsim, tmp_path):
    s, w = mqsim / "ssdconfig.xml", mqsim / "workload.xml"
    for args, needle in [
        ((s, w, "--scenario", 4), "--scenario 4: "),
        ((s, s), "a second mqsim-device file"),
        ((s, "--scenario", 1), "--scenario needs MQSim's workload.xml"),
        ((tmp_path / "none.xml",), "no such file"),
        ((mqsim,), "is a directory"),
    ]:
        r = cli("config", "import", *args)
        assert r.exit_code == 2 and needle in r.stderr, (args, r.stderr)
    # A value nandlab refuses is named as the imported config's key.
    (tmp_path / "odd.xml").write_text(ssdconfig(Page_Capacity="1000"))
    r = cli("config", "import", tmp_path / "odd.xml")
    assert r.exit_code == 2
    assert "the imported config is not valid: config key `device.page_size_bytes`" in r.stderr
