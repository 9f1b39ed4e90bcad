//! `look-ahead+progressive` (seed 001 §3.1–3.2): progressive's levels, each next one
//! sensed as soon as the previous sensing ends (if the plane is idle), overlapping the
//! previous transfer and decode; cancelled when that decode succeeds.

use serde::{Deserialize, Serialize};

use super::{Progressive, ReadStrategy};

/// Progressive with each next level sensed ahead.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookAheadProgressive {}

impl ReadStrategy for LookAheadProgressive {
    fn next_level(&self, failed: u8, max_level: u8) -> u8 {
        Progressive {}.next_level(failed, max_level)
    }

    fn look_ahead(&self) -> bool {
        true
    }
}
