//! Raw bit errors per ECC codeword: drawn (stochastic mode) or their mean (expected mode,
//! for paper reproductions that use average behaviour).

use rand::Rng;
use rand_distr::weighted::WeightedAliasIndex;
use rand_distr::{Binomial, Distribution};
use serde::{Deserialize, Serialize};

/// How raw errors are produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorDraw {
    /// Errors per codeword ~ Binomial(n, RBER), seeded.
    #[default]
    Stochastic,
    /// Errors per codeword = n · RBER (not rounded), no randomness.
    Expected,
}

/// A binomial sampler for one (n, p): the exact distribution set up once, plus (after
/// repeated use) its probabilities over mean ± 12 σ in an alias table (O(1) draws; the
/// mass outside, below 1e-30, is left out).
#[derive(Debug, Clone)]
struct Sampler {
    n: u64,
    p: f64,
    btpe: Binomial,
    uses: u32,
    /// `(first k, alias table over k = first, first + 1, ...)`.
    table: Option<(u64, WeightedAliasIndex<f64>)>,
}

/// Uses after which a sampler tabulates its CDF (tabulating costs a few hundred draws).
const TABULATE_AFTER: u32 = 64;

impl Sampler {
    fn new(n: u64, p: f64) -> Self {
        Sampler {
            n,
            p,
            btpe: Binomial::new(n, p).expect("valid binomial"),
            uses: 0,
            table: None,
        }
    }

    fn tabulate(&mut self) {
        let (n, p) = (self.n as f64, self.p);
        let mean = n * p;
        let sd = (n * p * (1.0 - p)).sqrt();
        let lo = (mean - 12.0 * sd - 1.0).floor().max(0.0) as u64;
        let hi = ((mean + 12.0 * sd + 1.0).ceil() as u64).min(self.n);
        let (lp, lq) = (p.ln(), (-p).ln_1p());
        let pmf = (lo..=hi)
            .map(|k| {
                let kf = k as f64;
                (statrs::function::factorial::ln_binomial(self.n, k) + kf * lp + (n - kf) * lq).exp()
            })
            .collect();
        // The pmf is finite, non-negative and has mass near 1: the table always builds.
        self.table = WeightedAliasIndex::new(pmf).ok().map(|t| (lo, t));
    }

    fn sample<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u64 {
        self.uses += 1;
        if self.table.is_none() && self.uses >= TABULATE_AFTER && self.n > 64 {
            self.tabulate();
        }
        match &self.table {
            Some((lo, table)) => lo + table.sample(rng) as u64,
            None => self.btpe.sample(rng),
        }
    }
}

thread_local! {
    /// The last sampler: consecutive codewords (pages of a request, codewords of a page,
    /// every read at a nominal RBER) usually share (n, p).
    static LAST: std::cell::RefCell<Option<Sampler>> = const { std::cell::RefCell::new(None) };
}

/// Draws the raw bit errors of one codeword of `n_bits` bits at `rber`: Binomial(n, RBER)
/// (BTPE, or an alias table of the pmf within 12 σ of the mean when the RBER repeats).
pub fn draw_codeword_errors<R: Rng + ?Sized>(n_bits: u64, rber: f64, rng: &mut R) -> u64 {
    let p = rber.clamp(0.0, 1.0);
    if p == 0.0 || n_bits == 0 {
        return 0;
    }
    if p == 1.0 {
        return n_bits;
    }
    LAST.with_borrow_mut(|last| match last {
        Some(s) if s.n == n_bits && s.p == p => s.sample(rng),
        _ => last.insert(Sampler::new(n_bits, p)).sample(rng),
    })
}

/// Mean raw bit errors of a codeword: `n · RBER`.
pub fn expected_codeword_errors(n_bits: u64, rber: f64) -> f64 {
    n_bits as f64 * rber.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::stream_rng;

    #[test]
    fn binomial_draws_have_the_right_mean() {
        let mut rng = stream_rng(3, 2);
        let n = 36_864;
        let k = 4000;
        let mean = (0..k)
            .map(|_| draw_codeword_errors(n, 5e-3, &mut rng) as f64)
            .sum::<f64>()
            / k as f64;
        // n·p = 184.3, sd of the mean = sqrt(183.4/4000) = 0.21.
        assert!((mean - 184.32).abs() < 1.0, "{mean}");
        assert_eq!(expected_codeword_errors(n, 5e-3), 184.32);
        assert_eq!(draw_codeword_errors(n, 0.0, &mut rng), 0);
        assert_eq!(draw_codeword_errors(n, 1.0, &mut rng), n);
    }

    #[test]
    fn tabulated_draws_follow_the_binomial() {
        // After TABULATE_AFTER uses the sampler draws from its alias table. Compare the
        // share of draws at or below k with the exact CDF (statrs) at a few points.
        use statrs::distribution::{Binomial as B, DiscreteCDF};
        let mut rng = stream_rng(5, 2);
        let (n, p) = (36_864u64, 4e-3);
        let k = 100_000;
        let draws: Vec<u64> = (0..k).map(|_| draw_codeword_errors(n, p, &mut rng)).collect();
        let exact = B::new(p, n).unwrap();
        for x in [130u64, 147, 160, 184] {
            let share = draws.iter().filter(|&&d| d <= x).count() as f64 / k as f64;
            let cdf = exact.cdf(x);
            // 5 binomial standard errors of a share over 100,000 draws.
            let tol = 5.0 * (cdf * (1.0 - cdf) / k as f64).sqrt() + 1e-4;
            assert!((share - cdf).abs() < tol, "x={x}: {share} vs {cdf}");
        }
    }
}
