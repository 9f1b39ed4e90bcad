//! Fixed-threshold read refresh (the usual controller policy, e.g. the baseline of seed
//! 003): a block is refreshed when its reads since erase reach `read_count`.

use super::RefreshTrigger;
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// Refresh when reads since erase reach `read_count`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Threshold {
    /// Reads since erase that trigger a refresh of the block (reads).
    pub read_count: u32,
}

impl RefreshTrigger for Threshold {
    fn validate(&self, table: &str) -> Result<()> {
        if self.read_count == 0 {
            return Err(NandError::config(format!("{table}.read_count"), "must be at least 1"));
        }
        Ok(())
    }

    fn min_reads(&self) -> Option<u32> {
        Some(self.read_count)
    }

    fn due(&self, reads: u32, _pe_cycles: u32) -> bool {
        reads >= self.read_count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_from_the_threshold_on() {
        let t = Threshold { read_count: 3 };
        assert_eq!(t.min_reads(), Some(3));
        assert!(!t.due(2, 0));
        assert!(t.due(3, 0));
        assert!(t.due(4, 10));
        let e = Threshold { read_count: 0 }
            .validate("ftl.refresh")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("config key `ftl.refresh.read_count`"), "{e}");
    }
}
