"""nandlab beside SSDsim and MQSim on the same trace: requests per second end to end.

Each peer runs its own shipped device file on ../shared/traces/msprod_DTRS100M.trace
replayed ``--repeat`` times back to back (copy k shifted by k x (duration + mean gap), the
rule of nandlab's ``workload.repeat``, written out as one file in the peers' common trace
format: time ns, device, sector, sectors, 1 = read), and nandlab runs what ``nandlab config
import`` makes of that same device file on that same trace file (``nandlab run ... -q
--requests-out none``, then with records). So each pair is one device and one workload in
two simulators. Every process is timed from start to exit with its CPU time and peak RSS
(``end_to_end.timed``); the runs take turns, best and median of ``--runs`` kept. It prints
requests per wall second and per CPU second for every case, nandlab's lead over each peer
(the peer's best CPU and wall over nandlab's, with and without records) and the flash work
each simulator reports (programs, erases, GC), to show whether both did the same work.

Building the peers (their public repositories; facts in docs/peers.md):
- SSDsim (huaicheng/ssdsim, f411289): ``gcc -O2 -fcommon -c *.c && cc -o ssd *.o -lm``
  (its Makefile compiles without optimisation, and a current gcc needs ``-fcommon`` to link
  its header-defined globals). It reads ``page.parameters`` from its working folder and the
  trace's name (at most 29 characters) from standard input, and it never stops if the
  trace's last line ends with a newline (its readme says so), so the file here has none.
- MQSim (CMU-SAFARI/MQSim, 7ec40e3): ``make`` (``-O3``); run as ``MQSim -i ssdconfig.xml -w
  workload.xml`` with one trace-based flow on the file (the shipped flow's settings).

Usage: python benchmarks/peers_speed.py --ssdsim DIR --mqsim DIR [--repeat 1] [--runs 3]
[--nandlab-only]
(DIR: a built peer's folder holding its binary and shipped device file).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

from end_to_end import timed
from nandlab.peers import import_files

ROOT = Path(__file__).resolve().parents[1]
TRACE = ROOT.parent / "shared" / "traces" / "msprod_DTRS100M.trace"

MQSIM_FLOW = """<?xml version="1.0" encoding="us-ascii"?>
<MQSim_IO_Scenarios><IO_Scenario><IO_Flow_Parameter_Set_Trace_Based>
<Priority_Class>HIGH</Priority_Class>
<Device_Level_Data_Caching_Mode>WRITE_CACHE</Device_Level_Data_Caching_Mode>
<Channel_IDs>0,1,2,3,4,5,6,7</Channel_IDs><Chip_IDs>0,1,2,3</Chip_IDs>
<Die_IDs>0,1</Die_IDs><Plane_IDs>0,1</Plane_IDs>
<Initial_Occupancy_Percentage>70</Initial_Occupancy_Percentage>
<File_Path>{path}</File_Path><Percentage_To_Be_Executed>100</Percentage_To_Be_Executed>
<Relay_Count>1</Relay_Count><Time_Unit>NANOSECOND</Time_Unit>
</IO_Flow_Parameter_Set_Trace_Based></IO_Scenario></MQSim_IO_Scenarios>
"""


def repeated(src: Path, n: int, dst: Path) -> int:
    """``src`` n times back to back as nandlab's ``workload.repeat`` shifts it; the last
    line without a newline (SSDsim's rule). Returns the request count. Streamed, so that
    this process stays small: a child's peak RSS as ``wait4`` reports it is never below
    its parent's at the fork (about 22 MB here)."""
    count, last = 0, 0
    with src.open() as f:
        for ln in f:
            if ln.strip():
                count, last = count + 1, int(ln.split(maxsplit=1)[0])
    shift = last + last // (count - 1)
    with dst.open("w") as out:
        sep = ""
        for k in range(n):
            with src.open() as f:
                for ln in f:
                    if ln.strip():
                        t, rest = ln.split(maxsplit=1)
                        out.write(f"{sep}{int(t) + k * shift} {' '.join(rest.split())}")
                        sep = "\n"
    return n * count


def cases(args: argparse.Namespace, work: Path, trace: Path) -> dict[str, list[str]]:
    """The commands, by case name; each peer beside nandlab on the peer's imported device."""
    nl = [sys.executable, "-m", "nandlab", "run"]
    out: dict[str, list[str]] = {}
    if args.ssdsim:
        params = Path(args.ssdsim) / "page.parameters"
        (work / "page.parameters").write_bytes(params.read_bytes())
        cfg = work / "ssdsim.toml"
        cfg.write_text(import_files([params]).toml())
        # SSDsim exits 1 whether it finished or not: its last line says which.
        out["SSDsim"] = ["sh", "-c", f"cd {work} && echo t.trace | {Path(args.ssdsim) / 'ssd'} "
                         "| grep -q 'the simulation is completed'"]
        out["nandlab on SSDsim's device"] = [*nl, str(cfg), "--trace", str(trace), "--format",
                                            "disksim", "-q", "--out", str(work / "n_ss")]
    if args.mqsim:
        ssd = Path(args.mqsim) / "ssdconfig.xml"
        (work / "workload.xml").write_text(MQSIM_FLOW.format(path=trace))
        cfg = work / "mqsim.toml"
        cfg.write_text(import_files([ssd, work / "workload.xml"]).toml())
        out["MQSim"] = ["sh", "-c", f"cd {work} && {Path(args.mqsim) / 'MQSim'} -i {ssd} "
                        "-w workload.xml < /dev/null"]
        out["nandlab on MQSim's device"] = [*nl, str(cfg), "--trace", str(trace), "--format",
                                           "disksim", "-q", "--out", str(work / "n_mq")]
    for name in [n for n in out if n.startswith("nandlab")]:
        out[name + ", no records"] = [*out[name], "--requests-out", "none"]
    if args.nandlab_only:  # the peers' times do not depend on nandlab's build
        out = {k: v for k, v in out.items() if k.startswith("nandlab")}
    return out


def gc_work(work: Path) -> dict[str, str]:
    """What each simulator says about its flash work (GC included) after the last run, by
    case: SSDsim's statistic10.dat, MQSim's workload_scenario_1.xml, nandlab's summary.json."""
    out: dict[str, str] = {}
    stat = work / "statistic10.dat"
    if stat.is_file():
        text = stat.read_text(errors="replace")
        # `program count` includes its pre-processing's writes (a map entry for every page
        # the trace reads); `write flash count` is the programs the simulation issued.
        keys = ("program count", "write flash count", "erase count")
        got = {k: re.search(rf"^{k}:\s*(\d+)", text, re.M) for k in keys}
        out["SSDsim"] = ", ".join(f"{k} {int(m[1]):,}" for k, m in got.items() if m)
    xml = work / "workload_scenario_1.xml"
    if xml.is_file():
        text = xml.read_text(errors="replace")
        keys = ("Issued_Flash_Program_CMD", "Issued_Flash_Erase_CMD", "Total_GC_Executions",
                "Average_Page_Movement_For_GC")
        got = {k: re.search(rf'\b{k}="([0-9.]+)"', text) for k in keys}
        out["MQSim"] = ", ".join(f"{k} {m[1]}" for k, m in got.items() if m)
    for peer, sub in (("SSDsim", "n_ss"), ("MQSim", "n_mq")):
        summ = work / sub / "summary.json"
        if summ.is_file():
            f = json.loads(summ.read_text())["flash"]
            out[f"nandlab on {peer}'s device"] = (
                f"page programs {f['page_programs']:,} (host {f['host_page_programs']:,}), "
                f"erases {f['erases']:,} (GC {f['gc_erases']:,}), GC page moves "
                f"{f['gc_page_moves']:,}, WAF {f['write_amplification']:.3f}")
    return out


def report(n: int, repeat: int, times: dict[str, list[tuple[float, float, float]]],
           gc: dict[str, str]) -> None:
    """The timing table, nandlab's lead over each peer (CPU and wall) and the GC work."""
    print(f"DTRS x{repeat}: {n:,} requests; load average "
          f"{open('/proc/loadavg').read().split()[0]} at the end (run under nice as started)")
    print("| case | best wall s | median wall s | requests/s (best wall) | best CPU s "
          "| requests per CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    best = {k: (min(w for w, _, _ in t), min(c for _, c, _ in t)) for k, t in times.items()}
    for name, t in times.items():
        wall, cpu = best[name]
        print(f"| {name} | {wall:.2f} | {statistics.median(w for w, _, _ in t):.2f} | "
              f"{n / wall:,.0f} | {cpu:.2f} | {n / cpu:,.0f} | "
              f"{max(m for _, _, m in t):.0f} |")
    leads = [(peer, name) for peer in ("SSDsim", "MQSim") if peer in best
             for name in best if name.startswith(f"nandlab on {peer}'s")]
    if leads:
        print("\nnandlab's lead (the peer's best over nandlab's best, same device and trace):")
        print("| peer | nandlab case | CPU | wall |")
        print("|---|---|---:|---:|")
        for peer, name in leads:
            kind = "no records" if name.endswith("no records") else "records"
            print(f"| {peer} | {kind} | {best[peer][1] / best[name][1]:.1f}x | "
                  f"{best[peer][0] / best[name][0]:.1f}x |")
    if gc:
        print("\nFlash work, as each simulator reports it (last run):")
        for name, line in gc.items():
            print(f"- {name}: {line}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ssdsim", help="folder with SSDsim's built `ssd` and page.parameters")
    ap.add_argument("--mqsim", help="folder with MQSim's built `MQSim` and ssdconfig.xml")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--nandlab-only", action="store_true", help="run nandlab's cases only")
    args = ap.parse_args()
    if not TRACE.is_file():
        print(f"skipped: {TRACE} not found (the trace excerpts live beside the repository)")
        return 0
    with tempfile.TemporaryDirectory(prefix="nandlab-peers-") as d:
        work = Path(d)
        n = repeated(TRACE, args.repeat, work / "t.trace")
        runs = cases(args, work, work / "t.trace")
        times: dict[str, list[tuple[float, float, float]]] = {k: [] for k in runs}
        for _ in range(args.runs):
            for name, cmd in runs.items():
                times[name].append(timed(cmd, None))
        gc = gc_work(work)
    report(n, args.repeat, times, gc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
