//! Seed 001 (LDPC-in-SSD) at 10,000 P/E: the calibrated chip profile of
//! `configs/001_ldpc_in_ssd.toml` gives §5's hard-decision failure probability of 28.8 %
//! under the shipped FER table, both as the profile's expectation and over the device's
//! own block draws.

use nandlab_core::ecc::config::SHIPPED_FER_TABLE;
use nandlab_core::ecc::FerCurves;
use nandlab_core::SimConfig;
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
