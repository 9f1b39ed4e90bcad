"""The reproduction framework: verdicts computed from claims (worked by hand), the report
and index, and the README's verdict counts against a quick run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from nandlab.reproduce import framework, verdict_table
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
        "reproduced": 1, "close": 0, "inconclusive": 0, "differs": 1, "differs (paper)": 0
    }


def test_unknown_paper_is_one_line():
    from nandlab.errors import ConfigError

    with pytest.raises(ConfigError, match="no reproduction named 'ldpc'.*bitflip"):
        framework.paper_module("ldpc")


def test_readme_verdict_counts_match_a_quick_run(real_core, quick_reproduction):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = readme.split("<!-- verdicts-quick:")[1].split("<!-- /verdicts-quick -->")[0]
    stated = verdict_table.parse_table(block)
    runs = [quick_reproduction(name) for name in framework.PAPERS]
    # What `reproduce_all` writes, from the session's runs (each in <root>/<paper>/).
    index = framework.write_index(runs[0][0].parent, [r for _out, r in runs], quick=True)
    computed = verdict_table.parse_table(index.read_text())
    assert stated and stated == computed, (
        "README's verdict counts differ from this machine's `nandlab reproduce all --quick`; "
        f"regenerate them: python -m nandlab.reproduce.verdict_table {index.parent} "
        "--readme README.md --list docs/verdicts.md"
    )


def _block(mode):
    return f"<!-- verdicts-{mode}: generated -->\nold\n<!-- /verdicts-{mode} -->\n"


def test_verdict_table_writes_counts_to_readme_and_causes_to_the_list(tmp_path):
    out = tmp_path / "run"
    (out / "badr").mkdir(parents=True)
    (out / "index.md").write_text("Mode: quick.\n")
    claims = [
        {"label": "a", "kind": "simulated", "verdict": "reproduced", "why": ""},
        {"label": "b", "kind": "simulated", "verdict": "differs", "why": "First. Second."},
        {"label": "c", "kind": "input"},
    ]
    (out / "badr" / "claims.json").write_text(json.dumps(claims))
    readme, page = tmp_path / "README.md", tmp_path / "verdicts.md"
    readme.write_text("top\n" + _block("quick") + _block("full"))
    page.write_text(_block("quick") + _block("full"))
    assert verdict_table.main([str(out), "--readme", str(readme), "--list", str(page)]) == 0
    counts = verdict_table.parse_table(readme.read_text())
    title = framework.paper_module("badr").TITLE
    # One reproduced and one differs of two simulated claims; the input has no verdicts.
    assert counts[title, "simulated"] == ("2", "1", "0", "0", "1", "0")
    assert counts[title, "input"] == ("1",) + ("—",) * 5
    assert "- b — *differs*: First." in page.read_text() and "Second" not in page.read_text()
    assert "- a" not in page.read_text() and "- b" not in readme.read_text()
    # The full block of each page is untouched by a quick run.
    assert readme.read_text().endswith(_block("full")) and page.read_text().endswith(_block("full"))


def test_verdict_table_names_the_page_without_a_block(tmp_path, capsys):
    out = tmp_path / "run"
    (out / "badr").mkdir(parents=True)
    (out / "index.md").write_text("Mode: full.\n")
    (out / "badr" / "claims.json").write_text("[]")
    readme, page = tmp_path / "README.md", tmp_path / "verdicts.md"
    readme.write_text(_block("full"))
    page.write_text(_block("quick"))
    assert verdict_table.main([str(out), "--readme", str(readme), "--list", str(page)]) == 1
    assert capsys.readouterr().err == f"error: {page}: no <!-- verdicts-full: ... --> block\n"
    # Neither page was written: the README's block still holds its old body.
    assert readme.read_text() == _block("full")


def test_the_header_states_what_the_sweeps_took():
    st = framework.SweepTime
    # Everything simulated by this call: its wall time, with the jobs.
    now = [st(216, 0, [{"runs": 216, "wall_s": 1300.0, "jobs": 2}]),
           st(36, 0, [{"runs": 36, "wall_s": 211.0, "jobs": 2}])]
    assert framework.wall_time_md(1511.4, now) == \
        "wall time 1,511 s (252 runs simulated with `--jobs 2`)"
    # A re-analysis: every run found in the stores, which recorded 1,300 + 211 s.
    again = [st(0, 216, [{"runs": 216, "wall_s": 1300.0, "jobs": 2}]),
             st(0, 36, [{"runs": 36, "wall_s": 211.0, "jobs": 2}])]
    assert framework.wall_time_md(3.2, again) == ("wall time 3 s (0 runs simulated now, 252 "
                                                  "found in the store; simulated earlier in "
                                                  "1,511 s with `--jobs 2`)")
    assert framework.sweeps_time(again)["found_wall_s"] == 1511.0
    # Part resumed: 200 found (recorded earlier over two calls), 16 simulated now (last).
    part = [st(16, 200, [{"runs": 150, "wall_s": 900.0, "jobs": 2},
                         {"runs": 50, "wall_s": 300.0, "jobs": 1},
                         {"runs": 16, "wall_s": 90.0, "jobs": 2}])]
    assert framework.wall_time_md(95.0, part) == (
        "wall time 95 s (16 runs simulated now, 200 found in the store; simulated earlier "
        "in 1,200 s with `--jobs 1, 2`)")
    # A store from before timing.json: said so, not a made-up time.
    old = [st(0, 252, [])]
    assert framework.wall_time_md(3.0, old) == ("wall time 3 s (0 runs simulated now, 252 "
                                                "found in the store; the store did not "
                                                "record how long those took)")


def test_a_sweep_records_its_time_in_the_store(tmp_path):
    from nandlab.sweeps.store import Store

    s = Store(tmp_path / "sw", "0.1.0", "b")
    s.open()
    assert s.times() == []
    s.record_time(3, 1.5, 2)
    s.record_time(1, 0.5, None)
    assert s.times() == [{"runs": 3, "wall_s": 1.5, "jobs": 2},
                         {"runs": 1, "wall_s": 0.5, "jobs": None}]
