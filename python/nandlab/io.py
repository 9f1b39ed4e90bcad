"""Result files: atomic writes (a temp file in the target's directory, then ``os.replace``)
with the permissions the umask gives, and the checks and replacement of a run's output
directory.

A writer that raises (or a process that dies) leaves the old file, or none, never a
partial one.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from .errors import ConfigError

#: The timeline of a run with ``[output] timeline_ns`` (``nandlab.timeline``).
TIMELINE_FILE = "timeline.parquet"
#: Every block's P/E cycles at the end of a run with a timeline (columns ``block``,
#: ``pe_cycles``), for the P/E distribution of ``nandlab plot``.
PE_FILE = "pe_cycles.parquet"


def umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _temp_beside(target: Path) -> Path:
    """A new empty file in ``target``'s directory (created if missing), mode 0666 less
    the umask."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~umask())
    finally:
        os.close(fd)
    return Path(tmp)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yields a temp path beside ``path``; on success it replaces ``path``, else is removed.

    For writers that take a path (polars, the Rust core). The file gets the mode a plain
    ``open`` would give it (0666 less the umask), not ``mkstemp``'s 0600.

    A symlink is followed: the file it names is replaced and the link stays. A device or a
    FIFO (``/dev/null``, a named pipe) cannot be replaced by a file: it is written in place.
    A directory is refused.
    """
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    if target.is_dir():
        raise ConfigError(f"{path}: is a directory, not a file to write")
    if target.exists() and not target.is_file():
        yield target  # a device or FIFO: what is written goes to it
        return
    tmp_path = _temp_beside(target)
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
        if stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # a FIFO or device cannot sync
            os.fsync(f.fileno())


def json_text(data: Any) -> str:
    """``data`` as the indented JSON of result files."""
    return json.dumps(data, indent=2, allow_nan=True) + "\n"


def write_json(path: str | os.PathLike, data: Any) -> None:
    """Writes ``data`` as indented JSON, atomically."""
    text = json_text(data)
    with atomic_write(path) as f:
        f.write(text)


def check_writable_dir(path: str | os.PathLike) -> list[Path]:
    """Makes sure results can be written into directory ``path``, before a run: creates it
    (and missing parents) and writes and removes a probe file there. Returns the
    directories it created, outermost first, for :func:`remove_created` when the run
    fails. Raises :class:`ConfigError` naming the path and the reason."""
    d = Path(path).expanduser()
    if d.exists() and not d.is_dir():
        raise ConfigError(f"output directory {d}: exists and is not a directory")
    created = [p for p in (d, *d.parents) if not p.exists()][::-1]
    try:
        d.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=d, prefix=".nandlab-probe."):
            pass
    except OSError as e:
        remove_created(created)
        raise ConfigError(f"output directory {d}: cannot write there ({e.strerror or e})") from None
    return created


def remove_created(dirs: list[Path]) -> None:
    """Removes directories :func:`check_writable_dir` created, innermost first, if empty."""
    for p in reversed(dirs):
        with contextlib.suppress(OSError):
            p.rmdir()


def replace_outputs(directory: Path, owned: tuple[str, ...], files: Mapping[str, Any]) -> None:
    """Puts a run's files into ``directory`` so that no file of an earlier run stays beside
    them. Each new file is written to a temp file first (``files`` maps a name to a writer
    ``f(path)``); then every file in ``owned`` (what any run writes there) is removed, in
    that order, and the new files are moved into place in ``files``' order. Put the file
    whose presence means "complete" (the summary) first in ``owned`` and last in
    ``files``. Temp files of an owned name that a killed run left (``.NAME.*.tmp``) are
    removed last; other files in ``directory`` are left alone."""
    temps: dict[str, Path] = {}
    try:
        for name, write in files.items():
            temps[name] = _temp_beside(directory / name)
            write(temps[name])
        for name in owned:
            with contextlib.suppress(FileNotFoundError):
                (directory / name).unlink()
        for name, tmp in temps.items():
            os.replace(tmp, directory / name)
        for name in owned:
            for stale in directory.glob(f".{glob.escape(name)}.*.tmp"):
                with contextlib.suppress(FileNotFoundError):
                    stale.unlink()
    except BaseException:
        for tmp in temps.values():
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        raise
