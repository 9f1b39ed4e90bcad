"""Reading MQSim's XML files: each parameter's text, typed on demand, with MQSim's default
where the file leaves a parameter out (``src/exec/*_Parameter_Set.cpp`` at 7ec40e3)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import ConfigError

#: MQSim's defaults for the parameters the importer converts.
DEVICE_DEFAULTS = {
    "PCIe_Lane_Bandwidth": "0.4", "PCIe_Lane_Count": "4", "SATA_Processing_Delay": "400000",
    "Seed": "123", "Enabled_Preconditioning": "true", "Memory_Type": "FLASH",
    "HostInterface_Type": "NVME", "IO_Queue_Depth": "1024", "Caching_Mechanism": "ADVANCED",
    "Data_Cache_Capacity": str(512 * 1024 * 1024), "Data_Cache_DRAM_Data_Rate": "800",
    "Data_Cache_DRAM_Data_Busrt_Size": "4", "Data_Cache_DRAM_tRCD": "13",
    "Data_Cache_DRAM_tCL": "13", "Address_Mapping": "PAGE_LEVEL",
    "Ideal_Mapping_Table": "false", "CMT_Capacity": str(2 * 1024 * 1024),
    "Plane_Allocation_Scheme": "CWDP", "Overprovisioning_Ratio": "0.07",
    "GC_Exec_Threshold": "0.05", "GC_Block_Selection_Policy": "RGA",
    "Use_Copyback_for_GC": "false", "Preemptible_GC_Enabled": "true", "GC_Hard_Threshold": "0.005",
    "Dynamic_Wearleveling_Enabled": "true", "Static_Wearleveling_Enabled": "true",
    "Static_Wearleveling_Threshold": "100", "Prefered_suspend_erase_time_for_read": "700000",
    "Preferred_suspend_write_time_for_read": "100000", "Flash_Channel_Count": "8",
    "Flash_Channel_Width": "1", "Channel_Transfer_Rate": "300", "Chip_No_Per_Channel": "4",
    "Flash_Technology": "MLC", "CMD_Suspension_Support": "ERASE",
    "Page_Read_Latency_LSB": "75000", "Page_Read_Latency_CSB": "75000",
    "Page_Read_Latency_MSB": "75000", "Page_Program_Latency_LSB": "750000",
    "Page_Program_Latency_CSB": "750000", "Page_Program_Latency_MSB": "750000",
    "Block_Erase_Latency": "3800000", "Suspend_Erase_Time": "700000",
    "Suspend_Program_Time": "100000", "Die_No_Per_Chip": "2", "Plane_No_Per_Die": "2",
    "Block_No_Per_Plane": "2048", "Page_No_Per_Block": "256", "Page_Capacity": "8192",
    "Page_Metadat_Capacity": "1872",
}

#: MQSim gives a flow's parameters no defaults (its fields start undefined), so a flow
#: must name every parameter the importer reads.
FLOW_DEFAULTS: dict[str, str] = {}


class Params:
    """The parameters of one XML element (and, for ``Device_Parameter_Set``, of its
    ``Flash_Parameter_Set``), by tag, with ``defaults`` behind them."""

    def __init__(self, source: str, values: dict[str, str], defaults: dict[str, str]):
        self.source, self.values, self.defaults = source, values, defaults

    def has(self, name: str) -> bool:
        return name in self.values

    def text(self, name: str) -> str:
        if name in self.values:
            return self.values[name].strip()
        if name in self.defaults:
            return self.defaults[name]
        raise ConfigError(f"{self.source}: <{name}> is missing (MQSim leaves it undefined)")

    def _bad(self, name: str, what: str) -> ConfigError:
        return ConfigError(f"{self.source}: <{name}>: expected {what}, got {self.text(name)!r}")

    def int(self, name: str) -> int:
        try:
            v = int(self.text(name))
        except ValueError:
            raise self._bad(name, "a whole number") from None
        if v < 0:
            raise self._bad(name, "a whole number ≥ 0")
        return v

    def float(self, name: str) -> float:
        try:
            v = float(self.text(name))
        except ValueError:
            raise self._bad(name, "a number") from None
        if not (v >= 0 and v != float("inf")):
            raise self._bad(name, "a finite number ≥ 0")
        return v

    def bool(self, name: str) -> bool:
        t = self.text(name).lower()
        if t not in ("true", "false"):
            raise self._bad(name, "true or false")
        return t == "true"

    def choice(self, name: str, choices: tuple[str, ...]) -> str:
        t = self.text(name).upper()
        if t not in choices:
            raise self._bad(name, "one of " + ", ".join(choices))
        return t


def parse(path: Path) -> ET.Element:
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        raise ConfigError(f"{path}: not well-formed XML ({e})") from None


def device_params(path: Path, root: ET.Element) -> Params:
    values: dict[str, str] = {}
    for section in ("Host_Parameter_Set", "Device_Parameter_Set"):
        for node in root.findall(section):
            for child in node:
                if child.tag == "Flash_Parameter_Set":
                    values.update((c.tag, c.text or "") for c in child)
                else:
                    values[child.tag] = child.text or ""
    return Params(str(path), values, DEVICE_DEFAULTS)


def flow_params(path: Path, node: ET.Element, index: int) -> Params:
    values = {c.tag: c.text or "" for c in node}
    return Params(f"{path}: flow {index}", values, FLOW_DEFAULTS)
