//! The error-count stratified FER (`stratified.rs`) against plain Monte Carlo on a code
//! small enough to measure every error count: Σ_w P(W = w)·f̂(w) must equal the FER of
//! unconditioned frames within the latter's statistical error.

use nandlab_ldpc::input_law::InputLaw;
use nandlab_ldpc::stats::two_proportion_z;
use nandlab_ldpc::strata_run::StrataRun;
use nandlab_ldpc::stratified::{combine, measure, measure_stratum};
use nandlab_ldpc::*;

/// Array code Z = 7, J = 3, L = 7 (n = 49, girth 6), shift(i, j) = i·j mod 7.
fn array7() -> QcCode {
    let t: Vec<Vec<u32>> = (0..3).map(|i| (0..7).map(|j| (i * j) % 7).collect()).collect();
    QcCode::from_full_shifts(7, &t).unwrap()
}

fn direct(code: &QcCode, ch: &dyn Channel, decoder: DecoderConfig, frames: u64) -> Tally {
    FrameSetup {
        code,
        encoder: None,
        channel: ch,
        decoder,
        pipeline: Pipeline::Coset,
        stream_seed: 77,
    }
    .run(0, frames)
}

#[test]
fn strata_over_every_error_count_reproduce_plain_monte_carlo() {
    let code = array7();
    let p = 0.06;
    let ch = BscChannel::new(p);
    let law = ch.coset_law().expect("a BSC is the same at every position");
    let strata: Vec<Stratum> = (0..=12)
        .map(|w| {
            let t = direct(
                &code,
                &conditioned::ConditionedChannel::new(&law, code.n(), w).unwrap(),
                DecoderConfig::default(),
                4000,
            );
            Stratum {
                errors: w,
                frames: t.frames,
                failures: t.failures,
            }
        })
        .collect();
    // A single error is always corrected (girth 6, one iteration: fixed.rs's hand case).
    assert_eq!(strata[0].failures + strata[1].failures, 0);
    assert!(strata[12].failures > 3000, "{:?}", strata[12]);
    let est = combine(code.n(), p, &strata, 0.05).unwrap();
    agrees_with_plain_monte_carlo(&code, p, DecoderConfig::default(), &est);
    assert!(est.fer_lo <= est.fer, "{est:?}");
    assert!(est.fer_hi >= est.fer && est.fer_hi < 1.3 * est.fer, "{est:?}");
}

/// A stratified estimate at RBER `p` against 40,000 plain frames of `decoder`: a pooled
/// two-proportion z test with the estimate counted as 40,000 frames (its own error is far
/// smaller), and little of it modelled below the strata.
fn agrees_with_plain_monte_carlo(code: &QcCode, p: f64, decoder: DecoderConfig, est: &StratifiedEstimate) {
    let plain = direct(code, &BscChannel::new(p), decoder, 40_000);
    let z = two_proportion_z(
        plain.failures,
        plain.frames,
        (est.fer * 40_000.0).round() as u64,
        40_000,
    );
    assert!(z.abs() < 3.29, "plain {plain:?} vs stratified {est:?}: z = {z}");
    assert!(est.modelled_share < 0.05, "{est:?}");
}

#[test]
fn the_walk_brackets_the_waterfall() {
    // From the mean (49 · 0.02 ≈ 1) up until ≥ 58 of 64 frames fail, then down in steps
    // of 2 until a stratum sees no failure: strata descend, the first nearly always
    // fails, the last (below the waterfall) never does, and they give plain Monte
    // Carlo's FER.
    let code = array7();
    let law = BscChannel::new(0.02).coset_law().unwrap();
    let cfg = StratifiedConfig {
        max_frames: 2000,
        min_failures: 20,
        batch: 200,
        step: 2,
        max_strata: 20,
    };
    let strata = measure(&code, &law, DecoderConfig::default(), 5, &cfg);
    let steps: Vec<usize> = strata.windows(2).map(|s| s[0].errors - s[1].errors).collect();
    assert!(steps.iter().all(|&d| d == 1 || d == 2), "{strata:?}");
    assert!(strata[0].failures as f64 >= 0.5 * strata[0].frames as f64, "{strata:?}");
    let last = strata.last().unwrap();
    assert!(last.failures == 0 || last.errors < 2, "{strata:?}");
    let est = combine(code.n(), 0.02, &strata, 0.05).unwrap();
    agrees_with_plain_monte_carlo(&code, 0.02, DecoderConfig::default(), &est);
}

