//! `term = "wear"`: the power law's wear term `α·PE^k` (research/models.md §2.1), P/E
//! clamped to the fit's range.

use serde::{Deserialize, Serialize};

use super::powers::WholePowers;
use super::{clamp_to, non_negative, positive, ErrorTerm, Limits, Needs};
use crate::error::Result;
use crate::reliability::model::ErrorContext;

/// `α·PE^k`, `PE` = the block's P/E cycles clamped to `[0, max_pe]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wear {
    /// `α`, errors per bit at one P/E cycle.
    pub alpha: f64,
    /// `k`, the P/E exponent.
    pub k: f64,
    /// Largest P/E count the fit is used at (cycles; above it, clamped).
    pub max_pe: f64,
    /// `PE^k` of whole P/E counts (reads alternate between blocks of different wear).
    #[serde(skip)]
    powers: WholePowers,
}

impl Wear {
    /// The term with these constants.
    pub fn new(alpha: f64, k: f64, max_pe: f64) -> Self {
        Wear {
            alpha,
            k,
            max_pe,
            powers: WholePowers::default(),
        }
    }
}

impl ErrorTerm for Wear {
    fn validate(&self, table: &str) -> Result<()> {
        non_negative(table, "alpha", self.alpha)?;
        non_negative(table, "k", self.k)?;
        positive(table, "max_pe", self.max_pe)
    }

    fn needs(&self) -> Needs {
        Needs {
            pe: true,
            ..Needs::NONE
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            pe: self.max_pe,
            ..Limits::NONE
        }
    }

    #[inline]
    fn rber(&mut self, ctx: &ErrorContext) -> f64 {
        let pe = clamp_to(ctx.pe_cycles, self.max_pe);
        self.alpha * self.powers.pow(pe, self.k)
    }
}
