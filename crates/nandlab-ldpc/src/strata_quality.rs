//! How far a stratified estimate ([`crate::stratified::combine`]) can be trusted: a
//! parametric bootstrap interval, and the share of the estimate that rests on strata with
//! few failures.
//!
//! * **Shares.** `ln f̂(w)` is interpolated between two failing strata `a`, `b` with
//!   weights `1 − t`, `t`; the contribution `P(W = w) f̂(w)` is split between them with the
//!   same weights (below the lowest failing stratum it all goes to that stratum, the line's
//!   anchor; above the highest, to the highest). A stratum's share is the sum of what it
//!   carries over the FER: with `f̂` of that stratum off by a factor `x`, the estimate is
//!   off by about `x^share`.
//! * **Rule.** Every stratum that carries more than [`MAX_THIN_SHARE`] of a row's estimate
//!   needs at least [`THIN_FAILURES`] failures (a Poisson count of 5 is uncertain by a
//!   factor 0.32 … 2.3 at 95 %; of 1, 0.025 … 5.6). And a thin lowest failing stratum must
//!   not hold the estimate up through the line below it: were it silent (its failures set
//!   to 0, which a stratum of one failure would be in 37 % of repeats), at most
//!   [`crate::table::MAX_MODELLED_SHARE`] of the estimate may become modelled (the hard
//!   rows at 6.5e-3 and 7e-3 carry ≤ 3 % on the one failure at w = 303, but without it the
//!   line from 306 runs nearly flat and most of them is modelled).
//! * **Support.** The strata a row leans on are those carrying more than
//!   [`MAX_THIN_SHARE`] and the lowest failing one where its silence would leave more than
//!   [`crate::table::MAX_MODELLED_SHARE`] modelled; the fewest failures among them is the
//!   row's `support_failures` (1: the row rests on one failure; where no stratum is leant
//!   on so, the failures of all of them). The rule above is exactly `support_failures ≥
//!   THIN_FAILURES`.
//! * **Interval.** Each stratum's failures are redrawn from `Binomial(frames, failures /
//!   frames)` and the estimate recomputed, [`RESAMPLES`] times; the 2.5 and 97.5 %
//!   quantiles are the interval. A stratum with no failure stays at 0 (the bootstrap
//!   cannot see what it missed, nor the slope model's error below the lowest failing
//!   stratum): the interval is the sampling error of the measured strata only.

use nandlab_core::engine::rng::{mix64, stream_rng};
use rand_distr::{Binomial, Distribution};
use serde::{Deserialize, Serialize};

use crate::stratified::{binomial_pmf, combine, Curve, Stratum};
use crate::table::MAX_MODELLED_SHARE;

/// Fewest failures of a stratum that carries more than [`MAX_THIN_SHARE`] of an estimate.
pub const THIN_FAILURES: u64 = 5;

/// Largest share of an estimate one stratum with fewer than [`THIN_FAILURES`] failures may
/// carry.
pub const MAX_THIN_SHARE: f64 = 0.1;

/// Bootstrap resamples per estimate.
pub const RESAMPLES: usize = 1000;

/// Seeds the bootstrap's stream (with the RBER's bits), so a table rebuilds byte for byte.
const BOOTSTRAP_SEED: u64 = 0x5354_5241_5441;

/// The bootstrap interval and thin-strata shares of a stratified estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StrataQuality {
    /// 2.5 % quantile of the bootstrap estimates.
    pub ci_lo: f64,
    /// 97.5 % quantile of the bootstrap estimates.
    pub ci_hi: f64,
    /// Share of the estimate carried by strata with fewer than [`THIN_FAILURES`] failures.
    pub thin_share: f64,
    /// The largest share one such stratum carries.
    pub thin_max_share: f64,
    /// Error count of that stratum (0 when none is thin).
    pub thin_max_errors: usize,
    /// The modelled share were the lowest failing stratum silent, when it is thin (0
    /// otherwise).
    pub anchor_modelled_share: f64,
    /// The fewest failures of a stratum the estimate leans on (module docs; absent in
    /// tables written before it, read as 0).
    #[serde(default)]
    pub support_failures: u64,
}

impl StrataQuality {
    /// Whether every stratum carrying more than [`MAX_THIN_SHARE`] has at least
    /// [`THIN_FAILURES`] failures.
    pub fn meets_rule(&self) -> bool {
        self.thin_max_share <= MAX_THIN_SHARE && self.anchor_modelled_share <= MAX_MODELLED_SHARE
    }
}