#[test]
fn strata_pooled_at_one_rber_serve_another_of_the_same_8_bit_law() {
    // BSC LLRs ln(0.945/0.055) = 2.844 and ln(0.935/0.065) = 2.666 both quantise to ±11
    // (×4 = 11.38, 10.66): the 8-bit decoder sees the same frames given w at p = 0.055
    // and 0.065. Strata measured at 0.055 with two seeds, pooled, must give plain Monte
    // Carlo's FER at 0.065; p = 0.075 (ln(0.925/0.075) · 4 = 10.05 → ±10) is refused.
    let code = array7();
    let decoder = DecoderConfig {
        arithmetic: Arithmetic::Fixed8 { llr_scale: 4.0 },
        ..DecoderConfig::default()
    };
    let law = BscChannel::new(0.055).coset_law().unwrap();
    let run = |seed: u64| StrataRun {
        level: 0,
        decoder,
        input_law: InputLaw::new(&law, decoder.arithmetic),
        seeds: vec![seed],
        strata: (0..=14)
            .map(|w| measure_stratum(&code, &law, decoder, seed, w, u64::MAX, 2000, 500))
            .collect(),
        wall_s: 0.0,
        device: None,
    };
    let mut pooled = run(1);
    pooled.pool(run(2)).unwrap();
    assert!(pooled.strata.iter().all(|s| s.frames == 4000));
    let other = BscChannel::new(0.065).coset_law().unwrap();
    let est = pooled.estimate(code.n(), &other, 0.05).unwrap();
    agrees_with_plain_monte_carlo(&code, 0.065, decoder, &est);
    assert!(pooled
        .estimate(code.n(), &BscChannel::new(0.075).coset_law().unwrap(), 0.05)
        .is_err());
}

#[test]
fn on_the_real_channel_only_hard_reads_share_an_8_bit_law_across_points() {
    // The table's channel (MSB page, one year): at hard decision ×4 rounds the LLRs to
    // −20 / +20 at RBER 6.5e-3 and 7e-3 (docs/ldpc.md §4), to −19 / +20 at 7.5e-3 and to
    // −20 / +21 at 6e-3; soft reads (k = 2) differ between any two points, for either
    // decoder.
    let model =
        nandlab_core::reliability::vth::VthModel::new(nandlab_core::reliability::vth::VthParams::dong_mlc()).unwrap();
    let base = CalibrationConfig::default();
    let law = |k: usize, rber: f64, arithmetic: Arithmetic| {
        let point = OperatingPoint {
            page: base.page,
            pe: calibrate::pe_for_rber(&model, base.page, base.retention_s, rber),
            retention_s: base.retention_s,
        };
        let ch = MlcChannel::new(&model, point, k, &base.placement, base.sampling);
        InputLaw::new(&ch.coset_law().unwrap(), arithmetic)
    };
    let q = Arithmetic::Fixed8 { llr_scale: 4.0 };
    let hard = law(0, 7e-3, q);
    assert_eq!(
        (hard.err.clone(), hard.ok.clone()),
        (vec![(-20.0, 1.0)], vec![(20.0, 1.0)])
    );
    assert!(hard.same(&law(0, 6.5e-3, q)));
    assert!(!hard.same(&law(0, 7.5e-3, q)) && !hard.same(&law(0, 6e-3, q)));
    for a in [q, Arithmetic::F32] {
        assert!(!law(2, 1.6e-2, a).same(&law(2, 1.65e-2, a)));
    }
}
