"""``nandlab config import``: MQSim's ``ssdconfig.xml`` (+ ``workload.xml``) or SSDsim's
``page.parameters`` as a nandlab config.

Every parameter the peer reads is converted or listed as not modelled (:mod:`.table`),
and the behaviour that still differs is stated; both go at the head of the TOML as
comments.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import ConfigError
from . import mqsim, ssdsim
from .common import Imported
from .mqsim_xml import parse

__all__ = ["Imported", "import_files"]


def _kind(path: Path) -> str:
    if path.is_dir():
        raise ConfigError(f"{path}: is a directory, not a config file")
    with open(path, "rb") as f:
        head = f.read(512).lstrip()
    if head.startswith(b"<"):
        root = parse(path).tag
        if root == "Execution_Parameter_Set":
            return "mqsim-device"
        if root == "MQSim_IO_Scenarios":
            return "mqsim-workload"
        raise ConfigError(f"{path}: <{root}> is neither MQSim's ssdconfig.xml "
                          "(<Execution_Parameter_Set>) nor its workload.xml "
                          "(<MQSim_IO_Scenarios>)")
    if b"=" in head:
        return "ssdsim"
    raise ConfigError(f"{path}: not an MQSim XML file or an SSDsim parameter file")


def import_files(paths: list[str | os.PathLike[str]], scenario: int | None = None) -> Imported:
    """Reads the peers' files (any order) and returns the nandlab config."""
    if not paths:
        raise ConfigError("give MQSim's ssdconfig.xml [workload.xml] or SSDsim's "
                          "page.parameters")
    files: dict[str, Path] = {}
    for raw in paths:
        p = Path(raw).expanduser()
        if not p.exists():
            raise ConfigError(f"no such file: {p}")
        kind = _kind(p)
        if kind in files:
            raise ConfigError(f"{p}: a second {kind} file (the first is {files[kind]})")
        files[kind] = p
    out = Imported(sources=[str(p) for p in files.values()])
    if "ssdsim" in files:
        if len(files) > 1:
            raise ConfigError("SSDsim's page.parameters cannot be imported with MQSim's files")
        if scenario is not None:
            raise ConfigError("--scenario is for MQSim's workload.xml")
        ssdsim.import_parameters(files["ssdsim"], out)
        return out
    dev_path = files.get("mqsim-device")
    dev = mqsim.import_device(dev_path, parse(dev_path) if dev_path else None, out)
    if dev_path is None:
        out.differences.append("no ssdconfig.xml: the device is MQSim's defaults")
    wl_path = files.get("mqsim-workload")
    if wl_path is None:
        if scenario is not None:
            raise ConfigError("--scenario needs MQSim's workload.xml")
        mqsim.set_fill(dev, None, out)
    else:
        mqsim.import_workload(wl_path, parse(wl_path), scenario, dev, out)
    return out
