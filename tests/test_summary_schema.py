"""The core's summary schema (``crates/nandlab-core/src/metrics/summary/``) and what the
front reads agree: every metric key that ``python/nandlab`` names exists in a real run's
summary, so renaming a metric in Rust fails here instead of turning into a default.

Small real runs turn on every optional section between them; the test checks that they do
(a new section must get a run here), then that each dotted metric key written in the
front's source is in one of them, and that the CLI's tables render from each.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import nandlab
from nandlab.report import summary_view
from nandlab.summary import MissingMetric

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "configs"
SOURCE = ROOT / "python" / "nandlab"

#: The summary's metric sections, as the front knows them.
SECTIONS = {
    "requests", "read", "read_page", "write", "all", "flash", "energy_uj", "sim", "flows",
    "reliability", "mapping_cache", "cache", "critical", "suspend", "scheduler", "pe_time",
    "tvr", "codec",
}
#: Top-level entries that are not metric sections.
HEADER = {"version", "seed", "config"}

SMALL = {"workload.kind": "synthetic", "workload.requests": 1500, "workload.iops": 20000.0}
#: name -> (preset, overrides): between them, every section and optional metric.
RUNS = {
    "demo": ("demo.toml", {"workload.requests": 1500}),
    "flows": ("examples/two_flows.toml", {}),
    "interleave": ("001_ldpc_in_ssd.toml", {
        **SMALL, "ecc.interleave.ways": 2, "ftl.placement.policy": "interleave_group",
        "ftl.placement.ways": 2, "output.read_page_latency": True}),
    "caches": ("demo.toml", {"workload.requests": 1500, "cache.capacity_bytes": 8388608,
                             "ftl.mapping_cache.capacity_bytes": 65536}),
    "tvr_region": ("002_tvr.toml", {
        **SMALL, "tvr.enabled": True, "tvr.region.kind": "lpn_range", "tvr.region.first_lpn": 0,
        "tvr.region.end_lpn": 100000}),
    # Half full, as `reproduce asymmetric` runs it: the fill's critical pages keep backups.
    "meta_cure": ("004_asymmetric_256mb.toml", {
        **SMALL, "ftl.placement.policy": "meta_cure", "aging.fill_fraction": 0.5}),
    "feedback": ("004_asymmetric_256mb.toml", {
        **SMALL, "host.replay": "open", "host.queue_depth": 4, "host.scheduler": "feedback",
        "ftl.placement.policy": "msb_critical"}),
    # With per-state program times, as `reproduce bitflip`'s write runs.
    "bitflip": ("000_bitflip.toml", {**SMALL, "codec.kind": "bitflip",
                                     "timing.pe_time.model": "content"}),
    "suspend": ("demo.toml", {"workload.requests": 1500, "host.suspend.ops": "program_erase"}),
    # Block retirement (`nandlab endurance` reads the wear back from it).
    "retirement": ("demo.toml", {"workload.requests": 1500, "ftl.retire_pe_limit": 100000}),
    # Read refresh on (`flash.host_read_blocks`, seed 003's report).
    "refresh": ("demo.toml", {"workload.requests": 1500, "ftl.refresh.trigger": "threshold",
                              "ftl.refresh.read_count": 1000}),
    # Refresh urgency (`flash.refresh_wait`).
    "refresh_urgency": ("demo.toml", {
        "workload.requests": 1500, "ftl.refresh.trigger": "threshold",
        "ftl.refresh.read_count": 1000, "scheduler.policy": "priority",
        "scheduler.refresh_urgent_reads": 100}),
    # MQSim's preemptible GC (what `nandlab config import` writes for it).
    "preemptible_gc": ("demo.toml", {"workload.requests": 1500, "scheduler.policy": "priority",
                                     "scheduler.preemptible_gc": True,
                                     "scheduler.gc_hard_threshold_blocks": 1}),
    "hot_reliable": ("001_ldpc_in_ssd.toml", {
        **SMALL, "ftl.placement.policy": "hot_reliable", "ftl.placement.window_requests": 1000,
        "ftl.placement.hot_reads": 2, "ftl.placement.reliable_chips": [0, 1]}),
}

#: Endings of file names, which look like dotted keys.
FILE_TYPES = {"csv", "json", "parquet", "md", "toml", "png", "trace", "txt"}
#: A dotted key as the front writes one: `flash.erases`, `config.tvr.enabled`.
DOTTED = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+")


@pytest.fixture(scope="module")
def summaries() -> dict[str, dict[str, Any]]:
    """The runs' summaries (each test asks for ``real_core`` first, which skips unbuilt)."""
    return {name: nandlab.run(str(CONFIGS / preset), overrides=ov, progress=False).summary
            for name, (preset, ov) in RUNS.items()}


