//! Wear leveling beyond what allocation does (the free pool already opens the least-worn
//! block first): after each GC, a policy may name a block of the plane whose data should
//! move so that the block re-enters the free pool. `[ftl.wear_leveling] policy = "..."`
//! picks it by name, its parameters beside `policy` (the older `wear_leveling = "static"`
//! is read too). One file per policy; the list at the bottom is the registry
//! (`crate::registry`).

use super::plane_view::PlaneView;
use crate::error::Result;
use crate::flash::BuildCtx;

/// A wear-leveling policy. The FTL builds one instance per plane
/// ([`WearLevelingConfig::build`]) and keeps it for the run.
pub trait WearLeveler: Send {
    /// Checks the policy's parameters; `table` is where they sit (`ftl.wear_leveling`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// The instance for the plane `ctx` names, for a policy that keeps state; `None` (the
    /// default): the policy keeps none and runs as configured.
    fn build(&self, _ctx: &BuildCtx) -> Option<Box<dyn WearLeveler>> {
        None
    }

    /// Whether the policy never moves data (lets the FTL skip building a plane view after
    /// each GC).
    fn is_none(&self) -> bool {
        false
    }

    /// Index into `plane.blocks` of a full block to empty now, if any.
    fn select(&mut self, plane: &PlaneView) -> Option<usize>;
}

crate::registry::policies! {
    built;
    /// `[ftl.wear_leveling]`: the policy by name, with its own parameters beside it.
    WearLevelingConfig, WearLeveler, "policy", NoLeveling;
    none::NoLeveling = "none",
    static_leveling::StaticLeveling = "static",
}
