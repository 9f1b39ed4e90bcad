//! `two-step` (seed 001 §2.3, Eq. 1): after a failed hard decode, sense all `k` extra
//! levels at once.

use serde::{Deserialize, Serialize};

use super::ReadStrategy;

/// Hard decision, then every extra level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TwoStep {}

impl ReadStrategy for TwoStep {
    fn next_level(&self, _failed: u8, max_level: u8) -> u8 {
        max_level
    }
}
