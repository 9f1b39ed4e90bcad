"""Regenerates the README's figure, ``docs/demo_timeline.png``: the timeline panels of
``nandlab run configs/demo.toml --timeline 100ms`` (the quick start's demo).

Usage: python benchmarks/readme_figure.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import nandlab
from nandlab.plots import plot_runs

ROOT = Path(__file__).resolve().parents[1]
FIGURE = ROOT / "docs" / "demo_timeline.png"


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        nandlab.run(ROOT / "configs" / "demo.toml", out=d,
                    overrides={"output.timeline_ns": 100_000_000}, progress=False)
        figs = plot_runs([d])
        figs["timeline"].savefig(FIGURE, dpi=80)
    print(f"wrote {FIGURE}")


if __name__ == "__main__":
    main()