/// Each failing stratum's share of the estimate at RBER `p` for frames of `n` bits (see
/// the module documentation); `None` without a failing stratum.
pub fn shares(n: usize, p: f64, strata: &[Stratum], alpha: f64) -> Option<Vec<(Stratum, f64)>> {
    let curve = Curve::new(strata, alpha)?;
    let mut carried = vec![0.0; curve.failing().len()];
    let mut fer = 0.0;
    for (w, pw) in binomial_pmf(n, p)? {
        let c = pw * curve.point(w);
        let (a, b, t) = curve.basis(w);
        carried[a] += c * (1.0 - t);
        carried[b] += c * t;
        fer += c;
    }
    Some(
        curve
            .failing()
            .iter()
            .zip(carried)
            .map(|(s, c)| (*s, if fer > 0.0 { c / fer } else { 0.0 }))
            .collect(),
    )
}

/// The bootstrap interval and thin shares of the estimate at RBER `p`; `None` without a
/// failing stratum.
pub fn quality(n: usize, p: f64, strata: &[Stratum], alpha: f64) -> Option<StrataQuality> {
    let shares = shares(n, p, strata, alpha)?;
    let thin = shares.iter().filter(|(s, _)| s.failures < THIN_FAILURES);
    let thin_share = thin.clone().fold(0.0, |a, x| a + x.1);
    let (thin_max_errors, thin_max_share) = thin
        .map(|(s, sh)| (s.errors, *sh))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0, 0.0));
    let lowest = shares[0].0;
    let silent: Vec<Stratum> = strata
        .iter()
        .map(|s| match s.errors == lowest.errors {
            true => Stratum::new(s.errors, s.frames, 0),
            false => *s,
        })
        .collect();
    // Nothing left failing: all of it would be unmeasured.
    let silenced = combine(n, p, &silent, alpha).map_or(1.0, |e| e.modelled_share);
    let anchor_modelled_share = if lowest.failures < THIN_FAILURES { silenced } else { 0.0 };
    let leans_on = |s: &Stratum, share: f64| {
        share > MAX_THIN_SHARE || (s.errors == lowest.errors && silenced > MAX_MODELLED_SHARE)
    };
    let support_failures = shares
        .iter()
        .filter(|(s, sh)| leans_on(s, *sh))
        .map(|(s, _)| s.failures)
        .min()
        // Spread so thin that no stratum carries more than 10 %: it leans on them all.
        .unwrap_or_else(|| shares.iter().map(|(s, _)| s.failures).sum());
    let pmf = binomial_pmf(n, p)?;
    let mut rng = stream_rng(BOOTSTRAP_SEED, mix64(p.to_bits()));
    let mut fers: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let redrawn: Vec<Stratum> = strata
                .iter()
                .map(|s| {
                    let failures = if s.failures == 0 || s.failures == s.frames {
                        s.failures
                    } else {
                        Binomial::new(s.frames, s.failures as f64 / s.frames as f64)
                            .expect("0 < p < 1")
                            .sample(&mut rng)
                    };
                    Stratum::new(s.errors, s.frames, failures)
                })
                .collect();
            Curve::new(&redrawn, alpha).map_or(0.0, |c| pmf.iter().map(|&(w, pw)| pw * c.point(w)).sum())
        })
        .collect();
    fers.sort_by(f64::total_cmp);
    let q = |x: f64| fers[((x * RESAMPLES as f64) as usize).min(RESAMPLES - 1)];
    Some(StrataQuality {
        ci_lo: q(0.025),
        ci_hi: q(0.975),
        thin_share,
        thin_max_share,
        thin_max_errors,
        anchor_modelled_share,
        support_failures,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stratified::combine;

    use Stratum as S;

    #[test]
    fn shares_split_between_the_strata_around_each_error_count() {
        // p = 1 puts all mass on W = n. n = 15 between strata at 10 and 20: t = 1/2, so
        // each carries half; n = 5, below the lowest: all on it; n = 25, above: the top.
        let strata = [S::new(10, 1000, 10), S::new(20, 1000, 100), S::new(30, 10, 0)];
        let sh = |n: usize| shares(n, 1.0, &strata, 0.05).unwrap();
        let s = sh(15);
        assert_eq!(s.len(), 2, "the silent stratum carries nothing");
        assert!((s[0].1 - 0.5).abs() < 1e-12 && (s[1].1 - 0.5).abs() < 1e-12, "{s:?}");
        assert_eq!(sh(5).iter().map(|x| x.1).collect::<Vec<_>>(), vec![1.0, 0.0]);
        assert_eq!(sh(25).iter().map(|x| x.1).collect::<Vec<_>>(), vec![0.0, 1.0]);
        // Spread over many error counts the shares still add up to 1.
        let s = shares(40, 0.3, &strata, 0.05).unwrap();
        assert!((s.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn thin_strata_and_the_rule() {
        // All mass at w = 13 (p = 1, n = 13): 0.7 on the stratum at 10 (3 failures, thin),
        // 0.3 on the one at 20 (100 failures).
        let strata = [S::new(10, 1000, 3), S::new(20, 1000, 100)];
        let q = quality(13, 1.0, &strata, 0.05).unwrap();
        assert!((q.thin_share - 0.7).abs() < 1e-12 && q.thin_max_errors == 10, "{q:?}");
        assert!(!q.meets_rule() && q.support_failures == 3, "{q:?}");
        // With 5 failures at 10 nothing is thin.
        let strata = [S::new(10, 1000, 5), S::new(20, 1000, 100)];
        let q = quality(13, 1.0, &strata, 0.05).unwrap();
        assert!(
            q.thin_share == 0.0 && q.anchor_modelled_share == 0.0 && q.meets_rule() && q.support_failures == 5,
            "{q:?}"
        );
        // Strata at every w = 1…200, each 2 failures in 1,000 (f flat), frames of n = 200 at
        // p = 1/2: a stratum carries its own Binomial(200, 1/2) mass, at most 0.056, so none
        // is leant on alone (silencing w = 1 models only P(W ≤ 1) ≈ 1e-58): the row leans on
        // all 200 together, 400 failures.
        let strata: Vec<S> = (1..=200).map(|w| S::new(w, 1000, 2)).collect();
        let q = quality(200, 0.5, &strata, 0.05).unwrap();
        assert!(q.support_failures == 400 && q.meets_rule(), "{q:?}");
    }

    #[test]
    fn a_thin_anchor_that_holds_the_estimate_up_breaks_the_rule() {
        // Mass at w = 11 (p = 1, n = 11) between a thin stratum at 10 (1 failure) and 12:
        // were 10 silent, 11 would lie below the lowest failing stratum, all modelled.
        let strata = [S::new(10, 1000, 1), S::new(12, 1000, 100), S::new(20, 1000, 500)];
        let q = quality(11, 1.0, &strata, 0.05).unwrap();
        assert_eq!(q.anchor_modelled_share, 1.0, "{q:?}");
        // It carries half (t = 1/2 between 10 and 12): the row rests on one failure.
        assert_eq!(q.support_failures, 1, "{q:?}");
        // The same as combine's on the strata with 10 silent, at a spread-out RBER.
        let silent = [S::new(10, 1000, 0), strata[1], strata[2]];
        let q = quality(20, 0.5, &strata, 0.05).unwrap();
        let want = combine(20, 0.5, &silent, 0.05).unwrap().modelled_share;
        assert!(want > 0.0 && q.anchor_modelled_share == want, "{q:?} vs {want}");
        // The rule fails on either part.
        let ok = StrataQuality {
            ci_lo: 0.0,
            ci_hi: 1.0,
            thin_share: 0.05,
            thin_max_share: 0.05,
            thin_max_errors: 10,
            anchor_modelled_share: 0.1,
            support_failures: 5,
        };
        assert!(ok.meets_rule());
        assert!(!StrataQuality {
            anchor_modelled_share: 0.11,
            ..ok
        }
        .meets_rule());
        assert!(!StrataQuality {
            thin_max_share: 0.11,
            ..ok
        }
        .meets_rule());
    }

    #[test]
    fn the_bootstrap_interval_of_one_stratum_is_the_binomial_spread() {
        // One stratum holding all the mass: the estimate is its failures / frames, so the
        // bootstrap quantiles are those of Binomial(10⁴, 0.01) / 10⁴: by summing its pmf,
        // the 2.5 % quantile is 81 and the 97.5 % one 120 failures. With 1000 resamples a
        // quantile's standard error is about sqrt(0.025 · 0.975 / 1000) / pmf (≈ 0.006 per
        // failure there) ≈ 0.8 failures: allow 4 (4e-4).
        let strata = [S::new(7, 10_000, 100)];
        let q = quality(7, 1.0, &strata, 0.05).unwrap();
        let e = combine(7, 1.0, &strata, 0.05).unwrap();
        assert!((e.fer - 0.01).abs() < 1e-15);
        assert!(
            (q.ci_lo - 8.1e-3).abs() <= 4e-4 && (q.ci_hi - 1.2e-2).abs() <= 4e-4,
            "{q:?}"
        );
        assert!(q.thin_share == 0.0 && q.thin_share.is_sign_positive(), "{q:?}");
        // Same input, same interval (the table rebuilds byte for byte).
        assert_eq!(quality(7, 1.0, &strata, 0.05), Some(q));
    }
}
