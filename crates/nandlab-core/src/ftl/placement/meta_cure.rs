//! Meta-Cure (Wang, Bathen, Dutt, Shao, DAC'12 pp. 214-219; seed 004's baseline [17]):
//! every critical page (metadata) gets a redundant copy — "redundant pairs are formed at
//! run time and distributed to different physical pages" (DAC'12 abstract) — and a read
//! whose primary copy is uncorrectable reads the copy ("Meta-Cure must read one or more
//! redundant backup pages for critical pages to restore the damaged metadata", 004 §5.3.2).
//! Neither paper says where the copy goes; here it is the next plane by number (plane
//! `p + 1 mod planes`), so the pair never shares a block or a wordline and its two programs
//! run on two planes. Pages go to the active blocks `by_cause` names, every page type taken.

use super::{ByCause, Placement};
use crate::flash::block::WriteAttrs;
use crate::ftl::cause::Cause;
use serde::{Deserialize, Serialize};

/// A backup copy of each critical host page on the next plane; active blocks as `by_cause`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetaCure {}

impl Placement for MetaCure {
    fn slot(&self, cause: Cause, attrs: WriteAttrs) -> usize {
        ByCause {}.slot(cause, attrs)
    }

    fn backs_up(&self) -> bool {
        true
    }

    /// The FTL rejects a one-plane device for this policy.
    fn backup_plane(&self, attrs: WriteAttrs, plane: u32, planes: u32) -> Option<u32> {
        attrs.critical().then_some((plane + 1) % planes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critical_pages_get_a_copy_on_the_next_plane() {
        let p = MetaCure {};
        let (crit, plain) = (WriteAttrs::new(3, true), WriteAttrs::new(3, false));
        assert_eq!(p.backup_plane(crit, 0, 4), Some(1));
        assert_eq!(p.backup_plane(crit, 3, 4), Some(0));
        assert_eq!(p.backup_plane(plain, 0, 4), None);
        assert!(p.backs_up() && !p.may_refuse());
    }
}
