"""``nandlab reproduce asymmetric --quick`` end to end, checked against numbers worked out
independently of the reproduction code: Table 1's printed values, the placement invariant
(AP's critical pages never sit on an LSB page), the closed forms of docs/asymmetric.md."""

from __future__ import annotations

import json
import math

import pytest

from nandlab.reproduce import asymmetric, asymmetric_errors, asymmetric_fs, framework, paper_004
from nandlab.reproduce.page_errors import PageSpread


@pytest.fixture(scope="module")
def quick_run(quick_reproduction):
    out, r = quick_reproduction("asymmetric")
    return out, r, r.wall_s


def test_every_claim_has_a_verdict(real_core, quick_run):
    out, r, _wall = quick_run
    claims = json.loads((out / "claims.json").read_text())
    assert {c["key"] for c in claims} >= set(paper_004.CLAIMS)
    judged = [c for c in claims if c["kind"] in framework.JUDGED]
    assert all(c["verdict"] in framework.VERDICTS for c in judged)
    assert all(c["verdict"] is None for c in claims if c["kind"] not in framework.JUDGED)
    report = (out / "report.md").read_text()
    assert "Paper vs nandlab" in report and "Table 5, 3000 P/E" in report
    # Tables 6 and 7 row by row.
    keys = {c["key"] for c in claims}
    assert {"6_random_0_ap", "6_random_0.5_mc", "7_reads_0_bl_ns", "host_overhead",
            "f3b_up_to"} <= keys


def test_every_quick_claim_has_a_value(real_core, quick_run):
    out, _r, _w = quick_run
    claims = json.loads((out / "claims.json").read_text())
    assert all(not math.isnan(c["nandlab"][0]) for c in claims), \
        [c["key"] for c in claims if math.isnan(c["nandlab"][0])]
    # The quick IOMeter runs collect garbage, so Figs. 13 and 15 compare real counts.
    m = json.loads((out / "metrics.json").read_text())
    writing = m["random"] + [x for x in m["reads"] if x["x"] < 1.0]  # 100 % reads: no writes
    for x in writing:
        assert x["BL"]["erases"] > 0 and x["BL"]["copies"] > 0, x["x"]


def test_ap_keeps_every_critical_page_on_msb_pages_and_bl_does_not(real_core, quick_run):
    out, _r, _w = quick_run
    runs = json.loads((out / "metrics_runs.json").read_text())
    for section in (runs["table4"], *runs["table5"].values()):
        lsb, msb = section["AP"]["critical_programs"]
        assert lsb == 0 and msb > 0
        bl_lsb, bl_msb = section["BL"]["critical_programs"]
        # The interleaved map is half LSB pages: a type-blind FTL puts about half there.
        assert 0.25 < bl_lsb / (bl_lsb + bl_msb) < 0.75
        # The closed loop keeps requests waiting: the feedback reordered the host queue.
        assert section["AP"]["feedbacks"] > 0


def test_mc_backs_up_every_critical_page_it_writes(real_core, quick_run):
    out, _r, _w = quick_run
    runs = json.loads((out / "metrics_runs.json").read_text())
    for section in (runs["table4"], *runs["table5"].values()):
        mc = section["MC"]
        # One backup program per critical host page, each counted.
        assert mc["backup_programs"] == sum(mc["critical_programs"]) > 0
        assert mc["programs"] >= section["BL"]["programs"]
        # A backup is read only after an uncorrectable primary.
        assert mc["backup_reads"] <= mc["reads"]


