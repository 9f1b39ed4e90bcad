//! Read leveling (Liu, Chang and Chang, "Read leveling for flash storage systems",
//! SYSTOR'15; seed 003's [11], its RL counterpart). The paper itself could not be retrieved
//! here; its abstract (paperexplained.cn, found with the search tool) proposes
//! "distributing read-hot data over different flash blocks. Thus, all read operations could
//! be issued to different blocks as evenly as possible, so as to minimize the interference
//! between read-hot data and other valid data on the same block"; 003 §IV-A: RL "works at
//! Flash Translation Layer of SSDs to distribute hot read data, and then makes use of read
//! refresh".
//!
//! Implemented as placement, so it levels every page the FTL writes (host writes, GC and
//! wear-leveling moves, read-refresh moves; the abstract names no one write path): a page
//! whose predicted reads (its host reads in the last window of `window_requests` requests,
//! as 003 predicts) reach `hot_reads` goes to the active block of its plane with the least
//! read load (reads since erase plus the predicted reads already placed in it), among its
//! cause's own block (as `by_cause`), the blocks open for other causes, and, for host and
//! refresh writes, one more block kept for read-hot pages. Hot pages written in a row thus
//! land in different blocks, each taking an even share of the reads. Other pages go where
//! `by_cause` puts them. GC and wear leveling do not open the extra block: they run with
//! the free pool at its threshold, where a victim may only open its own cause's block.
//! Refresh itself stays 003's Baseline (`[ftl.refresh_targets] policy = "baseline"`).

use super::{ByCause, Placement, ReadHeat, ACTIVE_SLOTS};
use crate::error::{NandError, Result};
use crate::flash::block::WriteAttrs;
use crate::ftl::cause::Cause;
use crate::ftl::refresh_targets::default_window_requests;
use serde::{Deserialize, Serialize};

/// The slot of the block kept for read-hot pages (`by_cause` uses 0 … 2).
const HOT_SLOT: usize = ACTIVE_SLOTS - 1;

/// Read-hot pages to the least-loaded active block of their plane.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadLeveling {
    /// Window of host requests pages' reads are predicted from (requests; 003: 80K).
    #[serde(default = "default_window_requests")]
    pub window_requests: u32,
    /// Predicted reads (per window) from which a page is read-hot (reads; default 1:
    /// every page read in the last window is leveled).
    #[serde(default = "default_hot_reads")]
    pub hot_reads: u32,
}

fn default_hot_reads() -> u32 {
    1
}

impl Placement for ReadLeveling {
    fn validate(&self, table: &str) -> Result<()> {
        if self.window_requests == 0 {
            return Err(NandError::config(format!("{table}.window_requests"), "must be at least 1"));
        }
        if self.hot_reads == 0 {
            return Err(NandError::config(format!("{table}.hot_reads"), "must be at least 1"));
        }
        Ok(())
    }

    fn slot(&self, cause: Cause, attrs: WriteAttrs) -> usize {
        ByCause {}.slot(cause, attrs)
    }

    fn window_requests(&self) -> Option<u32> {
        Some(self.window_requests)
    }

    fn places_by_heat(&self) -> bool {
        true
    }

    fn slot_by_heat(&self, cause: Cause, attrs: WriteAttrs, heat: &ReadHeat) -> usize {
        let own = self.slot(cause, attrs);
        if heat.page_reads < u64::from(self.hot_reads) {
            return own;
        }
        let may_open = |s: usize| s == own || (s == HOT_SLOT && matches!(cause, Cause::Host | Cause::Refresh));
        // Least load first; ties: the page's own block, then the lower slot.
        (0..ACTIVE_SLOTS)
            .filter_map(|s| match heat.slot_loads[s] {
                Some(load) => Some((load, s != own, s)),
                None => may_open(s).then_some((0, s != own, s)),
            })
            .min()
            .map_or(own, |(_, _, s)| s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RL: ReadLeveling = ReadLeveling {
        window_requests: 10,
        hot_reads: 2,
    };

    fn heat(page_reads: u64, slot_loads: [Option<u64>; ACTIVE_SLOTS]) -> ReadHeat {
        ReadHeat {
            page_reads,
            slot_loads,
        }
    }

    #[test]
    fn hot_pages_go_to_the_least_loaded_block() {
        let a = WriteAttrs::default();
        // Cold (1 < 2 reads): its cause's block, whatever the loads.
        assert_eq!(RL.slot_by_heat(Cause::Host, a, &heat(1, [Some(90), Some(0), None, None])), 0);
        // Hot host page: host block at 90, GC block at 5, refresh slot closed (not its
        // own: skipped), hot slot closed (opens fresh: 0) → the hot slot.
        assert_eq!(RL.slot_by_heat(Cause::Host, a, &heat(7, [Some(90), Some(5), None, None])), 3);
        // The hot block now at 7: the GC block (5) is lower.
        assert_eq!(RL.slot_by_heat(Cause::Host, a, &heat(7, [Some(90), Some(5), None, Some(7)])), 1);
        // Ties go to the page's own block, then the lower slot.
        assert_eq!(RL.slot_by_heat(Cause::Refresh, a, &heat(3, [Some(4), Some(4), Some(4), Some(4)])), 2);
        assert_eq!(RL.slot_by_heat(Cause::Refresh, a, &heat(3, [Some(4), Some(4), Some(9), None])), 3);
        assert_eq!(RL.slot_by_heat(Cause::Refresh, a, &heat(3, [Some(4), Some(4), Some(9), Some(6)])), 0);
        // GC does not open the hot block, only its own.
        assert_eq!(RL.slot_by_heat(Cause::Gc, a, &heat(3, [Some(4), None, None, None])), 1);
        assert_eq!(RL.slot_by_heat(Cause::Gc, a, &heat(3, [Some(4), Some(8), None, None])), 0);
        // by_cause leaves the hot slot free; slot() is by_cause's.
        assert!([Cause::Host, Cause::Gc, Cause::WearLeveling, Cause::Refresh]
            .iter()
            .all(|&c| RL.slot(c, a) == ByCause {}.slot(c, a) && RL.slot(c, a) != HOT_SLOT));
        assert_eq!(RL.window_requests(), Some(10));
    }

    #[test]
    fn parameters_are_checked() {
        let e = ReadLeveling { hot_reads: 0, ..RL }
            .validate("ftl.placement")
            .unwrap_err()
            .to_string();
        assert!(e.contains("ftl.placement.hot_reads"), "{e}");
        let e = ReadLeveling {
            window_requests: 0,
            ..RL
        }
        .validate("ftl.placement")
        .unwrap_err()
        .to_string();
        assert!(e.contains("ftl.placement.window_requests"), "{e}");
    }
}
