"""Per-request records of a run saved to ``out``, written while the run goes.

The core hands its records over in column batches of 65,536 rows (dicts of NumPy arrays,
in arrival order) on its record thread; :func:`write_parquet` turns each into a polars
frame without copying the numeric columns and streams them to the Parquet writer, which
holds one row group. So records cost one pass, about 10 MB whatever the run's length, and
no CSV text in between (``requests.csv`` is written by the core itself).

polars is imported when first used, not with this module: a ``nandlab run`` imports it on
the record thread while the simulation runs, off the run's critical path (issue 33).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl

#: The operations of the ``op`` column, in the order of the core's codes (0, 1, 2).
OP_NAMES = ("read", "write", "trim")


@functools.cache
def request_schema() -> dict[str, pl.DataType]:
    """Columns of per-request records (``Result.requests``, ``requests.parquet``/``.csv``),
    in order, with their types (also :data:`REQUEST_SCHEMA`). ``arrival_ns``: arrival time,
    ns after the first request's; ``latency_ns``: response time (completion − arrival), ns;
    ``offset_bytes``: start address in the logical space, bytes; ``size_bytes``: length,
    bytes; ``op``: ``read``, ``write`` or ``trim`` (a polars Enum; strings in CSV, a
    dictionary column in Parquet)."""
    import polars as pl

    return {
        "arrival_ns": pl.UInt64(),
        "latency_ns": pl.UInt64(),
        "offset_bytes": pl.UInt64(),
        "size_bytes": pl.UInt64(),
        "op": pl.Enum(OP_NAMES),
    }


def __getattr__(name: str) -> Any:
    # REQUEST_SCHEMA holds polars types: built on first use.
    if name == "REQUEST_SCHEMA":
        return request_schema()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Rows per Parquet row group (a few MB of columns).
ROW_GROUP_ROWS = 65_536
#: zstd level of the Parquet columns. Level 1 against polars' default (3), DTRS x32's
#: 4.07 M records: 0.71 against 1.40 CPU s to encode, 41 against 31 MB on disk (issue 33).
ZSTD_LEVEL = 1


def text_schema(schema: Mapping[str, pl.DataType]) -> dict[str, pl.DataType]:
    """``schema`` as the CSV holds it: the ``op`` Enum as strings."""
    import polars as pl

    return {k: (pl.String() if k == "op" else t) for k, t in schema.items()}


def columns_frame(columns: Mapping[str, Any]) -> pl.DataFrame:
    """The core's record columns as a frame with :data:`REQUEST_SCHEMA` first (extra
    columns kept after them), rows as given."""
    import polars as pl

    schema = request_schema()
    df = pl.DataFrame({k: columns[k] for k in columns})
    if "op" in df.columns and df.schema["op"].is_integer():
        # The core's codes 0, 1, 2 are the Enum's physical values.
        codes = df["op"].cast(pl.UInt32)
        df = df.with_columns(op=pl.Series("op", OP_NAMES, dtype=schema["op"]).gather(codes))
    casts: dict[Any, Any] = {
        k: t for k, t in schema.items() if k in df.columns and df.schema[k] != t
    }
    if casts:
        df = df.cast(casts)
    first = [k for k in schema if k in df.columns]
    return df.select(first + [c for c in df.columns if c not in schema])


def write_parquet(batches: Iterable[Mapping[str, Any]], dst: Path) -> None:
    """Writes the core's record batches to Parquet ``dst`` as they arrive (bounded memory)."""
    from polars.io.plugins import register_io_source

    source = iter(batches)

    def frames(*_pushdown: object) -> Iterator[pl.DataFrame]:
        # The frame is only ever sunk whole: no projection, filter or row limit to apply.
        for columns in source:
            yield columns_frame(columns)

    lf = register_io_source(frames, schema=request_schema())
    lf.sink_parquet(
        dst, compression="zstd", compression_level=ZSTD_LEVEL, row_group_size=ROW_GROUP_ROWS
    )
