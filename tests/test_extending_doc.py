"""docs/extending.md's worked example is the code: each Rust block of the FIFO example is
in the file it names, word for word, and `--set ftl.gc.victim=fifo` runs it."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import nandlab

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "extending.md"
VICTIM = ROOT / "crates" / "nandlab-core" / "src" / "ftl" / "victim"


def _example_blocks() -> list[str]:
    text = DOC.read_text()
    example = text[text.index("## Worked example: FIFO"):text.index("## Checklist")]
    return [textwrap.dedent(b) for b in re.findall(r"```rust\n(.*?)```", example, re.S)]


def _normalise(code: str) -> str:
    """The code without the doc's margin notes (`// <- ...`) and trailing blanks."""
    lines = [re.sub(r"\s*// <-.*$", "", line).rstrip() for line in code.splitlines()]
    return "\n".join(lines).strip()


def test_each_block_of_the_worked_example_is_in_its_file():
    policy, registry = _example_blocks()
    assert _normalise(policy) in _normalise((VICTIM / "fifo.rs").read_text())
    assert _normalise(registry) in _normalise((VICTIM / "mod.rs").read_text())
    # The margin note marks the one line FIFO added to the registry.
    assert re.search(r"fifo::Fifo,\s*// <- the line FIFO added", registry)


def test_the_example_runs_as_the_doc_says(real_core):
    r = nandlab.run(ROOT / "configs" / "demo.toml", progress=False,
                    overrides={"ftl.gc.victim": "fifo", "workload.requests": 200})
    assert r.summary["config"]["ftl"]["gc"] == {"victim": "fifo"}
    assert r.summary["requests"]["count"] == 200
