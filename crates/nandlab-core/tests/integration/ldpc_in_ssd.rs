//! Seed 001 (LDPC-in-SSD) at 10,000 P/E: the calibrated chip profile of
//! `configs/001_ldpc_in_ssd.toml` gives §5's hard-decision failure probability of 28.8 %
//! under the shipped FER table, both as the profile's expectation and over the device's
//! own block draws.

use nandlab_core::ecc::config::SHIPPED_FER_TABLE;
use nandlab_core::ecc::FerCurves;
use nandlab_core::ftl::placement::{InterleaveGroup, PlacementConfig};
use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use std::path::Path;

fn preset() -> SimConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/001_ldpc_in_ssd.toml");
    SimConfig::from_toml_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// `cfg` with `ways`-way interleaving and the placement that puts its groups on their chips.
fn interleaved(mut cfg: SimConfig, ways: u32) -> SimConfig {
    cfg.ecc.interleave.ways = ways;
    cfg.ftl.placement = PlacementConfig::InterleaveGroup(InterleaveGroup { ways });
    cfg
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
        .map(|i| {
            Request::new(
                i * 1_000_000,
                (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % pages) * 4096,
                4096,
                Op::Read,
                0,
            )
        })
        .collect();
    let r = sim.run_requests(reqs).unwrap().summary.reliability.unwrap().reads;
    r.retries as f64 / r.page_reads as f64
}

#[test]
fn interleaving_decodes_at_the_mean_rber_of_its_chips() {
    // No block spread: chip g reads at 8.663e-3 · factor(g mod 4). 2-way pairs chips 1+3
    // (0.85 + 1.15) and 2+4 (0.95 + 1.05): every codeword is at the device mean 8.663e-3,
    // where the table's hard curve (log-log between (8.5e-3, 0.06875) and
    // (9.0e-3, 0.2928571)) gives 0.06875 · (8.663/8.5)^(ln(0.2928571/0.06875)/ln(9/8.5))
    // = 0.1113. Without interleaving each chip fails at its own RBER's FER.
    let mut cfg = preset();
    cfg.reliability.chip_profile.as_mut().unwrap().block_sigma = vec![0.0; 4];
    let fer = hard_fer();
    let n = 4000;
    let tol = 4.0 * (0.25 / n as f64).sqrt(); // 4 binomial σ at worst (p = 1/2)
    let got = hard_fail_share(interleaved(cfg.clone(), 2), n);
    assert!((got - 0.1113).abs() < tol, "2-way: {got}");
    assert!((hard_fail_share(interleaved(cfg.clone(), 4), n) - 0.1113).abs() < tol);
    let per_chip: f64 = [0.85, 0.95, 1.15, 1.05].iter().map(|f| fer(8.663e-3 * f)).sum::<f64>() / 4.0;
    assert!(per_chip > 0.25, "{per_chip}");
    assert!((hard_fail_share(cfg, n) - per_chip).abs() < tol);
}

/// The 001 preset with no raw errors (one hard attempt per read), `ways`-way interleaving
/// when `ways > 1`, request records on.
fn idle_preset(ways: u32) -> SimConfig {
    let mut cfg = preset();
    cfg.reliability.model = nandlab_core::reliability::ModelKind::None;
    cfg.output.record_requests = true;
    if ways > 1 {
        cfg = interleaved(cfg, ways);
    }
    cfg
}

/// Latency and total die-busy time of one read of LPN 0 (a lower page, t_R 41 µs, on
/// chip 0) on the idle 001 preset with `ways`-way interleaving and `channels` ×
/// `chips_per_channel` chips; no raw errors, so one hard attempt.
fn idle_interleaved_read(ways: u32, channels: u32, chips_per_channel: u32) -> (u64, f64) {
    let mut cfg = idle_preset(ways);
    cfg.device.channels = channels;
    cfg.device.chips_per_channel = chips_per_channel;
    let dies = f64::from(cfg.device.channels * chips_per_channel * cfg.device.dies_per_chip);
    let req = Request::new(0, 0, 4096, Op::Read, 0);
    let out = Simulator::new(cfg).unwrap().run_requests(vec![req]).unwrap();
    let s = &out.summary;
    let die_busy = s.flash.die_utilization * s.sim.simulated_ns as f64 * dies;
    (out.requests.unwrap().latency_ns[0], die_busy)
}

