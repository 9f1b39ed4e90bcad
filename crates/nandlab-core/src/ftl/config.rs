//! The `[ftl]` section.

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// How a garbage-collection victim block is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GcPolicy {
    /// Fewest valid pages.
    Greedy,
    /// Highest (1 - u) · age / 2u (Kawaguchi et al. / Rosenblum & Ousterhout), u = utilisation.
    CostBenefit,
    /// Lowest w·(valid / pages) + (1 - w)·(P/E / max P/E): the 50/50 valid-page and wear
    /// metric of seed 004 §5.1 with `gc_weight_valid = 0.5`.
    Weighted,
}

/// Static wear-leveling switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WearLeveling {
    /// No wear leveling beyond what allocation does.
    None,
    /// Static: when a plane's P/E spread exceeds the threshold, move the data of its
    /// least-worn full block so that block re-enters the free pool.
    Static,
}

/// The `[ftl]` section of a config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FtlConfig {
    /// Fraction of physical pages hidden from the host (0 … 0.9).
    pub overprovisioning: f64,
    /// Order in which consecutive page writes spread over the array: a permutation of
    /// `C` (channel), `W` (way = chip), `D` (die), `P` (plane), fastest-varying first.
    /// `CWDP` stripes over channels first (MQSim's default order).
    pub striping: String,
    /// Victim selection.
    pub gc_policy: GcPolicy,
    /// Weight of the valid-page term of the `weighted` policy.
    pub gc_weight_valid: f64,
    /// Foreground GC runs in a plane when its free blocks fall to this number.
    pub gc_threshold_blocks: u32,
    /// Static wear leveling.
    pub wear_leveling: WearLeveling,
    /// P/E spread (max - min within a plane) that triggers static wear leveling.
    pub wear_leveling_threshold: u32,
}

impl Default for FtlConfig {
    fn default() -> Self {
        FtlConfig {
            overprovisioning: 0.07,
            striping: "CWDP".into(),
            gc_policy: GcPolicy::Greedy,
            gc_weight_valid: 0.5,
            gc_threshold_blocks: 2,
            wear_leveling: WearLeveling::None,
            wear_leveling_threshold: 100,
        }
    }
}

impl FtlConfig {
    /// Checks the fields; returns the striping order as indices into (C, W, D, P).
    pub fn validate(&self, blocks_per_plane: u32) -> Result<[usize; 4]> {
        if !(0.0..=0.9).contains(&self.overprovisioning) {
            return Err(NandError::config("ftl.overprovisioning", "must be between 0 and 0.9"));
        }
        if !(0.0..=1.0).contains(&self.gc_weight_valid) {
            return Err(NandError::config("ftl.gc_weight_valid", "must be between 0 and 1"));
        }
        if self.gc_threshold_blocks == 0 || self.gc_threshold_blocks + 1 >= blocks_per_plane {
            return Err(NandError::config(
                "ftl.gc_threshold_blocks",
                format!(
                    "must be between 1 and {} (blocks per plane - 2)",
                    blocks_per_plane.saturating_sub(2)
                ),
            ));
        }
        let mut order = [0usize; 4];
        let s = self.striping.to_ascii_uppercase();
        let mut seen = [false; 4];
        if s.len() != 4 {
            return Err(NandError::config("ftl.striping", "must be a permutation of CWDP"));
        }
        for (i, c) in s.chars().enumerate() {
            let k = match c {
                'C' => 0,
                'W' => 1,
                'D' => 2,
                'P' => 3,
                _ => {
                    return Err(NandError::config(
                        "ftl.striping",
                        format!("unknown level `{c}` (use C, W, D, P)"),
                    ))
                }
            };
            if seen[k] {
                return Err(NandError::config("ftl.striping", "must be a permutation of CWDP"));
            }
            seen[k] = true;
            order[i] = k;
        }
        Ok(order)
    }
}
