//! `term = "read_disturb"`: the power law's read-disturb term `γ·PE^p·R^q`
//! (research/models.md §2.1), `R` = reads of the block since its erase; P/E and `R`
//! clamped to the fit's range.

use serde::{Deserialize, Serialize};

use super::{clamp_to, non_negative, positive, ErrorTerm, Limits, Needs};
use crate::error::Result;
use crate::reliability::model::ErrorContext;

/// Whole read counts whose `R^q` the term tabulates (larger counts are computed).
const READ_POWERS: usize = 1 << 16;

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
    /// `(PE, γ·PE^p)` of the last read: a block's reads share its wear.
    #[serde(skip)]
    memo: Option<(f64, f64)>,
    /// `R^q` for whole `R < READ_POWERS`, NaN until first needed.
    #[serde(skip)]
    powers: ReadPowers,
}

/// The `R^q` table (its debug form is its size, not its 65,536 entries).
#[derive(Clone, Default, PartialEq)]
struct ReadPowers(Vec<f64>);

impl std::fmt::Debug for ReadPowers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ReadPowers({} entries)", self.0.len())
    }
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
            memo: None,
            powers: ReadPowers::default(),
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
        let coefficient = match self.memo {
            Some((p, v)) if p == pe => v,
            _ => {
                let v = self.gamma * pe.powf(self.p);
                self.memo = Some((pe, v));
                v
            }
        };
        // Whole counts (the simulator's) come from the table; `as` truncates without a
        // libm call.
        let whole = r as u32;
        let r_q = if f64::from(whole) == r && (whole as usize) < READ_POWERS {
            if self.powers.0.is_empty() {
                self.powers.0 = vec![f64::NAN; READ_POWERS];
            }
            let v = &mut self.powers.0[whole as usize];
            if v.is_nan() {
                *v = r.powf(self.q);
            }
            *v
        } else {
            r.powf(self.q)
        };
        coefficient * r_q
    }
}
