"""``nandlab endurance`` (docs/endurance.md): the validation case worked out by hand and the
bad inputs, on a 4 MiB drive so each epoch's run takes milliseconds."""

from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
import pytest

import nandlab
from cli_errors import cli, one_line_error
from nandlab import endurance
from nandlab.errors import ConfigError, NandlabError

LIMIT = 2000
PLANES, BLOCKS, PAGES, PAGE = 2, 32, 16, 4096


def tiny(**over) -> dict:
    """2 planes x 32 blocks x 16 pages of 4 KiB (4 MiB raw, 25 % over-provisioning), no
    error model and no ECC, blocks retired at LIMIT P/E cycles; one sequential pass of
    64 KiB writes over the logical space per run (3 MiB: 48 requests)."""
    cfg = {
        "seed": 1,
        "device": {
            "channels": 1, "chips_per_channel": 1, "dies_per_chip": 1, "planes_per_die": PLANES,
            "blocks_per_plane": BLOCKS, "pages_per_block": PAGES, "page_size_bytes": PAGE,
        },
        "ftl": {"overprovisioning": 0.25, "retire_pe_limit": LIMIT},
        "reliability": {"model": "none"},
        "ecc": {"scheme": "none"},
        "workload": {
            "kind": "synthetic", "requests": 96, "read_fraction": 0.0, "random_fraction": 0.0,
            "size_bytes": 65536, "alignment_bytes": 65536,
        },
    }
    for k, v in over.items():
        node = cfg
        *parents, leaf = k.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = v
    return cfg


def test_pe_limit_only_rates_limit_times_capacity_over_waf_and_wear_leveling():
    # Sequential overwrites invalidate whole blocks: GC moves nothing (WAF = 1) and every
    # block cycles in turn (wear-leveling efficiency max/mean = 1). So the drive writes
    # LIMIT times its raw capacity before its blocks reach the limit together:
    # 2000 x 2 x 32 x 16 x 4096 B = 8.388608 GB = 0.008388608 TB.
    raw_bytes = PLANES * BLOCKS * PAGES * PAGE
    expected_tb = LIMIT * raw_bytes / (1.0 * 1.0) / 1e12
    assert expected_tb == pytest.approx(0.008388608)
    r = endurance.rate(tiny(), "enterprise", sensitivity=False)
    assert r.limiting == "capacity (spare area)"
    assert r.rated_tbw == pytest.approx(expected_tb, rel=0.02)
    rows = pl.DataFrame(r.rows)
    assert rows["write_amplification"].max() == pytest.approx(1.0, abs=1e-9)
    wle = rows["wear_leveling_efficiency"][-1]
    assert wle == pytest.approx(1.0, rel=0.02)
    # The formula holds with the efficiency the carried wear reached, too (max/mean P/E).
    assert r.rated_tbw == pytest.approx(expected_tb / wle, rel=0.005)
    # DWPD: over 5 years of the logical capacity (3/4 of the raw).
    assert r.dwpd == pytest.approx(r.rated_tbw * 1e12 / (0.75 * raw_bytes) / (5 * 365))
    # No error model: the UBER after retention is 0 throughout.
    assert rows["uber"].max() == 0.0


def test_the_epoch_length_barely_moves_the_rating():
    r = endurance.rate(tiny(), "enterprise", sensitivity=True)
    s = r.sensitivity
    assert s is not None and s["epochs"] > r.epochs
    assert abs(s["relative_change"]) < 0.02


def test_the_half_step_rating_continuing_a_copy_is_a_rating_from_scratch():
    # The sensitivity rating continues a copy of the paused simulation after the shared
    # first epoch: it must equal, to the bit, a separate rating with half the step (a
    # single simulation is deterministic for a seed). The tiny drive at 20 % reads with
    # random 4 KiB writes has GC moves, so the two ratings' epochs differ in WAF.
    cfg = tiny(**{"workload.read_fraction": 0.2, "workload.random_fraction": 1.0,
                  "workload.size_bytes": 4096, "workload.alignment_bytes": 4096,
                  "workload.requests": 2000})
    # 2,500 requests an epoch: the copy reads far past what a reader thread (which a fork
    # does not copy) would have queued (4 batches of 4,096), so it needs the session to
    # read its stream inline.
    r = endurance.rate(cfg, "enterprise", sensitivity=True, max_step=0.2, epoch_requests=2500)
    alone = endurance.rate(cfg, "enterprise", sensitivity=False, max_step=0.1, max_epochs=400,
                           epoch_requests=2500)
    assert r.sensitivity is not None
    assert r.sensitivity["epochs"] == alone.epochs > r.epochs
    assert r.sensitivity["rated_tbw"] == alone.rated_tbw
    assert r.sensitivity["relative_change"] != 0.0


