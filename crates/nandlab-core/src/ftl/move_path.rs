//! How a moved page travels, per cause (`[ftl.move_path]`): by copyback (sensed into the
//! die's page register and programmed from there: no bus, no ECC) or through the controller
//! (sensed, sent over the channel, decoded by the ECC, which the error model judges with
//! the page's wear, age and reads, so a disturbed page can need retries and soft levels,
//! sent back and programmed). A read refresh moves data precisely because they are
//! disturbed, so it is usually done through the controller (seed 003 §I); copyback is the
//! default everywhere so runs without this table keep their results.

use super::cause::Cause;
use crate::flash::block::PageMeta;
use serde::{Deserialize, Serialize};

/// The way one moved page travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MovePath {
    /// Internal copy on the die.
    #[default]
    Copyback,
    /// Read out, corrected by the ECC, written back.
    Controller,
}

/// `[ftl.move_path]`: the path of the pages each cause moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MovePaths {
    /// Pages moved by garbage collection.
    pub gc: MovePath,
    /// Pages moved by static wear leveling.
    pub wear_leveling: MovePath,
    /// Pages moved by read refresh.
    pub refresh: MovePath,
}

impl MovePaths {
    /// The path of pages moved for `cause` (host writes are not moves: copyback; a hot page
    /// changes chip, which copyback cannot do: controller).
    pub fn of(&self, cause: Cause) -> MovePath {
        match cause {
            Cause::Gc => self.gc,
            Cause::WearLeveling => self.wear_leveling,
            Cause::Refresh => self.refresh,
            Cause::Host => MovePath::Copyback,
            Cause::HotRead => MovePath::Controller,
        }
    }
}

/// What judging the read of a moved page needs, taken before the move erases its block:
/// the page's metadata (owner, content tag, OOB word, program time), its block's P/E and
/// reads since erase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovedPage {
    /// The page's metadata where it was.
    pub meta: PageMeta,
    /// P/E cycles of the block it left.
    pub pe_cycles: u32,
    /// Reads of that block since erase when it was moved.
    pub reads_since_erase: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_by_cause_and_default() {
        let p: MovePaths = toml::from_str("refresh = \"controller\"").unwrap();
        assert_eq!(p.of(Cause::Refresh), MovePath::Controller);
        assert_eq!(p.of(Cause::Gc), MovePath::Copyback);
        assert_eq!(p.of(Cause::WearLeveling), MovePath::Copyback);
        let e = toml::from_str::<MovePaths>("refesh = \"controller\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("refesh"), "{e}");
    }
}
