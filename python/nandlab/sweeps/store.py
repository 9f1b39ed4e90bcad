"""The result store of a sweep, a folder:

```
DIR/sweep.json              the nandlab version and compiled core that wrote it (another
                            version or core build is refused: the run ids name the config and
                            version, not the core's code, so a rebuilt core would mix results)
DIR/runs/<id>/run.json      what the run sweeps (workload, columns) and its config
DIR/runs/<id>/summary.json  the run's summary, written atomically when it ends: finished
DIR/runs/<id>/error.json    the one-line error of a failed run
DIR/results.parquet         one row per finished run, rebuilt from runs/*/summary.json
DIR/plan.json               run ids by config as written (resolving a config takes time)
DIR/timing.json             each call that simulated runs: how many, its wall time, its jobs
```
Only the process driving the sweep writes here (workers return their summaries), so a
killed worker or driver leaves finished runs complete and nothing else.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

import polars as pl

from ..errors import ConfigError
from ..io import atomic_path, write_json
from ..summary import Summary
from .identity import Run

RESULTS_FILE = "results.parquet"
STORE_FORMAT = 1


def core_build() -> str | None:
    """A digest of the compiled core's file (None for a core without one, e.g. a test's
    double): the same version number covers every build made from a working tree."""
    from .._native import core

    path = getattr(core(), "__file__", None)
    if path is None or not Path(path).is_file():
        return None
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class Store:
    def __init__(self, root: str | Path, version: str, build: str | None = None):
        self.root = Path(root)
        self.version = version
        self.build = build

    def open(self) -> None:
        """Creates the folder, or checks that an existing one was written by this version
        and core build."""
        meta_path = self.root / "sweep.json"
        if meta_path.is_file():
            meta = json.loads(meta_path.read_text())
            if meta.get("nandlab_version") != self.version:
                raise ConfigError(
                    f"{self.root} holds results of nandlab {meta.get('nandlab_version')}, "
                    f"this is nandlab {self.version}: refusing to mix them (use another --out)"
                )
            if meta.get("core_build") != self.build:
                theirs = meta.get("core_build") or "not recorded"
                raise ConfigError(
                    f"{self.root} holds results of another build of the core ({theirs}, "
                    f"this is {self.build}): refusing to mix them (use another --out)"
                )
            return
        if self.root.exists() and any(self.root.iterdir()):
            raise ConfigError(f"{self.root} exists and is not a sweep's results folder")
        write_json(meta_path, {"nandlab_version": self.version, "core_build": self.build,
                               "format": STORE_FORMAT})

    def known_ids(self) -> dict[str, list[str | None]]:
        """The plan cache (:func:`~.identity.plan`'s ``known``): empty when absent."""
        p = self.root / "plan.json"
        return json.loads(p.read_text()) if p.is_file() else {}

    def save_known_ids(self, known: dict[str, list[str | None]]) -> None:
        write_json(self.root / "plan.json", known)

    def times(self) -> list[dict[str, Any]]:
        """The calls that simulated runs here (``timing.json``): ``runs``, ``wall_s``,
        ``jobs``, oldest first; empty when none did (or before the file was kept)."""
        p = self.root / "timing.json"
        return json.loads(p.read_text()) if p.is_file() else []

    def record_time(self, runs: int, wall_s: float, jobs: int | None) -> None:
        """Adds a call that simulated ``runs`` runs in ``wall_s`` seconds."""
        write_json(self.root / "timing.json",
                   [*self.times(), {"runs": runs, "wall_s": wall_s, "jobs": jobs}])

    def _dir(self, run: Run) -> Path:
        return self.root / "runs" / run.run_id

    def finished(self, run: Run) -> bool:
        return (self._dir(run) / "summary.json").is_file()

    def error(self, run: Run) -> str | None:
        p = self._dir(run) / "error.json"
        return json.loads(p.read_text())["error"] if p.is_file() else None

    def record_success(self, run: Run, summary: dict[str, Any]) -> None:
        d = self._dir(run)
        write_json(d / "run.json", _describe(run))
        write_json(d / "summary.json", summary)
        with contextlib.suppress(FileNotFoundError):
            (d / "error.json").unlink()

    def record_failure(self, run: Run, message: str) -> None:
        write_json(self._dir(run) / "error.json", {**_describe(run), "error": message})

    def summary(self, run: Run) -> Summary:
        return Summary(json.loads((self._dir(run) / "summary.json").read_text()))

    def table(self, runs: list[Run]) -> pl.DataFrame:
        """One row per finished run, in plan order: run id, workload, swept columns, tags
        and every metric (:meth:`Summary.flat`)."""
        rows = []
        for r in runs:
            if self.finished(r):
                s = self.summary(r)
                rows.append({"run_id": r.run_id, "workload": r.workload, "seed": s.seed,
                             **r.columns, **s.flat()})
        if not rows:
            return pl.DataFrame(schema={"run_id": pl.String, "workload": pl.String})
        names = list(dict.fromkeys(k for row in rows for k in row))
        return pl.DataFrame([_column(n, [row.get(n) for row in rows]) for n in names])

    def write_table(self, table: pl.DataFrame) -> Path:
        path = self.root / RESULTS_FILE
        with atomic_path(path) as tmp:
            table.write_parquet(tmp)
        return path


def _column(name: str, values: list[Any]) -> pl.Series:
    """One table column: numbers (ints and floats together as floats), strings, booleans,
    lists of numbers as list columns (an empty list included, and missing items as nulls:
    a per-page-type mean of a type a run never wrote); anything else, or a mix of kinds,
    as JSON text. A metric's type must not depend on which runs a table holds: tables of
    two sweeps are concatenated."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, list) for v in present):
        items = [x for v in present for x in v if x is not None]
        if all(_is_number(x) for x in items):
            # Only nulls: the mean of something never done, a float where it exists.
            nulls_only = not items and any(x is None for v in present for x in v)
            ints = all(isinstance(x, int) for x in items) and not nulls_only
            inner = pl.Int64 if ints else pl.Float64
            return pl.Series(name, values, dtype=pl.List(inner))
    elif all(_is_number(v) for v in present):
        dtype = pl.Int64 if all(isinstance(v, int) for v in present) else pl.Float64
        return pl.Series(name, values, dtype=dtype)
    elif all(isinstance(v, str) for v in present) or all(isinstance(v, bool) for v in present):
        return pl.Series(name, values)
    return pl.Series(name, [None if v is None else json.dumps(v, sort_keys=True) for v in values],
                     dtype=pl.String)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _describe(run: Run) -> dict[str, Any]:
    return {"run_id": run.run_id, "workload": run.workload, "columns": run.columns,
            "config": run.config}
