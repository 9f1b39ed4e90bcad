//! The [`ErrorModel`] trait and the per-page context it is evaluated in.

use super::terms::Needs;
use crate::content::{StateHist, MAX_STATES};

/// What an error model needs to know about one page read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorContext<'a> {
    /// P/E cycles of the block.
    pub pe_cycles: f64,
    /// Time since the page was programmed (retention age), seconds.
    pub retention_s: f64,
    /// Reads of the block since its last erase (read disturb).
    pub reads_since_erase: f64,
    /// Page type (0 = LSB, the lower page, programmed first).
    pub page_type: u8,
    /// Cell-state histogram of the page; `None` = uniformly random data.
    pub hist: Option<&'a StateHist>,
    /// Multiplicative chip × block variation factor (1 = nominal; see
    /// [`super::Variation`]).
    pub variation: f64,
}

impl Default for ErrorContext<'_> {
    fn default() -> Self {
        ErrorContext {
            pe_cycles: 0.0,
            retention_s: 0.0,
            reads_since_erase: 0.0,
            page_type: 0,
            hist: None,
            variation: 1.0,
        }
    }
}

/// Largest RBER any model reports (a page of coin flips).
pub const RBER_CAP: f64 = 0.5;

/// A model of raw bit errors: per-state error probabilities and page RBER.
pub trait ErrorModel: Send + std::fmt::Debug {
    /// Short name (`nominal`, `vth`, `empirical`, `none`).
    fn name(&self) -> &'static str;

    /// States per cell.
    fn n_states(&self) -> usize;

    /// Probability that the bit of page type `ctx.page_type` of a cell in each state
    /// (indexed by bit pattern) is read wrongly, before chip/block variation.
    /// Writes them into `out` (length [`ErrorModel::n_states`]); the read path calls this
    /// for every page, so it must not allocate.
    fn state_error_probs_into(&self, ctx: &ErrorContext, out: &mut [f64]);

    /// True when the model ignores wear, age and read count (its RBER depends only on the
    /// page type and content), so the read path may reuse it across reads.
    fn wear_and_age_blind(&self) -> bool {
        false
    }

    /// The page history the model reads: the read path gathers only that, passes 0 for
    /// the rest and reuses an RBER while the declared inputs repeat. By default all of
    /// wear, age and reads, or none for a model blind to them.
    fn needs(&self) -> Needs {
        if self.wear_and_age_blind() {
            Needs::NONE
        } else {
            Needs::ALL
        }
    }

    /// The per-state error probabilities as a vector.
    fn state_error_probs(&self, ctx: &ErrorContext) -> Vec<f64> {
        let mut out = vec![0.0; self.n_states()];
        self.state_error_probs_into(ctx, &mut out);
        out
    }

    /// Page RBER: the state error probabilities weighted by the page's state shares
    /// (uniform without a histogram), times the variation factor, capped at 0.5.
    fn page_rber(&self, ctx: &ErrorContext) -> f64 {
        let mut buf = [0.0; MAX_STATES];
        let p = &mut buf[..self.n_states()];
        self.state_error_probs_into(ctx, p);
        weighted_page_rber(p, ctx)
    }
}

/// [`ErrorModel::page_rber`] from the state error probabilities `p`.
pub fn weighted_page_rber(p: &[f64], ctx: &ErrorContext) -> f64 {
    let raw: f64 = match ctx.hist {
        Some(h) => p.iter().enumerate().map(|(s, e)| h.share(s) * e).sum(),
        None => p.iter().sum::<f64>() / p.len() as f64,
    };
    (raw * ctx.variation).clamp(0.0, RBER_CAP)
}

/// The `none` model: flash that never errs.
#[derive(Debug, Clone)]
pub struct NoErrors {
    /// States per cell.
    pub n_states: usize,
}

impl ErrorModel for NoErrors {
    fn name(&self) -> &'static str {
        "none"
    }

    fn n_states(&self) -> usize {
        self.n_states
    }

    fn state_error_probs_into(&self, _ctx: &ErrorContext, out: &mut [f64]) {
        out.fill(0.0);
    }

    fn wear_and_age_blind(&self) -> bool {
        true
    }
}
