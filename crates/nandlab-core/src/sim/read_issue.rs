//! Read issue: a read request's pages mapped, their flash state and RBER looked up, each
//! judged by the read path and its first sensing reserved.

use super::*;

impl Simulator {
    /// Issues the page reads of request `slot` (logical pages `first..=last`) at `now`.
    #[inline]
    pub(super) fn issue_reads(&mut self, now: u64, slot: u32, first: u64, last: u64, bytes: (u64, u64)) -> Result<()> {
        // One branch per request: reads that need none of the per-page features take the
        // one pass without them.
        if self.plain_reads {
            self.issue_plain_reads(now, slot, first, last, bytes);
            Ok(())
        } else {
            self.issue_judged_reads(now, slot, first, last, bytes)
        }
    }

    /// [`Simulator::issue_reads`] when `plain_reads` (the request's pages ask no cache,
    /// mapping cache, critical-page, judging, TVR or interleaving question): each page
    /// mapped and sensed in one pass, with no batch (building one cost ~30 instructions a
    /// page). The order is the batched passes': a page's sensing touches no FTL state and an
    /// unmapped page cannot complete a request that still has mapped pages pending.
    #[inline(always)]
    fn issue_plain_reads(&mut self, now: u64, slot: u32, first: u64, last: u64, bytes: (u64, u64)) {
        let logical = self.ftl.logical_pages();
        let units = self.units.reads(first, last, bytes);
        for p in first..=last {
            let Some(sensed) = self.ftl.read(wrap(p, logical)) else {
                // Unmapped: done when its mapping entry is known (now, without a mapping cache).
                self.finish_page(slot, now);
                continue;
            };
            let loc = self.geo.plane_locs[sensed.plane as usize];
            self.count_host_read(loc.die);
            let read = PageRead {
                ppa: sensed.ppa,
                loc,
                verdict: Verdict::Unjudged,
                extra: 0,
                units: units.at(p) as u16,
            };
            let sense_ns = self.sense_ns(&read);
            self.sense_first(Parts::One(loc), now, slot, read, sense_ns, NO_BACKUP);
        }
    }

