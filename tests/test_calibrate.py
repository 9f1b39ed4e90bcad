"""`nandlab calibrate ldpc`: a tiny calibration run writes a table the LDPC ladder reads."""

from __future__ import annotations

import csv
import json

from typer.testing import CliRunner

from nandlab.cli import app


def test_tiny_calibration_writes_the_ladder_format(real_core, tmp_path):
    out = tmp_path / "fer.csv"
    r = CliRunner().invoke(
        app,
        ["calibrate", "ldpc", "--out", str(out), "--frames", "4", "--min-failures", "1",
         "--levels", "0..1", "--rber-grid", "0.003,0.03", "--jobs", "1"],
    )
    assert r.exit_code == 0, r.stderr
    # No level has two points with 0 < failures < frames here: no tail model, nothing
    # extrapolated (tests/test_ldpc_table.py checks the shipped table's).
    assert "extrapolated" not in r.stdout
    rows = [x for x in csv.DictReader(line for line in out.open() if not line.startswith("#"))]
    assert list(rows[0]) == ["level", "rber", "frames", "failures", "fer", "fer_lo", "fer_hi",
                             "extrapolated", "stratified", "thin_share", "thin",
                             "support_failures"]
    assert sorted({int(x["level"]) for x in rows}) == [0, 1]
    for x in rows:
        frames, failures = int(x["frames"]), int(x["failures"])
        assert 1 <= frames <= 4 and 0 <= failures <= frames
        assert float(x["fer"]) == failures / frames and x["extrapolated"] == "0"
        assert x["stratified"] == "0"
        # A Monte Carlo row rests wholly on its tally: thin below 5 failures (all are, at
        # 4 frames a point).
        assert (x["thin_share"], x["thin"]) == ("1.0000", "1")
        assert int(x["support_failures"]) == failures
        assert float(x["fer_lo"]) <= float(x["fer"]) <= float(x["fer_hi"])
    # Hard decisions at RBER 3 % (twice the rate-8/9 Shannon limit of 1.48 %) always fail.
    hard_high = [x for x in rows if x["level"] == "0" and float(x["rber"]) > 0.02]
    assert hard_high and all(x["failures"] == x["frames"] for x in hard_high)
    prov = json.loads(out.with_suffix(".json").read_text())
    assert isinstance(prov, dict) and prov
    # The table plugs into the ladder as its curve set.
    import nandlab

    cfg = {"ecc": {"scheme": "ldpc", "mode": "curve", "curve_path": str(out),
                   "max_extra_levels": 1}}
    assert nandlab.check_config(cfg)["ecc"]["curve_path"] == str(out)


def test_bad_levels_are_one_line(real_core, tmp_path):
    r = CliRunner().invoke(app, ["calibrate", "ldpc", "--out", str(tmp_path / "x.csv"),
                                 "--levels", "zero"])
    assert r.exit_code == 2 and "--levels" in r.stderr
