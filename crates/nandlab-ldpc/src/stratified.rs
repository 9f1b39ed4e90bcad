//! FER far below what plain Monte Carlo reaches: stratify frames by their number of hard
//! errors.
//!
//! With `W ~ Binomial(n, p)` the hard errors of a frame at RBER `p` and `f(w)` the failure
//! probability of a frame holding exactly `w` errors (`conditioned.rs`),
//!
//! ```text
//! FER(p) = Σ_w P(W = w) · f(w)
//! ```
//!
//! exactly. `f(w)` is measured by Monte Carlo on frames with `w` errors, where it is large
//! (the decoder's waterfall in `w`), and the binomial weights, computed exactly, carry it
//! to RBERs where the mean error count `n·p` is far below the waterfall: a point with
//! FER 1e-9 needs `f` only where `P(W = w) · f(w)` peaks, typically at `f` ≈ 1e-3 … 1e-5,
//! instead of ~1e10 frames.
//!
//! How the strata combine ([`combine`]):
//! * **point estimate**: `f̂` is interpolated geometrically between strata that saw
//!   failures; below the lowest of them it is extended with the log-slope from it to the
//!   first failing stratum above with a higher rate (in the waterfall `ln f(w)` bends down
//!   as `w` falls, so the line over-estimates), capped by the upper bound below (a stratum
//!   that saw no failure caps it); the share of the estimate that comes from that extension
//!   is reported (`modelled_share`) — a point is measured when it is small;
//! * **upper bound**: `f(w)` does not fall as errors are added (a monotone decoder), so
//!   `f(w) ≤ hi(w_j)` for every stratum `w_j ≥ w`, with `hi` the stratum's one-sided
//!   Clopper–Pearson bound; above the highest stratum `f ≤ 1`. Summing per-stratum bounds
//!   is conservative (each holds at its own level);
//! * **lower bound**, likewise: `f(w) ≥ lo(w_j)` for every stratum `w_j ≤ w` (0 below the
//!   lowest stratum).

use nandlab_core::engine::rng::mix64;
use serde::{Deserialize, Serialize};
use statrs::distribution::{Binomial, Discrete};

use crate::channel::CosetLaw;
use crate::code::QcCode;
use crate::conditioned::ConditionedChannel;
use crate::decoder::DecoderConfig;
use crate::frames::{FrameSetup, Pipeline, Tally};
use crate::stats::clopper_pearson;

/// Frames with one error count and how many failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stratum {
    /// Hard errors per frame.
    pub errors: usize,
    /// Frames simulated.
    pub frames: u64,
    /// Frames the decoder failed.
    pub failures: u64,
}

impl Stratum {
    /// `failures` of `frames` frames with `errors` errors failed.
    pub fn new(errors: usize, frames: u64, failures: u64) -> Self {
        Self {
            errors,
            frames,
            failures,
        }
    }

    pub(crate) fn fer(&self) -> f64 {
        self.failures as f64 / self.frames as f64
    }
}

/// The FER at one RBER from a set of strata.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StratifiedEstimate {
    /// The RBER the strata are weighted at.
    pub rber: f64,
    /// Point estimate.
    pub fer: f64,
    /// Conservative lower bound (see the module documentation).
    pub fer_lo: f64,
    /// Conservative upper bound (see the module documentation).
    pub fer_hi: f64,
    /// Share of `fer` from error counts below the lowest failing stratum (modelled).
    pub modelled_share: f64,
}

/// Combines `strata` (any order, distinct error counts) into the FER of frames of `n` bits
/// at RBER `p`; `alpha`: each stratum's bound is its one-sided `1 − alpha` Clopper–Pearson
/// bound. `None` without a stratum that failed.
pub fn combine(n: usize, p: f64, strata: &[Stratum], alpha: f64) -> Option<StratifiedEstimate> {
    let curve = Curve::new(strata, alpha)?;
    let pmf = binomial_pmf(n, p)?;
    let (mut fer, mut lo, mut hi, mut modelled) = (0.0, 0.0, 0.0, 0.0);
    for &(w, pw) in &pmf {
        let f = curve.point(w);
        fer += pw * f;
        lo += pw * curve.lo(w);
        hi += pw * curve.hi(w);
        if w < curve.lowest().errors {
            modelled += pw * f;
        }
    }
    Some(StratifiedEstimate {
        rber: p,
        fer,
        fer_lo: lo,
        fer_hi: hi.min(1.0),
        modelled_share: if fer > 0.0 { modelled / fer } else { 0.0 },
    })
}

