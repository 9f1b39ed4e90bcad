//! The `[ftl]` section, with its policy tables (`[ftl.gc]`, `[ftl.wear_leveling]`,
//! `[ftl.refresh]`, `[ftl.refresh_targets]`, `[ftl.placement]`, `[ftl.relocation]`, `[ftl.move_path]`,
//! `[ftl.mapping_cache]`).

use super::allocator::BlockOpening;
use super::mapping_cache::MappingCacheConfig;
use super::move_path::MovePaths;
use super::placement::PlacementConfig;
use super::refresh::RefreshConfig;
use super::refresh_targets::RefreshTargetsConfig;
use super::relocation::RelocationConfig;
use super::victim::VictimConfig;
use super::wear::WearLevelingConfig;
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

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
    /// Foreground GC runs in a plane when its free blocks fall to this number.
    pub gc_threshold_blocks: u32,
    /// Which free block a plane opens next, for every cause (`least_worn` | `in_turn`;
    /// docs/read_refresh.md).
    #[serde(skip_serializing_if = "BlockOpening::is_default")]
    pub block_opening: BlockOpening,
    /// GC victim selection (`[ftl.gc]`).
    pub gc: VictimConfig,
    /// Wear leveling (`[ftl.wear_leveling]`; the old string form is read too).
    #[serde(deserialize_with = "crate::registry::table_or_name")]
    pub wear_leveling: WearLevelingConfig,
    /// Read refresh (`[ftl.refresh]`).
    pub refresh: RefreshConfig,
    /// Where refreshed pages go (`[ftl.refresh_targets]`).
    pub refresh_targets: RefreshTargetsConfig,
    /// Where pages go in their plane (`[ftl.placement]`).
    pub placement: PlacementConfig,
    /// Order in which a block's valid pages move (`[ftl.relocation]`).
    pub relocation: RelocationConfig,
    /// How moved pages travel, per cause (`[ftl.move_path]`).
    pub move_path: MovePaths,
    /// The cached mapping table (`[ftl.mapping_cache]`; off: the whole table in DRAM).
    pub mapping_cache: MappingCacheConfig,
    /// Bad-block management: a block erased to this many P/E cycles is retired (taken out
    /// of service; ftl/retire.rs). `None`: blocks are never retired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retire_pe_limit: Option<u32>,
    /// Old spelling of `ftl.gc.victim`; folded into `gc` by [`FtlConfig::resolve_old_keys`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_policy: Option<String>,
    /// Old spelling of `ftl.gc.weight_valid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc_weight_valid: Option<f64>,
    /// Old spelling of `ftl.wear_leveling.threshold_pe`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wear_leveling_threshold: Option<u32>,
}

impl Default for FtlConfig {
    fn default() -> Self {
        FtlConfig {
            overprovisioning: 0.07,
            striping: "CWDP".into(),
            gc_threshold_blocks: 2,
            block_opening: BlockOpening::default(),
            gc: VictimConfig::default(),
            wear_leveling: WearLevelingConfig::default(),
            refresh: RefreshConfig::default(),
            refresh_targets: RefreshTargetsConfig::default(),
            placement: PlacementConfig::default(),
            relocation: RelocationConfig::default(),
            move_path: MovePaths::default(),
            mapping_cache: MappingCacheConfig::default(),
            retire_pe_limit: None,
            gc_policy: None,
            gc_weight_valid: None,
            wear_leveling_threshold: None,
        }
    }
}

impl FtlConfig {
    /// Folds the old flat keys (`gc_policy`, `gc_weight_valid`, `wear_leveling_threshold`)
    /// into the policy tables, so old configs keep working and the resolved config shows
    /// one spelling. An old key replaces what the table says (so `--set ftl.gc_policy=...`
    /// still works on a preset written with `[ftl.gc]`).
    pub fn resolve_old_keys(&mut self) -> Result<()> {
        if let Some(name) = self.gc_policy.take() {
            let mut table = serde_json::json!({ "victim": name });
            if let (Some(w), "weighted") = (self.gc_weight_valid, name.as_str()) {
                table["weight_valid"] = w.into();
            }
            self.gc = VictimConfig::deserialize(table).map_err(|e| NandError::config("ftl.gc_policy", e))?;
        }
        if let (Some(w), VictimConfig::Weighted(p)) = (self.gc_weight_valid.take(), &mut self.gc) {
            p.weight_valid = w;
        }
        if let Some(t) = self.wear_leveling_threshold.take() {
            if let WearLevelingConfig::StaticLeveling(p) = &mut self.wear_leveling {
                p.threshold_pe = t;
            }
        }
        Ok(())
    }

    /// Checks the fields; returns the striping order as indices into (C, W, D, P).
    pub fn validate(&self, blocks_per_plane: u32) -> Result<[usize; 4]> {
        if !(0.0..=0.9).contains(&self.overprovisioning) {
            return Err(NandError::config("ftl.overprovisioning", "must be between 0 and 0.9"));
        }
        let max = blocks_per_plane.saturating_sub(2);
        if !(1..=max).contains(&self.gc_threshold_blocks) {
            return Err(NandError::config(
                "ftl.gc_threshold_blocks",
                format!("must be between 1 and {max} (blocks per plane - 2)"),
            ));
        }
        if self.retire_pe_limit == Some(0) {
            return Err(NandError::config("ftl.retire_pe_limit", "must be at least 1 P/E cycle"));
        }
        self.gc.policy().validate("ftl.gc")?;
        self.wear_leveling.policy().validate("ftl.wear_leveling")?;
        self.refresh.policy().validate("ftl.refresh")?;
        self.refresh_targets.policy().validate("ftl.refresh_targets")?;
        self.placement.policy().validate("ftl.placement")?;
        if let (Some(p), Some(r)) = (
            self.placement.policy().window_requests(),
            self.refresh_targets.policy().window_requests(),
        ) {
            if p != r {
                return Err(NandError::config(
                    "ftl.placement.window_requests",
                    format!("must equal ftl.refresh_targets.window_requests ({r}): one window predicts pages' reads"),
                ));
            }
        }
        self.relocation.policy().validate("ftl.relocation")?;
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