def _paths(node: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    """Every dotted path in ``node``: sections and their entries."""
    for k, v in node.items():
        yield prefix + k
        if isinstance(v, Mapping):
            yield from _paths(v, f"{prefix}{k}.")


def _dotted_literals() -> set[tuple[str, str]]:
    """(file, literal) for every string constant of the front that is a dotted key."""
    out = set()
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and DOTTED.fullmatch(node.value):
                out.add((str(path.relative_to(ROOT)), node.value))
    return out


def test_the_runs_cover_every_section(real_core, summaries):
    present = {k for s in summaries.values() for k in s}
    assert present == SECTIONS | HEADER
    # The optional entries inside sections, too.
    paths = {p for s in summaries.values() for p in _paths(s)}
    assert {"flash.interleave_write_amplification", "critical.backup_reads",
            "tvr.regions.tvr.reads_at_risk", "reliability.endurance.pe_by_page_type",
            "scheduler.feedbacks", "codec.flipped_unit_share",
            "flash.retirement.pe_by_block", "flash.host_read_blocks.pe_mean",
            "flash.refresh_wait.reads_past_trigger_max"} <= paths


def _unmatched(summaries: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], int]:
    """The front's dotted keys that none of ``summaries`` has, and how many were checked."""
    metrics = {p for s in summaries.values() for p in _paths(s) if not p.startswith("config.")}
    config = {p for s in summaries.values() for p in _paths(s["config"])}
    missing = []
    seen = 0
    for file, key in sorted(_dotted_literals()):
        first, _, rest = key.partition(".")
        if key.rpartition(".")[2] in FILE_TYPES:
            continue  # `requests.partial.csv`
        if first == "config":  # a results-table column echoing the resolved config
            ok = rest in config
        elif first in SECTIONS:
            # `tvr.enabled` or `codec.kind` may be a config override, not a metric; a
            # prefix (`flash.interleave`) selects the metrics that start with it.
            ok = key in config or any(m.startswith(key) for m in metrics)
        else:
            continue  # a module path, a config override of another section
        seen += 1
        if not ok:
            missing.append(f"{file}: {key}")
    return missing, seen


def test_every_metric_the_front_names_is_in_a_real_summary(real_core, summaries):
    missing, seen = _unmatched(summaries)
    assert not missing, "keys the front reads that no run's summary has:\n" + "\n".join(missing)
    assert seen > 50  # the scan found the reproductions' metrics


def test_a_renamed_metric_is_caught(real_core, summaries):
    """A metric the core stops writing (here BADR's page-move count) is reported."""
    renamed = copy.deepcopy(summaries)
    for s in renamed.values():
        s["flash"]["refresh_moves"] = s["flash"].pop("refresh_page_moves")
    missing, _ = _unmatched(renamed)
    assert "python/nandlab/reproduce/paper_003.py: flash.refresh_page_moves" in missing


def test_the_cli_tables_render_from_every_run(real_core, summaries):
    console = Console(width=200, file=None, record=True)
    for s in summaries.values():
        console.print(summary_view(s))
    text = console.export_text()
    assert "response time" in text and "write amplification" in text


def test_the_cli_tables_name_a_metric_the_summary_lacks(real_core, summaries):
    s = copy.deepcopy(summaries["demo"])
    del s["flash"]["erases"]
    with pytest.raises(MissingMetric, match=r"`flash\.erases`"):
        summary_view(s)
