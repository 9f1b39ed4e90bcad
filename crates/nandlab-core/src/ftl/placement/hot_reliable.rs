//! Hot-read data on the reliable chips (nandlab's addition; seed 001 §3.3 names it and
//! leaves it for future work, §7): a host page read often lately goes to a chip with low
//! RBER, where its reads rarely fail hard and so rarely wait for soft sensing. A page is
//! hot when it was read at least `hot_reads` times in the last window of
//! `window_requests` host requests (003's read window, `refresh_targets/window.rs`); hot
//! pages take only planes of the `reliable_chips`, other pages any plane, both in striping
//! order. A hot page read on another chip moves to a reliable one when its read ends
//! (`Ftl::move_if_hot`), so read-only hot data moves too. Active blocks as `by_cause`.

use super::{ByCause, Placement};
use crate::ecc::interleave::GROUP_SPAN;
use crate::error::{NandError, Result};
use crate::flash::block::WriteAttrs;
use crate::ftl::cause::Cause;
use serde::{Deserialize, Serialize};

/// Pages read often go to the reliable chips.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HotReliable {
    /// Host requests per read-counting window.
    pub window_requests: u32,
    /// Reads in the last window from which a page is hot.
    pub hot_reads: u32,
    /// Reliable chips by position in each run of four chips (0–3): device chip `g` is
    /// reliable when `g mod 4` is listed. In the 001 preset, chip `g` is profile chip
    /// `g mod 4`, so `[0, 1]` are the two with the lowest RBER (factors 0.85 and 0.95).
    pub reliable_chips: Vec<u32>,
}

impl Placement for HotReliable {
    fn validate(&self, table: &str) -> Result<()> {
        if self.window_requests == 0 || self.hot_reads == 0 {
            return Err(NandError::config(
                format!("{table}.window_requests"),
                "window_requests and hot_reads must be at least 1",
            ));
        }
        let span = GROUP_SPAN as usize;
        if self.reliable_chips.is_empty() || self.reliable_chips.len() >= span {
            return Err(NandError::config(
                format!("{table}.reliable_chips"),
                format!("must list 1 to {} of the positions 0..{span}", span - 1),
            ));
        }
        if let Some(c) = self.reliable_chips.iter().find(|&&c| c >= GROUP_SPAN) {
            return Err(NandError::config(
                format!("{table}.reliable_chips"),
                format!("{c} is not a position 0..{span} in a run of chips"),
            ));
        }
        Ok(())
    }

    fn slot(&self, cause: Cause, attrs: WriteAttrs) -> usize {
        ByCause {}.slot(cause, attrs)
    }

    fn window_requests(&self) -> Option<u32> {
        Some(self.window_requests)
    }

    fn hot_reads(&self) -> Option<u32> {
        Some(self.hot_reads)
    }

    fn takes_chip(&self, hot: bool, chip: u32) -> bool {
        !hot || self.reliable_chips.contains(&(chip % GROUP_SPAN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(reliable_chips: Vec<u32>) -> HotReliable {
        HotReliable {
            window_requests: 100,
            hot_reads: 2,
            reliable_chips,
        }
    }

    #[test]
    fn hot_pages_only_on_reliable_chips_cold_anywhere() {
        let p = policy(vec![0, 1]);
        p.validate("ftl.placement").unwrap();
        // Chips 0, 1, 4, 5, 8, … are reliable (positions 0 and 1 of each run of four).
        let hot: Vec<u32> = (0..8).filter(|&c| p.takes_chip(true, c)).collect();
        assert_eq!(hot, vec![0, 1, 4, 5]);
        assert!((0..8).all(|c| p.takes_chip(false, c)));
        assert_eq!((p.window_requests(), p.hot_reads()), (Some(100), Some(2)));
    }

    #[test]
    fn bad_parameters_name_their_key() {
        for (bad, key) in [(vec![], "reliable_chips"), (vec![0, 1, 2, 3], "reliable_chips"), (vec![4], "reliable_chips")] {
            let e = policy(bad).validate("ftl.placement").unwrap_err().to_string();
            assert!(e.contains(&format!("ftl.placement.{key}")), "{e}");
        }
        let e = HotReliable {
            hot_reads: 0,
            ..policy(vec![0])
        }
        .validate("ftl.placement")
        .unwrap_err()
        .to_string();
        assert!(e.contains("ftl.placement.window_requests"), "{e}");
    }
}
