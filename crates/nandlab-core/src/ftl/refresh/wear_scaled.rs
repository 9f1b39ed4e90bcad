//! Wear-scaled read refresh: a worn block is refreshed after fewer reads. Read disturb
//! grows with wear as well as with reads (seed 003 Fig. 1, §II-B: a worn block takes fewer
//! reads for the same errors); under a power law γ·PE^p·R^q two blocks have equal
//! read-disturb errors when R ∝ PE^(−p/q), so a block with `pe` cycles is refreshed at
//! `read_count · (pe_ref / pe)^pe_exponent` reads, `pe_exponent` = p/q (0.33 / 1.71 = 0.19
//! for the `tlc-3d` preset), never later than `read_count` nor earlier than
//! `min_read_count`.

use super::RefreshTrigger;
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// `[ftl.refresh] trigger = "wear_scaled"`, with its four parameters beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WearScaled {
    /// Reads since erase that trigger the refresh of a block at `pe_ref` or fewer cycles.
    pub read_count: u32,
    /// The wear `read_count` holds for (P/E cycles).
    pub pe_ref: u32,
    /// p/q of the read-disturb law: how fast the limit falls with wear (≥ 0; 0 = threshold).
    pub pe_exponent: f64,
    /// The fewest reads at which any block is refreshed (≥ 1, ≤ `read_count`).
    pub min_read_count: u32,
}

impl WearScaled {
    /// Reads since erase at which a block with `pe_cycles` is refreshed.
    fn limit(&self, pe_cycles: u32) -> u32 {
        let scale = (f64::from(self.pe_ref) / f64::from(pe_cycles.max(1))).powf(self.pe_exponent);
        let reads = (f64::from(self.read_count) * scale.min(1.0)).floor() as u32;
        reads.max(self.min_read_count)
    }
}

impl RefreshTrigger for WearScaled {
    fn validate(&self, table: &str) -> Result<()> {
        if !(1..=self.read_count).contains(&self.min_read_count) {
            return Err(NandError::config(
                format!("{table}.min_read_count"),
                "must be at least 1 and at most read_count",
            ));
        }
        if !(self.pe_exponent >= 0.0 && self.pe_exponent.is_finite()) {
            return Err(NandError::config(format!("{table}.pe_exponent"), "must be a finite number ≥ 0"));
        }
        Ok(())
    }

    fn min_reads(&self) -> Option<u32> {
        Some(self.min_read_count)
    }

    fn due(&self, reads: u32, pe_cycles: u32) -> bool {
        reads >= self.limit(pe_cycles)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SimConfig;

    const CFG: &str = "[ftl.refresh]\ntrigger = \"wear_scaled\"\nread_count = 10_000\npe_ref = 1000\n\
                       pe_exponent = 0.5\nmin_read_count = 2000\n";

    #[test]
    fn a_worn_block_is_refreshed_after_fewer_reads() {
        let cfg = SimConfig::from_toml_str(CFG).unwrap();
        let t = cfg.ftl.refresh.policy();
        assert_eq!(t.min_reads(), Some(2000));
        // 4000 P/E: 10,000 · (1000 / 4000)^0.5 = 5,000 reads.
        assert!(!t.due(4999, 4000) && t.due(5000, 4000));
        // At or below pe_ref: the plain threshold, never later.
        assert!(!t.due(9999, 1000) && t.due(10_000, 1000) && !t.due(9999, 0));
        // 10^6 P/E: 10,000 · 10^-1.5 = 316, floored at min_read_count.
        assert!(!t.due(1999, 1_000_000) && t.due(2000, 1_000_000));
    }

    #[test]
    fn bad_parameters_name_their_key() {
        let bad = |from: &str, to: &str| {
            SimConfig::from_toml_str(&CFG.replace(from, to))
                .and_then(|c| c.ftl.refresh.policy().validate("ftl.refresh"))
                .unwrap_err()
                .to_string()
        };
        assert!(bad("min_read_count = 2000", "min_read_count = 20_000").contains("ftl.refresh.min_read_count"));
        assert!(bad("pe_exponent = 0.5", "pe_exponent = -1.0").contains("ftl.refresh.pe_exponent"));
        assert!(bad("pe_ref = 1000", "pe_rf = 1000").contains("pe_rf"));
    }
}
