//! Seed 004's MSB allocation (Algorithm 1, placement side): critical pages (metadata) go only
//! on MSB pages, whose RBER is σ ≈ 0.5 times the LSB pages' (§3). A critical page whose next
//! free page is not an MSB page skips to the next MSB page; the pages between are left
//! unprogrammed (invalid) and counted. Non-critical pages take any page, and every page
//! type is filled in program order as `by_cause` fills it (the same active blocks), so the
//! request-feedback scheduler (`host.scheduler = "feedback"`) can hand those LSB pages to
//! non-critical writes before a critical one skips them.

use super::{ByCause, Placement};
use crate::flash::block::WriteAttrs;
use crate::flash::cell::PageType;
use crate::ftl::cause::Cause;
use serde::{Deserialize, Serialize};

/// Critical pages on MSB pages only; active blocks as `by_cause`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MsbCritical {}

impl Placement for MsbCritical {
    fn slot(&self, cause: Cause, attrs: WriteAttrs) -> usize {
        ByCause {}.slot(cause, attrs)
    }

    /// Moved pages are held to it too: GC must not bring a critical page down to an LSB
    /// page (Algorithm 2 leaves an LSB page empty when only critical pages wait).
    fn accepts(&self, _cause: Cause, attrs: WriteAttrs, page_type: PageType, msb: PageType) -> bool {
        !attrs.critical() || page_type == msb
    }

    fn may_refuse(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critical_pages_only_on_msb_pages_others_anywhere() {
        let p = MsbCritical {};
        let (crit, plain) = (WriteAttrs::new(0, true), WriteAttrs::new(0, false));
        for cause in [Cause::Host, Cause::Gc, Cause::Refresh] {
            // MLC: 0 = LSB, 1 = MSB.
            assert!(!p.accepts(cause, crit, 0, 1));
            assert!(p.accepts(cause, crit, 1, 1));
            assert!(p.accepts(cause, plain, 0, 1) && p.accepts(cause, plain, 1, 1));
        }
        // TLC: the MSB is type 2; the CSB is refused too.
        assert!(!p.accepts(Cause::Host, crit, 1, 2) && p.accepts(Cause::Host, crit, 2, 2));
        assert!(p.may_refuse());
        assert_eq!(p.slot(Cause::Gc, crit), ByCause {}.slot(Cause::Gc, crit));
    }
}