/// `P(W = w)` for `W ~ Binomial(n, p)`, the error counts where it is not 0 (in `f64`).
pub(crate) fn binomial_pmf(n: usize, p: f64) -> Option<Vec<(usize, f64)>> {
    let binom = Binomial::new(p, n as u64).ok()?;
    Some(
        (0..=n)
            .map(|w| (w, binom.pmf(w as u64)))
            .filter(|&(_, pw)| pw != 0.0)
            .collect(),
    )
}

/// `f̂(w)` and its bounds from a set of strata (see the module documentation).
pub(crate) struct Curve {
    /// Strata with frames, by error count.
    strata: Vec<Stratum>,
    /// The failing ones among them.
    failing: Vec<Stratum>,
    /// ln f per extra error below the lowest failing stratum.
    slope: f64,
    /// Error count and one-sided upper bound of each stratum, and the suffix minima.
    his: Vec<(usize, f64)>,
    suffix_min: Vec<f64>,
    /// Prefix maxima of the strata's one-sided lower bounds.
    prefix_max: Vec<f64>,
}

impl Curve {
    /// `None` without a failing stratum.
    pub(crate) fn new(strata: &[Stratum], alpha: f64) -> Option<Self> {
        let mut s: Vec<Stratum> = strata.iter().copied().filter(|s| s.frames > 0).collect();
        s.sort_by_key(|s| s.errors);
        let failing: Vec<Stratum> = s.iter().copied().filter(|s| s.failures > 0).collect();
        let lowest = *failing.first()?;
        // ln f per extra error below the lowest failing stratum: towards the first failing
        // stratum above it with a higher rate (the lowest strata often hold one failure
        // each, and a flat pair says nothing about f below them); ∞, nothing below, when
        // none is.
        let slope = match failing.iter().find(|s| s.fer() > lowest.fer()) {
            Some(next) => (next.fer().ln() - lowest.fer().ln()) / (next.errors - lowest.errors) as f64,
            None => f64::INFINITY,
        };
        // Bounds are one-sided, so `clopper_pearson` gets 2·alpha.
        let cp: Vec<(f64, f64)> = s
            .iter()
            .map(|s| clopper_pearson(s.failures, s.frames, 2.0 * alpha))
            .collect();
        let his: Vec<(usize, f64)> = s.iter().zip(&cp).map(|(s, b)| (s.errors, b.1)).collect();
        let mut suffix_min = vec![1.0; his.len() + 1];
        for i in (0..his.len()).rev() {
            suffix_min[i] = his[i].1.min(suffix_min[i + 1]);
        }
        let mut prefix_max = vec![0.0f64; s.len() + 1];
        for (i, b) in cp.iter().enumerate() {
            prefix_max[i + 1] = prefix_max[i].max(b.0);
        }
        Some(Curve {
            strata: s,
            failing,
            slope,
            his,
            suffix_min,
            prefix_max,
        })
    }

    /// The lowest failing stratum.
    pub(crate) fn lowest(&self) -> Stratum {
        self.failing[0]
    }

    /// The failing strata, by error count.
    pub(crate) fn failing(&self) -> &[Stratum] {
        &self.failing
    }

    /// Upper bound on `f(w)`: the smallest bound of the strata at or above `w`.
    fn hi(&self, w: usize) -> f64 {
        self.suffix_min[self.his.partition_point(|&(e, _)| e < w)]
    }

    /// Lower bound on `f(w)`: the largest bound of the strata at or below `w`.
    fn lo(&self, w: usize) -> f64 {
        self.prefix_max[self.strata.partition_point(|st| st.errors <= w)]
    }

    /// The failing strata `f̂(w)` rests on: indices `a ≤ b` into [`Curve::failing`] and the
    /// weight `t` of `b` in `ln f̂(w) = (1 − t) ln f_a + t ln f_b` (below the lowest failing
    /// stratum, the lowest alone: the line is anchored there; above the highest, the
    /// highest).
    pub(crate) fn basis(&self, w: usize) -> (usize, usize, f64) {
        let i = self.failing.partition_point(|s| s.errors <= w);
        if i == 0 {
            return (0, 0, 0.0);
        }
        let a = &self.failing[i - 1];
        match self.failing.get(i) {
            None => (i - 1, i - 1, 0.0),
            Some(b) => (i - 1, i, (w - a.errors) as f64 / (b.errors - a.errors) as f64),
        }
    }