#[test]
fn an_interleaved_read_senses_every_part_and_moves_a_share_of_each() {
    // One chip: t_R 41 µs + 4096 B at 200 MB/s (20.48 µs) + one 8 µs decode.
    assert_eq!(idle_interleaved_read(1, 8, 8), (41_000 + 20_480 + 8_000, 41_000.0));
    // 2-way on the 001 device (8 × 8): chip 0 pairs with chip 10 on channel 1. Both dies
    // sense at once (41 µs each: 82 µs of die time), the two 2048 B halves cross channels
    // 0 and 1 at once (10.24 µs), then one decode: 59.24 µs.
    let (lat, busy) = idle_interleaved_read(2, 8, 8);
    assert_eq!(lat, 41_000 + 10_240 + 8_000);
    assert!((busy - 82_000.0).abs() < 1.0, "{busy}");
    // 4-way on 8 × 8: chips 0, 9, 18, 27 on channels 0–3; 1024 B (5.12 µs) each, at once.
    let (lat, busy) = idle_interleaved_read(4, 8, 8);
    assert_eq!(lat, 41_000 + 5_120 + 8_000);
    assert!((busy - 164_000.0).abs() < 1.0, "{busy}");
    // 2 chips per channel: 2-way hop 2 + lcm(4, 2) = 6, chip 0 with chip 6 on channel 3.
    let (lat, _) = idle_interleaved_read(2, 8, 2);
    assert_eq!(lat, 41_000 + 10_240 + 8_000);
    // Fig. 17's 2 × 8 device: 4-way chips 0, 9, 2, 11 on channels 0, 1, 0, 1: two
    // quarters queue on each channel.
    let (lat, busy) = idle_interleaved_read(4, 2, 8);
    assert_eq!(lat, 41_000 + 2 * 5_120 + 8_000);
    assert!((busy - 164_000.0).abs() < 1.0, "{busy}");
}

#[test]
fn a_request_reading_a_whole_group_senses_its_pages_once() {
    // Latency of one read of `pages` pages from LPN 0 on the idle 001 preset.
    let lat = |ways: u32, pages: u64| {
        let req = Request::new(0, 0, pages * 4096, Op::Read, 0);
        let out = Simulator::new(idle_preset(ways))
            .unwrap()
            .run_requests(vec![req])
            .unwrap();
        out.requests.unwrap().latency_ns[0]
    };
    // Without interleaving, pages 0–3 stripe over channels 0–3: 41 + 20.48 + 8 µs.
    assert_eq!(lat(1, 4), 69_480);
    // 4-way, group {0..3} on chips 0, 9, 18, 27 (channels 0–3): each chip's page holds a
    // quarter of all four codewords, so one sensing (41) serves them; the quarters cross
    // each channel one codeword after another (→ 46.12, 51.24, 56.36, 61.48) and each
    // codeword is decoded on its mapped page's channel (its own): the last at 69.48 µs.
    // (Sensing per codeword would end at 4 × 41 = 164 µs on every die.)
    assert_eq!(lat(4, 4), 69_480);
    // 2-way, group {0, 1} on chips 0 and 10: one sensing, halves → 51.24 and 61.48 µs,
    // decodes on channels 0 and 1 → 69.48 µs.
    assert_eq!(lat(2, 2), 69_480);
}

/// A write of `pages` pages from logical page `first`.
fn write(arrival_ns: u64, first: u64, pages: u64) -> Request {
    Request::new(arrival_ns, first * 4096, pages * 4096, Op::Write, 0)
}

#[test]
fn group_updates_rewrite_the_rest_of_the_group() {
    // 2-way: writes of pages {1}, {2, 3}, {4, 5, 6} touch groups {0,1}; {2,3}; {4,5},{6,7}:
    // pages 0 and 7 are read and rewritten, 8 pages programmed for 6 written: (6 + 2) / 6.
    let reqs = vec![write(0, 1, 1), write(10_000_000, 2, 2), write(20_000_000, 4, 3)];
    let s = Simulator::new(interleaved(preset(), 2))
        .unwrap()
        .run_requests(reqs)
        .unwrap()
        .summary
        .to_json();
    let f = &s["flash"];
    assert_eq!(f["interleave_rewrite_pages"], 2);
    assert_eq!(f["interleave_write_amplification"].as_f64().unwrap(), 8.0 / 6.0);
    assert_eq!((&f["page_programs"], &f["host_page_programs"]), (&8.into(), &8.into()));
    // Each group update reads its old codewords once: pages 0 and 7.
    assert_eq!(f["rmw_page_reads"], 2);
}

/// Latency of one write of `pages` pages from logical page `first` on the idle 001 preset
/// (8 × 8 chips: a group's chips on channels 0, 1, … ) with `ways`-way interleaving.
fn idle_write(ways: u32, first: u64, pages: u64) -> u64 {
    let out = Simulator::new(idle_preset(ways))
        .unwrap()
        .run_requests(vec![write(0, first, pages)])
        .unwrap();
    out.requests.unwrap().latency_ns[0]
}

