//! `term = "constant"`: an RBER every page has, whatever its history (the power law's `ε`).

use serde::{Deserialize, Serialize};

use super::{non_negative, ErrorTerm, Needs};
use crate::error::Result;
use crate::reliability::model::ErrorContext;

/// `ε`: the base RBER of a fresh, unread page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constant {
    /// `ε`, errors per bit.
    pub eps: f64,
}

impl ErrorTerm for Constant {
    fn validate(&self, table: &str) -> Result<()> {
        non_negative(table, "eps", self.eps)
    }

    fn needs(&self) -> Needs {
        Needs::NONE
    }

    #[inline]
    fn rber(&mut self, _ctx: &ErrorContext) -> f64 {
        self.eps
    }
}