    /// The point estimate `f̂(w)`.
    pub(crate) fn point(&self, w: usize) -> f64 {
        let lowest = self.lowest();
        if w < lowest.errors {
            // The line, but never above what the strata at or above `w` allow.
            return (lowest.fer().ln() - self.slope * (lowest.errors - w) as f64)
                .exp()
                .min(self.hi(w));
        }
        let (a, b, t) = self.basis(w);
        let (a, b) = (&self.failing[a], &self.failing[b]);
        if t == 0.0 && a.errors == b.errors {
            return a.fer();
        }
        (a.fer().ln() * (1.0 - t) + b.fer().ln() * t).exp()
    }
}

/// How [`measure`] walks the error counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StratifiedConfig {
    /// Most frames per stratum.
    pub max_frames: u64,
    /// A stratum stops once this many frames failed.
    pub min_failures: u64,
    /// Frames per run between stopping checks.
    pub batch: u64,
    /// Error counts between strata.
    pub step: usize,
    /// Most strata measured.
    pub max_strata: usize,
}

impl Default for StratifiedConfig {
    fn default() -> Self {
        Self {
            max_frames: 20_000,
            min_failures: 20,
            batch: 256,
            step: 6,
            max_strata: 40,
        }
    }
}

/// Frames of `code` holding exactly `w` errors of `law` (`ConditionedChannel`), run in
/// rounds of `batch` until `min_failures` failed or `max_frames` ran. The frames come from
/// streams of `seed` and `w` only, so two laws that look alike to the decoder
/// (`InputLaw::same`) give the same frames for the same seed: runs pooled together need
/// distinct seeds.
#[allow(clippy::too_many_arguments)]
pub fn measure_stratum(
    code: &QcCode,
    law: &CosetLaw,
    decoder: DecoderConfig,
    seed: u64,
    w: usize,
    min_failures: u64,
    max_frames: u64,
    batch: u64,
) -> Stratum {
    let n = code.n();
    let ch = ConditionedChannel::new(law, n, w).expect("the law has both kinds of outcome");
    let setup = FrameSetup {
        code,
        encoder: None,
        channel: &ch,
        decoder,
        pipeline: Pipeline::Coset,
        stream_seed: mix64(seed ^ mix64(w as u64)),
    };
    let mut t = Tally::default();
    while t.frames < max_frames && t.failures < min_failures {
        let count = batch.max(1).min(max_frames - t.frames);
        t = t.merge(setup.run(t.frames, count));
    }
    Stratum::new(w, t.frames, t.failures)
}

/// Measures strata of the all-zero-view law `law` on `code`: first up from the mean error
/// count `n·p` in steps of `cfg.step` until frames nearly always fail (≥ 90 % of 64), then
/// down from there in the same steps, each stratum until `cfg.min_failures` failures or
/// `cfg.max_frames` frames, until a stratum sees no failure (it then caps everything
/// below, see [`combine`]) or `cfg.max_strata` were measured; then every error count
/// between the last failing stratum and that silent one, downwards until one is silent.
/// Stratum `w` draws its frames from streams of `seed` and `w` only.
pub fn measure(
    code: &QcCode,
    law: &CosetLaw,
    decoder: DecoderConfig,
    seed: u64,
    cfg: &StratifiedConfig,
) -> Vec<Stratum> {
    let n = code.n();
    let mean = (n as f64 * law.error_probability()).round() as usize;
    let run = |w: usize, min_failures: u64, max_frames: u64| {
        measure_stratum(code, law, decoder, seed, w, min_failures, max_frames, cfg.batch)
    };
    let step = cfg.step.max(1);
    let mut top = mean.max(1);
    while top < n && run(top, 58, 64).failures < 58 {
        top += step;
    }
    let mut strata = Vec::new();
    let mut w = top.min(n);
    while strata.len() < cfg.max_strata {
        let s = run(w, cfg.min_failures, cfg.max_frames);
        strata.push(s);
        if s.failures == 0 || w < step {
            break;
        }
        w -= step;
    }
    // Between the last failing stratum and the silent one below it, fill in the error
    // counts one by one (downwards, until one is silent): that is where the estimate
    // would otherwise be modelled.
    if let [.., above, silent] = strata[..] {
        if silent.failures == 0 && above.failures > 0 {
            strata.pop();
            for w in (silent.errors + 1..above.errors).rev() {
                let s = run(w, cfg.min_failures, cfg.max_frames);
                strata.push(s);
                if s.failures == 0 {
                    break;
                }
            }
            if strata.last().is_some_and(|s| s.failures > 0) {
                strata.push(silent);
            }
        }
    }
    strata
}

