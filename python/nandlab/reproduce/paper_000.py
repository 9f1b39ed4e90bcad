"""The numbers that seed 000 (BitFlip, Wu et al.) reports, with where they are printed.

Only numbers stated in the paper's text are here; values that exist only as bars in a
figure are not (they cannot be read from the text we have). Ranges are (low, high) in
percent.
"""

from __future__ import annotations

#: Headline metrics: key -> (label, low %, high %, where, what the range runs over); the
#: bounds as printed (strings, for :func:`.claims.span`).
HEADLINES: dict[str, tuple[str, str, str, str, str]] = {
    "error_prone_state_share": (
        "error-prone ('00'+'01') state share of the analysed files",
        "50.1",
        "78.6",
        "§II-C, Fig. 5 (69.0 % on average, §I)",
        "files",
    ),
    "error_prone_unit_share": (
        "error-prone units at 512 KB units",
        "47.3",
        "99.7",
        "§IV-A, Fig. 11(a)",
        "file types",
    ),
    "error_prone_reduction": (
        "reduction of error-prone states by BitFlip",
        "2.3",
        "53.9",
        "§IV-A, Fig. 11(b)",
        "file types",
    ),
    "decoding_level_reduction": (
        "reduction of the mean number of decoding levels",
        "27.1",
        "31.6",
        "§IV-B, Fig. 12",
        "traces (averaged over RBER 4e-3…13e-3)",
    ),
    "read_latency_reduction": (
        "reduction of the mean read latency",
        "25.9",
        "34.2",
        "§IV-B, Fig. 13; abstract",
        "traces",
    ),
    "lifespan_gain": (
        "P/E cycles gained at equal RBER (lifespan)",
        "2.9",
        "33.3",
        "§IV-C, Fig. 14; abstract",
        "file types",
    ),
    "write_latency_increase": (
        "increase ratio of the mean write latency",
        "1.6",
        "2.4",
        "§IV-D, Fig. 15",
        "traces",
    ),
}

#: Single values the text states (percent unless named otherwise).
POINTS: dict[str, tuple[str, str]] = {
    "error_prone_state_share_mean": ("69.0", "§I / §II-C: average error-prone share"),
    "error_prone_unit_share_game": ("54.3", "§IV-A: Game files, 512 KB units"),
    "error_prone_unit_share_multimedia": ("47.3", "§IV-A: Multimedia files, 512 KB units"),
    "error_prone_reduction_executable": ("53.9", "§IV-A: the maximum, executables"),
    "error_prone_reduction_multimedia": ("2.3", "§IV-A: the minimum, multimedia"),
    "lifespan_gain_multimedia": ("2.9", "§IV-C: multimedia files on average"),
    "lifespan_gain_executable": ("29.2", "§IV-C: executable files on average"),
    "storage_overhead_512B": ("0.02", "§III-A: 'about 0.02 %' at 512 B units"),
    "storage_overhead_4KB": ("0.003", "§III-D / Fig. 10: 0.003 % at 4 KB units"),
}

#: Table V: MSR Cambridge traces, (size of read data in GB, read ratio by bytes).
TABLE_V: dict[str, tuple[float, float]] = {
    "proj_3": (18.23, 0.8741),
    "web_1": (3.81, 0.8545),
    "web_0": (17.35, 0.5978),
    "hm_0": (9.95, 0.3273),
    "mds_0": (7.37, 0.3065),
    "wdev_0": (7.15, 0.2780),
    "src2_0": (1.37, 0.1276),
    "rsrch_0": (1.39, 0.12),
}

#: §IV "Evaluation methods": the RBER sweep.
RBER_RANGE = (4e-3, 13e-3)

#: Paper file types (Tables II/IV) -> the stand-in type of the nandlab corpus.
TYPE_STAND_INS: dict[str, str] = {
    "executable": "Executable (Linux 5.3.0 tools, e.g. bash, tar)",
    "compressed": "Game (compressed installation files)",
    "image": "Multimedia (KITTI photos, MP4 concerts)",
    "text": "Image (uncompressed Linux kernel releases 1.1.13 … 5.0.7)",
}
