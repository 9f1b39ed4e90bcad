//! One active block per cause in each plane: host data, GC and wear-leveling moves, and
//! read-refresh moves each fill their own block, so cold data moved by GC do not mix with
//! freshly written hot data, nor read-hot refreshed data with either (pages moved because
//! they are read often join the refreshed ones). Any page type.

use super::Placement;
use crate::flash::block::WriteAttrs;
use crate::ftl::cause::Cause;
use serde::{Deserialize, Serialize};

/// Host, GC (with wear leveling) and refresh pages in separate active blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByCause {}

impl Placement for ByCause {
    fn slot(&self, cause: Cause, _attrs: WriteAttrs) -> usize {
        match cause {
            Cause::Host => 0,
            Cause::Gc | Cause::WearLeveling => 1,
            Cause::Refresh | Cause::HotRead => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_fill_separate_blocks_and_every_page_type_is_taken() {
        let p = ByCause {};
        let a = WriteAttrs::new(3, true);
        let slots: Vec<usize> = [Cause::Host, Cause::Gc, Cause::WearLeveling, Cause::Refresh, Cause::HotRead]
            .iter()
            .map(|&c| p.slot(c, a))
            .collect();
        assert_eq!(slots, vec![0, 1, 1, 2, 2]);
        assert!((0..3).all(|t| p.accepts(Cause::Host, a, t, 2)));
        assert!(!p.may_refuse());
    }
}
