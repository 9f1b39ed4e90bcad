//! No read refresh (`trigger = "none"`, the default).

use super::RefreshTrigger;
use serde::{Deserialize, Serialize};

/// Never refreshes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoRefresh {}

impl RefreshTrigger for NoRefresh {
    fn min_reads(&self) -> Option<u32> {
        None
    }

    fn due(&self, _reads: u32, _pe_cycles: u32) -> bool {
        false
    }
}
