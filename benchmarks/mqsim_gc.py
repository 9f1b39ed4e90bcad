"""The GC-heavy case beside MQSim (issue 34): foreground GC against preemptible GC in both
simulators, on the same device and workload (``benchmarks/mqsim_gc/``: MQSim's
``ssdconfig.xml`` + ``workload.xml`` for configs/bench/gc_heavy.toml's case; nandlab runs
what ``nandlab config import`` makes of them).

For each of ``Preemptible_GC_Enabled = false / true`` both simulators read the same two
files (the flag and seed written into copies): the importer turns the flag into
``[scheduler] policy = "priority"`` with ``preemptible_gc`` and MQSim's hard threshold
(MQSim collects urgently while a plane has fewer than ``GC_Hard_Threshold`` x blocks free:
3 of 128 here; nandlab's ``gc_hard_threshold_blocks`` counts "at or below", so 2), and
leaves nandlab's ``fifo`` (GC in the write that triggers it) when it is false.
``--occupancy``, ``--requests`` and ``--copyback`` write a variant of the case into both;
``--host-order arrival`` runs nandlab's preemptible rows with host reads and writes in the
order they become ready instead of the importer's (and MQSim's) host reads first.

MQSim reports no latency percentiles: only the mean and maximum response time over all
requests (``Device_Response_Time``), and the mean turnaround of read and write transactions
(``Average_*_Transaction_Turnaround_Time``), all in whole microseconds; its WAF here is
1 + ``Total_GC_Executions`` x ``Average_Page_Movement_For_GC`` / host-written pages.

Usage: python benchmarks/mqsim_gc.py [--mqsim PATH/TO/MQSim] [--seed S ...] [--occupancy PCT]
[--requests N] [--copyback true|false] [--host-order reads_first|arrival] [--json]
(without ``--mqsim``, or ``$MQSIM``, only nandlab's side runs). Build MQSim from its public
repository (CMU-SAFARI/MQSim, commit 7ec40e3 here) with its ``Makefile`` (``make``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import nandlab
from gc_scheduling import headline
from nandlab.peers import import_files

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "benchmarks" / "mqsim_gc"
PAGE_BYTES = 4096


@dataclass(frozen=True)
class Case:
    """The variant of the case both simulators run: ``None`` keeps the shipped files' value."""
    preemptible: bool
    seed: int
    occupancy_pct: int | None = None
    requests: int | None = None
    copyback: bool | None = None
    #: nandlab's ``scheduler.host_order`` when preemptible (``None``: the importer's).
    host_order: str | None = None


def _set(xml: str, tag: str, value: object | None) -> str:
    if value is None:
        return xml
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return re.sub(rf"<{tag}>[^<]*<", f"<{tag}>{text}<", xml)


def write_case(case: Case, d: Path) -> list[Path]:
    """The two MQSim files of ``case`` in ``d``: what MQSim runs and nandlab imports."""
    ssd = (CASE / "ssdconfig.xml").read_text()
    ssd = _set(_set(ssd, "Preemptible_GC_Enabled", case.preemptible), "Seed", case.seed)
    ssd = _set(ssd, "Use_Copyback_for_GC", case.copyback)
    wl = _set((CASE / "workload.xml").read_text(), "Seed", case.seed)
    wl = _set(wl, "Initial_Occupancy_Percentage", case.occupancy_pct)
    wl = _set(wl, "Total_Requests_To_Generate", case.requests)
    (d / "ssd.xml").write_text(ssd)
    (d / "wl.xml").write_text(wl)
    return [d / "ssd.xml", d / "wl.xml"]


def nandlab_case(case: Case) -> dict:
    """nandlab on what ``nandlab config import`` makes of the case's files: MQSim's
    ``Preemptible_GC_Enabled`` becomes ``[scheduler]`` (docs/peers.md); without it GC is
    nandlab's ``fifo``, MQSim's GC without preemption."""
    with tempfile.TemporaryDirectory() as d:
        cfg = import_files(write_case(case, Path(d))).config
    overrides: dict = {"output.record_requests": False}
    if case.preemptible and case.host_order:
        overrides["scheduler.host_order"] = case.host_order
    return headline(nandlab.run(cfg, overrides=overrides, progress=False))


