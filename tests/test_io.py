"""Atomic writes leave the old file or none, never a partial one."""

from __future__ import annotations

import json

import pytest

from nandlab.io import atomic_path, atomic_write, write_json


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
