//! Opening and closing blocks outside placement's streams: the blocks a refresh-target
//! policy fills (seed 003). Which free block opens is `ftl.block_opening` for every cause
//! ([`super::allocator::BlockOpening`]); a policy that chooses its destinations by P/E
//! (BADR, 003 §III-B) takes the least-worn one instead.

use super::Ftl;
use crate::error::Result;
use crate::flash::block::BlockStatus;

impl Ftl {
    /// Opens the least-worn free block of `plane`, whatever `ftl.block_opening` says.
    pub(super) fn take_least_worn_block(&mut self, plane: u32) -> Result<u32> {
        let Some(block) = self.planes[plane as usize].take_least_worn() else {
            return Err(Self::no_free_block(plane));
        };
        Ok(self.mark_open(block))
    }

    /// Closes an open block a refresh filled: its unwritten pages stay unprogrammed (the
    /// block is full, and GC may reclaim it). Seed 003's Baseline moves each refreshed
    /// block to "another new block", so the one before takes no more pages.
    pub(super) fn close_unwritten(&mut self, block: u32) {
        let st = &mut self.blocks[block as usize];
        if st.status != BlockStatus::Open {
            return;
        }
        st.written = self.geo.cfg.pages_per_block as _;
        st.status = BlockStatus::Full;
        // Unprogrammed pages read back as records of no page (as placement's skipped ones).
        self.page_meta.insert(block);
    }
}
