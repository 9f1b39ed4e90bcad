//! The address mapping unit (MQSim's `Address_Mapping_Unit`): logical pages to physical
//! ones and back, the reads that sense them (read counts, refresh triggers), their
//! metadata and history (program time, P/E cycles), TRIM and unmapping.

use super::*;

impl Ftl {
    #[inline]
    pub(super) fn ppn(&self, ppa: Ppa) -> u64 {
        u64::from(ppa.block) * u64::from(self.geo.cfg.pages_per_block) + u64::from(ppa.page)
    }

    #[inline]
    pub(super) fn ppa(&self, ppn: u64) -> Ppa {
        self.geo.ppa_of(ppn)
    }

    /// Position of `block`'s read counter: block-in-plane major, stripe slot minor (the
    /// striping order scatters consecutive slots over the planes' numbers).
    #[inline]
    pub(super) fn read_slot(&self, block: u32) -> usize {
        let (plane, index) = self.geo.split_block(block);
        self.read_slot_at(plane, index)
    }

    /// [`Ftl::read_slot`] of block `index` of `plane`.
    #[inline]
    pub(super) fn read_slot_at(&self, plane: u32, index: u32) -> usize {
        (index * self.geo.planes + self.mapping.slot_of_plane(plane)) as usize
    }

    /// Is the physical page valid (its owner still maps to it)?
    pub fn is_valid(&self, ppa: Ppa) -> bool {
        self.live_meta(ppa).is_some()
    }

    /// Metadata of `ppa` if it holds its owner's current data (or its current backup).
    pub(super) fn live_meta(&self, ppa: Ppa) -> Option<PageMeta> {
        let m = self.page_meta(ppa)?;
        let at = if m.attrs.backup() {
            self.backups.get(&m.lpn).copied()
        } else {
            self.mapping.get(m.lpn)
        };
        (at == Some(self.ppn(ppa))).then_some(m)
    }

    /// Whether `lpn` holds data.
    pub fn is_mapped(&self, lpn: u64) -> bool {
        self.mapping.get(lpn).is_some()
    }

    /// The page a host read of `lpn` senses, its read counted against its block (read
    /// disturb), or `None` if `lpn` holds no data.
    #[inline(always)]
    pub fn read(&mut self, lpn: u64) -> Option<SensedPage> {
        match self.mapping.get(lpn) {
            Some(ppn) => {
                if self.read_window.is_some() {
                    self.record_read(lpn);
                }
                Some(self.sense(ppn))
            }
            None => {
                self.stats.unmapped_reads += 1;
                None
            }
        }
    }

    /// Records a host read in the refresh-target policy's prediction window (out of the
    /// read's line: only refresh targets that predict reads keep one).
    #[cold]
    pub(super) fn record_read(&mut self, lpn: u64) {
        if let Some(w) = self.read_window.as_mut() {
            w.record_read(lpn);
        }
    }

    /// The page a read of `lpn`'s backup copy senses, counted as [`Ftl::read`] counts, or
    /// `None` if it has no copy (a read after the primary was uncorrectable).
    pub fn read_backup(&mut self, lpn: u64) -> Option<SensedPage> {
        let ppn = *self.backups.get(&lpn)?;
        Some(self.sense(ppn))
    }

    /// Where `lpn`'s backup copy is, if it has one.
    #[inline]
    pub fn backup_of(&self, lpn: u64) -> Option<Ppa> {
        if self.backups.is_empty() {
            return None;
        }
        self.backups.get(&lpn).map(|&ppn| self.ppa(ppn))
    }

    /// Counts a host read of physical page `ppn` against its block (read disturb, the
    /// refresh trigger).
    #[inline(always)]
    pub(super) fn sense(&mut self, ppn: u64) -> SensedPage {
        let ppa = self.ppa(ppn);
        let (plane, index) = self.geo.split_block(ppa.block);
        let slot = self.read_slot_at(plane, index);
        self.block_reads[slot] += 1;
        let reads = self.block_reads[slot];
        if self.refresh_min_reads != u32::MAX {
            self.stats.sensed_reads += 1;
            self.stats.sensed_pe_sum += u64::from(self.blocks[ppa.block as usize].pe);
            self.stats.sensed_block_reads_sum += u64::from(reads);
            if reads >= self.refresh_min_reads {
                self.consider_refresh(ppa.block, reads);
            }
        }
        SensedPage { ppa, plane, reads }
    }