#[test]
fn a_group_update_senses_the_group_then_programs_every_page() {
    // Transfers at 200 MB/s: a page 20.48 µs, a half 10.24, a quarter 5.12; one decode
    // 8 µs; the preconditioned pages and the fresh blocks' first pages are lower pages
    // (t_R 41 µs, t_PROG 121 µs). Group {0, 1} sits on chips 0 and 10 (channels 0, 1),
    // group {0..3} on chips 0, 9, 18, 27 (channels 0–3).
    // 2-way, page 1 alone: both dies sense page 0's parts (41); its halves cross channels
    // 0 and 1 at once (10.24 → 51.24) and are decoded (→ 59.24); then pages 0 and 1 cross
    // their channels at once (→ 79.72) and program on their dies (+ 121): 200.72 µs.
    assert_eq!(idle_write(2, 1, 1), 200_720);
    // The whole group {0, 1}: nothing to read; its pages cross channels 0 and 1 at once,
    // 20.48 + 121 = 141.48 µs, as without interleaving (pages 0 and 1 stripe over channels
    // 0 and 1).
    assert_eq!(idle_write(2, 0, 2), 141_480);
    assert_eq!(idle_write(1, 0, 2), 141_480);
    // 4-way, page 2 alone: four dies sense (41); pages 0, 1, 3 each move as a quarter
    // (5.12) on each of channels 0–3, one after another: → 46.12, 51.24, 56.36; each is
    // decoded by its mapped page's channel's decoder (chips 0, 9, 27: channels 0, 1, 3),
    // so the decodes overlap: → 54.12, 59.24, 64.36; then the four pages cross their
    // channels at once (→ 84.84) and program (+ 121): 205.84 µs.
    assert_eq!(idle_write(4, 2, 1), 205_840);
}

#[test]
fn interleaving_needs_its_placement_and_no_cache() {
    let mut cfg = preset();
    cfg.ecc.interleave.ways = 2;
    let e = Simulator::new(cfg.clone()).err().unwrap().to_string();
    assert!(e.contains("ftl.placement") && e.contains("interleave_group"), "{e}");
    let mut cfg = interleaved(preset(), 4);
    cfg.ecc.interleave.ways = 2;
    assert!(Simulator::new(cfg).is_err());
    let mut cfg = interleaved(preset(), 2);
    cfg.cache.capacity_bytes = 1 << 20;
    let e = Simulator::new(cfg).err().unwrap().to_string();
    assert!(e.contains("cache.capacity_bytes"), "{e}");
}

/// A 4 KiB read of logical page `lpn` arriving at `arrival_ns`.
fn read(arrival_ns: u64, lpn: u64) -> Request {
    Request::new(arrival_ns, lpn * 4096, 4096, Op::Read, 0)
}

#[test]
fn a_hot_page_read_off_an_unreliable_chip_moves_in_the_background() {
    use nandlab_core::ftl::placement::HotReliable;
    // `hot_reliable` (nandlab's addition) on the idle 001 preset, chips 1 and 2 of each run
    // of four reliable. CWDP: stripe slot k is on channel k mod 8, chip (k / 8) mod 8 in
    // it, so logical page 16 (preconditioned at slot 16, page 0 of its block: a lower
    // page) is on chip 2 of channel 0, the paper's chip 3 (factor 1.15).
    let mut cfg = idle_preset(1);
    cfg.ftl.placement = PlacementConfig::HotReliable(HotReliable {
        window_requests: 100,
        hot_reads: 2,
        reliable_chips: vec![0, 1],
    });
    // Read once (not hot), twice (hot: moves), three times (on a reliable chip: stays).
    let reqs = vec![read(0, 16), read(1_000_000, 16), read(2_000_000, 16)];
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    // Every read is idle: 41 + 20.48 + 8 µs (the move starts when the second read ends).
    assert_eq!(out.requests.unwrap().latency_ns, vec![69_480; 3]);
    let summary = out.summary.to_json();
    let w = &summary["flash"]["by_cause"]["hot_read"];
    // One move through the controller: sense 41 µs, page out and back (2 × 20.48 µs),
    // one decode (8 µs), a program into a fresh block's first (lower) page (121 µs).
    assert_eq!((&w["page_reads"], &w["page_programs"]), (&1.into(), &1.into()));
    assert_eq!(w["die_busy_ns"], 41_000 + 121_000);
    assert_eq!(w["channel_busy_ns"], 2 * 20_480);
    assert_eq!(w["decode_busy_ns"], 8_000);
    // Without the policy the summary has no such entry.
    let plain = Simulator::new(idle_preset(1))
        .unwrap()
        .run_requests(vec![read(0, 16)])
        .unwrap();
    assert!(plain.summary.flash.by_cause.hot_read.is_none());
}
