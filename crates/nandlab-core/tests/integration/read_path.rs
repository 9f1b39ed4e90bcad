//! Read latency on an idle device when the ECC ladder needs retries, against seed 001
//! Eq. 1–4 worked by hand. Default timing: t_R(LSB) 41 µs, 4 KiB transfer 20.48 µs,
//! decode 8 µs, 14 µs per extra sensing level; seed 000 Table I thresholds (levels 0..6:
//! RBER ≤ 0.005, 0.006, 0.008, 0.009, 0.010, 0.012, 0.013); the nominal error model on
//! random data gives every page exactly the nominal RBER; expected-value error draws.

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

const T_R: u64 = 41_000;
const XFER: u64 = 20_480;
const DEC: u64 = 8_000;
const EXTRA: u64 = 14_000;
const HARD: u64 = T_R + XFER + DEC;

fn run(rber: f64, strategy: &str, reqs: &[(u64, u64)]) -> (Vec<u64>, Value) {
    let text = format!(
        r#"
[aging]
fill_fraction = 1.0
[reliability]
model = "nominal"
nominal_rber = {rber}
error_draw = "expected"
[ecc]
scheme = "ldpc"
strategy = "{strategy}"
"#
    );
    let cfg = SimConfig::from_toml_str(&text).unwrap();
    let reqs: Vec<Request> = reqs
        .iter()
        .map(|&(t, lpn)| Request::new(t, lpn * 4096, 4096, Op::Read, 0))
        .collect();
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    let rows = out.requests.unwrap().latencies_by_arrival();
    (rows.into_iter().map(|(_, l)| l).collect(), out.summary.to_json())
}

#[test]
fn hard_decode_succeeds() {
    let (l, s) = run(0.004, "two-step", &[(0, 0)]);
    assert_eq!(l, vec![HARD]);
    assert_eq!(s["reliability"]["decoded_at_level"], serde_json::json!([1]));
    assert_eq!(s["reliability"]["rber_mean"], 0.004);
}

#[test]
fn two_step_eq1() {
    // Needs level 3 (0.008 < 0.0085 <= 0.009); two-step goes straight to all six levels:
    // hard path, then 6 x 14 µs sensing, 6 pages of soft data, one decode.
    let (l, s) = run(0.0085, "two-step", &[(0, 0)]);
    assert_eq!(l, vec![HARD + 6 * EXTRA + 6 * XFER + DEC]);
    assert_eq!(s["reliability"]["decoded_at_level"][6], 1);
    assert_eq!(s["reliability"]["retries"], 1);
}

#[test]
fn progressive_eq4() {
    // One more level per retry until level 3: three retries of (14 + 20.48 + 8) µs.
    let (l, _) = run(0.0085, "progressive", &[(0, 0)]);
    assert_eq!(l, vec![HARD + 3 * (EXTRA + XFER + DEC)]);
}

#[test]
fn look_ahead_eq2() {
    // Soft sensing starts when the hard sensing ends (the plane is idle), overlapping the
    // hard transfer and decode: 28.48 µs earlier than two-step.
    let (l, _) = run(0.0085, "look-ahead", &[(0, 0)]);
    assert_eq!(l, vec![T_R + 6 * EXTRA + 6 * XFER + DEC]);
}

#[test]
fn cancelled_look_ahead_holds_the_plane_until_the_decode() {
    // LPNs 0 and 32 share plane 0. The first read decodes hard at 69.48 µs; its speculative
    // soft sensing held the plane from 41 µs until then, so the second read (arriving at
    // 50 µs) senses from 69.48 µs.
    let (l, _) = run(0.004, "look-ahead", &[(0, 0), (50_000, 32)]);
    assert_eq!(l, vec![HARD, HARD + 69_480 - 50_000]);
    // Without look-ahead the second read starts sensing on arrival.
    let (l, _) = run(0.004, "two-step", &[(0, 0), (50_000, 32)]);
    assert_eq!(l, vec![HARD, HARD]);
}

