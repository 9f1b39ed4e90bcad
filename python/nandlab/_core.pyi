# Stubs of the compiled core (crates/nandlab-py/src/lib.rs, ldpc.rs, session.rs): JSON in, JSON,
# NumPy and Arrow arrays out. Errors are nandlab.errors' classes.
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import ConfigError as ConfigError
from .errors import NandlabError as NandlabError
from .errors import TraceError as TraceError

__version__: str

class ArrowColumns:
    """Named columns as one Arrow struct array (``polars.DataFrame(obj)``; arrow.rs)."""
    def __arrow_c_array__(
        self, requested_schema: object | None = None
    ) -> tuple[object, object]: ...
    def __len__(self) -> int: ...

def simulate(
    config_json: str,
    progress: Callable[[int, None], bool] | None = None,
    requests_csv: str | None = None,
    requests_parquet: tuple[str, str] | None = None,
    timeline_sink: tuple[str, Callable[[ArrowColumns], None]] | None = None,
    timeline_parquet: str | None = None,
) -> tuple[str, dict[str, npt.NDArray[Any]] | None, ArrowColumns | None]: ...
def validate_config(config_json: str) -> str: ...
def trace_info(path: str, format: str = "auto", time_unit: str | None = None) -> str: ...
def trace_convert(src: str, src_format: str, dst: str, dst_format: str) -> int: ...
def states(paths: list[str], unit_bytes: int = 512, mapping: str = "adjacent") -> str: ...
def calibrate_ldpc(
    out: str,
    max_frames: int | None = None,
    min_failures: int | None = None,
    levels: list[int] | None = None,
    rber_grid: list[float] | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    batch: int | None = None,
    fixed8: float | None = None,
    device: tuple[str, Callable[..., Any]] | None = None,
) -> str: ...
def bch_page_fail(t: int, n_bits: int, codewords: int, rber: float) -> float: ...
def retention_uber(
    config_json: str, pe_by_block: list[float], retention_days: float, storage_c: float
) -> str: ...
def ldpc_code() -> tuple[int, list[list[int | None]]]: ...
def ldpc_coset_law(level: int, rber: float) -> tuple[list[float], list[float], list[bool]]: ...
def ldpc_frames(
    level: int, rber: float, seed: int, first: int, count: int
) -> npt.NDArray[np.float32]: ...
def ldpc_decode(
    z: int, shifts: list[list[int | None]], decoder_json: str, llr: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint32], npt.NDArray[np.uint8]]: ...
def ldpc_table_decoder() -> str: ...
def fer_table(name: str) -> str: ...
def ldpc_measure_stratum(
    level: int,
    rber: float,
    decoder_json: str,
    seed: int,
    w: int,
    min_failures: int,
    max_frames: int,
    batch: int,
) -> tuple[int, int]: ...
def ldpc_strata_json(
    level: int,
    rber: float,
    decoder_json: str,
    seed: int,
    strata: list[tuple[int, int, int]],
    wall_s: float,
    device: str,
) -> str: ...

class Session:
    """A simulation paused between requests (session.rs; ``nandlab endurance``)."""

    def __init__(self, config_json: str) -> None: ...
    def advance(self, requests: int) -> bool: ...
    def requests(self) -> int: ...
    def summary(self) -> str: ...
    def add_wear(self, delta: list[int]) -> None: ...
    def read_quantile_since_mark(self, q: float) -> int | None: ...
    def finish(self) -> str: ...