    /// Issues the page reads of request `slot` (logical pages `first..=last`) at `now`, in
    /// passes over the request's pages, each a tight loop whose pages do not wait on each
    /// other: the mapping, each page's flash state (the pages sit in different planes, so
    /// their block records are cache misses that then overlap), the pages' RBERs, then each
    /// read's verdict and sensing.
    fn issue_judged_reads(&mut self, now: u64, slot: u32, first: u64, last: u64, bytes: (u64, u64)) -> Result<()> {
        let logical = self.ftl.logical_pages();
        let mut pages = std::mem::take(&mut self.read_batch);
        pages.clear();
        let mut cache_hits = 0;
        let units = self.units.reads(first, last, bytes);
        // Whether any page may hold a critical page, asked once per request.
        let critical = self.cfg.host.critical.is_active();
        for p in first..=last {
            let lpn = wrap(p, logical);
            if let Some(cache) = self.cache.as_mut() {
                let (hit, evicted) = cache.read(lpn);
                if let Some(ev) = evicted {
                    self.write_back(now, slot, ev)?;
                }
                if hit {
                    cache_hits += 1;
                    continue;
                }
            }
            let ready = self.translate(now, lpn, false);
            let Some(sensed) = self.ftl.read(lpn) else {
                // An unmapped page is done when its mapping entry is known (now, without a
                // mapping cache; the mapped pages finish only from later events).
                self.finish_page(slot, ready);
                continue;
            };
            let (ppa, reads) = (sensed.ppa, sensed.reads);
            let loc = self.geo.plane_locs[sensed.plane as usize];
            self.count_host_read(loc.die);
            pages.push(PendingRead {
                ppa,
                loc,
                reads,
                state: None,
                rber: 0.0,
                critical: critical
                    && self.cfg.host.critical.may_hold(lpn)
                    && self.ftl.page_meta(ppa).is_some_and(|m| m.attrs.critical()),
                units: units.at(p) as u16,
                lpn,
                ready,
            });
        }
        if self.read_path.enabled {
            for p in pages.iter_mut() {
                p.state = self.page_state(p.ppa, p.loc.chip, p.reads);
            }
            for p in pages.iter_mut() {
                if let Some(st) = &p.state {
                    p.rber = self.read_path.rber(st, now)?;
                }
            }
        }
        if self.tvr.is_some() {
            for p in &pages {
                let tvr = self.is_tvr(p.ppa);
                let age_s = self.read_path.retention_s(self.ftl.program_ns(p.ppa), now);
                let rber = p.state.map(|_| p.rber);
                if let Some(d) = self.tvr.as_mut() {
                    d.note_read(tvr, age_s, rber);
                }
            }
        }
        // Codewords of one interleaving group read by one request share one sensing of the
        // group's n pages: each page holds 1/n of every codeword of the group (§3.3 groups
        // the codewords of a write "so that they may be read and updated together"), as a
        // group update senses them once (`group_write.rs`). (group, sensing ns, its end)
        let ways = u64::from(self.cfg.ecc.interleave.ways);
        let mut shared: Option<(u64, u64, u64)> = None;
        for p in &pages {
            let (ppa, loc) = (p.ppa, p.loc);
            let (verdict, extra, backup) = match p.state.as_ref() {
                Some(st) => {
                    let plan = self.read_path.judge(p.rber, st);
                    let failed = self.read_path.uncorrectable(plan);
                    let backup = if failed {
                        self.judge_backup(now, p.lpn, p.units)?
                    } else {
                        None
                    };
                    if p.critical {
                        let lost = failed && backup.is_none_or(|(_, copy_failed)| copy_failed);
                        self.counters.critical_uncorrectable += u64::from(lost);
                    }
                    let backup = backup.map_or(NO_BACKUP, |(b, _)| self.backup_reads.insert(b));
                    (
                        Verdict::Plan(plan as u16),
                        self.read_path.first_extra_levels(plan),
                        backup,
                    )
                }
                None => (Verdict::Unjudged, 0, NO_BACKUP),
            };
            if p.critical {
                let page_type = usize::from(self.geo.page_map.page_type(ppa.page));
                self.counters.critical_reads[page_type] += 1;
                if let Some(b) = self.ftl.backup_of(p.lpn) {
                    self.counters.critical_backed_up[page_type][usize::from(self.geo.page_map.page_type(b.page))] += 1;
                }
            }
            let units = p.units;
            let read = PageRead {
                ppa,
                loc,
                verdict,
                extra,
                units,
            };
            // Sensing starts once the mapping entry is known.
            let sense_ns = self.sense_ns(&read);
            if ways == 1 {
                // Not interleaved: the one part is the mapped page.
                self.sense_first(Parts::One(loc), p.ready, slot, read, sense_ns, backup);
                continue;
            }
            match shared {
                Some((group, dur, end)) if group == p.lpn / ways && sense_ns <= dur => {
                    self.read_sensed(end.max(p.ready), slot, read, backup);
                }
                _ => {
                    let end = self.start_read(p.ready, slot, read, sense_ns, backup);
                    shared = Some((p.lpn / ways, sense_ns, end));
                }
            }
        }
        self.read_batch = pages;
        for _ in 0..cache_hits {
            let end = self.dram_access(now);
            self.finish_page(slot, end);
        }
        Ok(())
    }

