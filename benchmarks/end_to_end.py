"""End-to-end benchmark: the ``nandlab run`` command against the engine alone.

Replays ../shared/traces/msprod_DTRS100M.trace ``--repeat`` times back to back (32: 4.07 M
requests) on the seed-001 preset with the ``none`` overlay (no error model, no ECC) three
ways, the runs taking turns so a slow spell of the shared machine hits all alike:

- ``engine``: the release build of ``crates/nandlab-core/examples/replay.rs`` (a plain Rust
  process, no records);
- ``cli records``: ``nandlab run ... --out DIR`` (as ``python -m nandlab``) (per-request records to
  ``requests.parquet``);
- ``cli no records``: the same with ``--requests-out none``.

Each process is timed from its start to its exit (so the CLI's interpreter start-up and
imports count); its CPU time (user + system, all threads) and peak RSS are the kernel's
(``wait4``). CPU time is the figure a busy shared machine blurs least. ``--before DIR``
adds the same two CLI cases run as ``python -m nandlab`` from another build's ``python/``
folder (its ``nandlab`` package with its compiled core), for a before/after on one machine.
Prints a Markdown table (best and median of ``--runs``; each case's best wall time against
the engine's), issue 33's targets for the records case (>= 1.5 M requests/s, within 20 % of
the engine alone, peak RSS <= 150 MB) met or not, a hash of the records' content (to
compare builds: equal hashes, equal rows) and the load average before and after.
Usage: python benchmarks/end_to_end.py [--repeat 32] [--runs 7] [--before DIR]
(the lead's check on an idle machine: ``python benchmarks/end_to_end.py --runs 7``).
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from replay import build  # the same release build of examples/replay

ROOT = Path(__file__).resolve().parents[1]
TRACE = ROOT.parent / "shared" / "traces" / "msprod_DTRS100M.trace"
CONFIG = ROOT / "configs" / "001_ldpc_in_ssd.toml"
OVERLAY = ROOT / "benchmarks" / "overlays" / "none.toml"
#: Issue 33's targets for ``nandlab run`` with records on this case.
TARGET_RPS = 1.5e6
TARGET_OF_ENGINE = 1.2
TARGET_RSS_MB = 150
ENGINE = "engine (examples/replay)"
RECORDS = "nandlab run, records (parquet)"


def records_hash(path: Path) -> str:
    """SHA-256 (16 hex digits) of the records' columns, in order: equal for equal rows
    whatever the file's encoding (compression, row groups)."""
    import polars as pl

    df = pl.read_parquet(path)
    h = hashlib.sha256(str(df.schema).encode())
    for col in df.columns:
        s = df[col]
        h.update((s.to_physical() if s.dtype == pl.Enum else s).to_numpy().tobytes())
    return h.hexdigest()[:16]


def timed(cmd: list[str], env: dict[str, str] | None) -> tuple[float, float, float]:
    """Runs ``cmd`` (output discarded); returns (wall s, CPU s, peak RSS MB). Fails loudly."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, **env} if env else None,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def digest_apart(path: Path) -> tuple[str, int]:
    """``records_hash`` and the row count, worked out in a child process: a child forked
    from this one would otherwise report this process's memory (the records read back) as
    part of its own peak RSS."""
    out = subprocess.run([sys.executable, __file__, "--digest", str(path)], check=True,
                         capture_output=True, text=True).stdout.split()
    return out[0], int(out[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=32)
    ap.add_argument("--runs", type=int, default=7, help="runs per case; best and median kept")
    ap.add_argument("--before", help="python/ folder of another build to run beside this one")
    ap.add_argument("--no-build", action="store_true", help="use the replay binary as built")
    ap.add_argument("--digest", help=argparse.SUPPRESS)  # digest_apart's child
    args = ap.parse_args()
    if args.digest:
        import polars as pl

        rows = pl.scan_parquet(args.digest).select(pl.len()).collect().item()
        print(records_hash(Path(args.digest)), rows)
        return 0
    if not TRACE.is_file():
        print(f"skipped: {TRACE} not found (the trace excerpts live beside the repository)")
        return 0
    exe = ROOT / "target" / "release" / "examples" / "replay" if args.no_build else build()
    nandlab = [sys.executable, "-m", "nandlab"]  # what the `nandlab` command runs
    # Bytecode compiled once, as an installed package has it: with PYTHONDONTWRITEBYTECODE
    # set (this project's VM sets it) an editable install compiles every module each run.
    for src in [ROOT / "python", *([Path(args.before)] if args.before else [])]:
        compileall.compile_dir(src / "nandlab", quiet=1)
    out = Path(tempfile.mkdtemp(prefix="nandlab-e2e-"))
    run_args = [
        "run", str(CONFIG), "--trace", str(TRACE), "--format", "disksim", "-q",
        "--set", f"workload.repeat={args.repeat}", "--set", "reliability.model=none",
        "--set", "ecc.scheme=none", "--out", str(out),
    ]
    none = ["--requests-out", "none"]
    cases: dict[str, tuple[list[str], dict[str, str] | None]] = {
        ENGINE: (
            [str(exe), str(CONFIG), str(TRACE), "disksim", str(args.repeat), str(OVERLAY)], None
        ),
        RECORDS: ([*nandlab, *run_args], None),
        "nandlab run, --requests-out none": ([*nandlab, *run_args, *none], None),
    }
    if args.before:
        before = ([*nandlab, *run_args], {"PYTHONPATH": args.before})
        cases["before: nandlab run, records (parquet)"] = before
        cases["before: nandlab run, --requests-out none"] = (before[0] + none, before[1])
    load_before = os.getloadavg()
    runs: dict[str, list[tuple[float, float, float]]] = {k: [] for k in cases}
    rows, digests = 0, {}
    for _ in range(args.runs):
        for name, (cmd, env) in cases.items():
            runs[name].append(timed(cmd, env))
            if "records" in name and name not in digests and "none" not in name:
                digests[name], rows = digest_apart(out / "requests.parquet")
    load_after = os.getloadavg()
    shutil.rmtree(out)
    print(f"records written per run: {rows:,}")
    for name, digest in digests.items():
        print(f"records content hash ({name}): {digest}")
    print("| case | best s | median s | requests/s (best) | best s / engine's | CPU s (best) "
          "| peak RSS MB (max) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    engine_best = min(w for w, _, _ in runs[ENGINE])
    for name, r in runs.items():
        walls = [w for w, _, _ in r]
        best = min(walls)
        print(
            f"| {name} | {best:.3f} | {statistics.median(walls):.3f} | {rows / best:,.0f} "
            f"| {best / engine_best:.2f} | {min(c for _, c, _ in r):.2f} "
            f"| {max(m for _, _, m in r):.0f} |"
        )
    best = min(w for w, _, _ in runs[RECORDS])
    rss = max(m for _, _, m in runs[RECORDS])
    rps, of_engine = rows / best, best / engine_best
    for what, ok in (
        (f">= {TARGET_RPS / 1e6:.1f} M requests/s: {rps / 1e6:.2f} M", rps >= TARGET_RPS),
        (f"within 20 % of the engine: {of_engine:.2f}x", of_engine <= TARGET_OF_ENGINE),
        (f"peak RSS <= {TARGET_RSS_MB} MB: {rss:.0f} MB", rss <= TARGET_RSS_MB),
    ):
        print(f"target {'met' if ok else 'NOT met'}: {RECORDS}, {what}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
