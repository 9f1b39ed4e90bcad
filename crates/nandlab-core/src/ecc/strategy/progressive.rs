//! `progressive` (seed 001 §3.1, Eq. 3–4): one more extra sensing level per failed
//! decode, so a page that needs level `L` costs `L` retries and no more sensing.

use serde::{Deserialize, Serialize};

use super::ReadStrategy;

/// One more level per retry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progressive {}

impl ReadStrategy for Progressive {
    fn next_level(&self, failed: u8, _max_level: u8) -> u8 {
        failed + 1
    }
}
