//! `lpn_range`: a range of logical pages (a log partition) is programmed with TVR.

use serde::{Deserialize, Serialize};

use super::TvrRegion;
use crate::error::{NandError, Result};
use crate::flash::block::WriteAttrs;

/// Logical pages `first_lpn ≤ lpn < end_lpn`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LpnRange {
    /// First logical page of the region.
    pub first_lpn: u64,
    /// First logical page after the region.
    pub end_lpn: u64,
}

impl TvrRegion for LpnRange {
    fn holds(&self, lpn: u64, _attrs: WriteAttrs) -> bool {
        (self.first_lpn..self.end_lpn).contains(&lpn)
    }

    fn validate(&self, table: &str) -> Result<()> {
        if self.end_lpn <= self.first_lpn {
            return Err(NandError::config(format!("{table}.end_lpn"), "must be above first_lpn"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_open_range() {
        let r = LpnRange { first_lpn: 10, end_lpn: 20 };
        let a = WriteAttrs::default();
        assert!(!r.holds(9, a) && r.holds(10, a) && r.holds(19, a) && !r.holds(20, a));
        let e = LpnRange { first_lpn: 5, end_lpn: 5 }.validate("tvr.region").unwrap_err().to_string();
        assert!(e.contains("tvr.region.end_lpn"), "{e}");
    }
}
