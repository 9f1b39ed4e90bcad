//! Placement: where a page goes in its plane (the plane itself follows `ftl.striping` for
//! host pages, and is the victim's plane for moved pages). A policy names which of the
//! plane's active blocks takes the page, from why it is written and its attributes, and may
//! refuse a page type (seed 004 keeps critical pages off LSB pages): a refused page is left
//! unprogrammed and counted as skipped. A policy may also ask for a backup copy of a host
//! page on another plane (Meta-Cure); the FTL keeps it mapped beside the primary. `[ftl.placement] policy = "..."` picks it by name.

use super::cause::Cause;
use crate::error::Result;
use crate::flash::block::WriteAttrs;
use crate::flash::cell::PageType;

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

    /// Whether the policy keeps a backup copy of some host pages (then a device needs a
    /// second plane to hold it, and the run reports the copies' programs and reads).
    fn backs_up(&self) -> bool {
        false
    }

    /// The plane of the backup copy of a host page written with `attrs` into `plane`, on a
    /// device of `planes` planes; `None`: no copy. Must differ from `plane`.
    fn backup_plane(&self, _attrs: WriteAttrs, _plane: u32, _planes: u32) -> Option<u32> {
        None
    }
}

crate::registry::policies! {
    /// `[ftl.placement]`: the placement policy by name, with its own parameters beside it.
    PlacementConfig, Placement, "policy", ByCause;
    by_cause::ByCause,
    msb_critical::MsbCritical,
    meta_cure::MetaCure,
}
