//! The GC / WL unit (MQSim's `GC_and_WL_Unit`). Garbage collection's triggers: the GC
//! loop a host write runs in a plane whose free pool fell to the threshold
//! (`ftl.gc_threshold_blocks`; the scheduler's soft threshold), with wear leveling after
//! each victim; one victim per trigger while paced (preemptible GC, above the hard
//! threshold) and for idle-time GC (`sim/tsu/`). Victims are picked by the `[ftl.gc]`
//! policy and moved by [`Ftl::relocate_and_erase`] (refresh's mover too).

use super::{BgOp, BlockStatus, Cause, Ftl, MovedPage, PageMeta, Ppa};
use crate::error::Result;

impl Ftl {
    /// Free blocks in `plane`'s pool (blocks GC emptied count, whether or not the flash
    /// has erased them yet).
    pub fn free_blocks(&self, plane: u32) -> usize {
        self.planes[plane as usize].free.len()
    }

    /// Whether `block` is in its plane's free pool.
    pub fn is_free(&self, block: u32) -> bool {
        self.blocks[block as usize].status == BlockStatus::Free
    }

    /// Runs GC (and then wear leveling) in `plane` when its free pool is at or below the
    /// threshold plus `reserve` blocks: until the pool is above it, or, when GC is paced
    /// ([`Ftl::pace_gc`]) and the pool is above the floor plus `reserve`, one victim.
    #[inline(always)]
    pub(super) fn collect_if_needed(
        &mut self,
        plane: u32,
        reserve: usize,
        now_ns: i64,
        ops: &mut Vec<BgOp>,
    ) -> Result<()> {
        // Checked for every host page; GC itself is rare.
        let free = self.planes[plane as usize].free.len();
        if free > self.cfg.gc_threshold_blocks as usize + reserve {
            return Ok(());
        }
        if free > self.gc_floor_blocks as usize + reserve {
            self.collect_idle(plane, now_ns, ops)?;
            return Ok(());
        }
        self.urgent_gc |= self.gc_floor_blocks < self.cfg.gc_threshold_blocks;
        self.collect(plane, reserve, now_ns, ops)
    }

    /// Paces GC as preemptible GC does (MQSim's `Preemptible_GC_Enabled`): at or below the
    /// threshold (the soft one) a trigger collects one victim, and only at or below
    /// `floor_blocks` (the hard threshold) does it collect until the pool is above the
    /// threshold again. Called once, before the run.
    pub fn pace_gc(&mut self, floor_blocks: u32) {
        self.gc_floor_blocks = floor_blocks.min(self.cfg.gc_threshold_blocks);
    }

    /// Whether GC ran to the threshold from the floor since the last call (its work is
    /// urgent), clearing the flag.
    pub fn take_urgent_gc(&mut self) -> bool {
        std::mem::take(&mut self.urgent_gc)
    }

    /// The GC loop of [`Ftl::collect_if_needed`]. Gives up when a plane's worth of victims
    /// freed nothing: pages that placement skips (critical pages kept off LSB pages) can
    /// make moving a victim take a whole block, and then the write finds the plane full
    /// instead of looping.
    fn collect(&mut self, plane: u32, reserve: usize, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        let mut fruitless = 0;
        while self.planes[plane as usize].free.len() <= self.cfg.gc_threshold_blocks as usize + reserve {
            if fruitless > self.geo.cfg.blocks_per_plane {
                break;
            }
            let Some(victim) = self.choose_victim(plane, now_ns) else {
                break;
            };
            let free_before = self.planes[plane as usize].free.len();
            let moved = self.relocate_and_erase(victim, plane, Cause::Gc, now_ns, ops)?;
            self.stats.gc_page_moves += moved;
            self.stats.gc_erases += 1;
            fruitless = if self.planes[plane as usize].free.len() > free_before {
                0
            } else {
                fruitless + 1
            };
            self.level_wear(plane, now_ns, ops)?;
        }
        Ok(())
    }

