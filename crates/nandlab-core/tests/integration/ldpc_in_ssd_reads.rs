//! Seed 001's reads beyond the host's: a read-modify-write's old page is read through the
//! ECC like any other page (judged, retried), and soft data moves as the preset states
//! (001 §2.2: 80 µs for the six extra levels of a 4 KB page).

use nandlab_core::ecc::plan::SoftTransfer;
use nandlab_core::ecc::ErrorDraw;
use nandlab_core::host::{Op, Request};
use nandlab_core::reliability::ModelKind;
use nandlab_core::{SimConfig, Simulator};
use std::path::Path;

fn preset() -> SimConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/001_ldpc_in_ssd.toml");
    SimConfig::from_toml_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The preset with every block of every chip at `rber` (no chip or block spread).
fn uniform(rber: f64) -> SimConfig {
    let mut cfg = preset();
    let p = cfg.reliability.chip_profile.as_mut().unwrap();
    (p.rber_factor, p.block_sigma) = (vec![1.0], vec![0.0]);
    cfg.reliability.nominal_rber = rber;
    cfg.output.record_requests = true;
    cfg
}

/// `n` single-sector writes (each leaves 7 of 8 sectors of a mapped page: a
/// read-modify-write) 1 ms apart, spread over the device.
fn sector_writes(n: u64, pages: u64) -> Vec<Request> {
    (0..n)
        .map(|i| {
            let lpn = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % pages;
            Request::new(i * 1_000_000, lpn * 4096, 512, Op::Write, 0)
        })
        .collect()
}

/// The shipped table's plainly measured level-0 row (failures / frames, neither
/// extrapolated nor stratified) whose FER is nearest 0.3, as (RBER, FER): at a measured
/// point the table's value is the measurement itself, whatever the interpolation between.
fn measured_hard_point() -> (f64, f64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/ldpc_fer.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (level, rber, frames, failures) = (col("level"), col("rber"), col("frames"), col("failures"));
    let plain = |f: &[&str], name: &str| header.contains(&name).then(|| f[col(name)]).is_none_or(|v| v == "0");
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let k: f64 = f[failures].parse().unwrap();
            let measured = f[level] == "0" && k > 0.0 && plain(&f, "extrapolated") && plain(&f, "stratified");
            measured.then(|| (f[rber].parse().unwrap(), k / f[frames].parse::<f64>().unwrap()))
        })
        .min_by(|a: &(f64, f64), b| (a.1 - 0.3).abs().total_cmp(&(b.1 - 0.3).abs()))
        .unwrap()
}

#[test]
fn a_read_modify_write_fails_hard_decoding_as_the_table_says() {
    // At a measured point of the shipped table (when written: RBER 9.0e-3, 82 failures in
    // 280 frames, 0.29286), a hard decode fails with that probability; one codeword per
    // page. Every write reads its old page, and those are the run's only reads: the share
    // of them that retries (two-step: once per hard failure) is a binomial proportion
    // around it.
    let (rber, p) = measured_hard_point();
    assert!((0.1..0.6).contains(&p), "a level-0 point near 0.3: {rber} {p}");
    let n = 3000;
    let sim = Simulator::new(uniform(rber)).unwrap();
    let pages = sim.logical_bytes() / 4096;
    let s = sim.run_requests(sector_writes(n, pages)).unwrap().summary;
    assert_eq!(s.flash.rmw_page_reads, n);
    let r = s.reliability.unwrap().reads;
    assert_eq!(r.page_reads, n);
    let share = r.retries as f64 / n as f64;
    let sigma = (p * (1.0 - p) / n as f64).sqrt(); // 0.0083 at 0.29286
    assert!(
        (share - p).abs() < 4.0 * sigma,
        "hard failures {share} at {rber}, table {p}"
    );
}

/// Latencies of `reqs` on the preset at `rber` with every read decoded at the median
/// outcome (expected draw), and the summary's channel busy time (ns).
fn expected_run(cfg: SimConfig, reqs: Vec<Request>) -> (Vec<u64>, f64) {
    let mut cfg = cfg;
    cfg.reliability.error_draw = ErrorDraw::Expected;
    let channels = f64::from(cfg.device.channels);
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    let f = &out.summary.flash;
    let busy = f.channel_utilization * out.summary.sim.simulated_ns as f64 * channels;
    (out.requests.unwrap().latency_ns, busy)
}