    /// Reads of `block` since its last erase.
    pub fn block_reads(&self, block: u32) -> u32 {
        self.block_reads[self.read_slot(block)]
    }

    /// Program time of a programmed page (cheaper than [`Ftl::page_meta`] for data that
    /// preconditioning placed).
    #[inline]
    pub fn program_ns(&self, ppa: Ppa) -> i64 {
        if self.blocks[ppa.block as usize].implicit {
            return self.preconditioned_ns;
        }
        self.page_meta
            .program_ns(ppa.block, ppa.page)
            .unwrap_or(self.preconditioned_ns)
    }

    /// P/E cycles `block` has seen.
    #[inline]
    pub fn pe_cycles(&self, block: u32) -> u32 {
        self.blocks[block as usize].pe
    }

    /// Logical pages the mapping holds an entry for.
    pub fn mapping_entries(&self) -> usize {
        self.mapping.entries()
    }

    /// When `block` was last programmed (its preconditioning time if never in the run).
    pub(super) fn last_program_ns(&self, block: u32) -> i64 {
        let b = &self.blocks[block as usize];
        match self
            .page_meta
            .last_program_ns(block, u32::from(b.written).saturating_sub(1))
        {
            Some(t) if !b.implicit && b.written > 0 => t,
            _ => self.preconditioned_ns,
        }
    }

    /// Metadata of a programmed page: what the OOB area says (owner, content tag, time).
    /// `None` for a page of a full block with no valid page left: its records were dropped
    /// (`oob.rs`), as nothing reads a stale page's.
    pub fn page_meta(&self, ppa: Ppa) -> Option<PageMeta> {
        let b = &self.blocks[ppa.block as usize];
        if b.implicit {
            let owner = self.mapping.home_owner(self.ppn(ppa))?;
            Some(PageMeta {
                lpn: owner,
                tag: 0,
                program_ns: self.preconditioned_ns,
                oob_tags: 0,
                attrs: WriteAttrs::new(0, self.fill_critical.contains(owner)),
            })
        } else {
            self.page_meta
                .get(ppa.block, ppa.page)
                .filter(|_| ppa.page < u32::from(b.written))
        }
    }

    /// Discards logical page `lpn`.
    pub fn trim(&mut self, lpn: u64) {
        if self.unmap(lpn) {
            self.stats.trimmed_pages += 1;
        }
    }

    /// Detaches `lpn` from its page and its backup copy, if any (they become invalid: GC
    /// that runs before the new copy is placed must not move them); returns whether it had
    /// a page.
    pub(super) fn unmap(&mut self, lpn: u64) -> bool {
        if !self.backups.is_empty() {
            self.detach_backup(lpn);
        }
        self.unmap_primary(lpn)
    }

    /// Detaches `lpn` from its page (not its backup copy); returns whether it had one.
    pub(super) fn unmap_primary(&mut self, lpn: u64) -> bool {
        let Some(old) = self.mapping.get(lpn) else {
            return false;
        };
        self.invalidate(self.ppa(old).block);
        self.mapping.remove(lpn);
        true
    }

    /// Detaches `lpn`'s backup copy, if it has one.
    pub(super) fn detach_backup(&mut self, lpn: u64) {
        if let Some(old) = self.backups.remove(&lpn) {
            self.invalidate(self.ppa(old).block);
        }
    }

    /// Keeps the OOB records of blocks whose pages are all stale until their erase (see
    /// [`OobStore::keep_stale`]). Called once, before the run.
    pub fn keep_stale_records(&mut self) {
        self.page_meta.keep_stale();
    }

    /// Counts one page of `block` stale; a full block left with none valid drops its OOB
    /// records (nothing reads them before its erase).
    #[inline]
    fn invalidate(&mut self, block: u32) {
        let st = &mut self.blocks[block as usize];
        st.valid -= 1;
        if st.valid == 0 && st.status == BlockStatus::Full && !st.implicit {
            let last = u32::from(st.written) - 1;
            self.page_meta.drop_stale(block, last);
        }
    }
}
