//! `[host.critical]`: which writes are critical (seed 004's metadata). Host writes and the
//! preconditioned fill are classified alike, so it lives with the FTL that keeps the flag;
//! the host config holds one.

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// `[host.critical]`: the classifier that marks writes critical (a write attribute that
/// placement sees and the page keeps).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct CriticalConfig {
    /// Inclusive logical-page ranges `[first, last]` whose writes are critical.
    pub lpn_ranges: Vec<[u64; 2]>,
}

impl CriticalConfig {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<()> {
        for (i, &[first, last]) in self.lpn_ranges.iter().enumerate() {
            if first > last {
                return Err(NandError::config(
                    format!("host.critical.lpn_ranges[{i}]"),
                    format!("first page {first} is past last page {last}"),
                ));
            }
        }
        Ok(())
    }

    /// Whether a write of logical page `lpn` is critical.
    #[inline]
    pub fn contains(&self, lpn: u64) -> bool {
        self.lpn_ranges
            .iter()
            .any(|&[first, last]| (first..=last).contains(&lpn))
    }
}
