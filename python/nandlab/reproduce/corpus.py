"""A file corpus for the BitFlip reproduction, chosen from files present on this machine.

Seed 000 analyses game, Linux-image, multimedia and executable files (Tables II, IV), which
are not available here. The selector below takes stand-ins by file type, deterministically
(candidates sorted by path, first fits kept), so the same machine always gives the same
corpus:

- ``executable``: ELF files (magic ``\\x7fELF``) in ``/usr/bin`` (symlinks resolved,
  duplicates dropped) — the paper's "Executable" type;
- ``compressed``: ``.gz``/``.xz``/``.zip``/``.bz2`` files under ``/usr/share`` and the Python
  site-packages — stand-in for the paper's compressed "Game" installation files;
- ``image``: compressed media first — ``.jpg``/``.jpeg`` photos and any
  ``.mp3``/``.mp4``/``.m4a``/``.ogg``/``.webm`` — then ``.png`` images, each under
  matplotlib's data path, ``/usr/share`` and the Python site-packages — stand-in for
  "Multimedia" (000's KITTI photos and 128/192 kbps MP4 concerts: entropy-coded data,
  which is why its reduction is the smallest, §IV-A). Small PNG icons are structured,
  not entropy-coded, so they come last;
- ``text``: source/text files (``.c``/``.h``/``.py``/``.txt``/``.rst``) under
  ``/usr/include`` and the standard library — stand-in for the uncompressed Linux
  kernel "Image" files.

Each type is capped at ``max_bytes`` in all, files above ``max_file_bytes`` or below
``min_file_bytes`` are skipped, and at most ``max_files`` are kept. Nothing is copied:
the simulator reads the files in place.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

TYPES = ("executable", "compressed", "image", "text")

COMPRESSED_EXT = (".gz", ".xz", ".zip", ".bz2")
MEDIA_EXT = (".jpg", ".jpeg", ".mp3", ".mp4", ".m4a", ".ogg", ".webm")
IMAGE_EXT = (".png",)
TEXT_EXT = (".c", ".h", ".py", ".txt", ".rst")


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 8 << 20
    max_files: int = 64
    max_file_bytes: int = 2 << 20
    min_file_bytes: int = 16 << 10


def _walk(roots: Iterable[Path], exts: tuple[str, ...]) -> Iterator[Path]:
    for root in roots:
        if not root.is_dir():
            continue
        found: list[Path] = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in filenames:
                if name.lower().endswith(exts):
                    found.append(Path(dirpath) / name)
        yield from sorted(found)


def _elf(paths: Iterable[Path]) -> Iterator[Path]:
    for p in paths:
        try:
            with open(p, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    yield p
        except OSError:
            continue


def _site_packages() -> list[Path]:
    roots = [Path(sysconfig.get_paths()["purelib"])]
    return [r for r in roots if r.is_dir()]


def _candidates(kind: str) -> Iterator[Path]:
    if kind == "executable":
        bindir = Path("/usr/bin")
        names = sorted(bindir.iterdir()) if bindir.is_dir() else []
        yield from _elf(p.resolve() for p in names if p.is_file())
    elif kind == "compressed":
        yield from _walk([Path("/usr/share"), *_site_packages()], COMPRESSED_EXT)
    elif kind == "image":
        roots = [Path("/usr/share"), *_site_packages()]
        try:
            import matplotlib

            roots.insert(0, Path(matplotlib.get_data_path()))
        except ImportError:
            pass
        yield from _walk(roots, MEDIA_EXT)
        yield from _walk(roots, IMAGE_EXT)
    elif kind == "text":
        stdlib = Path(sysconfig.get_paths()["stdlib"])
        yield from _walk([Path("/usr/include"), stdlib], TEXT_EXT)
    else:
        raise ValueError(f"unknown file type {kind!r}")


def select(kind: str, limits: Limits) -> list[Path]:
    """The files of one type, by the rules in the module docstring."""
    chosen: list[Path] = []
    seen: set[Path] = set()
    total = 0
    for p in _candidates(kind):
        if p in seen:
            continue
        try:
            size = p.stat().st_size
        except OSError:
            continue
        if not (limits.min_file_bytes <= size <= limits.max_file_bytes):
            continue
        if total + size > limits.max_bytes:
            continue
        if not os.access(p, os.R_OK):
            continue
        seen.add(p)
        chosen.append(p)
        total += size
        if len(chosen) >= limits.max_files or total >= limits.max_bytes:
            break
    return chosen


def select_all(limits: Limits) -> dict[str, list[Path]]:
    """Every type's files; a type with no file on this machine is left out (with a note
    on stderr)."""
    out: dict[str, list[Path]] = {}
    for kind in TYPES:
        files = select(kind, limits)
        if files:
            out[kind] = files
        else:
            print(
                f"reproduce: no {kind} files found on this machine; type skipped", file=sys.stderr
            )
    return out