    /// Judges the read of `lpn`'s backup copy (`units` of it) after its primary was
    /// uncorrectable at `now`, and whether it fails too; `None` when it has no copy.
    pub(super) fn judge_backup(&mut self, now: u64, lpn: u64, units: u16) -> Result<Option<(PageRead, bool)>> {
        let Some(sensed) = self.ftl.read_backup(lpn) else {
            return Ok(None);
        };
        let (ppa, reads) = (sensed.ppa, sensed.reads);
        let loc = self.geo.plane_locs[sensed.plane as usize];
        let Some(st) = self.page_state(ppa, loc.chip, reads) else {
            return Ok(None);
        };
        let rber = self.read_path.rber(&st, now)?;
        let plan = self.read_path.judge(rber, &st);
        self.counters.backup_reads += 1;
        let failed = self.read_path.uncorrectable(plan);
        self.counters.backup_uncorrectable += u64::from(failed);
        let read = PageRead {
            ppa,
            loc,
            verdict: Verdict::Plan(plan as u16),
            extra: self.read_path.first_extra_levels(plan),
            units,
        };
        Ok(Some((read, failed)))
    }

    /// Starts page read `r` of request `req` at `now`: its first attempt senses the hard
    /// page and, when the strategy starts higher, its extra levels, for `sense_ns`
    /// ([`Simulator::sense_ns`]); `backup` follows it. Returns when the sensing ends.
    #[inline(always)]
    pub(super) fn start_read(&mut self, now: u64, req: u32, r: PageRead, sense_ns: u64, backup: u32) -> u64 {
        let parts = self.parts(r.ppa, r.loc);
        self.sense_first(parts, now, req, r, sense_ns, backup)
    }

    /// [`Simulator::start_read`] of a read whose codeword's parts are `parts` (a caller
    /// that knows them already skips working them out: every page read starts here).
    #[inline(always)]
    pub(super) fn sense_first(
        &mut self,
        parts: Parts,
        now: u64,
        req: u32,
        r: PageRead,
        sense_ns: u64,
        backup: u32,
    ) -> u64 {
        let sensed = parts.sense(&mut self.backend, self.suspension.as_mut(), now, sense_ns);
        self.read_sensed(sensed, req, r, backup);
        sensed
    }

    /// The first sensing of read `r` (hard, plus the extra levels its plan senses at once).
    pub(super) fn sense_ns(&self, r: &PageRead) -> u64 {
        let t_r = self.timing.read(self.geo.page_map.page_type(r.ppa.page));
        t_r + u64::from(r.extra) * self.timing.extra_sense_ns
    }

    /// Read `r`'s first sensing ends at `sensed`. (Every page read comes here: inlined,
    /// its event is built in the caller's registers.)
    #[inline(always)]
    pub(super) fn read_sensed(&mut self, sensed: u64, req: u32, r: PageRead, backup: u32) {
        self.counters.page_reads += 1;
        self.counters.soft_senses += u64::from(r.extra > 0);
        self.events.push(
            sensed,
            Event::SenseDone {
                req,
                ppa: r.ppa,
                verdict: r.verdict,
                units: r.units,
                backup,
            },
        );
    }

    /// What the read path needs to judge a read of `ppa` on `chip`, whose block has been
    /// read `reads` times since erase (`None` when reads are not judged): the page history
    /// its error model declares (`ReadPath::gathers`; wear and age cost a cache miss per
    /// page, so models blind to them skip it).
    pub(super) fn page_state(&self, ppa: Ppa, chip: u32, reads: u32) -> Option<PageState> {
        if !self.read_path.enabled {
            return None;
        }
        let content = self.read_path.needs_content().then(|| {
            let m = self.ftl.page_meta(ppa).expect("a mapped page has metadata");
            (m.lpn, m.tag, m.oob_tags)
        });
        let gather = self.read_path.gathers();
        Some(PageState {
            content,
            program_ns: if gather.retention { self.ftl.program_ns(ppa) } else { 0 },
            pe_cycles: if gather.pe { self.ftl.pe_cycles(ppa.block) } else { 0 },
            reads_since_erase: if gather.reads { reads } else { 0 },
            page_type: self.geo.page_map.page_type(ppa.page),
            chip,
            block: ppa.block,
            tvr: self.is_tvr(ppa),
        })
    }
}