def test_cli_writes_the_three_outputs(tmp_path):
    import tomli_w

    cfg = tmp_path / "tiny.toml"
    cfg.write_text(tomli_w.dumps(tiny()))
    out = tmp_path / "rating"
    res = cli("endurance", cfg, "--class", "client", "--out", out, "--no-sensitivity")
    assert res.exit_code == 0, res.stderr
    assert "rated" in res.stdout and "capacity (spare area)" in res.stdout
    rating = json.loads((out / "endurance.json").read_text())
    assert rating["endurance_class"] == "client"
    assert rating["requirements"]["uber"] == 1e-15
    assert rating["requirements"]["retention_days"] == 365.0
    assert pl.read_parquet(out / "lifetime.parquet").height == rating["epochs"]
    assert (out / "lifetime.png").stat().st_size > 0


def test_bad_inputs_end_in_one_line(tmp_path):
    import tomli_w

    cfg = tmp_path / "tiny.toml"
    cfg.write_text(tomli_w.dumps(tiny()))
    one_line_error(cli("endurance", cfg, "--class", "consumer", "--out", tmp_path / "a"),
                   "unknown endurance class 'consumer'", "client, enterprise")
    one_line_error(cli("endurance", cfg, "--set", "workload.read_fraction=1.0",
                       "--out", tmp_path / "b"), "writes nothing")
    one_line_error(cli("endurance", cfg, "--retention-c", "200", "--out", tmp_path / "c"),
                   "retention temperature 200", "-55 to 150")
    with pytest.raises(ConfigError, match="max step"):
        endurance.rate(tiny(), "client", max_step=0)


def test_a_drive_worn_out_at_the_start_is_rated_zero_with_its_reason():
    # Every block at the limit: the empty ones retire before the first run, leaving no
    # plane its spare blocks.
    r = endurance.rate(tiny(**{"aging.initial_pe": LIMIT}), "enterprise", sensitivity=True)
    assert (r.rated_tbw, r.limiting, r.epochs) == (0.0, "capacity (spare area)", 0)
    assert r.sensitivity is not None  # rated (at 0), so the sensitivity ran too


def test_a_drive_failing_its_uber_at_the_first_epoch_is_rated_zero():
    # No ECC and a constant RBER of 1e-3: the UBER after retention is the RBER (by the
    # definition of retention_uber.rs for no ECC), 1e-3 > 1e-16 from the first byte.
    r = endurance.rate(tiny(**{"reliability.model": "nominal", "reliability.nominal_rber": 1e-3}),
                       "enterprise", sensitivity=False)
    assert (r.rated_tbw, r.limiting, r.epochs) == (0.0, "UBER after power-off retention", 1)
    assert r.rows[0]["uber"] == pytest.approx(1e-3)


def test_no_limit_within_the_epoch_budget_is_said_not_hung():
    r = endurance.rate(tiny(**{"ftl.retire_pe_limit": None}), "enterprise",
                       max_epochs=3, sensitivity=False)
    assert r.rated_tbw is None and r.limiting.startswith("none within 3 epochs")


def test_the_drive_failing_inside_a_run_is_the_capacity_requirement():
    with pytest.raises(NandlabError, match="the drive failed"):
        nandlab.run(tiny(**{"aging.initial_pe": LIMIT - 1}), progress=False)


def _without_wall(summary: dict) -> dict:
    for k in ("wall_s", "requests_per_s"):
        summary["sim"].pop(k)
    return summary


def test_epochs_carry_the_layout_a_split_run_is_the_whole_run():
    # The ageing runs one simulation paused between epochs (_core.Session): without wear
    # added, one run cut into three steps is the uninterrupted run, every counter equal.
    # Random 4 KiB writes over a full drive, so GC moves pages and the layout matters.
    from nandlab import _native
    from nandlab.config import load_config

    cfg = tiny(**{"workload.requests": 3000, "workload.random_fraction": 1.0,
                  "workload.size_bytes": 4096, "workload.alignment_bytes": 4096,
                  "workload.read_fraction": 0.3})
    whole = nandlab.run(cfg, progress=False).summary
    assert whole["flash"]["gc_page_moves"] > 0
    session = _native.core().Session(json.dumps(load_config(cfg)))
    for n in (1, 1234, 765):
        assert session.advance(n)
    assert session.requests() == 2000
    split = json.loads(session.finish())
    assert _without_wall(split) == _without_wall(whole)


