//! The error-count stratified FER (`stratified.rs`) against plain Monte Carlo on a code
//! small enough to measure every error count: Σ_w P(W = w)·f̂(w) must equal the FER of
//! unconditioned frames within the latter's statistical error.

use nandlab_ldpc::stats::two_proportion_z;
use nandlab_ldpc::stratified::{combine, measure};
use nandlab_ldpc::*;

/// Array code Z = 7, J = 3, L = 7 (n = 49, girth 6), shift(i, j) = i·j mod 7.
fn array7() -> QcCode {
    let t: Vec<Vec<u32>> = (0..3).map(|i| (0..7).map(|j| (i * j) % 7).collect()).collect();
    QcCode::from_full_shifts(7, &t).unwrap()
}

fn direct(code: &QcCode, ch: &dyn Channel, frames: u64) -> Tally {
    FrameSetup {
        code,
        encoder: None,
        channel: ch,
        decoder: DecoderConfig::default(),
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
    let est = agrees_with_plain_monte_carlo(&code, p, &strata);
    assert!(est.fer_hi >= est.fer && est.fer_hi < 1.3 * est.fer, "{est:?}");
}

/// The strata's estimate at RBER `p` against 40,000 plain frames: a pooled two-proportion
/// z test with the estimate counted as 40,000 frames (its own error is far smaller), and
/// little of it modelled below the strata.
fn agrees_with_plain_monte_carlo(code: &QcCode, p: f64, strata: &[Stratum]) -> StratifiedEstimate {
    let est = combine(code.n(), p, strata, 0.05).unwrap();
    let plain = direct(code, &BscChannel::new(p), 40_000);
    let z = two_proportion_z(
        plain.failures,
        plain.frames,
        (est.fer * 40_000.0).round() as u64,
        40_000,
    );
    assert!(z.abs() < 3.29, "plain {plain:?} vs stratified {est:?}: z = {z}");
    assert!(est.modelled_share < 0.05, "{est:?}");
    est
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
    agrees_with_plain_monte_carlo(&code, 0.02, &strata);
}