def _fields(root: ET.Element, tag_end: str) -> dict[str, str]:
    """The first ``<...tag_end>`` element's fields: MQSim writes some as child elements,
    some as attributes."""
    for el in root.iter():
        if el.tag.endswith(tag_end):
            return dict(el.attrib) | {c.tag: (c.text or "").strip() for c in el}
    raise SystemExit(f"MQSim's result has no <...{tag_end}> element")


class MQSimFailed(Exception):
    """MQSim stopped with an error or before serving every request."""


def mqsim_case(binary: str, case: Case) -> dict:
    """MQSim on the case's two files."""
    with tempfile.TemporaryDirectory() as d:
        write_case(case, Path(d))
        # MQSim waits for a key after an error or at the end: stdin is closed.
        run = subprocess.run([binary, "-i", "ssd.xml", "-w", "wl.xml"], cwd=d, capture_output=True,
                             text=True, stdin=subprocess.DEVNULL, timeout=1800)
        errors = [ln for ln in (run.stdout + run.stderr).splitlines() if ln.startswith("ERROR:")]
        if run.returncode != 0 or errors:
            raise MQSimFailed(f"exit {run.returncode}: {'; '.join(errors) or 'no message'}")
        served = re.search(r"requests generated: (\d+) total requests serviced:(\d+)", run.stdout)
        if served is None or served[1] != served[2]:
            raise MQSimFailed(f"stopped early: {served[0] if served else 'no request count'}")
        root = ET.parse(Path(d) / "wl_scenario_1.xml").getroot()
    flow = _fields(root, "IO_Flow")
    ftl = _fields(root, "FTL")
    stream = _fields(root, "IO_Stream")
    writes = int(flow["Write_Request_Count"])  # one page each (4 KiB requests)
    moved = int(ftl["Total_GC_Executions"]) * float(ftl["Average_Page_Movement_For_GC"])
    return {
        "read_mean_us": float(stream["Average_Read_Transaction_Turnaround_Time"]),
        "write_mean_us": float(stream["Average_Write_Transaction_Turnaround_Time"]),
        "all_mean_us": float(flow["Device_Response_Time"]),
        "all_max_us": float(flow["Max_Device_Response_Time"]),
        "waf": 1.0 + moved / writes if writes else float("nan"),
        "gc_erases": int(ftl["Total_GC_Executions"]),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mqsim", default=os.environ.get("MQSIM"), help="MQSim binary ($MQSIM)")
    ap.add_argument("--seed", type=int, nargs="+", default=[1])
    ap.add_argument("--occupancy", type=int, help="Initial_Occupancy_Percentage (shipped: 100)")
    ap.add_argument("--requests", type=int, help="Total_Requests_To_Generate (shipped: 20,000)")
    ap.add_argument("--copyback", choices=["true", "false"],
                    help="Use_Copyback_for_GC (shipped: true)")
    ap.add_argument("--host-order", choices=["reads_first", "arrival"],
                    help="nandlab's scheduler.host_order in the preemptible rows")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.mqsim and not shutil.which(args.mqsim):
        raise SystemExit(f"--mqsim {args.mqsim}: not an executable")
    rows = []
    for seed in args.seed:
        for preemptible in (False, True):
            copyback = None if args.copyback is None else args.copyback == "true"
            case = Case(preemptible, seed, args.occupancy, args.requests, copyback, args.host_order)
            row = {"seed": seed, "preemptible": preemptible}
            rows.append({"sim": "nandlab"} | row | nandlab_case(case))
            if args.mqsim:
                try:
                    rows.append({"sim": "MQSim"} | row | mqsim_case(args.mqsim, case))
                except MQSimFailed as e:
                    rows.append({"sim": "MQSim"} | row | {"failed": str(e)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        print(", ".join(f"{k} {v:,.3f}" if isinstance(v, float) else f"{k} {v}"
                        for k, v in r.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
