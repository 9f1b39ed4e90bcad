//! Frames with exactly `w` hard-decision errors, for the error-count stratified FER
//! estimate (`stratified.rs`).
//!
//! In the all-zero view every code bit is an independent draw from one outcome law
//! ([`CosetLaw`]: a cell's level and sensed region), and each outcome either is a hard
//! error or is not. Given that a frame of `n` bits holds exactly `W = w` errors, the error
//! positions are a uniformly random `w`-subset, each erroneous bit's outcome follows the law
//! restricted to error outcomes and every other bit's the law restricted to correct ones —
//! this is exactly the frame law conditioned on `W = w`, with `W ~ Binomial(n, p)` and `p`
//! the law's error probability. So `FER = Σ_w P(W = w) · f(w)` with `f(w)` the failure
//! probability of these frames.

use nandlab_core::engine::rng::SimRng;
use rand::RngCore;

use crate::alias::AliasTable;
use crate::channel::{Channel, CosetLaw};

/// The all-zero view of a channel, conditioned on `errors` hard errors per frame.
#[derive(Debug, Clone)]
pub struct ConditionedChannel {
    errors: usize,
    n: usize,
    /// The law's error probability (unconditioned).
    p: f64,
    err: (AliasTable, Vec<f32>),
    ok: (AliasTable, Vec<f32>),
}

impl ConditionedChannel {
    /// Frames of `n` bits with exactly `errors` errors drawn from `law`. `None` when the law
    /// has no error outcome (and `errors > 0`), no correct outcome (and `errors < n`), or
    /// `errors > n`.
    pub fn new(law: &CosetLaw, n: usize, errors: usize) -> Option<Self> {
        let part = |want: bool| {
            let (w, l): (Vec<f64>, Vec<f32>) = law
                .prob
                .iter()
                .zip(&law.llr)
                .zip(&law.err)
                .filter(|(_, &e)| e == want)
                .map(|((&p, &l), _)| (p, l))
                .unzip();
            (w.iter().sum::<f64>() > 0.0).then(|| (AliasTable::new(&w), l))
        };
        if errors > n {
            return None;
        }
        // A side that is never drawn may be empty: give it a placeholder outcome.
        let placeholder = || (AliasTable::new(&[1.0]), vec![0.0]);
        let err = match part(true) {
            Some(t) => t,
            None if errors == 0 => placeholder(),
            None => return None,
        };
        let ok = match part(false) {
            Some(t) => t,
            None if errors == n => placeholder(),
            None => return None,
        };
        Some(Self {
            errors,
            n,
            p: law.error_probability(),
            err,
            ok,
        })
    }

    /// Hard errors per frame.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// The unconditioned law's error probability (the RBER the strata are weighted by).
    pub fn law_rber(&self) -> f64 {
        self.p
    }
}

impl Channel for ConditionedChannel {
    /// The all-zero view's frame with its signs flipped on the codeword's ones: by the
    /// decoder's symmetry (see `channel.rs`) it fails exactly when the all-zero view does.
    fn transmit(&self, codeword: &[u8], llr: &mut [f32], rng: &mut SimRng) -> usize {
        let errors = self.transmit_coset(llr, rng);
        for (l, &c) in llr.iter_mut().zip(codeword) {
            if c == 1 {
                *l = -*l;
            }
        }
        errors
    }

    fn transmit_coset(&self, llr: &mut [f32], rng: &mut SimRng) -> usize {
        assert_eq!(llr.len(), self.n, "frame length");
        for l in llr.iter_mut() {
            *l = self.ok.1[self.ok.0.sample(rng.next_u64())];
        }
        for i in rand::seq::index::sample(rng, self.n, self.errors) {
            llr[i] = self.err.1[self.err.0.sample(rng.next_u64())];
        }
        self.errors
    }

    fn rber(&self) -> f64 {
        self.errors as f64 / self.n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::BscChannel;
    use nandlab_core::engine::rng::stream_rng;

    #[test]
    fn every_frame_has_exactly_w_errors_at_uniform_positions() {
        // BSC 0.01: errors carry −L, the rest +L. 2000 frames of 50 bits with 5 errors:
        // each position errs with probability 5/50 = 0.1, i.e. 200 ± 3·√(2000·0.1·0.9) =
        // 200 ± 40 times.
        let law = BscChannel::new(0.01).coset_law().unwrap();
        let ch = ConditionedChannel::new(&law, 50, 5).unwrap();
        let mut hits = [0u32; 50];
        let mut llr = [0f32; 50];
        let mut rng = stream_rng(3, 0);
        for _ in 0..2000 {
            assert_eq!(ch.transmit_coset(&mut llr, &mut rng), 5);
            assert_eq!(llr.iter().filter(|&&l| l < 0.0).count(), 5);
            for (h, &l) in hits.iter_mut().zip(&llr) {
                *h += u32::from(l < 0.0);
            }
        }
        assert!(hits.iter().all(|&h| (160..=240).contains(&h)), "{hits:?}");
        assert!((ch.law_rber() - 0.01).abs() < 1e-15);
    }

    #[test]
    fn conditional_outcomes_follow_the_restricted_law() {
        // Law: correct outcomes A (0.6, LLR 2) and B (0.3, LLR 1); error outcome C (0.1,
        // LLR −1). Given no error in a bit, A has probability 0.6 / 0.9 = 2/3.
        let law = CosetLaw {
            prob: vec![0.6, 0.3, 0.1],
            llr: vec![2.0, 1.0, -1.0],
            err: vec![false, false, true],
        };
        let ch = ConditionedChannel::new(&law, 3000, 0).unwrap();
        let mut llr = vec![0f32; 3000];
        ch.transmit_coset(&mut llr, &mut stream_rng(4, 0));
        let a = llr.iter().filter(|&&l| l == 2.0).count() as f64 / 3000.0;
        // σ = √(2/9 / 3000) = 0.0086.
        assert!((a - 2.0 / 3.0).abs() < 0.035, "{a}");
        assert!(llr.iter().all(|&l| l > 0.0));
    }

    #[test]
    fn impossible_conditions_are_refused() {
        let law = CosetLaw {
            prob: vec![1.0],
            llr: vec![3.0],
            err: vec![false],
        };
        assert!(ConditionedChannel::new(&law, 10, 1).is_none());
        assert!(ConditionedChannel::new(&law, 10, 0).is_some());
        assert!(ConditionedChannel::new(&law, 10, 11).is_none());
    }
}
