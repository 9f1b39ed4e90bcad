//! Static wear leveling: when a plane's P/E spread exceeds a threshold, the least-worn full
//! block (which holds cold data) is emptied so that the allocator reuses it.

use super::WearLeveler;
use crate::flash::block::BlockStatus;
use crate::ftl::plane_view::PlaneView;
use serde::{Deserialize, Serialize};

/// Empties the least-worn full block when max P/E − its P/E exceeds `threshold_pe`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StaticLeveling {
    /// P/E spread (max − min within a plane) that triggers a move (P/E cycles).
    pub threshold_pe: u32,
}

impl Default for StaticLeveling {
    fn default() -> Self {
        StaticLeveling { threshold_pe: 100 }
    }
}

impl WearLeveler for StaticLeveling {
    fn select(&mut self, plane: &PlaneView) -> Option<usize> {
        let max_pe = plane.blocks.iter().map(|b| b.pe).max().unwrap_or(0);
        let (i, b) = plane
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.status == BlockStatus::Full)
            .min_by_key(|(_, b)| b.pe)?;
        (max_pe - b.pe > self.threshold_pe).then_some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::block::BlockState;
    use crate::ftl::plane_view::fixture::{full, view};

    #[test]
    fn empties_the_least_worn_full_block_past_the_spread() {
        // Max P/E 150 (a free block counts); least-worn full block: index 1, pe 40.
        // Spread 110 > 100 -> block 1; with threshold 110 the spread is not exceeded.
        let blocks = [full(8, 90), full(8, 40), BlockState::new_free(150), full(3, 60)];
        let last = |_| 0;
        let v = view(&blocks, 0, &last);
        assert_eq!(StaticLeveling { threshold_pe: 100 }.select(&v), Some(1));
        assert_eq!(StaticLeveling { threshold_pe: 110 }.select(&v), None);
    }

    #[test]
    fn built_by_name_from_a_config_for_each_plane() {
        use crate::config::SimConfig;
        use crate::flash::{BuildCtx, Geometry};
        let cfg = SimConfig::from_toml_str("[ftl.wear_leveling]\npolicy = \"static\"\nthreshold_pe = 100\n").unwrap();
        let geo = Geometry::new(&cfg.device).unwrap();
        let ctx = BuildCtx {
            table: "ftl.wear_leveling",
            seed: 1,
            plane: Some(3),
            geometry: &geo,
        };
        let mut policy = cfg.ftl.wear_leveling.build(&ctx);
        assert!(!policy.is_none());
        // The hand-worked plane above: spread 150 - 40 = 110 > 100 -> block 1.
        let blocks = [full(8, 90), full(8, 40), BlockState::new_free(150), full(3, 60)];
        let last = |_| 0;
        assert_eq!(policy.select(&view(&blocks, 0, &last)), Some(1));
        // `policy = "none"` (the default) never moves data and says so.
        let none = SimConfig::from_toml_str("").unwrap().ftl.wear_leveling.build(&ctx);
        assert!(none.is_none());
    }
}
