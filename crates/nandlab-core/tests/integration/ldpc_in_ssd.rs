//! Seed 001 (LDPC-in-SSD) at 10,000 P/E: the calibrated chip profile of
//! `configs/001_ldpc_in_ssd.toml` gives §5's hard-decision failure probability of 28.8 %
//! under the shipped FER table, both as the profile's expectation and over the device's
//! own block draws.

use nandlab_core::ecc::config::SHIPPED_FER_TABLE;
use nandlab_core::ecc::FerCurves;
use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use std::path::Path;

fn preset() -> SimConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/001_ldpc_in_ssd.toml");
    SimConfig::from_toml_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn hard_fer() -> impl Fn(f64) -> f64 {
    let c = FerCurves::parse("ldpc_fer.csv", SHIPPED_FER_TABLE).unwrap();
    move |rber| c.fer(0, rber)
}

#[test]
fn mean_hard_failure_is_28_8_percent() {
    let cfg = preset();
    let profile = cfg.reliability.chip_profile.clone().expect("001 has a chip profile");
    let fer = hard_fer();
    let rber = cfg.reliability.nominal_rber;
    let mean = profile.device_mean(rber, &fer);
    assert!((mean - 0.288).abs() < 0.005, "mean P_hd-fail {mean}");
    // The shape of Fig. 9: the chips' failure probabilities are ordered like their RBERs,
    // and chip 1 (the best) fails least, chip 3 (the worst) most.
    let per_chip: Vec<f64> = (0..4).map(|i| profile.chip_mean(i, rber, &fer)).collect();
    assert!(per_chip[0] < per_chip[1] && per_chip[1] < per_chip[3] && per_chip[3] < per_chip[2]);
    // The device's 64 chips repeat the four, so 16 of each.
    assert_eq!(cfg.device.channels * cfg.device.chips_per_channel % 4, 0);
}

#[test]
fn the_device_block_draws_average_to_the_profile() {
    // The simulator draws each block's factor from the seed; averaged over many blocks
    // of each chip, FER_0 matches the profile's expectation (Monte Carlo, 20,000 blocks
    // per chip: standard error of a mean of values in [0, 1] ≤ 0.5/√20000 = 0.0035).
    let cfg = preset();
    let v = cfg.reliability.variation(cfg.seed);
    let profile = cfg.reliability.chip_profile.clone().unwrap();
    let fer = hard_fer();
    let rber = cfg.reliability.nominal_rber;
    for chip in 0..4u64 {
        let n = 20_000u64;
        let drawn = (0..n).map(|b| fer(rber * v.factor(chip, b * 64 + chip))).sum::<f64>() / n as f64;
        let want = profile.chip_mean(chip as usize, rber, &fer);
        assert!((drawn - want).abs() < 0.015, "chip {chip}: {drawn} vs {want}");
    }
}

/// Share of host page reads whose hard decode failed, in a run of `n` single-page reads
/// spread over the device (two-step: one retry per hard failure).
fn hard_fail_share(cfg: SimConfig, n: u64) -> f64 {
    let sim = Simulator::new(cfg).unwrap();
    let pages = sim.logical_bytes() / 4096;
    // A multiplicative hash spreads the reads over every chip.
    let reqs = (0..n)
        .map(|i| Request {
            arrival_ns: i * 1_000_000,
            offset_bytes: (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % pages) * 4096,
            size_bytes: 4096,
            op: Op::Read,
            stream: 0,
        })
        .collect();
    let s = sim.run_requests(reqs).unwrap().summary;
    s["reliability"]["retries"].as_f64().unwrap() / s["reliability"]["page_reads"].as_f64().unwrap()
}

#[test]
fn interleaving_decodes_at_the_mean_rber_of_its_chips() {
    // No block spread: chip g reads at 8.66e-3 · factor(g mod 4). 2-way pairs chips 1+3
    // (0.85 + 1.15) and 2+4 (0.95 + 1.05): every codeword is at the device mean 8.66e-3,
    // where the table's hard curve (log-log between (8.5e-3, 0.06875) and
    // (9.0e-3, 0.2928571)) gives 0.06875 · (8.66/8.5)^(ln(0.2928571/0.06875)/ln(9/8.5))
    // = 0.1103. Without interleaving each chip fails at its own RBER's FER.
    let mut cfg = preset();
    cfg.reliability.chip_profile.as_mut().unwrap().block_sigma = vec![0.0; 4];
    let fer = hard_fer();
    let n = 4000;
    let tol = 4.0 * (0.25 / n as f64).sqrt(); // 4 binomial σ at worst (p = 1/2)
    let mut two = cfg.clone();
    two.ecc.interleave.ways = 2;
    let got = hard_fail_share(two, n);
    assert!((got - 0.1103).abs() < tol, "2-way: {got}");
    let mut four = cfg.clone();
    four.ecc.interleave.ways = 4;
    assert!((hard_fail_share(four, n) - 0.1103).abs() < tol);
    let per_chip: f64 = [0.85, 0.95, 1.15, 1.05].iter().map(|f| fer(8.66e-3 * f)).sum::<f64>() / 4.0;
    assert!(per_chip > 0.25, "{per_chip}");
    assert!((hard_fail_share(cfg, n) - per_chip).abs() < tol);
}