#[test]
fn last_level_starts_where_the_block_last_decoded() {
    // 0.006 < 0.007 <= 0.008: level 2. The first read of LPN 0 finds no memo for its block
    // and escalates progressively (two retries). Read again, it starts at level 2: one
    // attempt sensing t_R + 2 extra levels, the hard page + 2 soft planes over the bus, one
    // decode. LPN 1 lies in another block (another plane): no memo there.
    let (l, s) = run(0.007, "last-level", &[(0, 0), (1_000_000, 0), (2_000_000, 1)]);
    let first = HARD + 2 * (EXTRA + XFER + DEC);
    assert_eq!(first, 154_440);
    assert_eq!(l, vec![first, T_R + 2 * EXTRA + 3 * XFER + DEC, first]);
    assert_eq!(T_R + 2 * EXTRA + 3 * XFER + DEC, 138_440);
    let r = &s["reliability"];
    assert_eq!(r["decoded_at_level"], serde_json::json!([0, 0, 3]));
    assert_eq!(r["retries"], 4);
    // Energy (001 §5.5): each read senses hard + 2 levels (2.4 + 2 x 0.7 µJ) and moves 3
    // pages (3 x 3.7 µJ); decodes: 3 + 1 + 3 (0.8 µJ each).
    let e = &s["energy_uj"];
    assert!((e["sense"].as_f64().unwrap() - 3.0 * (2.4 + 2.0 * 0.7)).abs() < 1e-9);
    assert!((e["transfer"].as_f64().unwrap() - 9.0 * 3.7).abs() < 1e-9);
    assert!((e["decode"].as_f64().unwrap() - 7.0 * 0.8).abs() < 1e-9);
    // Two-step would pay its full retry on every read.
    let (l, _) = run(0.007, "two-step", &[(0, 0), (1_000_000, 0)]);
    assert_eq!(l, vec![HARD + 6 * EXTRA + 6 * XFER + DEC; 2]);
}

/// Without ECC (`ecc.scheme = "none"`) no decoder runs: an idle read of an LSB page is
/// t_R + transfer = 41 + 20.48 = 61.48 µs, judged by an error model or not, with no decode
/// energy; BCH decodes one 4 KiB codeword (8 µs, 0.8 µJ).
#[test]
fn no_ecc_no_decode_time() {
    let read = |text: &str| {
        let cfg = SimConfig::from_toml_str(&format!("[aging]\nfill_fraction = 1.0\n{text}")).unwrap();
        let reqs = vec![Request::new(0, 0, 4096, Op::Read, 0)];
        let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
        (out.requests.unwrap().latency_ns[0], out.summary.energy_uj.decode)
    };
    assert_eq!(read(""), (T_R + XFER, 0.0));
    assert_eq!(T_R + XFER, 61_480);
    let judged = "[reliability]\nmodel = \"nominal\"\nnominal_rber = 1e-9\nerror_draw = \"expected\"\n";
    assert_eq!(read(judged), (T_R + XFER, 0.0));
    let bch = "[ecc]\nscheme = \"bch\"\n";
    assert_eq!(read(bch), (T_R + XFER + DEC, 0.8));
}

#[test]
fn past_the_last_level_is_uncorrectable() {
    let (l, s) = run(0.02, "two-step", &[(0, 0)]);
    assert_eq!(l, vec![HARD + 6 * EXTRA + 6 * XFER + DEC]);
    assert_eq!(s["reliability"]["uncorrectable_pages"], 1);
    // Energy (001 §5.5): hard sense 2.4 + 6 levels x 0.7 µJ; 7 pages x 3.7 µJ; 2 decodes x 0.8 µJ.
    let e = &s["energy_uj"];
    assert!((e["sense"].as_f64().unwrap() - (2.4 + 6.0 * 0.7)).abs() < 1e-9);
    assert!((e["transfer"].as_f64().unwrap() - 7.0 * 3.7).abs() < 1e-9);
    assert!((e["decode"].as_f64().unwrap() - 2.0 * 0.8).abs() < 1e-9);
}

