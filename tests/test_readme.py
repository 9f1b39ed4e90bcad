"""The README's runnable examples run as written.

A fenced block preceded by the line ``<!-- runnable -->`` is run: ``bash`` blocks line by
line in bash (``set -e``), ``python`` blocks with this interpreter. They run in a scratch
folder laid out like a checkout beside ``../shared`` (``configs`` and ``../shared`` are
links to the real ones), so ``results/...`` outputs land in the scratch folder. A block
that reads ``../shared`` is skipped when that folder is absent, except under ``CI=true``,
where it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
MARKER = "<!-- runnable -->"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```\n", re.S | re.M)


def runnable_blocks(text: str) -> list[tuple[int, str, str]]:
    """(line number, language, code) of every fenced block right after the marker."""
    out = []
    for m in FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if before.strip() == MARKER:
            out.append((text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)))
    return out


BLOCKS = runnable_blocks((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_marks_its_examples():
    langs = sorted(lang for _, lang, _ in BLOCKS)
    assert langs.count("bash") >= 2 and "python" in langs, langs


def test_marker_parser_on_a_hand_made_readme():
    text = "x\n<!-- runnable -->\n```bash\necho a\n```\n\n```bash\necho b\n```\n"
    assert runnable_blocks(text) == [(3, "bash", "echo a\n")]


@pytest.mark.parametrize("line,lang,code", BLOCKS, ids=[f"README:{b[0]}" for b in BLOCKS])
def test_runnable_block(line, lang, code, tmp_path, real_core):
    if "../shared" in code and not SHARED.is_dir():
        reason = f"README:{line} reads ../shared, which is not at {SHARED}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    work = tmp_path / "repo"
    work.mkdir()
    (work / "configs").symlink_to(ROOT / "configs")
    if SHARED.is_dir():
        (tmp_path / "shared").symlink_to(SHARED)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    if lang == "bash":
        assert shutil.which("nandlab", path=env["PATH"]), "the nandlab command is not installed"
        cmd = ["bash", "-e", "-c", code]
    elif lang == "python":
        cmd = [sys.executable, "-c", code]
    else:
        pytest.fail(f"README:{line}: a runnable block must be bash or python, not {lang}")
    r = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"README:{line} failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
