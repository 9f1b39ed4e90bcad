//! The block manager (MQSim's `Flash_Block_Manager`): free pools, opening blocks, programming
//! pages into them, and the one view of a plane's blocks from which GC, wear leveling
//! and refresh choose ([`Ftl::choose`]).
//!
//! Opening and closing blocks outside placement's streams: the blocks a refresh-target
//! policy fills (seed 003). Which free block opens is `ftl.block_opening` for every cause
//! ([`super::allocator::BlockOpening`]); a policy that chooses its destinations by P/E
//! (BADR, 003 §III-B) takes the least-worn one instead.

use super::Ftl;
use super::PlaneView;
use crate::error::{NandError, Result};
use crate::flash::block::{BlockStatus, PageMeta};
use crate::flash::Ppa;

impl Ftl {
    /// Open block `block` and its next free page, if it has one left.
    #[inline]
    pub(super) fn free_page_in(&self, block: u32) -> Option<(u32, u32)> {
        let st = &self.blocks[block as usize];
        let written = u32::from(st.written);
        (st.status == BlockStatus::Open && written < self.geo.cfg.pages_per_block).then_some((block, written))
    }

    /// Programs `meta` into `ppa`, the next free page of its open block, and maps it.
    #[inline]
    pub(super) fn program(&mut self, ppa: Ppa, meta: PageMeta) -> Ppa {
        let st = &mut self.blocks[ppa.block as usize];
        debug_assert_eq!(u32::from(st.written), ppa.page);
        st.written += 1;
        st.valid += 1;
        if u32::from(st.written) == self.geo.cfg.pages_per_block {
            st.status = BlockStatus::Full;
        }
        self.page_meta.set(ppa.block, ppa.page, meta);
        let ppn = self.ppn(ppa);
        if meta.attrs.backup() {
            self.backups.insert(meta.lpn, ppn);
        } else {
            self.mapping.set(meta.lpn, ppn);
        }
        ppa
    }

    /// Opens a free block of `plane` for placement's `slot` (the same rule, `ftl.block_opening`,
    /// whatever the cause).
    pub(super) fn open_block(&mut self, plane: u32, slot: usize) -> Result<u32> {
        let block = self.take_free_block(plane)?;
        let pa = &mut self.planes[plane as usize];
        pa.active[slot] = Some(block);
        pa.placed_reads[slot] = 0;
        Ok(block)
    }

    /// Opens the free block of `plane` that `ftl.block_opening` names (every cause).
    pub(super) fn take_free_block(&mut self, plane: u32) -> Result<u32> {
        let bpp = self.geo.cfg.blocks_per_plane;
        let Some(block) = self.planes[plane as usize].take(self.cfg.block_opening, plane * bpp, bpp) else {
            return Err(Self::no_free_block(plane));
        };
        Ok(self.mark_open(block))
    }

    pub(super) fn no_free_block(plane: u32) -> NandError {
        NandError::Invalid(format!(
            "plane {plane} has no free block left: the workload's live data exceeds what GC can reclaim \
             (raise ftl.overprovisioning or lower aging.fill_fraction)"
        ))
    }

    /// Marks a block just taken from the free pool open and empty.
    pub(super) fn mark_open(&mut self, block: u32) -> u32 {
        self.min_free.set(None); // it left its free pool
        let st = &mut self.blocks[block as usize];
        st.status = BlockStatus::Open;
        st.written = 0;
        st.valid = 0;
        st.implicit = false;
        block
    }

    /// The block of `plane` that `policy` picks from a view of the plane's blocks.
    pub(super) fn choose(
        &self,
        plane: u32,
        now_ns: i64,
        policy: impl FnOnce(&PlaneView) -> Option<usize>,
    ) -> Option<u32> {
        let first = plane * self.geo.cfg.blocks_per_plane;
        let range = first as usize..(first + self.geo.cfg.blocks_per_plane) as usize;
        // Policies age blocks on the run's clock: preconditioned data count as programmed
        // at 0. Their retention age is for the error model; taken as the time since the
        // workload last wrote them it made every untouched block ~10^5 times older than any
        // written during a run, so cost-benefit cleaned nearly-full cold blocks (issue 13).
        let last_program_ns = |i: usize| self.last_program_ns(first + i as u32).max(0);
        let view = PlaneView {
            blocks: &self.blocks[range],
            pages_per_block: self.geo.cfg.pages_per_block,
            now_ns,
            last_program_ns: &last_program_ns,
        };
        policy(&view).map(|i| first + i as u32)
    }

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