/// Latency and total die-busy time of one read of LPN 0 (a lower page, t_R 41 µs) on the
/// idle 001 preset with `ways`-way interleaving and `chips_per_channel` chips per channel;
/// no raw errors, so one hard attempt.
fn idle_interleaved_read(ways: u32, chips_per_channel: u32) -> (u64, f64) {
    let mut cfg = preset();
    cfg.reliability.model = nandlab_core::reliability::ModelKind::None;
    cfg.device.chips_per_channel = chips_per_channel;
    cfg.ecc.interleave.ways = ways;
    cfg.output.record_requests = true;
    let dies = f64::from(cfg.device.channels * chips_per_channel * cfg.device.dies_per_chip);
    let req = Request {
        arrival_ns: 0,
        offset_bytes: 0,
        size_bytes: 4096,
        op: Op::Read,
        stream: 0,
    };
    let out = Simulator::new(cfg).unwrap().run_requests(vec![req]).unwrap();
    let f = &out.summary["flash"];
    let span = out.summary["sim"]["simulated_ns"].as_f64().unwrap();
    let die_busy = f["die_utilization"].as_f64().unwrap() * span * dies;
    (out.requests.unwrap().latency_ns[0], die_busy)
}

#[test]
fn an_interleaved_read_senses_every_part_and_moves_a_share_of_each() {
    // One chip: t_R 41 µs + 4096 B at 200 MB/s (20.48 µs) + one 8 µs decode.
    assert_eq!(idle_interleaved_read(1, 8), (41_000 + 20_480 + 8_000, 41_000.0));
    // 2-way with 8 chips per channel: the pair (chips 0 and 2) shares channel 0. Both dies
    // sense at once (41 µs each: 82 µs of die time), then 2 × 2048 B queue on the channel
    // (2 × 10.24 µs), then one decode.
    let (lat, busy) = idle_interleaved_read(2, 8);
    assert_eq!(lat, 41_000 + 2 * 10_240 + 8_000);
    assert!((busy - 82_000.0).abs() < 1.0, "{busy}");
    // 2 chips per channel: chips 0 and 2 are on channels 0 and 1, the halves move at once.
    let (lat, busy) = idle_interleaved_read(2, 2);
    assert_eq!(lat, 41_000 + 10_240 + 8_000);
    assert!((busy - 82_000.0).abs() < 1.0, "{busy}");
    // 4-way, 2 chips per channel: chips 0–3 on channels 0, 1; 1024 B (5.12 µs) per part,
    // two parts per channel.
    let (lat, busy) = idle_interleaved_read(4, 2);
    assert_eq!(lat, 41_000 + 2 * 5_120 + 8_000);
    assert!((busy - 164_000.0).abs() < 1.0, "{busy}");
}

#[test]
fn group_updates_are_counted_as_write_amplification() {
    // 2-way: writes of pages {1}, {2, 3}, {4, 5, 6} touch groups {0,1}; {2,3}; {4,5},{6,7}:
    // pages 0 and 7 are rewritten, 2 extra for 6 written: (6 + 2) / 6.
    let mut cfg = preset();
    cfg.ecc.interleave.ways = 2;
    let reqs = [(1u64, 1u64), (2, 2), (4, 3)]
        .iter()
        .enumerate()
        .map(|(i, &(first, pages))| Request {
            arrival_ns: i as u64 * 10_000_000,
            offset_bytes: first * 4096,
            size_bytes: pages * 4096,
            op: Op::Write,
            stream: 0,
        })
        .collect();
    let s = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap().summary;
    assert_eq!(s["flash"]["interleave_rewrite_pages"], 2);
    assert_eq!(
        s["flash"]["interleave_write_amplification"].as_f64().unwrap(),
        8.0 / 6.0
    );
}