#[test]
fn a_failed_read_modify_write_read_pays_the_soft_step() {
    // At 1.0e-2 the hard curve fails 84 % of frames (median: fails) and level 1 3.3e-7
    // (decodes): the two-step read senses the six extra levels (6 × 14 µs), sends their
    // 16,000 bytes (80 µs) and decodes again (8 µs): 172 µs more than without raw errors.
    let w = vec![Request::new(0, 0, 512, Op::Write, 0)];
    let (soft, _) = expected_run(uniform(1.0e-2), w.clone());
    let mut clean = uniform(1.0e-2);
    clean.reliability.model = ModelKind::None;
    let (hard, _) = expected_run(clean, w);
    assert_eq!(soft[0] - hard[0], 84_000 + 80_000 + 8_000);
}

#[test]
fn soft_data_crosses_an_idle_channel_in_the_stated_80_us() {
    // One read of LPN 0 (lower page, chip 0) whose hard decode fails: 41 µs sensing +
    // 20.48 µs hard data + 8 µs decode, then 84 µs of extra levels + 80 µs of soft data
    // + 8 µs: 241.48 µs; the channel carried 20.48 + 80 µs.
    let r = vec![Request::new(0, 0, 4096, Op::Read, 0)];
    let (lat, busy) = expected_run(uniform(1.0e-2), r.clone());
    assert_eq!(lat[0], 41_000 + 20_480 + 8_000 + 84_000 + 80_000 + 8_000);
    assert!((busy - 100_480.0).abs() < 1.0, "{busy}");
    // The bit-plane model, still available: six page-sized planes, 6 × 20.48 µs.
    let mut planes = uniform(1.0e-2);
    planes.ecc.soft_transfer = SoftTransfer::Incremental;
    let (lat, busy) = expected_run(planes, r);
    assert_eq!(lat[0], 41_000 + 20_480 + 8_000 + 84_000 + 6 * 20_480 + 8_000);
    assert!((busy - 7.0 * 20_480.0).abs() < 1.0, "{busy}");
}

#[test]
fn each_page_of_a_read_is_timed_on_its_own() {
    // Fig. 5 per page (`read_page`). No raw errors; one request of LPNs 0..=8 on an idle
    // device: channel-first striping over 8 channels puts LPNs 0 and 8 on channel 0 (chips
    // 0 and 1), the rest one per channel, every one a lower page. Each page senses 41 µs,
    // crosses its channel in 20.48 µs and decodes in 8 µs: 69.48 µs, except LPN 8, whose
    // data waits for LPN 0's on the shared channel (41 + 2 × 20.48 + 8 = 89.96 µs). The
    // request completes with its slowest page.
    let mut cfg = uniform(1.0e-2);
    cfg.reliability.model = ModelKind::None;
    cfg.output.read_page_latency = true;
    let out = Simulator::new(cfg)
        .unwrap()
        .run_requests(vec![Request::new(0, 0, 9 * 4096, Op::Read, 0)])
        .unwrap();
    let (page, read) = (out.summary.read_page.as_ref().unwrap(), &out.summary.read);
    assert_eq!(page.count, 9);
    assert_eq!(page.bytes, 9 * 4096);
    assert_eq!(page.max_ns, Some(89_960));
    assert_eq!(read.max_ns, Some(89_960));
    let mean = (8.0 * 69_480.0 + 89_960.0) / 9.0; // 71,755.6 ns
    assert!((page.mean_ns.unwrap() - mean).abs() < 1e-6, "{:?}", page.mean_ns);
}

#[test]
fn pages_are_timed_only_when_asked() {
    // `output.read_page_latency` off (the default): no `read_page` section, in the struct
    // or the JSON, and the resolved config does not name the key.
    let mut cfg = uniform(1.0e-2);
    cfg.reliability.model = ModelKind::None;
    let out = Simulator::new(cfg)
        .unwrap()
        .run_requests(vec![Request::new(0, 0, 9 * 4096, Op::Read, 0)])
        .unwrap();
    assert!(out.summary.read_page.is_none());
    let json = out.summary.to_json();
    assert!(json.get("read_page").is_none());
    assert!(json["config"]["output"].get("read_page_latency").is_none());
    assert_eq!(out.summary.read.count, 1);
}
