"""docs/extending.md's worked examples are the code: each Rust block of the FIFO example, of
the stateful RGA example, of the error-model term example, of the refresh-trigger example,
of the wear-leveling example and of the read-strategy example is in the file it names, word
for word, and each runs by name from a config (`ftl.gc.victim = "fifo"`, `"rga"` with `d`,
`[[reliability.terms]]` with `term = "linear_read_disturb"`,
`ftl.refresh.trigger = "wear_scaled"`, `[ftl.wear_leveling] policy = "static"` with
`threshold_pe`, `[ecc.strategy] policy = "stepped"` with `step`)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import nandlab

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "extending.md"
VICTIM = ROOT / "crates" / "nandlab-core" / "src" / "ftl" / "victim"
TERMS = ROOT / "crates" / "nandlab-core" / "src" / "reliability" / "terms"
REFRESH = ROOT / "crates" / "nandlab-core" / "src" / "ftl" / "refresh"
WEAR = ROOT / "crates" / "nandlab-core" / "src" / "ftl" / "wear"
STRATEGY = ROOT / "crates" / "nandlab-core" / "src" / "ecc" / "strategy"


def _example_blocks(start: str, end: str) -> list[str]:
    text = DOC.read_text()
    example = text[text.index(start):text.index(end)]
    return [textwrap.dedent(b) for b in re.findall(r"```rust\n(.*?)```", example, re.S)]


def _normalise(code: str) -> str:
    """The code without the doc's margin notes (`// <- ...`) and trailing blanks."""
    lines = [re.sub(r"\s*// <-.*$", "", line).rstrip() for line in code.splitlines()]
    return "\n".join(lines).strip()


def test_each_block_of_the_worked_example_is_in_its_file():
    policy, registry = _example_blocks("## Worked example: FIFO", "## Worked example: a stateful")
    assert _normalise(policy) in _normalise((VICTIM / "fifo.rs").read_text())
    assert _normalise(registry) in _normalise((VICTIM / "mod.rs").read_text())
    # The margin note marks the one line FIFO added to the registry.
    assert re.search(r"fifo::Fifo,\s*// <- the line FIFO added", registry)
    assert re.search(r"rga::Rga,\s*// <- the line RGA added", registry)


def test_the_stateful_example_is_its_file():
    (policy,) = _example_blocks("## Worked example: a stateful", "## Worked example: an error")
    assert _normalise(policy) in _normalise((VICTIM / "rga.rs").read_text())


def test_the_example_runs_as_the_doc_says(real_core):
    r = nandlab.run(ROOT / "configs" / "demo.toml", progress=False,
                    overrides={"ftl.gc.victim": "fifo", "workload.requests": 200})
    assert r.summary["config"]["ftl"]["gc"] == {"victim": "fifo"}
    assert r.summary["requests"]["count"] == 200


#: The demo with the `demo_gc` sweep's settings: GC runs (644 erases with RGA d = 2).
GC_DEMO = {"workload.requests": 5000, "workload.read_fraction": 0.3,
           "workload.iops": 500.0, "ftl.gc_threshold_blocks": 14}


def test_the_stateful_example_runs_by_name_and_repeats_with_its_seed(real_core):
    def run() -> dict:
        overrides = GC_DEMO | {"ftl.gc.victim": "rga", "ftl.gc.d": 2}
        return nandlab.run(ROOT / "configs" / "demo.toml", progress=False,
                           overrides=overrides).summary

    a = run()
    assert a["config"]["ftl"]["gc"] == {"victim": "rga", "d": 2}
    assert a["flash"]["gc_erases"] > 0
    assert a["flash"] == run()["flash"]


def test_the_term_example_is_its_file_plus_one_registry_line():
    term, registry = _example_blocks("## Worked example: an error", "## Worked example: a refresh")
    assert _normalise(term) in _normalise((TERMS / "linear_read_disturb.rs").read_text())
    assert _normalise(registry) in _normalise((TERMS / "mod.rs").read_text())
    assert re.search(r"linear_read_disturb::LinearReadDisturb,\s*// <- the line", registry)


def _term_demo(rber_per_read: float) -> dict:
    """The demo judged by the doc's term stack: a constant 1e-4 plus the linear term."""
    terms = [{"term": "constant", "eps": 1e-4},
             {"term": "linear_read_disturb", "rber_per_read": rber_per_read}]
    overrides = {"workload.requests": 2000, "reliability.model": "terms",
                 "reliability.terms": terms}
    return nandlab.run(ROOT / "configs" / "demo.toml", progress=False,
                       overrides=overrides).summary


def test_the_term_example_runs_by_name(real_core):
    flat = _term_demo(0.0)
    assert flat["config"]["reliability"]["terms"][1] == {
        "term": "linear_read_disturb", "rber_per_read": 0.0}
    rel = flat["reliability"]
    assert rel["model"] == "terms" and rel["page_reads"] > 0
    # No slope: every judged read has exactly the constant (random data, no variation).
    assert rel["rber_mean"] == pytest.approx(1e-4, rel=1e-12)
    # A slope: each read adds 2e-9 per earlier read of its block, so the mean rises.
    assert _term_demo(2e-9)["reliability"]["rber_mean"] > 1e-4 * (1 + 1e-9)


