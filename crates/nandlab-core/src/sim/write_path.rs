//! The write path: host pages into the DRAM cache or to flash (placed by the FTL, encoded,
//! over the channel, programmed), cache write-backs, backup copies, program times.

use super::tsu::HostProgram;
use super::*;

/// The write group of backup copies: no write request has it, so a copy never waits for,
/// or is waited for by, another page's multi-plane program (`Backend::program`).
const BACKUP_GROUP: u64 = u64::MAX;

impl Simulator {
    /// Writes logical pages `first..=last` of request `slot` (request bytes `bytes`): into
    /// the DRAM cache when there is one (a page is done when it is in DRAM; a dirty page it
    /// evicts goes to flash), else to flash, each page when its program ends. A page the
    /// request covers only in part whose logical page holds data is read first (sensed,
    /// its units the write leaves moved and decoded) and then programmed whole. The cache
    /// keeps whole pages: a partial write into it merges nothing. An interleaved device
    /// writes group by group (`group_write.rs`).
    #[inline]
    pub(super) fn issue_writes(&mut self, now: u64, slot: u32, first: u64, last: u64, bytes: (u64, u64)) -> Result<()> {
        if !self.cfg.ecc.interleave.is_off() {
            return self.write_groups(now, slot, first, last, bytes);
        }
        let logical = self.ftl.logical_pages();
        let tag = self.reqs[slot].id;
        let leaves = self.units.leaves(first, last, bytes);
        for p in first..=last {
            let lpn = wrap(p, logical);
            match self.cache.as_mut() {
                Some(cache) => {
                    let req = self.reqs[slot].req;
                    let attrs = WriteAttrs::new(req.stream, self.cfg.host.critical.classifies(lpn, req.critical));
                    if let Some(ev) = cache.write(lpn, tag, attrs) {
                        self.write_back(now, slot, ev)?;
                    }
                    let end = self.dram_access(now);
                    self.finish_page(slot, end);
                }
                None => {
                    let left = leaves.at(p);
                    match (left > 0 && self.ftl.is_mapped(lpn))
                        .then(|| self.ftl.read(lpn))
                        .flatten()
                    {
                        Some(old) => self.read_for_merge(now, slot, lpn, old, left as u16)?,
                        None => self.write_to_flash(now, slot, lpn)?,
                    }
                }
            }
        }
        Ok(())
    }

    /// Sends logical page `lpn` of write request `slot` to flash at `now`; the request's
    /// page is done when its program ends.
    #[inline]
    pub(super) fn write_to_flash(&mut self, now: u64, slot: u32, lpn: u64) -> Result<()> {
        let ReqState { id, req, .. } = self.reqs[slot];
        let attrs = WriteAttrs::new(req.stream, self.cfg.host.critical.classifies(lpn, req.critical));
        let (ppa, at_die, t_prog) = self.send_to_flash(now, lpn, id, attrs)?;
        self.events.push(at_die, Event::ProgramStart { req: slot, ppa, t_prog });
        self.send_backup(now, lpn, slot)
    }

    /// Sends the backup copy of page `lpn`, if placement just made one, to its die at `now`
    /// (the data is in the controller: it crosses the copy's channel); request `req` (or
    /// [`NO_REQUEST`]) waits for its program too. The copy is programmed on its own, never
    /// as one multi-plane program with its primary: a multi-plane program needs the same
    /// page address in every plane (ONFI's multi-plane rule), which a copy appended to
    /// another plane's active block rarely has.
    pub(super) fn send_backup(&mut self, now: u64, lpn: u64, req: u32) -> Result<()> {
        let Some(ppa) = self.ftl.backup_of(lpn) else {
            return Ok(());
        };
        let (at_die, t_prog) = self.data_to_die(ppa, BACKUP_GROUP, now, now)?;
        if req != NO_REQUEST {
            self.reqs[req].remaining += 1;
        }
        self.events.push(at_die, Event::ProgramStart { req, ppa, t_prog });
        Ok(())
    }

    /// One page moved to or from the cache's DRAM from `now`, after the accesses before it;
    /// returns when it ends.
    pub(super) fn dram_access(&mut self, now: u64) -> u64 {
        self.dram_free_ns = self.dram_free_ns.max(now) + self.dram_page_ns;
        self.dram_free_ns
    }

    /// Sends page `lpn` to flash at `now`: the codec encodes it (its word goes into the
    /// page's OOB area), the FTL places it (running any GC it needs) and it crosses its
    /// channel. Returns where it goes, when it reaches the die and its program time.
    #[inline]
    pub(super) fn send_to_flash(&mut self, now: u64, lpn: u64, tag: u64, attrs: WriteAttrs) -> Result<(Ppa, u64, u64)> {
        let ready = self.translate(now, lpn, true);
        let oob = self.read_path.encode_program(lpn, tag)?;
        let ppa = self.ftl.write(lpn, tag, oob, attrs, now as i64, &mut self.bg_ops)?;
        if attrs.critical() {
            self.counters.critical_programs[usize::from(self.geo.page_map.page_type(ppa.page))] += 1;
        }
        self.run_background(now)?;
        let (at_die, t_prog) = self.data_to_die(ppa, tag, now, ready)?;
        Ok((ppa, at_die, t_prog))
    }

