//! Greedy: the block with the fewest valid pages (the cheapest to empty now).

use super::VictimPolicy;
use crate::ftl::plane_view::PlaneView;
use serde::{Deserialize, Serialize};

/// Fewest valid pages; ties go to the lowest block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Greedy {}

impl VictimPolicy for Greedy {
    fn select(&mut self, plane: &PlaneView) -> Option<usize> {
        plane.reclaimable().min_by_key(|(_, b)| b.valid).map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::block::BlockState;
    use crate::ftl::plane_view::fixture::{full, view};

    #[test]
    fn fewest_valid_pages_and_never_a_block_that_frees_nothing() {
        let blocks = [full(5, 0), full(2, 900), BlockState::new_free(0), full(2, 1), full(8, 0)];
        let last = |_| 0;
        assert_eq!(Greedy {}.select(&view(&blocks, 0, &last)), Some(1));
        assert_eq!(Greedy {}.select(&view(&blocks[4..], 0, &last)), None);
    }
}
