"""Reproductions of the seed papers' evaluations (``nandlab reproduce ...``)."""

from __future__ import annotations

__all__ = ["asymmetric", "bitflip", "tvr"]
