//! How raw bit errors turn into decoding outcomes: drawn (stochastic mode) or at their
//! mean (expected mode, for paper reproductions that use average behaviour).

use serde::{Deserialize, Serialize};

/// How a page read's outcome follows from its RBER.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorDraw {
    /// Raw errors per codeword ~ Binomial(n, RBER), seeded: each read's decoding level is
    /// drawn from the exact distribution those errors give (one uniform per page; see
    /// [`crate::ecc::ReadPlanner::page_fail_probs`]).
    #[default]
    Stochastic,
    /// Errors per codeword = n · RBER, no randomness: thresholds judge the page RBER,
    /// curves and BCH take the median outcome.
    Expected,
}

/// Mean raw bit errors of a codeword: `n · RBER`.
pub fn expected_codeword_errors(n_bits: u64, rber: f64) -> f64 {
    n_bits as f64 * rber.clamp(0.0, 1.0)
}
