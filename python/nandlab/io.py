"""Atomic file writes: a temp file in the target's directory, then ``os.replace``.

A writer that raises (or a process that dies) leaves the old file, or none, never a
partial one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yields a temp path beside ``path``; on success it replaces ``path``, else is removed.

    For writers that take a path (polars, the Rust core).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8"
) -> Iterator[IO[Any]]:
    """Yields a file object whose content replaces ``path`` only if the block succeeds."""
    if "b" in mode:
        encoding = None
    with atomic_path(path) as tmp, open(tmp, mode, encoding=encoding) as f:
        yield f
        f.flush()
        os.fsync(f.fileno())


def write_json(path: str | os.PathLike, data: Any) -> None:
    """Writes ``data`` as indented JSON, atomically."""
    text = json.dumps(data, indent=2, allow_nan=True) + "\n"
    with atomic_write(path) as f:
        f.write(text)