def test_epoch_read_statistics_are_the_epochs_own():
    # lifetime.parquet's RBER, decoding level and read p99 are each epoch's, not the
    # session's so far. The RBER and level come from the summary's growing sums: after
    # 10 reads at mean 0.01 (all at level 0), 30 reads at mean 0.02 with 20 at level 2
    # leave 20 reads with RBER (30 x 0.02 - 10 x 0.01) / 20 = 0.025 at mean level 2.
    from nandlab import _native
    from nandlab.config import load_config

    cfg = tiny(**{"workload.requests": 3000, "workload.random_fraction": 1.0,
                  "workload.size_bytes": 4096, "workload.alignment_bytes": 4096,
                  "workload.read_fraction": 0.3, "workload.iops": 10.0})
    core = _native.core()
    drive = endurance.Drive.of(json.loads(core.validate_config(json.dumps(load_config(cfg)))))
    session = core.Session(json.dumps(load_config(cfg)))
    aging = endurance._Aging(session, drive, LIMIT, np.zeros(64), 0, 0)
    first = aging._epoch_reads({"page_reads": 10, "rber_mean": 0.01, "decoded_at_level": [10]})
    assert (first["rber_mean"], first["decode_level_mean"], first["read_p99_ns"]) == (
        pytest.approx(0.01), 0.0, None)  # no request simulated yet: no read p99
    second = aging._epoch_reads(
        {"page_reads": 30, "rber_mean": 0.02, "decoded_at_level": [10, 0, 20]})
    assert second["rber_mean"] == pytest.approx(0.025)
    assert second["decode_level_mean"] == pytest.approx(2.0)
    # The read p99 of each step's reads alone: at 10 IOPS every request ends before the
    # next arrives, so a step's reads are those of its requests; nearest rank over the
    # recorded latencies (the histogram keeps 3 significant digits).
    rec = nandlab.run({**cfg, "output": {"record_requests": True}}, progress=False).requests
    reads = rec.with_row_index("id").filter(pl.col("op") == "read")
    for lo, hi in ((0, 1000), (1000, 2000)):
        assert session.advance(hi - lo)
        lat = np.sort(reads.filter((pl.col("id") >= lo) & (pl.col("id") < hi))["latency_ns"])
        want = int(lat[math.ceil(0.99 * len(lat)) - 1])
        assert session.read_quantile_since_mark(0.99) == pytest.approx(want, rel=1e-3)
    assert session.read_quantile_since_mark(0.99) is None  # nothing since


def test_wear_fast_forward_of_another_geometry_is_refused_in_one_line():
    from nandlab import _native
    from nandlab.config import load_config

    session = _native.core().Session(json.dumps(load_config(tiny())))
    blocks = PLANES * BLOCKS
    with pytest.raises(NandlabError) as e:
        session.add_wear([1] * (blocks + 1))
    assert str(e.value) == (
        f"the wear fast-forward lists {blocks + 1} blocks; the device has {blocks}"
    )
    session.add_wear([1] * blocks)  # the refused list changed nothing, this one applies
    pe = json.loads(session.summary())["flash"]["retirement"]["pe_by_block"]
    assert pe == [1] * blocks
    json.loads(session.finish())
    with pytest.raises(NandlabError, match="the session has finished"):
        session.summary()


def test_a_trace_is_rated_repeated_its_first_pass_the_first_epoch(tmp_path):
    # 48 sequential 64 KiB writes over the 3 MiB logical space (MSR format, 1 ms apart):
    # one pass is the first epoch; later epochs continue into the trace's next copies.
    # Sequential overwrites: WAF 1, so the P/E-limit-only rating is as in the tiny case.
    t = tmp_path / "seq.csv"
    t.write_text("".join(
        f"{i * 10_000},h,0,Write,{(i % 48) * 65536},65536,0\n" for i in range(48)
    ))
    cfg = tiny(**{"workload": {"kind": "trace", "path": str(t), "format": "msr"}})
    r = endurance.rate(cfg, "enterprise", sensitivity=False)
    assert r.limiting == "capacity (spare area)"
    assert r.rated_tbw == pytest.approx(LIMIT * PLANES * BLOCKS * PAGES * PAGE / 1e12, rel=0.02)
    assert r.rows[0]["tb_written"] == pytest.approx(48 * 65536 / 1e12)


def test_the_retention_check_is_the_mean_over_blocks_with_repeated_wear():
    # Blocks of equal P/E are worked out once: the check over [a, b, a] must still be the
    # mean over the three blocks of each block's own check, and the worst block b's.
    from nandlab import _native
    from nandlab.config import load_config

    core = _native.core()
    cfg = core.validate_config(json.dumps(load_config(
        tiny(**{"reliability.model": "vth", "ecc.scheme": "bch"}))))

    def check(pe: list[float]) -> dict:
        return json.loads(core.retention_uber(cfg, pe, 91.25, 40.0))

    a, b = check([20_000.0]), check([26_000.0])
    assert 0 < a["uber"] < b["uber"]  # the wear moves it, so the weights matter
    mix = check([20_000.0, 26_000.0, 20_000.0])
    for key in ("rber_mean", "uber"):
        assert mix[key] == pytest.approx((2 * a[key] + b[key]) / 3, rel=1e-12)
    assert mix["uber_worst_block"] == b["uber"]
