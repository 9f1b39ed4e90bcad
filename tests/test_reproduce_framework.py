"""The reproduction framework: verdicts computed from claims (worked by hand), the report
and index, and the README's verdict counts against a quick run."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from nandlab.reproduce import framework
from nandlab.reproduce.framework import Claim


def claim(paper, ours, margin=0.1):
    return Claim("k", "label", "§1", paper, ours, margin, "because")


@pytest.mark.parametrize(
    ("paper", "ours", "verdict"),
    [
        ((25.9, 34.2), (27.0, 30.0), "reproduced"),
        ((25.9, 34.2), (25.9, 34.2), "reproduced"),  # the bounds themselves are inside
        # 25.9 · (1 − 0.1) = 23.31 ≤ 24.6: close; 34.2 · 1.1 = 37.62 < 38: differs.
        ((25.9, 34.2), (24.6, 25.2), "close"),
        ((25.9, 34.2), (30.0, 38.0), "differs"),
        ((1.6, 2.4), (0.02, 0.024), "differs"),  # 100× smaller is not close
        ((2.9, 33.3), (0.9, 48.3), "differs"),
        ((50.0, 50.0), (math.nan, math.nan), "differs"),  # no value
    ],
)
def test_verdicts_by_hand(paper, ours, verdict):
    assert claim(paper, ours).verdict == verdict


def test_table_shows_margin_and_explains_only_differences():
    table = framework.claims_table(
        [claim((25.9, 34.2), (27.0, 30.0)), claim((25.9, 34.2), (24.6, 25.2))]
    )
    rows = table.splitlines()[2:]
    assert "**reproduced**" in rows[0] and "because" not in rows[0]
    assert "**close (within 10% of the paper's bounds)**" in rows[1] and "because" in rows[1]
    assert framework.verdict_counts([claim((1, 2), (1, 2)), claim((1, 2), (5, 6))]) == {
        "reproduced": 1, "close": 0, "differs": 1, "differs (paper)": 0
    }


def test_unknown_paper_is_one_line():
    from nandlab.errors import ConfigError

    with pytest.raises(ConfigError, match="no reproduction named 'ldpc'.*bitflip"):
        framework.paper_module("ldpc")


def test_readme_verdict_counts_match_a_quick_run(real_core, quick_reproduction):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = readme.split("<!-- verdicts:")[1].split("<!-- /verdicts -->")[0]
    stated = {
        m[0]: tuple(int(x) for x in m[1:])
        for m in re.findall(r"^\| (.+?) \| (\d+) \| (\d+) \| (\d+) \|$", block, re.M)
    }
    runs = [quick_reproduction(name) for name in framework.PAPERS]
    # What `reproduce_all` writes, from the session's runs (each in <root>/<paper>/).
    index = framework.write_index(runs[0][0].parent, [r for _out, r in runs], quick=True)
    computed = {
        m[0]: tuple(int(x) for x in m[1:])
        for m in re.findall(r"^\| (.+?) \| (\d+) \| (\d+) \| (\d+) \| \[", index.read_text(), re.M)
    }
    assert stated == computed, (
        "README's verdict counts differ from this machine's `nandlab reproduce all --quick`; "
        f"regenerate the table from {index}"
    )
