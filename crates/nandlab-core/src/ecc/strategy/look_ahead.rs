//! `look-ahead` (seed 001 §3.2, Eq. 2): two-step's levels, the soft sensing started as
//! soon as the hard sensing ends (if the plane has nothing else to do), overlapping the
//! hard transfer and decode; it is cancelled when that decode succeeds.

use serde::{Deserialize, Serialize};

use super::{ReadStrategy, TwoStep};

/// Two-step with the soft sensing started ahead.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookAhead {}

impl ReadStrategy for LookAhead {
    fn next_level(&self, failed: u8, max_level: u8) -> u8 {
        TwoStep {}.next_level(failed, max_level)
    }

    fn look_ahead(&self) -> bool {
        true
    }
}
