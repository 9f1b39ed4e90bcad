//! Placement: where a page goes in its plane (the plane itself follows `ftl.striping` for
//! host pages unless the policy lays host pages out by address, and is the victim's plane
//! for moved pages). A policy names which of the plane's active blocks takes the page, from
//! why it is written and its attributes, and may refuse a page type (seed 004 keeps
//! critical pages off LSB pages): a refused page is left unprogrammed and counted as
//! skipped. A policy may also ask for a backup copy of a host page on another plane
//! (Meta-Cure); the FTL keeps it mapped beside the primary. A policy that places by read
//! heat (seed 003's read leveling, seed 001's hot data on reliable chips) asks for pages'
//! predicted reads ([`Placement::window_requests`]). `[ftl.placement] policy = "..."` picks
//! it by name.

use super::cause::Cause;
use crate::error::Result;
use crate::flash::block::WriteAttrs;
use crate::flash::cell::PageType;
use crate::flash::Geometry;

/// Active blocks a plane keeps open at once; [`Placement::slot`] returns one of them.
pub const ACTIVE_SLOTS: usize = 4;

/// What a read-heat placement policy sees of a page and its plane (built only for a policy
/// whose [`Placement::window_requests`] is set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadHeat {
    /// The page's predicted reads: its logical page's host reads in the last window.
    pub page_reads: u64,
    /// Per slot, the read load of its active block (reads since erase plus the predicted
    /// reads of the pages placed in it since it opened), or `None` when the slot has no
    /// open block with a free page (placing there opens a fresh one).
    pub slot_loads: [Option<u64>; ACTIVE_SLOTS],
}

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

    /// Window of host requests pages' reads are counted over, for a policy that uses
    /// read heat, to place by it or for its own hot-read rule (`None`: it uses none).
    fn window_requests(&self) -> Option<u32> {
        None
    }

    /// Whether the policy chooses slots from read heat (then the FTL builds a
    /// [`ReadHeat`] for each page it places and asks [`Placement::slot_by_heat`]). A policy
    /// may keep a read window for another use without placing by heat.
    fn places_by_heat(&self) -> bool {
        false
    }

    /// [`Placement::slot`] for a policy that places by read heat, given the page's
    /// predicted reads and its plane's active blocks' read loads.
    fn slot_by_heat(&self, cause: Cause, attrs: WriteAttrs, _heat: &ReadHeat) -> usize {
        self.slot(cause, attrs)
    }

    /// Whether the policy keeps a backup copy of some host pages (then a device needs a
    /// second plane to hold it, and the run reports the copies' programs and reads).
    fn backs_up(&self) -> bool {
        false
    }

    /// The plane of the backup copy of a host page written with `attrs` into `plane`, on a
    /// device of `planes` planes; `None`: no copy. Must differ from `plane`. Asked only
    /// when [`Placement::backs_up`].
    fn backup_plane(&self, _attrs: WriteAttrs, _plane: u32, _planes: u32) -> Option<u32> {
        None
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

    /// Host reads in the last window ([`Placement::window_requests`]) from which a page is
    /// hot for [`Placement::takes_chip`]. `None`: host pages go to any chip.
    fn hot_reads(&self) -> Option<u32> {
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
    read_leveling::ReadLeveling,
    meta_cure::MetaCure,
    interleave_group::InterleaveGroup,
    hot_reliable::HotReliable,
}
