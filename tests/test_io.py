"""Atomic writes leave the old file or none, never a partial one; files get the umask's
mode; a run's output directory is checked first and never mixes two runs."""

from __future__ import annotations

import json
import os
import stat

import pytest

from nandlab.errors import ConfigError
from nandlab.io import (
    atomic_path,
    atomic_write,
    check_writable_dir,
    remove_created,
    replace_outputs,
    write_json,
)


def test_writer_that_raises_leaves_no_file(tmp_path):
    target = tmp_path / "summary.json"
    with pytest.raises(RuntimeError), atomic_write(target) as f:
        f.write('{"partial": ')
        raise RuntimeError("writer died")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == [], "the temp file is removed too"


def test_writer_that_raises_keeps_the_old_file(tmp_path):
    target = tmp_path / "summary.json"
    write_json(target, {"old": True})
    with pytest.raises(KeyboardInterrupt), atomic_write(target) as f:
        f.write("garbage")
        raise KeyboardInterrupt
    assert json.loads(target.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]


def test_atomic_path_replaces_on_success(tmp_path):
    target = tmp_path / "sub" / "r.bin"
    with atomic_path(target) as tmp:
        assert tmp.parent == target.parent
        assert not target.exists()
        tmp.write_bytes(b"abc")
    assert target.read_bytes() == b"abc"
    assert [p.name for p in target.parent.iterdir()] == ["r.bin"]


def test_write_json(tmp_path):
    write_json(tmp_path / "x.json", {"a": [1, 2.5, "s"]})
    assert json.loads((tmp_path / "x.json").read_text()) == {"a": [1, 2.5, "s"]}


@pytest.mark.parametrize("mask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_files_get_the_mode_the_umask_gives(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        write_json(tmp_path / "s.json", {})
        with atomic_path(tmp_path / "r.bin") as tmp:
            tmp.write_bytes(b"x")
        replace_outputs(tmp_path, ("o.txt",), {"o.txt": lambda p: p.write_text("o")})
    finally:
        os.umask(old)
    for name in ("s.json", "r.bin", "o.txt"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_replace_outputs_removes_the_files_an_earlier_run_owned(tmp_path):
    owned = ("summary.json", "requests.parquet", "requests.csv")
    (tmp_path / "requests.parquet").write_text("old run")
    (tmp_path / "summary.json").write_text("old run")
    (tmp_path / "notes.txt").write_text("the user's")
    replace_outputs(tmp_path, owned, {"requests.csv": lambda p: p.write_text("new"),
                                      "summary.json": lambda p: p.write_text("new")})
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "notes.txt", "requests.csv", "summary.json"]
    assert (tmp_path / "summary.json").read_text() == "new"


def test_replace_outputs_removes_what_a_killed_run_left(tmp_path):
    # A run killed mid-way (SIGKILL: no cleanup) leaves its record stream's temp file.
    (tmp_path / ".requests.parquet.k1ll3d.tmp").write_text("half a stream")
    (tmp_path / ".notes.txt.x.tmp").write_text("not a run's")
    replace_outputs(tmp_path, ("summary.json", "requests.parquet"),
                    {"summary.json": lambda p: p.write_text("new")})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".notes.txt.x.tmp", "summary.json"]


def test_replace_outputs_keeps_the_earlier_run_when_a_writer_fails(tmp_path):
    (tmp_path / "summary.json").write_text("old run")

    def fail(p):
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        replace_outputs(tmp_path, ("summary.json",), {"summary.json": fail})
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]
    assert (tmp_path / "summary.json").read_text() == "old run"


def test_check_writable_dir(tmp_path):
    made = check_writable_dir(tmp_path / "a" / "b")
    assert made == [tmp_path / "a", tmp_path / "a" / "b"]
    assert list((tmp_path / "a" / "b").iterdir()) == [], "the probe file is removed"
    remove_created(made)
    assert not (tmp_path / "a").exists()
    (tmp_path / "f").write_text("")
    with pytest.raises(ConfigError, match="exists and is not a directory"):
        check_writable_dir(tmp_path / "f")
    with pytest.raises(ConfigError, match="cannot write there"):
        check_writable_dir(tmp_path / "f" / "sub")
