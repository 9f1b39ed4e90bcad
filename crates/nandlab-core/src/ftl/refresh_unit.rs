//! The refresh unit: blocks the `[ftl.refresh]` trigger names are refreshed (their valid
//! pages moved where the `[ftl.refresh_targets]` policy says, the block erased), with the
//! destination blocks a spreading target policy keeps open.

use super::*;

impl Ftl {
    /// Asks the refresh trigger about a block past its minimum read count, full or still
    /// open (a block a refresh filled with hot pages may stay open while it is read); a
    /// block it names is refreshed (once) by the next [`Ftl::refresh_due`].
    #[cold]
    pub(super) fn consider_refresh(&mut self, block: u32, reads: u32) {
        if self.refresh.due(reads, self.blocks[block as usize].pe) && !self.refresh_pending.contains(&block) {
            self.refresh_pending.push(block);
        }
    }

    /// Whether `block`, named by the trigger, still needs its refresh (GC may have erased
    /// it meanwhile, which resets its read count).
    pub(super) fn refresh_still_due(&self, block: u32) -> bool {
        let b = &self.blocks[block as usize];
        b.status != BlockStatus::Free && self.refresh.due(self.block_reads(block), b.pe)
    }

    /// Takes a block about to be refreshed out of service: no placement stream and no
    /// refresh destination programs it again (an open block's unwritten pages are erased
    /// with it).
    pub(super) fn close_for_refresh(&mut self, block: u32, plane: u32) {
        for a in self.planes[plane as usize]
            .active
            .iter_mut()
            .filter(|a| **a == Some(block))
        {
            *a = None;
        }
        self.refresh_dests[plane as usize].retain(|&b| b != block);
    }

    /// Refreshes the blocks the trigger named since the last call: their valid pages move
    /// where the refresh-target policy says, in their plane (after GC there if its free
    /// pool is low, counting the destination blocks the policy may open), and the block is
    /// erased, which resets its read count. The flash work goes to `ops`.
    #[inline]
    pub fn refresh_due(&mut self, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        // Called after every read request: the common case (nothing named) stays inline.
        if self.refresh_pending.is_empty() {
            return Ok(());
        }
        self.refresh_pending_blocks(now_ns, ops)
    }

    #[cold]
    pub(super) fn refresh_pending_blocks(&mut self, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        while let Some(block) = self.refresh_pending.pop() {
            if !self.refresh_still_due(block) {
                continue;
            }
            let plane = self.geo.split_block(block).0;
            self.close_for_refresh(block, plane);
            let reserve = self.refresh_dests_missing(plane);
            self.collect_if_needed(plane, reserve, now_ns, ops)?;
            if !self.refresh_still_due(block) {
                continue;
            }
            let moved = self.relocate_and_erase(block, plane, Cause::Refresh, now_ns, ops)?;
            self.stats.refresh_page_moves += moved;
            self.stats.refresh_erases += 1;
        }
        Ok(())
    }

    /// The block each of `waiting` (a refreshed block's valid pages, in page order) goes
    /// to: `plane`'s destination blocks still open (none for a policy that opens a new
    /// block per refresh: the last refresh's are closed), topped up from the free pool to
    /// the policy's number and until their free pages hold every page (the free pool kept
    /// above the GC threshold), each opened by `ftl.block_opening`, or the least worn for a
    /// policy that chooses its blocks by P/E. `None`: placement places them (no room).
    pub(super) fn refresh_destinations(
        &mut self,
        plane: u32,
        waiting: &VecDeque<PageMeta>,
    ) -> Result<Option<Vec<u32>>> {
        let policy = self.cfg.refresh_targets.policy();
        let (want, fresh, by_wear) = (
            policy.destination_blocks() as usize,
            policy.new_block_per_refresh(),
            policy.chooses_by_wear(),
        );
        if self.refresh_by_placement() {
            return Ok(None);
        }
        let ppb = self.geo.cfg.pages_per_block;
        let p = plane as usize;
        let blocks = &self.blocks;
        self.refresh_dests[p].retain(|&b| blocks[b as usize].status == BlockStatus::Open);
        if fresh {
            for b in std::mem::take(&mut self.refresh_dests[p]) {
                self.close_unwritten(b);
            }
        }
        let read_limit = u64::from(self.refresh_min_reads);
        let target = |ftl: &Self, block: u32| TargetBlock {
            block,
            pe: ftl.blocks[block as usize].pe,
            reads: u64::from(ftl.block_reads(block)),
            free_pages: ppb - u32::from(ftl.blocks[block as usize].written),
            read_limit,
        };
        let room = |ftl: &Self| -> usize {
            ftl.refresh_dests[p]
                .iter()
                .map(|&b| target(ftl, b).free_pages as usize)
                .sum()
        };
        while (self.refresh_dests[p].len() < want || room(self) < waiting.len())
            && self.planes[p].free.len() > self.cfg.gc_threshold_blocks as usize
        {
            let block = match by_wear {
                true => self.take_least_worn_block(plane)?,
                false => self.take_free_block(plane)?,
            };
            self.refresh_dests[p].push(block);
        }
        if room(self) < waiting.len() {
            return Ok(None);
        }
        let targets: Vec<TargetBlock> = self.refresh_dests[p].iter().map(|&b| target(self, b)).collect();
        let predicted: Vec<u64> = waiting
            .iter()
            .map(|m| self.read_window.as_ref().map_or(0, |w| w.predicted(m.lpn)))
            .collect();
        let assigned = self.cfg.refresh_targets.policy().assign(&targets, &predicted);
        Ok(assigned.map(|a| a.into_iter().map(|i| targets[i].block).collect()))
    }

    /// Whether placement, not the refresh-target policy, places refreshed pages: a policy
    /// without destinations, or `baseline` beside a placement that places by read heat
    /// (seed 003's RL levels every page it writes, refresh moves included).
    pub(super) fn refresh_by_placement(&self) -> bool {
        let policy = self.cfg.refresh_targets.policy();
        policy.destination_blocks() == 0 || (policy.new_block_per_refresh() && self.places_by_heat)
    }

    /// Destination blocks `plane` lacks for the refresh-target policy (the free blocks a
    /// refresh there may open).
    pub(super) fn refresh_dests_missing(&self, plane: u32) -> usize {
        let policy = self.cfg.refresh_targets.policy();
        let want = policy.destination_blocks() as usize;
        if self.refresh_by_placement() {
            return 0;
        }
        if policy.new_block_per_refresh() {
            return want;
        }
        let open = self.refresh_dests[plane as usize]
            .iter()
            .filter(|&&b| self.blocks[b as usize].status == BlockStatus::Open)
            .count();
        want.saturating_sub(open)
    }
}
