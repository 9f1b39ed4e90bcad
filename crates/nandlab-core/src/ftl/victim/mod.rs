//! Garbage-collection victim selection: which full block of a plane GC empties next. One
//! file per policy; the list at the bottom is the registry (see `ftl/registry.rs`).

use super::plane_view::PlaneView;
use crate::error::Result;
use crate::flash::BuildCtx;

/// A victim-selection policy. The FTL builds one instance per plane
/// ([`VictimConfig::build`]) and keeps it for the run.
pub trait VictimPolicy: Send {
    /// Checks the policy's parameters; `table` is where they sit in the config (`ftl.gc`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// The instance for the plane `ctx` names, for a policy that keeps state (a
    /// generator, history); `None` (the default): the policy keeps none and runs as
    /// configured.
    fn build(&self, _ctx: &BuildCtx) -> Option<Box<dyn VictimPolicy>> {
        None
    }

    /// Index into `plane.blocks` of the block to empty, among [`PlaneView::reclaimable`];
    /// `None` when no block would free a page.
    fn select(&mut self, plane: &PlaneView) -> Option<usize>;
}

crate::registry::policies! {
    built;
    /// `[ftl.gc]`: the victim policy by name, with its own parameters beside it.
    VictimConfig, VictimPolicy, "victim", Greedy;
    greedy::Greedy,
    cost_benefit::CostBenefit,
    weighted::Weighted,
    fifo::Fifo,
    rga::Rga,
}
