"""The reproductions by name, apart from their framework: the command line lists them in
its help without importing the framework (issue 33: `nandlab run` starts faster)."""

from __future__ import annotations

#: Paper modules by the name `nandlab reproduce NAME` takes.
PAPERS: dict[str, str] = {
    "bitflip": "nandlab.reproduce.bitflip",
    "ldpc-in-ssd": "nandlab.reproduce.ldpc_in_ssd",
    "asymmetric": "nandlab.reproduce.asymmetric",
    "tvr": "nandlab.reproduce.tvr",
    "badr": "nandlab.reproduce.badr",
}