def test_the_refresh_trigger_example_is_its_file_plus_one_registry_line():
    trigger, registry = _example_blocks("## Worked example: a refresh", "## Worked example: a wear")
    assert _normalise(trigger) in _normalise((REFRESH / "wear_scaled.rs").read_text())
    assert _normalise(registry) in _normalise((REFRESH / "mod.rs").read_text())
    assert re.search(r"wear_scaled::WearScaled,\s*// <- the line", registry)


def _refresh_demo(refresh: dict) -> dict:
    """The demo (worn blocks: 15,000-25,000 P/E) read-heavy, with `refresh` as [ftl.refresh]."""
    overrides = {"workload.requests": 3000, "workload.read_fraction": 1.0,
                 "workload.address": "zipf", "workload.zipf_theta": 1.2}
    overrides |= {f"ftl.refresh.{k}": v for k, v in refresh.items()}
    return nandlab.run(ROOT / "configs" / "demo.toml", progress=False,
                       overrides=overrides).summary


def test_the_refresh_trigger_example_runs_by_name(real_core):
    threshold = _refresh_demo({"trigger": "threshold", "read_count": 40})
    assert threshold["flash"]["refresh_erases"] > 0
    flat = {"trigger": "wear_scaled", "read_count": 40, "pe_ref": 1000,
            "pe_exponent": 0.0, "min_read_count": 10}
    same = _refresh_demo(flat)
    assert same["config"]["ftl"]["refresh"] == flat
    # No exponent: the plain threshold, refresh for refresh.
    assert same["flash"] == threshold["flash"]
    # (1000 / 15,000+)^1 < 1/15: every block is due at the floor of 10 reads instead of 40.
    steep = _refresh_demo(flat | {"pe_exponent": 1.0})
    assert steep["flash"]["refresh_erases"] > threshold["flash"]["refresh_erases"]


def test_the_wear_leveling_example_is_its_file_plus_one_registry_line():
    policy, registry = _example_blocks("## Worked example: a wear", "## Worked example: a read")
    assert _normalise(policy) in _normalise((WEAR / "static_leveling.rs").read_text())
    assert _normalise(registry) in _normalise((WEAR / "mod.rs").read_text())
    assert re.search(r"StaticLeveling = \"static\",\s*// <- the line", registry)


def test_the_wear_leveling_example_runs_by_name(real_core):
    def run(wear: dict) -> dict:
        overrides = GC_DEMO | {f"ftl.wear_leveling.{k}": v for k, v in wear.items()}
        return nandlab.run(ROOT / "configs" / "demo.toml", progress=False,
                           overrides=overrides).summary

    # Any wear spread at all (> 0 P/E cycles) empties the plane's least-worn full block
    # after a GC victim; the demo's preconditioned blocks differ by thousands of cycles.
    moved = run({"policy": "static", "threshold_pe": 0})
    assert moved["config"]["ftl"]["wear_leveling"] == {"policy": "static", "threshold_pe": 0}
    assert moved["flash"]["gc_erases"] > 0 and moved["flash"]["wl_erases"] > 0
    assert run({"policy": "none"})["flash"]["wl_erases"] == 0


def test_the_strategy_example_is_its_file_plus_one_registry_line():
    policy, registry = _example_blocks("## Worked example: a read", "## Seams outside")
    assert _normalise(policy) in _normalise((STRATEGY / "stepped.rs").read_text())
    assert _normalise(registry) in _normalise((STRATEGY / "mod.rs").read_text())
    assert re.search(r"stepped::Stepped,\s*// <- the line stepped added", registry)


def _strategy_demo(strategy: str | dict) -> dict:
    """The demo (vth errors on worn blocks: reads retry) under `strategy`."""
    overrides = {"workload.requests": 2000, "ecc.strategy": strategy}
    s = nandlab.run(ROOT / "configs" / "demo.toml", progress=False, overrides=overrides).summary
    for key in ("config", "sim"):
        s.pop(key)
    return s


def test_the_strategy_example_runs_by_name(real_core):
    progressive = _strategy_demo("progressive")
    one = _strategy_demo({"policy": "stepped", "step": 1})
    assert one["reliability"]["strategy"] == {"policy": "stepped", "step": 1}
    assert progressive["reliability"]["strategy"] == "progressive"
    assert progressive["reliability"]["mean_attempts"] > 1.0
    # step = 1 is progressive and step = k (the demo's 6 extra levels) two-step: the same
    # plans, so the same run, apart from the strategy's name.
    six = _strategy_demo({"policy": "stepped", "step": 6})
    for named, stepped in ((progressive, one), (_strategy_demo("two-step"), six)):
        named["reliability"].pop("strategy")
        stepped["reliability"].pop("strategy")
        assert stepped == named
