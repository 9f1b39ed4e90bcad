//! Raw bit errors per ECC codeword: drawn (stochastic mode) or their mean (expected mode,
//! for paper reproductions that use average behaviour).

use rand::Rng;
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

thread_local! {
    /// The last binomial built: setting one up costs as much as drawing from it, and
    /// consecutive codewords (pages of a request, codewords of a page) usually share it.
    static LAST_BINOMIAL: std::cell::Cell<Option<(u64, f64, Binomial)>> = const { std::cell::Cell::new(None) };
}

/// Draws the raw bit errors of one codeword of `n_bits` bits at `rber`.
pub fn draw_codeword_errors<R: Rng + ?Sized>(n_bits: u64, rber: f64, rng: &mut R) -> u64 {
    let p = rber.clamp(0.0, 1.0);
    if p == 0.0 || n_bits == 0 {
        return 0;
    }
    let d = match LAST_BINOMIAL.get() {
        Some((n, q, d)) if n == n_bits && q == p => d,
        _ => {
            let d = Binomial::new(n_bits, p).expect("valid binomial");
            LAST_BINOMIAL.set(Some((n_bits, p, d)));
            d
        }
    };
    d.sample(rng)
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
    }
}
