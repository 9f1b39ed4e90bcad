//! `term = "read_disturb"`: the power law's read-disturb term `γ·PE^p·R^q`
//! (research/models.md §2.1), `R` = reads of the block since its erase; P/E and `R`
//! clamped to the fit's range.

use serde::{Deserialize, Serialize};

use super::powers::WholePowers;
use super::{clamp_to, non_negative, positive, ErrorTerm, Limits, Needs};
use crate::error::Result;
use crate::reliability::model::ErrorContext;

/// `γ·PE^p·R^q`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadDisturb {
    /// `γ`, errors per bit at one P/E cycle and one read.
    pub gamma: f64,
    /// `p`, the P/E exponent.
    pub p: f64,
    /// `q`, the read-count exponent.
    pub q: f64,
    /// Largest P/E count the fit is used at (cycles).
    pub max_pe: f64,
    /// Largest read count the fit is used at (block reads).
    pub max_reads: f64,
    /// `PE^p` of whole P/E counts (reads alternate between blocks of different wear).
    #[serde(skip)]
    pe_powers: WholePowers,
    /// `R^q` of whole read counts.
    #[serde(skip)]
    read_powers: WholePowers,
}

impl ReadDisturb {
    /// The term with these constants.
    pub fn new(gamma: f64, p: f64, q: f64, max_pe: f64, max_reads: f64) -> Self {
        ReadDisturb {
            gamma,
            p,
            q,
            max_pe,
            max_reads,
            pe_powers: WholePowers::default(),
            read_powers: WholePowers::default(),
        }
    }
}

impl ErrorTerm for ReadDisturb {
    fn validate(&self, table: &str) -> Result<()> {
        non_negative(table, "gamma", self.gamma)?;
        non_negative(table, "p", self.p)?;
        non_negative(table, "q", self.q)?;
        positive(table, "max_pe", self.max_pe)?;
        positive(table, "max_reads", self.max_reads)
    }

    fn needs(&self) -> Needs {
        Needs {
            pe: true,
            reads: true,
            ..Needs::NONE
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            pe: self.max_pe,
            reads: self.max_reads,
            ..Limits::NONE
        }
    }

    // Every judged read of the `empirical` model: inlined into the stack's law.
    #[inline(always)]
    fn rber(&mut self, ctx: &ErrorContext) -> f64 {
        let pe = clamp_to(ctx.pe_cycles, self.max_pe);
        let r = clamp_to(ctx.reads_since_erase, self.max_reads);
        self.gamma * self.pe_powers.pow(pe, self.p) * self.read_powers.pow(r, self.q)
    }
}
