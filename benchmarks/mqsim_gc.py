"""The GC-heavy case beside MQSim (issue 34): foreground GC against preemptible GC in both
simulators, on the same device and workload (``benchmarks/mqsim_gc/``: MQSim's
``ssdconfig.xml`` + ``workload.xml`` for configs/bench/gc_heavy.toml's case; nandlab runs
what ``nandlab config import`` makes of them).

For each of ``Preemptible_GC_Enabled = false / true`` MQSim runs the two files (the flag
written into a copy) and nandlab runs the imported config under ``[scheduler] policy =
"fifo"`` / ``"priority"`` with ``preemptible_gc`` and MQSim's hard threshold (MQSim
collects urgently while a plane has fewer than ``GC_Hard_Threshold`` x blocks free: 3 of
128 here; nandlab's ``gc_hard_threshold_blocks`` counts "at or below", so 2). The importer
writes no ``[scheduler]`` (it still lists ``Preemptible_GC_Enabled`` as not modelled), so
the benchmark sets it.

MQSim reports no latency percentiles: only the mean and maximum response time over all
requests (``Device_Response_Time``), and the mean turnaround of read and write transactions
(``Average_*_Transaction_Turnaround_Time``), all in whole microseconds; its WAF here is
1 + ``Total_GC_Executions`` x ``Average_Page_Movement_For_GC`` / host-written pages.

Usage: python benchmarks/mqsim_gc.py [--mqsim PATH/TO/MQSim] [--seed S ...] [--json]
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
from pathlib import Path

import nandlab
from gc_scheduling import headline
from nandlab.peers import import_files

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "benchmarks" / "mqsim_gc"
#: MQSim's GC_Hard_Threshold x Block_No_Per_Plane, floored (ssdconfig.xml: 0.025 x 128).
MQSIM_HARD_BLOCKS = 3
PAGE_BYTES = 4096


def nandlab_case(preemptible: bool, seed: int) -> dict:
    """nandlab on the imported case; fifo = MQSim's GC without preemption."""
    cfg = import_files([CASE / "ssdconfig.xml", CASE / "workload.xml"]).config
    over = {"seed": seed, "output.record_requests": False}
    if preemptible:
        over |= {"scheduler.policy": "priority", "scheduler.preemptible_gc": True,
                 "scheduler.gc_hard_threshold_blocks": MQSIM_HARD_BLOCKS - 1}
    return headline(nandlab.run(cfg, overrides=over, progress=False))


def _fields(root: ET.Element, tag_end: str) -> dict[str, str]:
    """The first ``<...tag_end>`` element's fields: MQSim writes some as child elements,
    some as attributes."""
    for el in root.iter():
        if el.tag.endswith(tag_end):
            return dict(el.attrib) | {c.tag: (c.text or "").strip() for c in el}
    raise SystemExit(f"MQSim's result has no <...{tag_end}> element")


class MQSimFailed(Exception):
    """MQSim stopped with an error or before serving every request."""


def mqsim_case(binary: str, preemptible: bool, seed: int) -> dict:
    """MQSim on the two files with ``Preemptible_GC_Enabled`` and both seeds set."""
    with tempfile.TemporaryDirectory() as d:
        ssd = (CASE / "ssdconfig.xml").read_text()
        flag = str(preemptible).lower()
        ssd = re.sub(r"<Preemptible_GC_Enabled>\w+<", f"<Preemptible_GC_Enabled>{flag}<", ssd)
        ssd = re.sub(r"<Seed>\d+<", f"<Seed>{seed}<", ssd)
        wl = re.sub(r"<Seed>\d+<", f"<Seed>{seed}<", (CASE / "workload.xml").read_text())
        (Path(d) / "ssd.xml").write_text(ssd)
        (Path(d) / "wl.xml").write_text(wl)
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
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.mqsim and not shutil.which(args.mqsim):
        raise SystemExit(f"--mqsim {args.mqsim}: not an executable")
    rows = []
    for seed in args.seed:
        for preemptible in (False, True):
            rows.append({"sim": "nandlab", "seed": seed, "preemptible": preemptible}
                        | nandlab_case(preemptible, seed))
            if args.mqsim:
                row = {"sim": "MQSim", "seed": seed, "preemptible": preemptible}
                try:
                    rows.append(row | mqsim_case(args.mqsim, preemptible, seed))
                except MQSimFailed as e:
                    rows.append(row | {"failed": str(e)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        print(", ".join(f"{k} {v:,.3f}" if isinstance(v, float) else f"{k} {v}"
                        for k, v in r.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
