//! Host placement: which plane and block a host write (its backup copy, a hot page moved
//! on read) goes to, as the `[ftl.placement]` policy says, and the page placed there.

use super::*;

impl Ftl {
    /// Moves `lpn` onto a chip placement takes hot pages to, when placement keeps hot pages
    /// apart ([`placement::Placement::hot_reads`]), `lpn` is hot (read at least that often in the last
    /// window, this read included) and its chip is not one of those: `hot_reliable`'s
    /// migration on read, without which read-only hot data would never move. The page goes
    /// through the controller (it changes chip: no copyback) to the next plane in striping
    /// order that takes it, as a host write would; the move goes to `ops`. Returns whether
    /// it moved.
    pub fn move_if_hot(&mut self, lpn: u64, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<bool> {
        let (Some(hot_reads), Some(ppn)) = (self.hot_reads, self.mapping.get(lpn)) else {
            return Ok(false);
        };
        let reads = self.read_window.as_ref().map_or(0, |w| w.predicted(lpn));
        let from = self.ppa(ppn);
        let chip = self.geo.plane_locs[self.geo.plane_of_block(from.block) as usize].chip;
        if reads < u64::from(hot_reads) || self.cfg.placement.policy().takes_chip(true, chip) {
            return Ok(false);
        }
        let meta = self.page_meta(from).expect("a mapped page has metadata");
        let page = MovedPage {
            meta,
            pe_cycles: self.blocks[from.block as usize].pe,
            reads_since_erase: self.block_reads(from.block),
        };
        // GC the plane choice may run is on another chip, so it cannot move `from`.
        let plane = self.pick_plane(lpn, meta.attrs, now_ns, ops)?;
        self.unmap_primary(lpn);
        let moved = PageMeta {
            program_ns: now_ns,
            ..meta
        };
        let to = self.place(plane, Cause::HotRead, moved, None)?;
        ops.push(BgOp::Move {
            from,
            to,
            cause: Cause::HotRead,
            path: self.cfg.move_path.of(Cause::HotRead),
            page,
        });
        self.stats.hot_page_moves += 1;
        Ok(true)
    }

    /// Writes logical page `lpn` with content tag `tag`, codec tag bits `oob_tags` and
    /// attributes `attrs` (kept in the page's OOB area) at `now_ns`; returns where it went.
    /// When placement asks for a backup copy, it is programmed too, on the plane placement
    /// names ([`Ftl::backup_of`] says where). GC and wear-leveling work it triggers is
    /// appended to `ops`.
    pub fn write(
        &mut self,
        lpn: u64,
        tag: u64,
        oob_tags: u64,
        attrs: WriteAttrs,
        now_ns: i64,
        ops: &mut Vec<BgOp>,
    ) -> Result<Ppa> {
        self.unmap(lpn);
        let plane = match &self.host_layout {
            Some(layout) => {
                // By address: the plane is the page's; a full one fails by name in `place`.
                let plane = layout[(lpn % layout.len() as u64) as usize];
                self.collect_if_needed(plane, 0, now_ns, ops)?;
                plane
            }
            None => self.pick_plane(lpn, attrs, now_ns, ops)?,
        };
        let meta = PageMeta {
            lpn,
            tag,
            program_ns: now_ns,
            oob_tags,
            attrs,
        };
        let ppa = self.place(plane, Cause::Host, meta, None)?;
        self.stats.host_programs += 1;
        if self.backs_up {
            if let Some(to) = self.cfg.placement.policy().backup_plane(attrs, plane, self.geo.planes) {
                self.write_backup(to, meta, now_ns, ops)?;
            }
        }
        Ok(ppa)
    }

    /// Programs a backup copy of the host page `meta` into `plane`, after running GC there
    /// if its free pool is low.
    #[cold]
    pub(super) fn write_backup(&mut self, plane: u32, meta: PageMeta, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        self.collect_if_needed(plane, 0, now_ns, ops)?;
        let attrs = meta.attrs.as_backup();
        self.place(plane, Cause::Host, PageMeta { attrs, ..meta }, None)?;
        self.stats.backup_programs += 1;
        Ok(())
    }

    /// The next plane in striping order that can take a host page, after running GC in it
    /// if its free pool is low. A plane whose GC cannot reclaim space (striping can leave a
    /// plane holding more live data than its share) is skipped for this write, and so is a
    /// plane on a chip placement refuses for `lpn` (by its reads).
    pub(super) fn pick_plane(&mut self, lpn: u64, attrs: WriteAttrs, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<u32> {
        let floor = self.gc_floor_blocks as usize;
        let slot = self.cfg.placement.policy().slot(Cause::Host, attrs);
        let hot = self.is_hot(lpn);
        for _ in 0..self.geo.planes {
            let plane = self.striper.next_plane();
            // A plane the view rules out is one GC would leave as it is: skipping it before
            // GC changes nothing, and keeps `next_host_write` exact.
            if !self.may_take_host_page(plane, slot, hot, [None; 2]) {
                continue;
            }
            self.collect_if_needed(plane, 0, now_ns, ops)?;
            let room = self.next_free_page(plane, slot).is_some();
            if room || self.planes[plane as usize].free.len() > floor {
                return Ok(plane);
            }
        }
        Err(NandError::Invalid(
            "the device is full: no plane can reclaim space for a write (raise ftl.overprovisioning or lower \
             aging.fill_fraction)"
                .into(),
        ))
    }

    /// Whether `lpn` counts as hot for a placement that keeps hot pages apart (`None`: it
    /// keeps none apart).
    pub(super) fn is_hot(&self, lpn: u64) -> Option<bool> {
        self.hot_reads.map(|h| {
            let w = self
                .read_window
                .as_ref()
                .expect("placement that counts reads has a window");
            w.predicted(lpn) >= u64::from(h)
        })
    }

    /// Whether a host page (into `slot`, `hot` as [`Ftl::is_hot`] says) may go to `plane`
    /// without running anything first: its chip is one placement takes the page to, and the
    /// plane is not full. Full means no room in the slot's active block, a free pool at or
    /// below the GC floor (the threshold unless GC is paced) and no block GC could reclaim
    /// a page from: GC would leave
    /// such a plane as it is, so [`Ftl::pick_plane`] skips it. `unmapping` names the blocks
    /// that lose a valid page before the choice (the old copy of the page being written,
    /// and its backup): a full one among them becomes one GC can reclaim.
    pub(super) fn may_take_host_page(
        &self,
        plane: u32,
        slot: usize,
        hot: Option<bool>,
        unmapping: [Option<u32>; 2],
    ) -> bool {
        if let Some(hot) = hot {
            let chip = self.geo.plane_locs[plane as usize].chip;
            if !self.cfg.placement.policy().takes_chip(hot, chip) {
                return false;
            }
        }
        if self.next_free_page(plane, slot).is_some()
            || self.planes[plane as usize].free.len() > self.gc_floor_blocks as usize
        {
            return true;
        }
        let ppb = self.geo.cfg.pages_per_block;
        let first = plane * self.geo.cfg.blocks_per_plane;
        let blocks = &self.blocks[first as usize..(first + self.geo.cfg.blocks_per_plane) as usize];
        blocks
            .iter()
            .zip(first..)
            .any(|(b, i)| b.reclaimable(ppb) || (b.status == BlockStatus::Full && unmapping.contains(&Some(i))))
    }

    /// Where host page `lpn`, written next with `attrs`, will go (plane, the type of the
    /// next free page of its block, and whether placement takes it), as a read-only view
    /// for the host queue. The plane is the page's own when placement lays host pages out
    /// by address; otherwise the first plane from the striping cursor on that is not ruled
    /// out (full, or on a chip placement refuses for a hot page), as [`Ftl::pick_plane`]
    /// skips them. Exact unless GC in that plane runs and still leaves it no room (it had
    /// pages to reclaim, but not a block's worth), when the write moves to a later plane.
    pub fn next_host_write(&self, lpn: u64, attrs: WriteAttrs) -> NextWrite {
        let slot = self.cfg.placement.policy().slot(Cause::Host, attrs);
        let plane = match &self.host_layout {
            Some(layout) => layout[(lpn % layout.len() as u64) as usize],
            None => {
                let hot = self.is_hot(lpn);
                // The write unmaps the page's old copy (and backup) before it picks a plane.
                let block = |ppn: Option<u64>| ppn.map(|p| self.ppa(p).block);
                let unmapping = [block(self.mapping.get(lpn)), block(self.backups.get(&lpn).copied())];
                (0..u64::from(self.geo.planes))
                    .map(|k| self.striper.peek_plane_after(k))
                    .find(|&p| self.may_take_host_page(p, slot, hot, unmapping))
                    .unwrap_or_else(|| self.striper.peek_plane())
            }
        };
        let placement = self.cfg.placement.policy();
        let page_type = self.next_page_type(plane, slot);
        NextWrite {
            plane,
            page_type,
            accepted: placement.accepts(Cause::Host, attrs, page_type, self.msb_type()),
        }
    }

    /// The active block of `slot` in `plane` and its next free page, if it has one left.
    #[inline]
    pub(super) fn next_free_page(&self, plane: u32, slot: usize) -> Option<(u32, u32)> {
        let b = self.planes[plane as usize].active[slot]?;
        let written = u32::from(self.blocks[b as usize].written);
        (written < self.geo.cfg.pages_per_block).then_some((b, written))
    }

    /// Type of the page the next program into `slot` of `plane` takes (page 0 of a fresh
    /// block when the active one is full).
    pub(super) fn next_page_type(&self, plane: u32, slot: usize) -> PageType {
        let page = self.next_free_page(plane, slot).map_or(0, |(_, p)| p);
        self.geo.page_map.page_type(page)
    }

    /// The most significant page type of the device (1 on MLC).
    pub(super) fn msb_type(&self) -> PageType {
        (self.geo.cfg.cell_type.bits() - 1) as PageType
    }

    /// Programs `meta` (written for `cause`) into the next page placement takes of the
    /// active block it names in `plane`, or of open block `into` when a refresh-target
    /// policy chose one (placement's block once that one is full); pages placement refuses
    /// are skipped (left unprogrammed).
    pub(super) fn place(&mut self, plane: u32, cause: Cause, meta: PageMeta, into: Option<u32>) -> Result<Ppa> {
        let ppb = self.geo.cfg.pages_per_block;
        let (slot, page_reads) = self.slot_for(plane, cause, &meta);
        let may_refuse = self.may_refuse;
        let (block, page) = loop {
            let (block, page) = match into.and_then(|b| self.free_page_in(b)) {
                Some(next) => next,
                None => match self.next_free_page(plane, slot) {
                    Some(next) => next,
                    None => (self.open_block(plane, slot)?, 0),
                },
            };
            let page_type = self.geo.page_map.page_type(page);
            if !may_refuse
                || self
                    .cfg
                    .placement
                    .policy()
                    .accepts(cause, meta.attrs, page_type, self.msb_type())
            {
                break (block, page);
            }
            let st = &mut self.blocks[block as usize];
            st.written += 1;
            if u32::from(st.written) == ppb {
                st.status = BlockStatus::Full;
            }
            self.page_meta.insert(block);
            self.stats.skipped_pages += 1;
        };
        let pa = &mut self.planes[plane as usize];
        if pa.active[slot] == Some(block) {
            pa.placed_reads[slot] += page_reads;
        }
        Ok(self.program(Ppa { block, page }, meta))
    }

    /// Placement's slot for `meta` written for `cause` in `plane`, and the page's predicted
    /// reads (0 unless placement places by read heat).
    pub(super) fn slot_for(&self, plane: u32, cause: Cause, meta: &PageMeta) -> (usize, u64) {
        let placement = self.cfg.placement.policy();
        if !self.places_by_heat {
            return (placement.slot(cause, meta.attrs), 0);
        }
        let page_reads = self.read_window.as_ref().map_or(0, |w| w.predicted(meta.lpn));
        let placed = &self.planes[plane as usize].placed_reads;
        let heat = ReadHeat {
            page_reads,
            slot_loads: std::array::from_fn(|s| {
                self.next_free_page(plane, s)
                    .map(|(b, _)| u64::from(self.block_reads(b)) + placed[s])
            }),
        };
        (placement.slot_by_heat(cause, meta.attrs, &heat), page_reads)
    }
}
