"""`nandlab states` on real files of the machine, checked by an independent numpy count.

Seed 000 §II-C: two adjacent bits of a byte (MSB first) form one MLC cell; '00' and '01'
are the error-prone states; a unit is error-prone when its error-prone cells outnumber
the others, and BitFlip inverts every bit of such a unit ('00'<->'11', '01'<->'10').
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import nandlab

UNIT = 512


def independent(path: Path, unit: int = UNIT) -> dict:
    data = np.frombuffer(path.read_bytes(), dtype=np.uint8)
    cells = np.stack([(data >> s) & 3 for s in (6, 4, 2, 0)], axis=1).reshape(-1)
    shares = np.bincount(cells, minlength=4) / cells.size
    ep_share = shares[0] + shares[1]
    per_unit = unit * 4
    n_units = -(-cells.size // per_unit)
    ep_after = 0
    ep_units = 0
    for u in range(n_units):
        c = cells[u * per_unit:(u + 1) * per_unit]
        ep = int(np.count_nonzero(c <= 1))
        if ep > c.size - ep:
            ep_units += 1
            ep_after += c.size - ep
        else:
            ep_after += ep
    return {
        "shares": shares,
        "error_prone_share": ep_share,
        "error_prone_unit_share": ep_units / n_units,
        "error_prone_share_after_flip": ep_after / cells.size,
    }


def sample_files(tmp_path: Path) -> list[Path]:
    elf = Path(shutil.which("ls") or "/bin/ls").resolve()
    png = next(iter(sorted(Path(matplotlib.get_data_path()).rglob("*.png"))))
    gz = tmp_path / "readme.gz"  # a compressed file made from an installed text file
    gz.write_bytes(gzip.compress(Path(matplotlib.__file__).read_bytes(), mtime=0))
    return [elf, gz, png]


def test_states_match_an_independent_count(real_core, tmp_path):
    files = sample_files(tmp_path)
    assert files[0].read_bytes()[:4] == b"\x7fELF"
    out = nandlab.states(files, UNIT)
    assert [Path(f["path"]).name for f in out] == [p.name for p in files]
    for f, p in zip(out, files, strict=True):
        ref = independent(p)
        got = dict(f["state_shares"])
        assert [got[k] for k in ("00", "01", "10", "11")] == pytest.approx(ref["shares"], abs=1e-12)
        for key in ("error_prone_share", "error_prone_unit_share", "error_prone_share_after_flip"):
            assert f[key] == pytest.approx(ref[key], abs=1e-12), (p.name, key)
        # Flipping never leaves a unit more error-prone than half.
        assert f["error_prone_share_after_flip"] <= max(f["error_prone_share"], 0.5) + 1e-12


def test_states_cli_json(real_core, tmp_path):
    import json

    from typer.testing import CliRunner

    from nandlab.cli import app

    f = tmp_path / "a.bin"
    f.write_bytes(b"a" * 1024)  # 0x61 = 01 10 00 01: 2 error-prone cells of 4
    r = CliRunner().invoke(app, ["states", str(f), "--json"])
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)[0]
    assert dict(out["state_shares"]) == {"00": 0.25, "01": 0.5, "10": 0.25, "11": 0.0}
    assert out["error_prone_share"] == 0.75
    assert out["error_prone_unit_share"] == 1.0
    # every unit flips: 10 01 11 10 -> one error-prone cell of 4
    assert out["error_prone_share_after_flip"] == 0.25
    r = CliRunner().invoke(app, ["states", str(tmp_path / "missing.bin")])
    assert r.exit_code == 2 and "missing.bin" in r.stderr
