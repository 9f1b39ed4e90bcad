"""The core's layering (issue 10 item 8), read from its source: no two top-level modules
of nandlab-core use each other, directly or through others, and `sim/` (which orchestrates
events and resources) calls the FTL's methods instead of touching its public fields."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "crates" / "nandlab-core" / "src"


def _code(path: Path) -> str:
    """A file's code before its unit tests (tests may use anything)."""
    return path.read_text().split("#[cfg(test)]")[0]


def _uses() -> dict[str, set[str]]:
    """Top-level module -> the top-level modules its code names as `crate::x`."""
    mods = {p.stem if p.is_file() else p.name for p in SRC.iterdir()
            if (p.is_dir() or p.suffix == ".rs") and p.name != "lib.rs"}
    out: dict[str, set[str]] = {}
    for m in mods:
        root = SRC / m
        files = sorted(root.rglob("*.rs")) if root.is_dir() else [SRC / f"{m}.rs"]
        names: set[str] = set()
        for f in files:
            code = re.sub(r"//.*", "", _code(f))  # doc links are not uses
            names |= set(re.findall(r"crate::(\w+)", code))
            for group in re.findall(r"crate::\{([^}]*)\}", code):
                names |= set(re.findall(r"(?:^|,)\s*(\w+)", group))
        out[m] = (names & mods) - {m}
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path (first node repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt, [*path, nxt])):
                return found
        state[node] = 2
        return None

    for n in sorted(graph):
        if n not in state and (found := visit(n, [n])):
            return found
    return None


def test_no_import_cycle_between_core_modules():
    graph = _uses()
    assert {"sim", "ftl", "config", "ecc", "reliability", "metrics"} <= graph.keys()
    assert "ftl" in graph["sim"]  # the scan sees uses
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_one():
    assert _cycle({"config": {"ftl"}, "ftl": {"error", "config"}, "error": set()}) \
        == ["config", "ftl", "config"]


def test_sim_calls_the_ftl_and_does_not_touch_its_fields():
    ftl = (SRC / "ftl" / "mod.rs").read_text()
    body = ftl[ftl.index("pub struct Ftl {"):]
    body = body[:body.index("\n}")]
    fields = re.findall(r"^\s*pub (\w+):", body, re.M)
    assert "mapping" in fields  # the scan reads the struct
    touched = []
    for f in sorted((SRC / "sim").rglob("*.rs")):
        for n, line in enumerate(_code(f).splitlines(), 1):
            for field in fields:
                if re.search(rf"\bftl\.{field}\b(?!\s*\()", line):
                    touched.append(f"{f.relative_to(SRC)}:{n}: {line.strip()}")
    assert not touched, "\n".join(touched)
