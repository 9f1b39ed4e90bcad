//! Bad-block management (`ftl.retire_pe_limit`): the erase that brings a block to the
//! limit retires it — its valid pages have just moved (GC, wear leveling or refresh
//! emptied it), and it leaves the plane's free pool for good, so every retired block
//! comes out of over-provisioning. A block that preconditioning finds at the limit is
//! retired at once if it holds no data, else at its next erase. The drive has failed when
//! a plane's blocks in service can no longer hold its share of the logical space plus the
//! free blocks GC needs (`ftl.gc_threshold_blocks` + 2, the fill's own check): JESD218's
//! "the SSD maintains its capacity".

use super::aging::MAX_PE_CYCLES;
use super::{BlockStatus, Ftl};
use crate::error::{NandError, Result};
use std::cmp::Reverse;

impl Ftl {
    /// Whether a block with `pe` cycles is past the retirement limit.
    #[inline]
    pub(super) fn worn_out(&self, pe: u32) -> bool {
        self.cfg.retire_pe_limit.is_some_and(|limit| pe >= limit)
    }

    /// Puts a block just erased (to `pe` cycles) back into `plane`'s free pool, or retires
    /// it when it is worn out; fails the drive when the plane has too few blocks left.
    pub(super) fn release_erased(&mut self, block: u32, plane: u32, pe: u32) -> Result<()> {
        self.min_free.set(None);
        if !self.worn_out(pe) {
            self.planes[plane as usize].free.push(Reverse((pe, block)));
            return Ok(());
        }
        self.blocks[block as usize].status = BlockStatus::Retired;
        let in_service = self.in_service(plane);
        if self.spare_blocks(in_service) < 0 {
            return Err(self.drive_failed(plane, in_service));
        }
        Ok(())
    }

    /// Adds `delta[b]` P/E cycles to every block `b` in service, in place (the wear
    /// fast-forward of `nandlab endurance`, which carries the drive's data layout from one
    /// epoch to the next). Free blocks it brings to the limit retire at once; blocks holding
    /// data retire at their next erase ([`Ftl::release_erased`]). Each plane's free pool is
    /// re-sorted by the new wear. Fails the drive when a plane has too few blocks left; a
    /// list of the wrong length or past the P/E bound changes nothing.
    pub fn add_wear(&mut self, delta: &[u32]) -> Result<()> {
        if delta.len() != self.blocks.len() {
            return Err(NandError::Invalid(format!(
                "the wear fast-forward lists {} blocks; the device has {}",
                delta.len(),
                self.blocks.len()
            )));
        }
        let bound = MAX_PE_CYCLES as u64;
        if let Some((b, (st, d))) = self
            .blocks
            .iter()
            .zip(delta)
            .enumerate()
            .find(|(_, (st, &d))| u64::from(st.pe) + u64::from(d) > bound)
        {
            return Err(NandError::Invalid(format!(
                "the wear fast-forward takes block {b} from {} to {} P/E cycles, past the bound {bound}",
                st.pe,
                u64::from(st.pe) + u64::from(*d)
            )));
        }
        for (st, &d) in self.blocks.iter_mut().zip(delta) {
            if st.status != BlockStatus::Retired {
                st.pe += d;
            }
        }
        for plane in 0..self.planes.len() {
            let free: Vec<u32> = self.planes[plane].free.drain().map(|Reverse((_, b))| b).collect();
            let mut pool = Vec::with_capacity(free.len());
            for b in free {
                let pe = self.blocks[b as usize].pe;
                if self.worn_out(pe) {
                    self.blocks[b as usize].status = BlockStatus::Retired;
                } else {
                    pool.push(Reverse((pe, b)));
                }
            }
            self.planes[plane].free = pool.into();
        }
        self.min_free.set(None);
        for plane in 0..self.geo.planes {
            let in_service = self.in_service(plane);
            if self.spare_blocks(in_service) < 0 {
                return Err(self.drive_failed(plane, in_service));
            }
        }
        Ok(())
    }

    /// Blocks of `plane` not retired.
    fn in_service(&self, plane: u32) -> u32 {
        let bpp = self.geo.cfg.blocks_per_plane;
        let first = (plane * bpp) as usize;
        let retired = self.blocks[first..first + bpp as usize]
            .iter()
            .filter(|b| b.status == BlockStatus::Retired)
            .count() as u32;
        bpp - retired
    }

    /// Spare blocks of a plane with `in_service` blocks: those beyond the blocks its share
    /// of the logical space fills and the free blocks GC needs.
    pub(super) fn spare_blocks(&self, in_service: u32) -> i64 {
        let share = self.logical_pages.div_ceil(u64::from(self.geo.planes));
        let data = share.div_ceil(u64::from(self.geo.cfg.pages_per_block));
        i64::from(in_service) - data as i64 - i64::from(self.cfg.gc_threshold_blocks) - 2
    }

    /// The error that ends a run whose drive has failed.
    pub(super) fn drive_failed(&self, plane: u32, in_service: u32) -> NandError {
        NandError::Invalid(format!(
            "the drive failed: plane {plane} has {in_service} blocks in service (the rest retired at \
             ftl.retire_pe_limit = {}), fewer than its share of the logical space and GC's free blocks need",
            self.cfg.retire_pe_limit.unwrap_or(0)
        ))
    }

    /// The retirement limit, if blocks are retired.
    pub fn retire_pe_limit(&self) -> Option<u32> {
        self.cfg.retire_pe_limit
    }

    /// Blocks out of service.
    pub fn retired_blocks(&self) -> u64 {
        self.blocks.iter().filter(|b| b.status == BlockStatus::Retired).count() as u64
    }

    /// P/E cycles of every block, in block order.
    pub fn pe_by_block(&self) -> Vec<u32> {
        self.blocks.iter().map(|b| b.pe).collect()
    }

    /// Fewest spare blocks of any plane (negative: the drive has failed).
    pub fn spare_blocks_min(&self) -> i64 {
        (0..self.geo.planes)
            .map(|p| self.spare_blocks(self.in_service(p)))
            .min()
            .unwrap_or(0)
    }
}
