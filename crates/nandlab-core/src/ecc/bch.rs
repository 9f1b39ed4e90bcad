//! BCH: `t` correctable bits per codeword of `n` bits; a codeword fails when more than
//! `t` raw bits are wrong (binomial tail), a page when any of its codewords fails.

use super::binomial::{any_fails, binomial_sf};

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_failure_over_codewords() {
        let b = Bch { n_bits: 20, t: 2 };
        let p = b.codeword_fail_prob(0.05);
        assert!((p - 0.075_484).abs() < 1e-6);
        assert!((b.page_fail_prob(0.05, 4) - (1.0 - (1.0 - p).powi(4))).abs() < 1e-12);
    }
}