    /// The data of the page placed at `ppa` (write group `tag`) crosses its channel from
    /// `ready`, once an erase queued for its block at `now` is in order; returns when it is
    /// at the die and the page's program time.
    fn data_to_die(&mut self, ppa: Ppa, tag: u64, now: u64, ready: u64) -> Result<(u64, u64)> {
        if self.tsu.is_some() {
            self.erase_before_use(now, ppa.block)?;
        }
        let t_prog = self.program_ns(ppa)?;
        let l = self.geo.loc_of_block(ppa.block);
        let xfer = self.timing.transfer_page_ns;
        let s = self
            .backend
            .program_data(l.channel, l.die, l.plane_in_die, ppa.page, tag, ready, xfer);
        Ok((s.end, t_prog))
    }

    /// Program time of the page just placed at `ppa`: the timing model's, which reads the
    /// page's stored cell states only when it needs them.
    #[inline]
    pub(super) fn program_ns(&mut self, ppa: Ppa) -> Result<u64> {
        let page_type = self.geo.page_map.page_type(ppa.page);
        match self.timing.fixed_program(page_type) {
            Some(t) => Ok(t),
            None => self.modelled_program_ns(ppa, page_type),
        }
    }

    /// [`Simulator::program_ns`] under a model that reads the page's wear or states.
    #[inline(never)]
    pub(super) fn modelled_program_ns(&mut self, ppa: Ppa, page_type: PageType) -> Result<u64> {
        let hist = if self.timing.needs_content() {
            let m = self
                .ftl
                .page_meta(ppa)
                .ok_or_else(|| NandError::Invalid(format!("no metadata for page {ppa:?} just programmed")))?;
            Some(self.read_path.stored_hist(m.lpn, m.tag, m.oob_tags)?)
        } else {
            None
        };
        let pe = self.ftl.pe_cycles(ppa.block);
        let tvr = self.is_tvr(ppa);
        let t = self.timing.program_for(ppa.block, page_type, hist.as_ref(), pe, tvr);
        if let Some(d) = self.tvr.as_mut() {
            d.note_program(tvr, t);
        }
        Ok(t)
    }

    /// Whether the data at `ppa` is (to be) programmed with TVR's reduced layout.
    pub(super) fn is_tvr(&self, ppa: Ppa) -> bool {
        self.tvr
            .as_ref()
            .is_some_and(|d| d.whole_device() || self.ftl.page_meta(ppa).is_some_and(|m| d.holds(m.lpn, m.attrs)))
    }

    /// Writes a page evicted from the cache back to flash; request `slot`, which evicted
    /// it, waits for its program only when the write-back window is full.
    pub(super) fn write_back(&mut self, now: u64, slot: u32, ev: Evicted) -> Result<()> {
        let wait = self.writebacks.full(now, self.writeback_depth);
        if wait {
            self.reqs[slot].remaining += 1;
            self.writebacks.waited += 1;
        }
        self.writebacks.issued();
        let (ppa, at_die, t_prog) = self.send_to_flash(now, ev.lpn, ev.tag, ev.attrs)?;
        let req = if wait { slot } else { NO_REQUEST };
        self.events.push(at_die, Event::WritebackStart { req, ppa, t_prog });
        self.send_backup(now, ev.lpn, req)
    }

    /// Request `req`'s page (or a write-back's) sent to `ppa` reached its die at `now`: its
    /// program may start once a data codec's encoder has run, in the controller
    /// (`units_per_page × codec.encode_ns_per_unit`); the encoder holds neither the die nor
    /// the channel (it overlaps any wait for the die). GC copies move already-encoded data
    /// and pay nothing.
    #[inline]
    pub(super) fn host_program(&self, now: u64, req: u32, ppa: Ppa, t_prog: u64, writeback: bool) -> HostProgram {
        HostProgram {
            req,
            ppa,
            t_prog,
            ready: now + self.read_path.encode_ns_per_page(),
            writeback,
        }
    }

    /// Reserves the program of the page at `ppa`, ready at `ready`; returns when it ends.
    #[inline]
    pub(super) fn program_start(&mut self, ready: u64, ppa: Ppa, t_prog: u64) -> u64 {
        let loc = self.geo.loc_of_block(ppa.block);
        let s = self.backend.program(loc.die, loc.plane_in_die, ready, t_prog);
        self.counters.page_programs += 1;
        s.end
    }

    /// Request `req`'s (or [`NO_REQUEST`]'s) program of `ppa` was reserved to end at `end`:
    /// its page is done then, or, when reads may suspend programs, when it really ends.
    #[inline]
    pub(super) fn program_reserved(&mut self, req: u32, ppa: Ppa, end: u64) {
        if req == NO_REQUEST {
            return;
        }
        match self.suspension.as_mut().filter(|s| s.moves_programs()) {
            Some(s) => {
                let slot = s.track(req, self.geo.loc_of_block(ppa.block).die, end);
                self.events.push(end, Event::ProgramEnd { slot });
            }
            None => self.finish_page(req, end),
        }
    }
}
