//! Read refresh: a trigger on a block's reads since erase (read disturb) names blocks whose
//! valid data are then moved elsewhere and the block erased, which resets its read count.
//! `[ftl.refresh] trigger = "..."` picks the trigger by name, its parameters beside it (one
//! file per trigger; the list at the bottom is the registry, `registry.rs`).
//! Where the pages go is `[ftl.refresh_targets]` (`ftl/refresh_targets/`), how they travel
//! `[ftl.move_path]` (copyback or through the controller), and when the moves run against
//! host work `[scheduler]` (`refresh_urgent_reads`).

use crate::error::Result;
use crate::flash::BuildCtx;

/// A read-refresh trigger. The FTL builds one instance for the device
/// ([`RefreshConfig::build`]) and keeps it for the run.
pub trait RefreshTrigger: Send {
    /// Checks the trigger's parameters; `table` is where they sit (`ftl.refresh`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// The instance for the device, for a trigger that keeps state (drawn per-block
    /// limits, a history); `None` (the default): it keeps none and runs as configured.
    fn build(&self, _ctx: &BuildCtx) -> Option<Box<dyn RefreshTrigger>> {
        Option::None
    }

    /// Fewest reads since erase at which the trigger can fire (`None`: never). The read
    /// path compares only this number, so triggers cost nothing below it.
    fn min_reads(&self) -> Option<u32>;

    /// Whether a block read `reads` times since erase (`reads >= min_reads`), with
    /// `pe_cycles` of wear, is refreshed now.
    fn due(&self, reads: u32, pe_cycles: u32) -> bool;
}

crate::registry::policies! {
    built;
    /// `[ftl.refresh]`: the trigger by name, with its own parameters beside it.
    RefreshConfig, RefreshTrigger, "trigger", NoRefresh;
    none::NoRefresh = "none",
    threshold::Threshold,
    wear_scaled::WearScaled,
}
