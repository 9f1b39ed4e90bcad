//! Read timing: after a page's first sensing, its transfers, decodes and the further
//! attempts its read plan needs, until the data is in the controller.

use super::*;

impl Simulator {
    /// A page read of request `req` ended at `end`: the page is done, its backup copy is
    /// read next, or its data merges into a write (`backup`: a [`rmw::Then`] word).
    #[inline(always)]
    pub(super) fn read_done(&mut self, req: u32, backup: u32, end: u64) {
        match rmw::Then::of(backup) {
            rmw::Then::Done => self.finish_page(req, end),
            rmw::Then::Backup(slot) => self.events.push(end, Event::BackupRead { req, slot }),
            rmw::Then::Merge(slot) => self.merge_read_done(req, slot, end),
            rmw::Then::Group(group) => self.group_part_read(req, group, end),
        }
    }

    /// Every page read's first sensing ends here, from the event loop: inlined there.
    #[inline(always)]
    pub(super) fn sense_done(&mut self, now: u64, req: u32, ppa: Ppa, verdict: Verdict, units: u16, backup: u32) {
        let plan = match verdict {
            Verdict::Plan(p) if !self.read_path.is_single_hard_read(usize::from(p)) => usize::from(p),
            Verdict::Unjudged | Verdict::Plan(_) => {
                let end = self.hard_read_rest(now, ppa, units);
                self.read_done(req, backup, end);
                return;
            }
        };
        let ends = AttemptEnds {
            sense: now,
            xfer: 0,
            decode: 0,
        };
        let r = Retry {
            ppa,
            plan,
            next: 0,
            ends,
            units,
            backup,
        };
        self.run_attempts(now, req, r);
    }

    /// The rest of a single hard read of `units` of the page at `ppa`, sensed at `now`:
    /// their transfer and decode; returns when the data is in the controller. (Every
    /// unjudged page read comes here, from the event loop: inlined.)
    #[inline(always)]
    pub(super) fn hard_read_rest(&mut self, now: u64, ppa: Ppa, units: u16) -> u64 {
        let units = u32::from(units);
        let loc = self.geo.loc_of_block(ppa.block);
        // Most reads: a whole page on one plane, at the times worked out once (tested before
        // building the parts, which cost ~10 instructions a read when they are one plane).
        let dec = if self.units.whole(units) && self.cfg.ecc.interleave.is_off() {
            let xfer = self.backend.channel(loc.channel, now, self.timing.transfer_page_ns);
            self.backend.decode(loc.channel, xfer.end, self.decode_page_ns)
        } else {
            let parts = self.parts(ppa, loc);
            let bytes = self.units.share(self.page_bytes, units);
            let xfer = parts.transfer(&mut self.backend, &self.timing, now, bytes);
            let dec_ns = self.units.share(self.decode_page_ns, units);
            self.backend.decode(parts.first().channel, xfer, dec_ns)
        };
        dec.end + self.read_path.codec_decode_ns_per_page()
    }

    /// Charges attempts `r.next..` of read `r`'s plan, each moving and decoding the
    /// read's units of the page only: sensing on the die (the first attempt's
    /// sensing is already done), the transfer on the channel, the decode. An attempt
    /// that waits for the previous decode is resumed by a `Retry` event at that time; a
    /// look-ahead attempt senses right after the previous sensing when the die is idle.
    #[inline]
    pub(super) fn run_attempts(&mut self, now: u64, req: u32, r: Retry) {
        let Retry {
            ppa,
            plan,
            next: from,
            mut ends,
            units,
            backup,
        } = r;
        let units = u32::from(units);
        let parts = self.parts(ppa, self.geo.loc_of_block(ppa.block));
        let channel = parts.first().channel;
        let t_r = self.timing.read(self.geo.page_map.page_type(ppa.page));
        let decode_ns = self.timing.decode_ns;
        let n_attempts = self.read_path.plans[plan].attempts.len();
        for i in from..n_attempts {
            let a = self.read_path.plans[plan].attempts[i];
            if i > 0 {
                let ahead = a.look_ahead && parts.dies_idle_at(&self.backend, ends.sense);
                if !ahead && ends.decode > now {
                    let slot = self.retries.insert(Retry { next: i, ends, ..r });
                    self.events.push(ends.decode, Event::Retry { req, slot });
                    return;
                }
                let ready = if ahead { ends.sense } else { ends.decode };
                let dur =
                    if a.hard_sense { t_r } else { 0 } + u64::from(a.extra_levels_sensed) * self.timing.extra_sense_ns;
                ends.sense = parts.sense(&mut self.backend, self.suspension.as_mut(), ready, dur);
                self.counters.soft_senses += 1;
            }
            let bytes = self.units.share(a.xfer_bytes, units);
            ends.xfer = parts.transfer(&mut self.backend, &self.timing, ends.sense.max(ends.xfer), bytes);
            let dec_ns = self.units.share(decode_ns * u64::from(a.codewords_decoded), units);
            ends.decode = self.backend.decode(channel, ends.xfer.max(ends.decode), dec_ns).end;
        }
        // A look-ahead sensing cancelled by a successful decode held the die until then.
        let cancelled = self.read_path.plans[plan].cancelled_look_ahead_levels;
        if cancelled > 0 && parts.dies_idle_at(&self.backend, ends.sense) {
            let full = u64::from(cancelled) * self.timing.extra_sense_ns;
            let held = full.min(ends.decode.saturating_sub(ends.sense));
            if held > 0 {
                // The dies are idle (checked above): nothing to suspend.
                parts.sense(&mut self.backend, None, ends.sense, held);
            }
        }
        self.read_done(req, backup, ends.decode + self.read_path.codec_decode_ns_per_page());
    }

    /// The planes holding the parts of the codeword mapped to `ppa` on plane `loc`.
    #[inline(always)]
    pub(super) fn parts(&self, ppa: Ppa, loc: PlaneLoc) -> Parts {
        Parts::of(&self.geo, self.cfg.ecc.interleave, ppa, loc)
    }
}