def test_the_fs_metadata_writes_are_the_critical_ones(real_core, quick_run):
    out, _r, _w = quick_run
    runs = json.loads((out / "metrics_runs.json").read_text())
    # IOMeter at 50 % reads: a journal and a record write per flush, one flush every 16 data
    # writes (the rate Table 5's counts imply: test_table_5s_counts_imply_15_times_...).
    bl = runs["table5"]["1000"]["BL"]
    critical = sum(bl["critical_programs"])
    data = bl["count"] - bl["read_requests"] - critical
    assert critical == 2 * (data // 16) > 0


def test_sensor_baseline_is_its_two_plane_floor_plus_gc(real_core, quick_run):
    # Issue #29's bound: within 20 % of Table 4's 2,495,552 ns. Per request, by hand
    # (Table 2's 75 us sense and 1.3 ms program, 41 us an 8 KiB page over the bus, the
    # fitted 996,420 ns outside the flash): a 16 KiB file is one two-plane program,
    # 996,420 + 2 x 40,960 + 1,300,000 = 2,378,340 ns; an 8 KiB metadata write
    # 2,337,380 ns; a 16 KiB read (one two-plane sense) 1,153,340 ns. The run's mean lies at
    # or above that mix and within one GC's erase and copies per request of it.
    out, _r, _w = quick_run
    bl = json.loads((out / "metrics.json").read_text())["table4"]["BL"]
    reads, writes = bl["read_requests"], bl["count"] - bl["read_requests"]
    files = bl["programs"] - bl["copies"] - writes
    floor = (reads * 1_153_340 + files * 2_378_340 + (writes - files) * 2_337_380) / bl["count"]
    gc = (bl["erases"] * 3_800_000 + bl["copies"] * 1_375_000) / bl["count"]
    assert floor <= bl["flash_ns"] <= floor + gc + 1
    assert abs(bl["flash_ns"] / 2_495_552 - 1) < 0.2


def test_lazy_writer_batches_by_hand():
    # Sensor: 1e9 / 2,495,552 ns = 400.7 requests/s x 93.34 % writes = 374.0 files a flush;
    # their metadata: 1 log page, 374 x 1 KiB records = 46.75 -> 47 clusters (+1 where the
    # batch straddles), 374 x 112-byte entries = 5.1 -> 6 clusters (+1), bitmap 1 (+1).
    assert asymmetric_fs.flush_every("sensor", 1 - 0.9334) == 374
    assert asymmetric_fs.metadata_per_flush("sensor", 1 - 0.9334) == 1 + 48 + 2 + 7
    # IOMeter: one test file, so a flush is its record and a log page; no writes, no flush.
    assert asymmetric_fs.flush_every("iometer", 0.0) == 488
    assert asymmetric_fs.metadata_per_flush("iometer", 0.5) == 2
    assert asymmetric_fs.flush_every("iometer", 1.0) == 1


def test_table_5s_counts_imply_15_times_the_lazy_writers_metadata():
    # The count scale fitted to Table 5's Baseline column is the critical pages behind the
    # counts; it cannot be below the t = 0 row's uncorrectable pages (9,647 at 1000 P/E,
    # 12,947 at 3000 P/E: a page fails at most once), nor near the run's 292,706 requests.
    scales = [asymmetric_errors.spreads()[pe].scale for pe in (1000, 3000)]
    assert 12_947 <= min(scales) and max(scales) < 0.1 * 292_706
    # Per second: ~18.0 k / 600 s = 30.0 critical pages; at 50 % reads 243.9 data writes a
    # second carry them two (record, log page) a flush: 243.9 x 2 / 30.0 = 16.3 -> 16; at
    # 0 % reads 487.8 x 2 / 30.0 = 32.5 -> 33 (the same pages a second). The lazy writer
    # flushes every 244: 15 x fewer metadata pages.
    per_s = sum(scales) / 2 / 600
    assert per_s == pytest.approx(30.0, abs=0.5)
    assert asymmetric_fs.table5_flush_every(0.5) == 16
    assert asymmetric_fs.table5_flush_every(0.0) == 33
    # IOMeter runs at that rate with 32 outstanding I/Os (+ a flush's 2 metadata writes),
    # Table 5's 10-minute runs too; the sensitivity workloads: the lazy writer's rate
    # with one outstanding I/O, and Table 5's rate with one. The sensor keeps the lazy
    # writer and one file.
    o = asymmetric_fs.fs_overrides
    for gen in ("iometer", asymmetric_fs.TABLE5_10MIN):
        assert o(gen, 0.5)["workload.fs_metadata.flush_every"] == 16
        assert o(gen, 0.5)["host.outstanding"] == 34
        assert o(gen, 0.0)["workload.fs_metadata.flush_every"] == 33
    assert o(asymmetric_fs.LAZY_WRITER, 0.5)["workload.fs_metadata.flush_every"] == 244
    assert o(asymmetric_fs.LAZY_WRITER, 0.5)["host.outstanding"] == 3
    assert o(asymmetric_fs.TABLE5_RATE, 0.5)["workload.fs_metadata.flush_every"] == 16
    assert o(asymmetric_fs.TABLE5_RATE, 0.5)["host.outstanding"] == 3
    assert o("sensor", 1 - 0.9334)["workload.fs_metadata.flush_every"] == 374
    assert o("sensor", 1 - 0.9334)["host.outstanding"] == 1 + 58
    assert o("iometer", 0.5)["workload.fs_metadata.writes"] == ["journal", "record"]


def test_msb_scale_comes_from_fig_3b_and_table_5_implies_less_at_low_wear():
    from nandlab.reproduce.asymmetric_report import implied_sigma

    # Fig. 3b: 1 - sigma^4 = 0.9810 -> sigma = 0.019^(1/4) = 0.37127.
    assert asymmetric_errors.MSB_SCALE == pytest.approx(0.37127, abs=1e-5)
    # Table 5, 1000 P/E, t = 0: AP / BL = 5716 / 9647 = 0.59252 = 2q/(1 + q) -> q = 0.42097.
    assert implied_sigma(1000, range(1)) == pytest.approx(0.42097, abs=1e-5)


def test_every_simulated_claim_is_measured_on_each_quick_seed(real_core, quick_run):
    out, _r, _w = quick_run
    m = json.loads((out / "metrics.json").read_text())
    # Three seeds in quick mode too (#29: two leave AP's rows undecided).
    assert sorted(m["per_seed"]) == ["1", "2", "3"]
    claims = json.loads((out / "claims.json").read_text())
    for c in claims:
        if c["kind"] == "simulated" and c["key"] != "t5_bch_range":
            assert len(c["measured"]["samples"]) == 3, c["key"]
    # Table 1's rows are model checks of Eq. 3, not simulations.
    kinds = {c["key"]: c["kind"] for c in claims}
    assert kinds["t1_lsb_2e-06"] == kinds["f3b_up_to"] == "model check"
    # What σ = 0.5 cannot give is "differs (paper)", with the computation.
    f3b = next(c for c in claims if c["key"] == "f3b_up_to")
    assert f3b["verdict"] == "differs (paper)" and "93.75" in f3b["unreachable"]["computation"]


def test_quick_mode_draws_figs_12_to_16(real_core, quick_run):
    out, _r, _w = quick_run
    for name in ("fig12_read_response", "fig13_14c_erases", "fig15_copies",
                 "fig16_worst_case"):
        assert (out / f"{name}.png").stat().st_size > 1000


def test_table_1_is_the_binomial_tail_at_8640_bits():
    for x, lsb, msb in zip(paper_004.TABLE_1_RBER, paper_004.TABLE_1_LSB,
                           paper_004.TABLE_1_MSB, strict=True):
        # Within 0.6 of a unit of the printed third digit (docs/asymmetric.md).
        for got, want in ((asymmetric_errors.page_fail(3, 8640, 1, x), lsb),
                          (asymmetric_errors.page_fail(3, 8640, 1, 0.5 * x), msb)):
            unit = 0.01 * 10 ** math.floor(math.log10(want))
            assert abs(got - want) <= 0.61 * unit, (x, got, want)


def test_fail_rates_follow_the_closed_forms():
    # No spread, t = 0: a page of N = 69,120 bits fails with 1 - (1 - R)^N; MSB pages at R/2.
    r, n = 2e-5, 69_120
    lsb, msb = 1 - (1 - r) ** n, 1 - (1 - r / 2) ** n
    spread = PageSpread(r, 0.0, 1.0)
    got = asymmetric_errors.fail_rates({"critical_programs": [1, 1]}, {"critical_programs": [0, 7]},
                                {"critical_programs": [1, 3]}, spread, t_max=0)
    assert got["BL"][0] == pytest.approx((lsb + msb) / 2, rel=1e-9)
    assert got["AP"][0] == pytest.approx(msb, rel=1e-9)
    q = (lsb + 3 * msb) / 4  # MC's page, and its independent backup placed alike
    assert got["MC"][0] == pytest.approx(q * q, rel=1e-9)
    assert got["MC_half"][0] == pytest.approx(q * (1 + q) / 2, rel=1e-9)
    # Without a spread a backup sharing its original's RBER fails as an independent one.
    assert got["MC_shared"][0] == pytest.approx(q * q, rel=1e-9)


def test_mc_coverage_that_004s_ratio_needs_by_hand():
    # Rates at t = 0 (one row): BL 0.5, MC's lone copy q = 0.4 (MC_half = (q + q²)/2 =
    # 0.28), both copies 0.16 (independent) or 0.25 (shared); over BL: q = 0.8, 0.32, 0.5.
    # A ratio MC / BL of 0.5 needs (1 − f)·0.8 + f·0.32 = 0.5: f = 0.3 / 0.48 = 0.625.
    rates = {"BL": [0.5], "MC": [0.16], "MC_half": [0.28], "MC_shared": [0.25], "AP": [0.1]}
    text = asymmetric.report.Why({}).mc_errors(rates, 0.5, "a hand case", t=0)
    assert "MC / BL = 0.320 at t = 0 (a hand case) where 004's is 0.500" in text
    assert "RBER gives 0.500, so a correlation" in text  # 0.5 lies within [0.32, 0.5]
    assert "fraction f = 0.62 of the pages" in text
    # 004's 0.7 past both: f = (0.8 − 0.7)/(0.8 − 0.32) = 0.208, (0.8 − 0.7)/(0.8 − 0.5) = 0.333
    text = asymmetric.report.Why({}).mc_errors(rates, 0.7, "a hand case", t=0)
    assert "f = 0.21 (copies' RBERs apart) or 0.33 (shared)" in text


def test_ap_faster_than_bl_in_open_loop_came_from_both_planes_collecting_at_once(real_core):
    # Issue #29: in the old open-loop runs (Poisson at Table 6's 488/s, one request at the
    # device) AP's mean response came out below BL's although AP erases more. The cause is
    # the Baseline's GC, not AP: striping fills the die's two planes in step, so both reach
    # the GC threshold together and their foreground collections queue on the one die,
    # doubling the worst stall; AP's skipped LSB pages put the planes out of step. On the
    # same capacity as one plane the order is the expected one (AP slower: more GC work)
    # and BL's worst case halves.
    from nandlab import api

    base = {"host.replay": "open", "host.queue_depth": 1, "workload.iops": 146_353 / 300,
            "output.record_requests": False, "workload.generator": "iometer",
            "workload.requests": 40_000, "workload.size_bytes": 8192,
            "workload.alignment_bytes": 8192, "workload.footprint_bytes": 112 << 20,
            "aging.fill_fraction": 0.5, "workload.random_fraction": 0.5,
            "workload.read_fraction": 0.5, "aging.initial_pe": 1000}
    one_plane = {"device.planes_per_die": 1, "device.blocks_per_plane": 128}
    ap = {"ftl.placement.policy": "msb_critical"}

    def run(*o):
        s = api.run(str(asymmetric.PRESET), overrides={k: v for d in (base, *o)
                                                       for k, v in d.items()},
                    progress=False).summary
        return s["all"]["mean_ns"], s["all"]["max_ns"], s["flash"]["erases"]

    bl2, ap2, bl1, ap1 = run(), run(ap), run(one_plane), run(one_plane, ap)
    assert ap2[2] > bl2[2] and ap1[2] > bl1[2]  # AP erases more on either device
    assert ap2[0] < bl2[0]  # ... yet is faster on two planes,
    assert ap1[0] > bl1[0]  # and slower on one
    assert bl2[1] > 1.7 * bl1[1]  # two planes collecting at once: BL's worst stall doubles


def test_tables_6_and_7s_average_rows_are_the_mean_of_the_rows():
    # 004's Average rows are the mean of the printed overheads: Table 6's MC (6.21 + 6.72 +
    # 6.68 + 6.68 + 6.88) / 5 = 6.634 (printed 6.63), AP 0.342 / 5 = 0.068 (0.07); Table
    # 7's AP 1.01 / 5 = 0.202 (0.20). The overhead of Table 6's summed mean responses is
    # 9,217,779 / 8,648,625 − 1 = 6.58 %, not what 004 prints.
    def avg(printed, col):
        return round(sum(float(v[col]) for v in printed.values()) / len(printed), 2)

    assert (avg(paper_004.TABLE_6_OVERHEAD, 0), avg(paper_004.TABLE_6_OVERHEAD, 1)) == (6.63, 0.07)
    assert avg(paper_004.TABLE_7_OVERHEAD, 1) == 0.20
    t6 = [{"BL": {"ns": bl}, "MC": {"ns": mc}} for _n, bl, mc, _ap in paper_004.TABLE_6.values()]
    assert asymmetric.ratio_of_sums(t6, "ns", "MC") == pytest.approx(6.581, abs=5e-4)
    # The statistic on a hand case: overheads 10 % and 5 % average 7.5 %; summed, 320 / 300.
    rows = [{"BL": {"ns": 100}, "MC": {"ns": 110}}, {"BL": {"ns": 200}, "MC": {"ns": 210}}]
    assert asymmetric.row_mean_overhead(rows, "ns", "MC") == pytest.approx(7.5)
    assert asymmetric.ratio_of_sums(rows, "ns", "MC") == pytest.approx(100 * (320 / 300 - 1))
