//! Error-model terms: the additive parts of a page's raw bit error rate, one file each,
//! composed into a [`TermStack`](super::term_stack::TermStack) by the `empirical` and
//! `terms` models (`[[reliability.terms]]`, docs/extending.md). Each term declares the page
//! history it reads ([`Needs`]) as data: the simulator gathers exactly what the model's
//! terms declare for each read, passes 0 for everything else, and keys the read path's
//! RBER memo on it, so a model never sees stale or undeclared inputs (a term alone in a
//! model, as in its own test, sees 0 for an input it forgot to declare). The list at the
//! bottom is the registry.

mod powers;

use super::model::ErrorContext;
use crate::error::{NandError, Result};

/// The page history a term (or a whole error model) reads, beside the page type, which
/// every read knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Needs {
    /// P/E cycles of the block (`ErrorContext::pe_cycles`).
    pub pe: bool,
    /// Time since the page was programmed (`ErrorContext::retention_s`).
    pub retention: bool,
    /// Reads of the block since its last erase (`ErrorContext::reads_since_erase`).
    pub reads: bool,
}

impl Needs {
    /// Nothing beyond the page type.
    pub const NONE: Needs = Needs {
        pe: false,
        retention: false,
        reads: false,
    };
    /// Wear, age and read count.
    pub const ALL: Needs = Needs {
        pe: true,
        retention: true,
        reads: true,
    };

    /// What either needs.
    pub fn union(self, other: Needs) -> Needs {
        Needs {
            pe: self.pe || other.pe,
            retention: self.retention || other.retention,
            reads: self.reads || other.reads,
        }
    }
}

/// Input values from which a term stops changing: it reads `min(input, limit)` of each
/// input it declares in [`Needs`] (inputs are never negative). A stack memoises the sum of its leading terms on inputs so
/// clamped, so reads of data older than every term's fitted range share it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// P/E cycles.
    pub pe: f64,
    /// Retention age, seconds.
    pub retention_s: f64,
    /// Block reads since erase.
    pub reads: f64,
}

impl Limits {
    /// A term that keeps changing with every input.
    pub const NONE: Limits = Limits {
        pe: f64::INFINITY,
        retention_s: f64::INFINITY,
        reads: f64::INFINITY,
    };

    /// Limits past which both stop changing (the larger of each).
    pub fn max(self, other: Limits) -> Limits {
        Limits {
            pe: self.pe.max(other.pe),
            retention_s: self.retention_s.max(other.retention_s),
            reads: self.reads.max(other.reads),
        }
    }
}

/// One additive term of a page's RBER. Its parameters are the fields of its type (serde,
/// `deny_unknown_fields`), written beside `term = "..."` in `[[reliability.terms]]`.
pub trait ErrorTerm: Send + std::fmt::Debug {
    /// Checks the parameters; `table` is where they sit (`reliability.terms[0]`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// The page history the term reads. The read path passes 0 for every input no term
    /// of the model declares and reuses an RBER while the declared inputs repeat.
    fn needs(&self) -> Needs;

    /// Where the term stops changing ([`Limits`]; by default it never does). A promise the
    /// stack's memo relies on: `rber` must give the same value for any input at or above
    /// its limit.
    fn limits(&self) -> Limits {
        Limits::NONE
    }

    /// The term's share of the page RBER for a read in `ctx` (before the model's page-type
    /// scale, state weights, variation and cap), from the page type and the inputs
    /// [`ErrorTerm::needs`] declares only (the model reuses it while they repeat). `&mut`: a term may remember powers it
    /// computed (the read path calls this for every judged read).
    fn rber(&mut self, ctx: &ErrorContext) -> f64;
}

/// `Err` naming `{table}.{name}` unless `v` is finite and at least 0.
pub fn non_negative(table: &str, name: &str, v: f64) -> Result<()> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(NandError::config(
            format!("{table}.{name}"),
            "must be a finite number >= 0",
        ))
    }
}

/// `Err` naming `{table}.{name}` unless `v` is finite and above 0.
pub fn positive(table: &str, name: &str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(NandError::config(
            format!("{table}.{name}"),
            "must be a finite number > 0",
        ))
    }
}

/// `x` clamped to `[0, max]` (`max`/`min`: `f64::clamp` checks its bounds on every call,
/// 3 % of a judged read here).
#[inline]
pub fn clamp_to(x: f64, max: f64) -> f64 {
    x.max(0.0).min(max)
}

crate::registry::policies! {
    list;
    /// One entry of `[[reliability.terms]]`: the term by name, its parameters beside it.
    TermConfig, ErrorTerm, "term";
    dispatch fn rber(&mut self, ctx: &ErrorContext) -> f64;
    constant::Constant,
    wear::Wear,
    retention::Retention,
    read_disturb::ReadDisturb,
    linear_read_disturb::LinearReadDisturb,
}
