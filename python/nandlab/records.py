"""Per-request records: their schema, and frames of the core's columns.

A run saved to ``out`` has its records written while it goes, by the core's record thread
itself (``requests.parquet`` one row group per 65,536 rows, ``requests.csv``): nothing
crosses into Python, so ``nandlab run`` never imports polars or NumPy (issue 33). This
module gives that file its Arrow schema (:data:`ARROW_SCHEMA`).

polars is imported when first used, not with this module.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
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


#: The ``ARROW:schema`` the core stores in ``requests.parquet`` (base64 of the Arrow IPC
#: schema message of :func:`request_schema`, as polars itself writes it: ``op`` is a
#: dictionary of ``large_string`` by ``uint8`` keys whose field metadata
#: ``_PL_ENUM_VALUES2`` makes polars read it back as the Enum). Regenerate with
#: ``pl.DataFrame(schema=request_schema()).write_parquet(buf)`` and
#: ``pl.read_parquet_metadata(buf)["ARROW:schema"]``; a test checks polars reads it back.
ARROW_SCHEMA = (
    "/////8cBAAAEAAAA8v///xQAAAAEAAEAAAAKAAsACAAKAAQA+P///wwAAAAIAAgAAAAEAAUAAABQAQAAHAEAAOQAAACw"
    "AAAABAAAAOb///+cAAAAkAAAAHAAAABoAAAAGAAAAAEUEgAaAAQAGAAZAAgADAAQABQAAQAAAAQAAAD0////KAAAAAwA"
    "AAAIAAwABAAIABMAAAA0O3JlYWQ1O3dyaXRlNDt0cmltABAAAABfUExfRU5VTV9WQUxVRVMyAAAAAAAAAAD2////EAAA"
    "AAEACgAJAAAABAAIACL///8IAAAA/P///wQABAACAAAAb3AAAFj///8cAAAAEAAAAAgAAAABAgAAAAAAAFL///9AAAAA"
    "CgAAAHNpemVfYnl0ZXMAAIj///8cAAAAEAAAAAgAAAABAgAAAAAAAIL///9AAAAADAAAAG9mZnNldF9ieXRlcwAAAAC8"
    "////HAAAABAAAAAIAAAAAQIAAAAAAAC2////QAAAAAoAAABsYXRlbmN5X25zAADs////NAAAACAAAAAYAAAAAQIAABAA"
    "EgAEABAAEQAIAAAADAAAAAAA9v///0AAAAAAAAYACAAEAAoAAABhcnJpdmFsX25zAA=="
)


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