#[test]
fn reads_racing_gc_are_judged_where_they_were_issued() {
    // A small full drive under a write-heavy mix: GC erases blocks while reads of their
    // old pages are still sensing. Every host page read is judged exactly once.
    let text = r#"
[device]
channels = 2
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 64
pages_per_block = 16
[ftl]
overprovisioning = 0.15
[reliability]
model = "nominal"
nominal_rber = 0.0055
[ecc]
scheme = "ldpc"
strategy = "progressive"
"#;
    let cfg = SimConfig::from_toml_str(text).unwrap();
    let sim = Simulator::new(cfg).unwrap();
    let pages = sim.logical_bytes() / 4096;
    let reqs: Vec<Request> = (0..20_000u64)
        .map(|i| {
            let h = nandlab_core::engine::rng::mix64(i);
            let op = if h.is_multiple_of(3) { Op::Read } else { Op::Write };
            Request::new(i * 1_000, (h >> 8) % (pages / 8) * 4096, 4096, op, 0)
        })
        .collect();
    let out = sim.run_requests(reqs).unwrap();
    let s = &out.summary.to_json();
    assert!(s["flash"]["gc_erases"].as_u64().unwrap() > 100);
    let host_reads = s["flash"]["page_reads_incl_gc"].as_u64().unwrap() - s["flash"]["gc_page_reads"].as_u64().unwrap();
    assert_eq!(s["reliability"]["page_reads"].as_u64().unwrap(), host_reads);
}

#[test]
fn data_stored_hot_ages_by_the_arrhenius_factor() {
    // The empirical 2y-nm MLC law at P/E 3000, one read (reads since erase = 1), data
    // 0.1 day old stored at 55 °C for a model fitted at 25 °C.
    let text = r#"
[aging]
initial_pe = 3000
retention_days = 0.1
storage_temperature_c = 55.0
model_temperature_c = 25.0
[reliability]
model = "empirical"
empirical_preset = "mlc-2y"
error_draw = "expected"
[ecc]
scheme = "ldpc"
"#;
    let summary = read_first_pages(text, 1);
    // AF = exp(E_A/k (1/T_model - 1/T_storage)), E_A = 1.1 eV, k = 8.617e-5 eV/K.
    let af = (1.1 / 8.617e-5 * (1.0 / 298.15 - 1.0 / 328.15f64)).exp();
    let t_days = 0.1 * af; // the 2y-nm MLC law takes days
    let hand = mlc_2y_law(3000.0, t_days, 1.0);
    let got = summary["reliability"]["rber_mean"].as_f64().unwrap();
    assert!((got - hand).abs() < 1e-12 * hand.max(1.0), "{got} vs {hand} (AF {af})");
    assert!(af > 40.0 && af < 60.0);
}

#[test]
fn each_page_of_a_request_counts_its_own_read_against_its_block() {
    // One plane: logical pages 0 and 1 sit in the same block, so one 2-page read judges
    // them at 1 and 2 reads since erase (the empirical 2y-nm MLC law at P/E 3000, data of
    // age 0: the retention term vanishes).
    let text = r#"
[device]
channels = 1
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 64
pages_per_block = 64
[aging]
initial_pe = 3000
retention_days = 0.0
[reliability]
model = "empirical"
empirical_preset = "mlc-2y"
error_draw = "expected"
[ecc]
scheme = "ldpc"
"#;
    let summary = read_first_pages(text, 2);
    let hand = (mlc_2y_law(3000.0, 0.0, 1.0) + mlc_2y_law(3000.0, 0.0, 2.0)) / 2.0;
    let got = summary["reliability"]["rber_mean"].as_f64().unwrap();
    assert!((got - hand).abs() < 1e-12 * hand, "{got} vs {hand}");
}

/// The summary of one read of logical pages `0..pages` at time 0 on the device of `text`.
fn read_first_pages(text: &str, pages: u64) -> Value {
    let cfg = SimConfig::from_toml_str(text).unwrap();
    let r = vec![Request::new(0, 0, pages * 4096, Op::Read, 0)];
    Simulator::new(cfg).unwrap().run_requests(r).unwrap().summary.to_json()
}

/// The 2y-nm MLC law by hand: ε + α·PE^k + β·PE^m·t^n + γ·PE^p·R^q (research/models.md
/// §2.1), t in days.
fn mlc_2y_law(pe: f64, t_days: f64, reads: f64) -> f64 {
    8.34e-5
        + 3.30e-11 * pe.powf(1.71)
        + 5.56e-19 * pe.powf(2.49) * t_days.powf(3.33)
        + 6.26e-13 * pe.powf(1.76) * reads.powf(0.47)
}
