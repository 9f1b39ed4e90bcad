"""``nandlab endurance``'s outputs: ``lifetime.parquet`` (one row per epoch),
``lifetime.png`` (the curve) and ``endurance.json`` (the rating), written atomically
into the output folder (``endurance.json`` last: its presence means complete)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import polars as pl

from .endurance import Rating
from .io import json_text, replace_outputs

OUTPUTS = ("endurance.json", "lifetime.parquet", "lifetime.png")


def write(rating: Rating, out: str | os.PathLike) -> Path:
    """Writes the three outputs into ``out`` (which must be writable); returns it."""
    d = Path(out).expanduser()
    frame = pl.DataFrame(rating.rows)
    text = json_text(rating.to_json())

    def write_json(p: Path) -> None:
        p.write_text(text)

    replace_outputs(
        d,
        OUTPUTS,
        {
            "lifetime.parquet": frame.write_parquet,
            "lifetime.png": lambda p: _figure(rating, frame, p),
            "endurance.json": write_json,
        },
    )
    return d


def _figure(rating: Rating, frame: pl.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (wear, uber) = plt.subplots(2, 1, figsize=(6.4, 6.0), sharex=True)
    tb = frame["tb_written"].to_list() if frame.height else []
    for col, label in (("pe_mean", "P/E mean"), ("pe_p99", "P/E p99"), ("pe_max", "P/E max")):
        wear.plot(tb, frame[col].to_list() if frame.height else [], marker=".", label=label)
    if rating.retire_pe_limit is not None:
        wear.axhline(rating.retire_pe_limit, color="grey", ls="--", label="retirement limit")
    wear.set_ylabel("P/E cycles")
    wear.legend(loc="upper left", fontsize="small")
    req: dict[str, Any] = rating.requirements
    ubers = [max(u, 1e-300) for u in frame["uber"].to_list()] if frame.height else []
    uber.semilogy(tb, ubers, marker=".", label="UBER after retention")
    uber.axhline(req["uber"], color="red", ls="--", label=f"{rating.endurance_class} requirement")
    if rating.rated_tbw is not None:
        for ax in (wear, uber):
            ax.axvline(rating.rated_tbw, color="black", lw=0.8)
    uber.set_xlabel("host TB written")
    uber.set_ylabel("UBER")
    uber.legend(loc="upper left", fontsize="small")
    title = f"JESD218 {rating.endurance_class}: "
    rated = rating.rated_tbw
    title += "not rated" if rated is None else f"{rated:.3g} TBW ({rating.limiting})"
    fig.suptitle(title, fontsize="medium")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=120)
    plt.close(fig)
