//! Flash time of the cached mapping table (`[ftl.mapping_cache]`): a miss reads the entry's
//! translation page before the access can go on; a dirty entry leaving the cache has its
//! translation page read (to merge the entries not cached) and programmed anew, beside the
//! access. Translation pages use the same dies, channels and decoders as host I/O. Their
//! reads return data through the controller, so the error model and ECC judge them and
//! they follow their read plan (retries, soft levels), kept out of the host reads'
//! statistics as background reads are; a translation page stands on its plane's first
//! block for its wear and block variation (the cache models no translation blocks), and
//! its energy is not counted (as before judging).

use super::read_path::PageState;
use super::Simulator;
use crate::error::Result;
use crate::flash::backend::ArrayOp;
use crate::flash::Geometry;
use crate::ftl::mapping_cache::{EntrySizes, Flush, MappingCache, MappingCacheConfig, TPage};
use crate::ftl::Ftl;
use crate::metrics::summary::MappingCacheSummary;
use std::num::NonZeroUsize;

/// The mapping cache `cfg` configures on `ftl`'s device (`None`: off).
pub(super) fn build(cfg: &MappingCacheConfig, ftl: &Ftl, geo: &Geometry) -> Result<Option<MappingCache>> {
    if !cfg.enabled() {
        return Ok(None);
    }
    let sizes = EntrySizes::new(geo.pages, u64::from(geo.cfg.page_size_bytes));
    let logical = ftl.logical_pages();
    let capacity = cfg.capacity_entries(&sizes, logical)?;
    let per_page = sizes.entries_per_page;
    // A translation page is on flash at the start when it maps a page the device holds.
    let written = |m: u64| (m * per_page..((m + 1) * per_page).min(logical)).any(|l| ftl.is_mapped(l));
    Ok(Some(MappingCache::new(
        NonZeroUsize::new(capacity as usize).expect("capacity_entries checked it"),
        logical,
        sizes,
        ftl.stripe_planes(),
        geo.cfg.pages_per_block,
        written,
    )))
}

impl Simulator {
    /// The FTL needs the mapping entry of `lpn` at `now` (`changes`: a write is about to
    /// change it); returns when the entry is known.
    #[inline(always)]
    pub(super) fn translate(&mut self, now: u64, lpn: u64, changes: bool) -> u64 {
        // Every page access comes here: with the whole table in DRAM, one test.
        if self.mapping_cache.is_none() {
            return now;
        }
        self.translate_cached(now, lpn, changes)
    }

    #[inline(never)]
    fn translate_cached(&mut self, now: u64, lpn: u64, changes: bool) -> u64 {
        let cmt = self.mapping_cache.as_mut().expect("translate checked it");
        let a = cmt.access(lpn, changes, false, now);
        if let Some(f) = a.flush {
            self.flush_translation(now, f);
        }
        match a.fetch {
            // The entry is in one unit of the page (a 512-byte sector or the codeword
            // holding it), as MQSim reads one sector.
            Some(t) => {
                let end = self.read_translation(now, t, 1);
                if let Some(cmt) = self.mapping_cache.as_mut() {
                    cmt.fetched(lpn, end);
                }
                end
            }
            None => now.max(a.wait_until),
        }
    }

    /// A page move (GC, wear leveling, refresh) changed the entry of `lpn` at `now`: it
    /// goes into the cache dirty without a read (the mover knows the new location), which
    /// may write a translation page back.
    pub(super) fn translation_moved(&mut self, now: u64, lpn: u64) {
        if let Some(cmt) = self.mapping_cache.as_mut() {
            if let Some(f) = cmt.access(lpn, true, true, now).flush {
                self.flush_translation(now, f);
            }
        }
    }

    /// Reads `units` units of translation page `t` from `ready` as its read plan says:
    /// sensing on its plane, the transfer on its channel, the decode, retried on a failed
    /// decode; returns when the data is in the controller.
    fn read_translation(&mut self, ready: u64, t: TPage, units: u32) -> u64 {
        let loc = self.geo.plane_locs[t.plane as usize];
        let page_type = self.geo.page_map.page_type(t.page);
        let plan = if self.read_path.enabled {
            let block = t.plane * self.geo.cfg.blocks_per_plane;
            let state = PageState {
                content: None,
                program_ns: 0,
                pe_cycles: self.ftl.pe_cycles(block),
                reads_since_erase: 0,
                page_type,
                chip: loc.chip,
                block,
                tvr: false,
            };
            let rber = self.read_path.rber_of(None, &state, ready);
            Some(self.read_path.judge_background(rber, &state))
        } else {
            None
        };
        let attempts = self.attempts_of(plan, self.timing.read(page_type), units);
        self.serial_read(loc, &attempts, ready).0
    }

    /// Writes a translation page back from `now`: the old copy is read whole (when there is
    /// one), merged, sent over the new copy's channel and programmed.
    fn flush_translation(&mut self, now: u64, f: Flush) {
        let ready = match f.old {
            Some(old) => self.read_translation(now, old, self.read_path.planner.units_per_page()),
            None => now,
        };
        let loc = self.geo.plane_locs[f.new.plane as usize];
        let at_die = self
            .backend
            .channel(loc.channel, ready, self.timing.transfer_page_ns)
            .end;
        let t_prog = self.timing.program(self.geo.page_map.page_type(f.new.page));
        let page = Some(f.new.page);
        (self.backend).array_at(loc.die, loc.plane_in_die, ArrayOp::Program, page, at_die, t_prog);
    }

    /// The summary's `mapping_cache` table (`None`: off).
    pub(super) fn mapping_cache_summary(&self) -> Option<MappingCacheSummary> {
        let c = self.mapping_cache.as_ref()?;
        let (s, z) = (c.stats, c.sizes());
        Some(MappingCacheSummary {
            capacity_entries: c.capacity(),
            entry_bytes: z.cmt_entry_bytes,
            entries_per_translation_page: z.entries_per_page,
            hits: s.hits,
            misses: s.misses,
            hit_ratio: s.hits as f64 / (s.hits + s.misses).max(1) as f64,
            translation_reads: s.fetch_reads + s.merge_reads,
            translation_fetch_reads: s.fetch_reads,
            misses_sharing_a_read: s.shared_reads,
            translation_merge_reads: s.merge_reads,
            translation_writes: s.writes,
        })
    }
}
