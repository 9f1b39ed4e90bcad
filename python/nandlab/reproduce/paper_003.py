"""The numbers that seed 003 (BADR, block-attribute-aware read-refresh data reallocation)
reports, with where they are printed. Changes are BADR's relative to each counterpart, in
percent (negative: BADR lower), "by an average of" over the traces and U1, U4, U6.
"""

from __future__ import annotations

#: Metric -> (label, summary key, where).
METRICS: dict[str, tuple[str, str, str]] = {
    "read_latency": ("read response time", "read.mean_ns", "§IV-B1, Fig. 4"),
    "rber": ("raw bit error rate", "reliability.rber_mean", "§IV-B2, Fig. 5"),
    "page_moves": ("page moves by read refresh", "flash.refresh_page_moves", "§IV-B3, Fig. 6"),
}

#: (metric, counterpart) -> BADR's change against it (%), as 003 prints it (§IV-B; the
#: sign added: negative is BADR lower). Strings keep the printed digits ("-4.20").
CHANGES: dict[tuple[str, str], str] = {
    ("read_latency", "baseline"): "-24.96",
    ("read_latency", "rl"): "-15.11",
    ("read_latency", "dr"): "-16.97",
    ("rber", "baseline"): "-3.57",
    ("rber", "rl"): "-4.20",
    ("rber", "dr"): "-4.65",
    ("page_moves", "baseline"): "-25.02",
    ("page_moves", "rl"): "-19.51",
    ("page_moves", "dr"): "-10.21",
}

#: Table II: "RR threshold 10000" (reads of a block that trigger its refresh).
RR_THRESHOLD = "10000"
#: §IV-A: "each window having 80K requests".
WINDOW_REQUESTS = 80_000

#: Table I: initial P/E ~ U(a, b), printed "(a,b)".
WEAR: dict[str, tuple[int, int]] = {
    "U1": (2000, 2000),
    "U2": (1980, 2020),
    "U3": (1500, 2500),
    "U4": (1000, 3000),
    "U5": (500, 3500),
    "U6": (0, 3980),
}

#: Table III's traces, in its order.
TRACES = ("web1", "web2", "ads", "hm1", "lun1", "lun2")
