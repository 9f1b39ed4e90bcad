//! Garbage-collection victim selection: which full block of a plane GC empties next. One
//! file per policy; the list at the bottom is the registry (see `ftl/registry.rs`).

use super::plane_view::PlaneView;
use crate::error::Result;

/// A victim-selection policy.
pub trait VictimPolicy {
    /// Checks the policy's parameters; `table` is where they sit in the config (`ftl.gc`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// Index into `plane.blocks` of the block to empty, among [`PlaneView::reclaimable`];
    /// `None` when no block would free a page.
    fn select(&self, plane: &PlaneView) -> Option<usize>;
}

crate::registry::policies! {
    /// `[ftl.gc]`: the victim policy by name, with its own parameters beside it.
    VictimConfig, VictimPolicy, "victim", Greedy;
    greedy::Greedy,
    cost_benefit::CostBenefit,
    weighted::Weighted,
    fifo::Fifo,
}
