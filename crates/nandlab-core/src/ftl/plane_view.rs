//! What a block-choosing policy (GC victim, wear leveling) sees of one plane: its blocks'
//! state and when each was last programmed, read-only.

use crate::flash::block::BlockState;

/// The blocks of one plane at one moment.
pub struct PlaneView<'a> {
    /// The plane's blocks, in block order.
    pub blocks: &'a [BlockState],
    /// Pages per block.
    pub pages_per_block: u32,
    /// Current time (ns).
    pub now_ns: i64,
    /// When block `i` of `blocks` was last programmed, on the run's clock (ns; data placed
    /// by preconditioning count as programmed at 0, the start of the run).
    pub last_program_ns: &'a dyn Fn(usize) -> i64,
}

impl PlaneView<'_> {
    /// Full blocks that would free at least one page if emptied, with their index in
    /// `blocks` (a block with every page valid frees nothing, so GC never picks it).
    pub fn reclaimable(&self) -> impl Iterator<Item = (usize, &BlockState)> + '_ {
        self.blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.reclaimable(self.pages_per_block))
    }
}

#[cfg(test)]
pub(crate) mod fixture {
    use super::PlaneView;
    use crate::flash::block::{BlockState, BlockStatus};

    /// A full block of 8 pages with `valid` valid pages and `pe` P/E cycles.
    pub fn full(valid: u16, pe: u32) -> BlockState {
        BlockState {
            valid,
            pe,
            status: BlockStatus::Full,
            written: 8,
            ..BlockState::new_free(pe)
        }
    }

    /// A view of `blocks` (8 pages each) at `now_ns` with last-program times `last`.
    pub fn view<'a>(blocks: &'a [BlockState], now_ns: i64, last: &'a dyn Fn(usize) -> i64) -> PlaneView<'a> {
        PlaneView {
            blocks,
            pages_per_block: 8,
            now_ns,
            last_program_ns: last,
        }
    }
}
