"""docs/extending.md's worked examples are the code: each Rust block of the FIFO example and
of the stateful RGA example is in the file it names, word for word, and each runs by name
from a config (`ftl.gc.victim = "fifo"`, `"rga"` with `d`)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import nandlab

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "extending.md"
VICTIM = ROOT / "crates" / "nandlab-core" / "src" / "ftl" / "victim"


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
    (policy,) = _example_blocks("## Worked example: a stateful", "## Checklist")
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
