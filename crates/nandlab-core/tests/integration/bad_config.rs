//! Bad configs and requests found by trying them (issue 10 item 9): each gives a one-line
//! error naming the key or request, never a panic or a wrong run.

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};

/// The error `Simulator::new` gives for `text` (which must parse).
fn build_error(text: &str) -> String {
    let cfg = SimConfig::from_toml_str(text).unwrap();
    match Simulator::new(cfg) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_one_line(e: &str, starts: &str) {
    assert!(e.starts_with(starts), "{e}");
    assert!(!e.contains('\n'), "{e}");
}

#[test]
fn decoder_count_past_the_bound_names_the_key() {
    // 4 channels x 2^31 decoders overflowed u32 when sizing the decoder table.
    let e = build_error("[timing]\ndecoders_per_channel = 2147483648\n");
    assert_one_line(
        &e,
        "config key `timing.decoders_per_channel`: must be between 1 and 1024",
    );
    let e = build_error("[timing]\ndecoders_per_channel = 0\n");
    assert_one_line(&e, "config key `timing.decoders_per_channel`");
}

#[test]
fn operation_times_past_the_bound_name_the_key() {
    let e = build_error("[timing]\nprogram_latency_ns = [121_000, 9_223_372_036_854_775_807]\n");
    assert_one_line(&e, "config key `timing.program_latency_ns`: 9223372036854775807 ns");
    let e = build_error("[timing]\nerase_latency_ns = 10_000_000_001\n");
    assert_one_line(&e, "config key `timing.erase_latency_ns`");
}

#[test]
fn gc_threshold_at_u32_max_names_the_key() {
    // u32::MAX + 1 wrapped to 0 and passed the check before.
    let e = build_error("[ftl]\ngc_threshold_blocks = 4294967295\n");
    assert_one_line(&e, "config key `ftl.gc_threshold_blocks`: must be between 1 and 254");
    let e = build_error("[ftl]\ngc_threshold_blocks = 255\n");
    assert_one_line(&e, "config key `ftl.gc_threshold_blocks`");
}

#[test]
fn weighted_victim_weight_out_of_range_names_the_key() {
    let e = build_error("[ftl.gc]\nvictim = \"weighted\"\nweight_valid = 1.5\n");
    assert_one_line(&e, "config key `ftl.gc.weight_valid`: must be between 0 and 1");
}

#[test]
fn read_leveling_and_refresh_targets_share_one_window() {
    let e = build_error(
        "[ftl.placement]\npolicy = \"read_leveling\"\nwindow_requests = 10\n\
         [ftl.refresh_targets]\npolicy = \"dr\"\nwindow_requests = 20\n",
    );
    assert_one_line(
        &e,
        "config key `ftl.placement.window_requests`: must equal ftl.refresh_targets.window_requests (20)",
    );
    let e = build_error("[ftl.placement]\npolicy = \"read_leveling\"\nhot_reads = 0\n");
    assert_one_line(&e, "config key `ftl.placement.hot_reads`");
}

#[test]
fn reordering_scheduler_without_a_queue_is_rejected() {
    let e = build_error("[host]\nscheduler = \"read_first\"\nqueue_depth = 0\n");
    assert_one_line(&e, "config key `host.scheduler`: `read_first` reorders the host queue");
    assert!(e.contains("host.queue_depth"), "{e}");
    // With a queue it is accepted, and so is fifo without one.
    let ok = |t: &str| Simulator::new(SimConfig::from_toml_str(t).unwrap()).is_ok();
    assert!(ok("[host]\nscheduler = \"read_first\"\nqueue_depth = 4\n"));
    let e = build_error("[host]\nscheduler = \"feedback\"\nreplay = \"closed\"\nqueue_depth = 4\n");
    assert_one_line(
        &e,
        "config key `host.scheduler`: `feedback` reorders the host queue, but closed-loop replay",
    );
    assert!(ok("[host]\nscheduler = \"fifo\"\nqueue_depth = 0\n"));
}

#[test]
fn a_wrapped_request_of_2_pow_32_pages_is_an_error_not_a_truncation() {
    let cfg = SimConfig::from_toml_str("[host]\nout_of_range = \"wrap\"\n").unwrap();
    let sim = Simulator::new(cfg).unwrap();
    let size_bytes = (1u64 << 32) * 4096;
    let r = Request::new(0, 0, size_bytes, Op::Trim, 0);
    let e = sim.run_requests(vec![r]).unwrap_err().to_string();
    assert_one_line(&e, "request 0 spans 4294967296 pages, more than the 4294967295");
    let sim = Simulator::new(SimConfig::from_toml_str("[host]\nout_of_range = \"wrap\"\n").unwrap()).unwrap();
    let r = Request::new(0, u64::MAX - 10, 4096, Op::Read, 0);
    let e = sim.run_requests(vec![r]).unwrap_err().to_string();
    assert_one_line(&e, "request 0 ends past byte 2^64");
}

#[test]
fn suspend_times_in_the_wrong_unit_name_the_key() {
    let e = build_error("[host.suspend]\nops = \"program\"\nprogram_ns = 100_000_000_000\n");
    assert_one_line(
        &e,
        "config key `host.suspend.program_ns`: 100000000000 ns is more than one second",
    );
    let e = SimConfig::from_toml_str("[host.suspend]\nops = \"reads\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("ops") && e.contains("program_erase"), "{e}");
}

#[test]
fn a_queue_deeper_than_sata_allows_names_the_key() {
    let e = build_error("[host]\nqueue_depth = 33\n[host.interface]\nprotocol = \"sata\"\n");
    assert_one_line(
        &e,
        "config key `host.queue_depth`: 33 is more than the 32 commands of SATA's native command queue",
    );
}

#[test]
fn ages_spreads_and_temperatures_past_their_bounds_name_the_key() {
    // Each of these made the page RBER NaN and the ECC grid index past its end (a panic):
    // 1e308 idle days, a block spread of 1e308, 1e308 Vth points per decade.
    for (text, starts) in [
        (
            "[aging]\nidle_days = 1e308\n",
            "config key `aging.idle_days`: must be between 0 and 36500 days",
        ),
        (
            "[aging]\nretention_days = 36501.0\n",
            "config key `aging.retention_days`",
        ),
        (
            "[reliability]\nmodel = \"nominal\"\nblock_sigma = 1e308\n",
            "config key `reliability.block_sigma`: must be between 0 and 3",
        ),
        (
            "[reliability]\nmodel = \"nominal\"\nchip_sigma = 18446744073709551616.0\n",
            "config key `reliability.chip_sigma`",
        ),
        (
            "[reliability]\nmodel = \"vth\"\nvth_points_per_decade = 1e308\n",
            "config key `reliability.vth_points_per_decade`: must be between 1 and 1000",
        ),
        (
            "[aging]\nstorage_temperature_c = 1e308\n",
            "config key `aging.storage_temperature_c`: must be between -55 and 150",
        ),
        (
            "[aging]\nmodel_temperature_c = -60.0\n",
            "config key `aging.model_temperature_c`",
        ),
    ] {
        let e = build_error(text);
        assert_one_line(&e, starts);
    }
}

#[test]
fn wear_time_scales_energies_and_unused_keys_past_their_bounds_name_the_key() {
    // Each was accepted: 1e308 initial P/E saturated every block's counter at u32::MAX, a
    // time scale of 1e308 every arrival at the end of the clock; the DRAM rate was not
    // checked while the cache was off.
    for (text, starts) in [
        (
            "[aging.initial_pe]\ndist = \"uniform\"\nlow = 0\nhigh = 1e308\n",
            "config key `aging.initial_pe`: draws up to 1e308 P/E cycles; the bound is 10000000",
        ),
        ("[aging]\ninitial_pe = 10000001\n", "config key `aging.initial_pe`"),
        // A normal draws up to mean + 7.03 sd (its 1 - 1e-12 quantile): 10^6 + 7.03·2·10^6 > 10^7.
        (
            "[aging.initial_pe]\ndist = \"normal\"\nmean = 1000000\nsd = 2000000\n",
            "config key `aging.initial_pe`: draws up to",
        ),
        (
            "[host]\ntime_scale = 1e308\n",
            "config key `host.time_scale`: must be a number above 0 and at most 1000000, got 1e308",
        ),
        ("[host]\ntime_scale = nan\n", "config key `host.time_scale`"),
        ("[host]\ntime_scale = 0.0\n", "config key `host.time_scale`"),
        (
            "[cache]\ndram_mb_per_s = 0.0\n",
            "config key `cache.dram_mb_per_s`: must be a finite rate of at least 1 MB/s, got 0.0",
        ),
        ("[cache]\ndram_mb_per_s = -1.0\n", "config key `cache.dram_mb_per_s`"),
        // A rate near 0 (1e-300) ran and wrapped the clock: a page's bus time, a request's
        // link time saturated u64 and the sums after them wrapped.
        (
            "[timing]\nbus_rate_mb_s = 1e-300\n",
            "config key `timing.bus_rate_mb_s`: must be a finite rate of at least 1 MB/s, got 1e-300",
        ),
        ("[timing]\nbus_rate_mb_s = 0.99\n", "config key `timing.bus_rate_mb_s`"),
        (
            "[host.interface]\nprotocol = \"nvme\"\npcie_lane_gb_per_s = 1e-300\n",
            "config key `host.interface.pcie_lane_gb_per_s`: must be a finite rate of at least 0.001 GB/s, got 1e-300",
        ),
        // Found by the sweep: run totals of 1e308 µJ a program were infinite (null in JSON);
        // RBER thresholds of -1 or 1e308 were accepted while BCH was not reading them.
        (
            "[ecc.energy]\nprogram_uj = 1e308\n",
            "config key `ecc.energy.program_uj`: must be between 0 and 1000000 µJ, got 1e308",
        ),
        (
            "[ecc.energy]\ndecode_uj_per_codeword = -1.0\n",
            "config key `ecc.energy.decode_uj_per_codeword`",
        ),
        (
            "[ecc]\nscheme = \"bch\"\nthresholds = [-1.0]\n",
            "config key `ecc.thresholds`: must lie in (0, 0.5] and be non-decreasing",
        ),
        ("[ecc]\nthresholds = [0.01, 1e308]\n", "config key `ecc.thresholds`"),
    ] {
        let e = build_error(text);
        assert_one_line(&e, starts);
    }
}

#[test]
fn workload_keys_past_their_bounds_name_the_key_even_where_unused() {
    // Checked when the run opens the workload. The Zipf exponent is used here; the other
    // keys are not (uniform addresses, a synthetic workload), and were not checked.
    for (table, starts) in [
        (
            "[workload]\naddress = \"zipf\"\nzipf_theta = 1e308\n",
            "config key `workload.zipf_theta`: must be between 0 and 10, got 1e308",
        ),
        ("[workload]\nzipf_theta = nan\n", "config key `workload.zipf_theta`"),
        (
            "[workload]\nrepeat = 0\n",
            "config key `workload.repeat`: must be at least 1",
        ),
        ("[workload]\nhot_fraction = 1.5\n", "config key `workload.hot_fraction`"),
        ("[workload]\nhot_access = -1.0\n", "config key `workload.hot_access`"),
        (
            "[[workload.flows]]\ntime_scale = 1e308\n",
            "config key `workload.flows[0].time_scale`: must be a number above 0",
        ),
    ] {
        let text = format!("{table}requests = 10\n");
        let sim = Simulator::new(SimConfig::from_toml_str(&text).unwrap()).unwrap();
        match sim.run(&mut |_| true) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => assert_one_line(&e.to_string(), starts),
        }
    }
}

#[test]
fn a_time_scale_that_puts_an_arrival_past_the_clock_names_the_key() {
    // 10^6 × 10^13 ns (a request 2.8 hours into the trace) = 10^19 ns > 2^63 ns.
    let sim = Simulator::new(SimConfig::from_toml_str("[host]\ntime_scale = 1e6\n").unwrap()).unwrap();
    let e = sim
        .run_requests(vec![Request::new(10_000_000_000_000, 0, 4096, Op::Read, 0)])
        .unwrap_err()
        .to_string();
    assert_one_line(
        &e,
        "config key `host.time_scale`: 1000000 puts an arrival at 10000000000000 ns past the end",
    );
}