    /// One victim in `plane` at `now_ns` (paced and idle-time GC): collects it (and runs wear leveling
    /// after it, as the GC loop does), its work appended to `ops`. Returns whether there
    /// was a victim (a block with a page to reclaim: the pool gains at least a page's
    /// worth, so repeated calls end above any threshold).
    pub fn collect_idle(&mut self, plane: u32, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<bool> {
        let Some(victim) = self.choose_victim(plane, now_ns) else {
            return Ok(false);
        };
        let moved = self.relocate_and_erase(victim, plane, Cause::Gc, now_ns, ops)?;
        self.stats.gc_page_moves += moved;
        self.stats.gc_erases += 1;
        self.level_wear(plane, now_ns, ops)?;
        Ok(true)
    }

    /// The `[ftl.gc]` policy's victim in `plane` (its instance for the plane, built with
    /// the FTL).
    fn choose_victim(&mut self, plane: u32, now_ns: i64) -> Option<u32> {
        let mut victims = std::mem::take(&mut self.victims);
        let victim = self.choose(plane, now_ns, |v| victims[plane as usize].select(v));
        self.victims = victims;
        victim
    }

    /// Wear leveling after a GC victim: the plane instance's cold block, if any, is moved.
    fn level_wear(&mut self, plane: u32, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        if !self.levelers[plane as usize].is_none() {
            let mut levelers = std::mem::take(&mut self.levelers);
            let cold = self.choose(plane, now_ns, |v| levelers[plane as usize].select(v));
            self.levelers = levelers;
            if let Some(cold) = cold {
                let moved = self.relocate_and_erase(cold, plane, Cause::WearLeveling, now_ns, ops)?;
                self.stats.wl_page_moves += moved;
                self.stats.wl_erases += 1;
            }
        }
        Ok(())
    }

    /// Moves every valid page of `victim` (attributes and all) within `plane`, in the order
    /// the relocation policy picks, to where placement puts pages moved for `cause`; erases
    /// the block and returns it to the free pool. Returns the pages moved.
    pub(super) fn relocate_and_erase(
        &mut self,
        victim: u32,
        plane: u32,
        cause: Cause,
        now_ns: i64,
        ops: &mut Vec<BgOp>,
    ) -> Result<u64> {
        let ppb = self.geo.cfg.pages_per_block;
        let (mut waiting, mut from) = (std::mem::take(&mut self.moving), std::mem::take(&mut self.moving_from));
        // Which pages are live first, then detach them: the liveness lookups (a mapping
        // cache miss each on a large drive) no longer wait on one another's updates, so
        // the CPU overlaps them. Same result: one page's detaching never changes whether
        // another page of the block is live (each logical page has one primary and at
        // most one backup, each checked against its own table).
        for page in 0..ppb {
            if let Some(meta) = self.live_meta(Ppa { block: victim, page }) {
                waiting.push_back(meta);
                from.push_back(page);
            }
        }
        for meta in &waiting {
            // A moved copy leaves its pair where it is.
            if meta.attrs.backup() {
                self.detach_backup(meta.lpn);
            } else {
                self.unmap_primary(meta.lpn);
            }
        }
        let moved = waiting.len() as u64;
        let (pe_cycles, reads_since_erase) = (self.blocks[victim as usize].pe, self.block_reads(victim));
        let path = self.cfg.move_path.of(cause);
        let mut spread = match cause {
            Cause::Refresh => self.refresh_destinations(plane, &waiting)?.map(Vec::into_iter),
            _ => None,
        };
        while let Some(first) = waiting.front() {
            // A spreading refresh-target policy chose every page's block (in page order),
            // which placement programs (its page-type refusal still applies); otherwise the
            // relocation order picks the page for placement's next page.
            let to_block = spread.as_mut().and_then(Iterator::next);
            let i = match to_block {
                Some(_) => 0,
                None => {
                    let dest = self.next_page_type(plane, self.cfg.placement.policy().slot(cause, first.attrs));
                    self.cfg.relocation.policy().pick(waiting.make_contiguous(), dest)
                }
            };
            let (meta, page) = (
                waiting.remove(i).expect("pick is in range"),
                from.remove(i).expect("same length"),
            );
            let moved_meta = PageMeta {
                program_ns: now_ns,
                ..meta
            };
            let to = self.place(plane, cause, moved_meta, to_block)?;
            ops.push(BgOp::Move {
                from: Ppa { block: victim, page },
                to,
                cause,
                path,
                page: MovedPage {
                    meta,
                    pe_cycles,
                    reads_since_erase,
                },
            });
        }
        (self.moving, self.moving_from) = (waiting, from);
        let slot = self.read_slot(victim);
        self.block_reads[slot] = 0;
        let st = &mut self.blocks[victim as usize];
        debug_assert_eq!(st.valid, 0);
        st.pe += 1;
        st.written = 0;
        st.implicit = false;
        st.status = BlockStatus::Free;
        let pe = st.pe;
        self.page_meta.release(victim);
        let pa = &mut self.planes[plane as usize];
        // A full block can still be a stream's active block (until its next page opens
        // another): once erased it is only in the free pool.
        for a in pa.active.iter_mut().filter(|a| **a == Some(victim)) {
            *a = None;
        }
        self.refresh_dests[plane as usize].retain(|&b| b != victim);
        ops.push(BgOp::Erase { block: victim, cause });
        self.release_erased(victim, plane, pe)?;
        Ok(moved)
    }
}
