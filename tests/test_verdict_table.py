"""The verdict table of index.md and the README: counts per paper and kind, every claim
not reproduced listed with its cause (issue #28 item 6)."""

from __future__ import annotations

import json

import pytest

from nandlab.errors import ConfigError
from nandlab.reproduce import verdict_table as vt


def row(verdict, kind="simulated", label="x", why="Cause one. Cause two."):
    return {"kind": kind, "verdict": verdict, "label": label, "why": why}


CLAIMS = [row("reproduced"), row("close", label="c"), row("differs", label="d"),
          row("inconclusive", label="u"),
          row("differs (paper)", label="p", why="σ = 0.5 caps it: 33.3 %. More."),
          row("differs", "model check", label="m"), row(None, "input", label="i"),
          row(None, "extension", label="e")]


def test_counts_per_kind_and_every_difference():
    table = vt.table_md([("P (seed 9)", CLAIMS)])
    lines = table.splitlines()
    assert lines[0] == ("| paper | kind | claims | reproduced | close | inconclusive | differs "
                        "| differs (paper) |")
    assert lines[2] == "| P (seed 9) | simulated | 5 | 1 | 1 | 1 | 1 | 1 |"
    assert lines[3] == "| P (seed 9) | model check | 1 | 0 | 0 | 0 | 1 | 0 |"
    assert lines[4] == "| P (seed 9) | input | 1 | — | — | — | — | — |"
    assert lines[5] == "| P (seed 9) | extension | 1 | — | — | — | — | — |"
    parsed = vt.parse_table(table)
    assert parsed[("P (seed 9)", "simulated")] == ("5", "1", "1", "1", "1", "1")
    assert len(parsed) == 4
    diff = vt.differs_md([("P (seed 9)", CLAIMS)])
    # Five judged claims are not reproduced; inputs, extensions and the reproduced are not
    # listed.
    assert diff.count("- ") == 5
    assert "- p — *differs (paper)*: σ = 0.5 caps it: 33.3 %." in diff
    assert "- c — *close*: Cause one." in diff and "Cause two" not in diff
    # An inconclusive row says that the seeds decided it.
    assert "- u — *inconclusive*: The spread over seeds is too wide to tell" in diff


def test_older_claims_count_as_simulated():
    old = [{"verdict": "close", "label": "a", "why": ""}]
    assert "| T | simulated | 1 | 0 | 1 | 0 | 0 | 0 |" in vt.table_md([("T", old)])


def test_regenerates_index_and_readme_block(tmp_path, monkeypatch):
    out = tmp_path / "all"
    (out / "badr").mkdir(parents=True)
    (out / "badr" / "claims.json").write_text(json.dumps(CLAIMS))
    (out / "index.md").write_text("# nandlab reproductions\n\nMode: quick.\n")
    readme = tmp_path / "README.md"
    readme.write_text("before\n<!-- verdicts-quick: generated -->\nold\n"
                      "<!-- /verdicts-quick -->\nafter\n")
    assert vt.main([str(out), "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert text.startswith("before\n<!-- verdicts-quick: generated -->\n| paper |")
    assert "\nold\n" not in text and text.endswith("<!-- /verdicts-quick -->\nafter\n")
    assert vt.parse_table(text) == vt.parse_table((out / "index.md").read_text())
    assert "[badr](badr/report.md)" in (out / "index.md").read_text()
    # A run with one paper of five says which four it leaves out, in both places.
    from nandlab.reproduce.framework import PAPERS, paper_module

    others = ", ".join(paper_module(n).TITLE for n in PAPERS if n != "badr")
    assert f"Not in this run yet: {others}." in text
    assert f"Not in this run yet: {others}." in (out / "index.md").read_text()
    with pytest.raises(ConfigError, match="no <!-- verdicts-full"):
        vt.replace_block(text, "full", "x")


def test_a_folder_without_reports_is_one_line(tmp_path, capsys):
    (tmp_path / "index.md").write_text("Mode: full.\n")
    assert vt.main([str(tmp_path)]) == 1
    assert capsys.readouterr().err.strip().startswith(f"error: {tmp_path}: no <paper>")
