//! Placement: where a page goes in its plane (the plane itself follows `ftl.striping` for
//! host pages unless the policy lays host pages out by address, and is the victim's plane
//! for moved pages). A policy names which of the plane's active blocks takes the page, from
//! why it is written and its attributes, and may refuse a page type (seed 004 keeps
//! critical pages off LSB pages): a refused page is left unprogrammed and counted as
//! skipped. `[ftl.placement] policy = "..."` picks it by name.

use super::cause::Cause;
use crate::error::Result;
use crate::flash::block::WriteAttrs;
use crate::flash::cell::PageType;
use crate::flash::Geometry;

/// Active blocks a plane keeps open at once; [`Placement::slot`] returns one of them.
pub const ACTIVE_SLOTS: usize = 4;

/// A placement policy.
pub trait Placement {
    /// Checks the policy's parameters; `table` is where they sit (`ftl.placement`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// Which of the plane's active blocks (`< ACTIVE_SLOTS`) takes a page written for
    /// `cause` with `attrs`.
    fn slot(&self, cause: Cause, attrs: WriteAttrs) -> usize;

    /// Whether a page may be programmed into a page of type `page_type`, on a device whose
    /// most significant page type is `msb` (1 on MLC). Must accept `msb` (every block has
    /// such pages), so a page always finds a place.
    fn accepts(&self, _cause: Cause, _attrs: WriteAttrs, _page_type: PageType, _msb: PageType) -> bool {
        true
    }

    /// Whether [`Placement::accepts`] can refuse a page (lets the FTL skip asking).
    fn may_refuse(&self) -> bool {
        false
    }

    /// Which plane each host page goes to. `None`: the striping cursor's (the k-th host
    /// page written goes to stripe slot k mod planes). `Some(layout)`: by address, logical
    /// page `l` on plane `layout[l mod planes]` (a permutation of the planes), and
    /// preconditioning lays its data out the same way. `striped[k]` is the plane of stripe
    /// slot `k`.
    fn host_layout(&self, _striped: &[u32], _geo: &Geometry) -> Result<Option<Vec<u32>>> {
        Ok(None)
    }

    /// n of the n-way interleaving (`ecc.interleave.ways`) whose groups the layout puts on
    /// their chips (1: none).
    fn interleave_ways(&self) -> u32 {
        1
    }

    /// `(window_requests, hot_reads)`: placement counts each logical page's host reads in
    /// windows of `window_requests` host requests, and a page read at least `hot_reads`
    /// times in the last one is hot ([`Placement::takes_chip`]). `None`: reads are ignored.
    fn hot_reads(&self) -> Option<(u32, u32)> {
        None
    }

    /// Whether a host page (`hot` or not) may go to a plane on `chip`; the striping cursor
    /// passes over the planes refused. Asked only when [`Placement::hot_reads`] is set.
    fn takes_chip(&self, _hot: bool, _chip: u32) -> bool {
        true
    }
}

crate::registry::policies! {
    /// `[ftl.placement]`: the placement policy by name, with its own parameters beside it.
    PlacementConfig, Placement, "policy", ByCause;
    by_cause::ByCause,
    msb_critical::MsbCritical,
    interleave_group::InterleaveGroup,
    hot_reliable::HotReliable,
}
