//! BCH: `t` correctable bits per codeword of `n` bits; a codeword fails when more than
//! `t` raw bits are wrong (binomial tail), a page when any of its codewords fails.

use rand::Rng;

use super::binomial::{any_fails, binomial_sf};
use crate::reliability::errors::draw_codeword_errors;

/// A BCH code model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bch {
    /// Codeword length in bits (data + parity).
    pub n_bits: u64,
    /// Correctable bits per codeword.
    pub t: u64,
}

impl Bch {
    /// Probability that one codeword is uncorrectable at `rber`.
    pub fn codeword_fail_prob(&self, rber: f64) -> f64 {
        binomial_sf(self.t, self.n_bits, rber)
    }

    /// Probability that a page of `codewords` codewords is uncorrectable.
    pub fn page_fail_prob(&self, rber: f64, codewords: u32) -> f64 {
        any_fails(self.codeword_fail_prob(rber), codewords)
    }

    /// Draws the raw errors of each codeword of a page; returns (total errors, decoded).
    pub fn draw_page<R: Rng + ?Sized>(&self, rber: f64, codewords: u32, rng: &mut R) -> (u64, bool) {
        let mut total = 0;
        let mut ok = true;
        for _ in 0..codewords {
            let e = draw_codeword_errors(self.n_bits, rber, rng);
            total += e;
            ok &= e <= self.t;
        }
        (total, ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::stream_rng;

    #[test]
    fn page_failure_over_codewords() {
        let b = Bch { n_bits: 20, t: 2 };
        let p = b.codeword_fail_prob(0.05);
        assert!((p - 0.075_484).abs() < 1e-6);
        assert!((b.page_fail_prob(0.05, 4) - (1.0 - (1.0 - p).powi(4))).abs() < 1e-12);
        // Monte Carlo agrees with the tail.
        let mut rng = stream_rng(5, 2);
        let k = 40_000;
        let fails = (0..k).filter(|_| !b.draw_page(0.05, 1, &mut rng).1).count() as f64 / k as f64;
        assert!((fails - p).abs() < 0.005, "{fails}");
    }
}
