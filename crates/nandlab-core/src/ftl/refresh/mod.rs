//! Read refresh: a trigger on a block's reads since erase (read disturb) names blocks whose
//! valid data are then moved elsewhere and the block erased, which resets its read count.
//! `[ftl.refresh] trigger = "..."` picks the trigger by name, its parameters beside it.
//! Where the pages go is `[ftl.refresh_targets]` (`ftl/refresh_targets/`), how they travel
//! `[ftl.move_path]` (copyback or through the controller).

mod none;
mod threshold;

use crate::error::Result;
pub use none::NoRefresh;
use serde::{Deserialize, Serialize};
pub use threshold::Threshold;

/// A read-refresh trigger.
pub trait RefreshTrigger {
    /// Checks the trigger's parameters; `table` is where they sit (`ftl.refresh`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// Fewest reads since erase at which the trigger can fire (`None`: never). The read
    /// path compares only this number, so triggers cost nothing below it.
    fn min_reads(&self) -> Option<u32>;

    /// Whether a full block read `reads` times since erase (`reads >= min_reads`), with
    /// `pe_cycles` of wear, is refreshed now.
    fn due(&self, reads: u32, pe_cycles: u32) -> bool;
}

/// `[ftl.refresh]`: the trigger by name, with its own parameters beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "trigger", rename_all = "snake_case")]
pub enum RefreshConfig {
    /// No read refresh.
    None(NoRefresh),
    /// Refresh at a fixed read count.
    Threshold(Threshold),
}

impl Default for RefreshConfig {
    fn default() -> Self {
        RefreshConfig::None(NoRefresh {})
    }
}

impl RefreshConfig {
    /// The configured trigger.
    pub fn policy(&self) -> &dyn RefreshTrigger {
        match self {
            RefreshConfig::None(p) => p,
            RefreshConfig::Threshold(p) => p,
        }
    }
}