#[cfg(test)]
mod tests {
    use super::*;

    use Stratum as S;

    #[test]
    fn a_t_error_correcting_decoder_gives_the_binomial_tail() {
        // f(w) = 0 for w ≤ 3 and 1 above: FER = P(W ≥ 4) for W ~ Bin(20, 0.1)
        // = 1 − Σ_{w≤3} C(20,w) 0.1^w 0.9^(20−w) = 1 − 0.8670466 = 0.1329534.
        let strata: Vec<Stratum> = (4..=20)
            .map(|w| S::new(w, 100, 100))
            .chain([S::new(3, 1000, 0)])
            .collect();
        let e = combine(20, 0.1, &strata, 0.05).unwrap();
        assert!((e.fer - 0.132_953_4).abs() < 1e-6, "{e:?}");
        assert_eq!(e.modelled_share, 0.0, "no failing stratum below 4");
        // The bound adds P(W ≤ 3) · hi(3) with hi(3) = 1 − 0.05^(1/1000) = 2.9912e-3
        // (zero of 1000 frames, one-sided 95 %).
        assert!(
            (e.fer_hi - (0.132_953_4 + 0.867_046_6 * 2.9912e-3)).abs() < 1e-6,
            "{e:?}"
        );
        // The lower bound: f(w) ≥ lo(4) = 0.05^(1/100) = 0.9704869 (100 of 100 failed,
        // one-sided 95 %) for w ≥ 4, and 0 below the lowest stratum's lo (0 of 1000).
        assert!((e.fer_lo - 0.132_953_4 * 0.970_486_9).abs() < 1e-6, "{e:?}");
    }

    #[test]
    fn geometric_between_strata_and_the_slope_below() {
        // f(10) = 0.01, f(20) = 0.1 (a decade per 10 errors): f(15) = 10^-1.5 between them
        // and f(5) = 10^-2.5 on the extended line. p = 1 puts all mass on W = n, so
        // n = 15 and n = 5 read f there.
        let strata = [S::new(10, 1000, 10), S::new(20, 1000, 100)];
        let e = combine(15, 1.0, &strata, 0.05).unwrap();
        assert!((e.fer - 10f64.powf(-1.5)).abs() < 1e-12, "{e:?}");
        assert_eq!(e.modelled_share, 0.0);
        let e = combine(5, 1.0, &strata, 0.05).unwrap();
        assert!((e.fer - 10f64.powf(-2.5)).abs() < 1e-12, "{e:?}");
        assert_eq!(e.modelled_share, 1.0);
        // The bound at w = 5 and 15 is the stratum above's: hi(10) and hi(20).
        let hi10 = clopper_pearson(10, 1000, 0.1).1;
        assert!((e.fer_hi - hi10).abs() < 1e-12);
    }

    #[test]
    fn a_flat_lowest_pair_takes_the_slope_to_the_first_higher_stratum() {
        // f(10) = f(11) = 1e-3 (one failure each), f(14) = 4e-3: below 10 the line falls by
        // ln 4 per 4 errors, so f(6) = 1e-3 / 4 (not 0, as a slope from the flat pair would
        // say), all of it modelled; the cap, hi(10) ≈ 4.7e-3, is above it.
        let strata = [S::new(10, 1000, 1), S::new(11, 1000, 1), S::new(14, 1000, 4)];
        let e = combine(6, 1.0, &strata, 0.05).unwrap();
        assert!((e.fer - 2.5e-4).abs() < 1e-15, "{e:?}");
        assert_eq!(e.modelled_share, 1.0);
    }

    #[test]
    fn nothing_failed_gives_none() {
        assert!(combine(100, 0.01, &[S::new(5, 100, 0)], 0.05).is_none());
    }
}
