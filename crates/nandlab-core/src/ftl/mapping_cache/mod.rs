//! The cached mapping table (CMT) of a demand-based FTL (DFTL, Gupta et al., ASPLOS'09;
//! MQSim's `Address_Mapping_Unit_Page_Level` with `Ideal_Mapping_Table = false`).
//!
//! The full page map lives on flash in translation pages, translation page `m` holding the
//! entries of logical pages `m·E .. (m+1)·E` (E = [`EntrySizes::entries_per_page`]); the
//! global translation directory (GTD, kept whole in DRAM as in DFTL §3.1) says where each
//! translation page is. A limited number of entries are cached, least recently used out.
//! This module keeps only that state and says which translation pages to read and write;
//! the simulator charges their flash time.
//!
//! Where translation pages live: translation page `m` stays on one plane, the plane the
//! striping order gives the `m`-th page of a run (MQSim places it as a user write of
//! logical page `m`, `allocate_plane_for_translation_write`), in translation blocks of
//! their own written in page order (DFTL's translation blocks; MQSim's translation write
//! frontier). Their space is not taken from the data blocks and they are never collected:
//! a translation page is ~0.1 % of the data it maps.

mod config;

pub use config::{EntrySizes, MappingCacheConfig};
use lru::LruCache;
use std::num::NonZeroUsize;

/// An entry cached clean (no change since its translation page was last written).
const CLEAN: u32 = u32::MAX;
/// A translation page never written (its logical pages were never mapped).
const UNWRITTEN: u32 = u32::MAX;

/// Where a translation page is: a plane and the page index in its translation block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TPage {
    /// Plane index.
    pub plane: u32,
    /// Page index within the plane's translation block (its page type follows the page map).
    pub page: u32,
}

/// A translation page written back because a dirty entry of it left the cache: every
/// dirty cached entry of that page goes with it (DFTL's batch update, MQSim's
/// `generate_flash_writeback_request_for_mapping_data`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flush {
    /// The page's current copy, read first to merge the entries not cached (`None`: the
    /// page was never written).
    pub old: Option<TPage>,
    /// Where the merged page is programmed.
    pub new: TPage,
}

/// What one mapping access needs from flash.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Access {
    /// A translation page written back to make room (done beside the access; nothing waits
    /// for it).
    pub flush: Option<Flush>,
    /// The translation page to read before the mapping is known (a miss whose page is on
    /// flash and not being read already).
    pub fetch: Option<TPage>,
    /// When a read of the page already under way ends (0: none): the miss waits for it
    /// instead of reading again (MQSim's `ArrivingMappingEntries`).
    pub wait_until: u64,
}

/// Hit, miss and flash counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MappingCacheStats {
    /// Accesses that found their entry cached.
    pub hits: u64,
    /// Accesses that did not.
    pub misses: u64,
    /// Translation pages read for misses.
    pub fetch_reads: u64,
    /// Misses that waited for a read of their translation page already under way.
    pub shared_reads: u64,
    /// Translation pages read to merge a write-back.
    pub merge_reads: u64,
    /// Translation pages programmed.
    pub writes: u64,
}

#[derive(Debug, Clone, Copy)]
struct Directory {
    /// Page index of the current copy, or [`UNWRITTEN`].
    page: u32,
    /// Write-backs of this page so far: a cached entry is dirty when it was changed in the
    /// current one (so a write-back cleans all of the page's entries at once).
    epoch: u32,
    /// When the latest read of the page for a miss ends.
    read_until: u64,
}

/// The cached mapping table and the global translation directory.
pub struct MappingCache {
    /// Logical page → epoch of its translation page when it was changed, or [`CLEAN`].
    entries: LruCache<u64, u32, rustc_hash::FxBuildHasher>,
    gtd: Vec<Directory>,
    sizes: EntrySizes,
    /// Plane of translation page `m` is `stripe[m mod planes]`.
    stripe: Vec<u32>,
    /// Next page index of each plane's translation block.
    frontier: Vec<u32>,
    pages_per_block: u32,
    /// Counters.
    pub stats: MappingCacheStats,
}

impl MappingCache {
    /// A cache of `capacity` (≥ 1) entries over `logical_pages`, translation pages of `sizes`
    /// placed on the planes in `stripe` order (the striping order's plane sequence), each
    /// plane's translation block `pages_per_block` long. `written(m)` says whether
    /// translation page `m` is on flash at the start (it maps a page the device holds).
    pub fn new(
        capacity: NonZeroUsize,
        logical_pages: u64,
        sizes: EntrySizes,
        stripe: Vec<u32>,
        pages_per_block: u32,
        mut written: impl FnMut(u64) -> bool,
    ) -> Self {
        let planes = stripe.iter().max().map_or(0, |&p| p as usize + 1);
        let mut cache = MappingCache {
            entries: LruCache::with_hasher(capacity, rustc_hash::FxBuildHasher),
            gtd: Vec::new(),
            sizes,
            stripe,
            frontier: vec![0; planes],
            pages_per_block,
            stats: MappingCacheStats::default(),
        };
        cache.gtd = (0..logical_pages.div_ceil(sizes.entries_per_page))
            .map(|m| Directory {
                page: if written(m) { cache.next_page(m).page } else { UNWRITTEN },
                epoch: 0,
                read_until: 0,
            })
            .collect();
        cache
    }

    /// Translation page of logical page `lpn`.
    pub fn translation_page(&self, lpn: u64) -> u64 {
        lpn / self.sizes.entries_per_page
    }

    /// The plane of translation page `m` and the next free page of its translation block.
    fn next_page(&mut self, m: u64) -> TPage {
        let plane = self.stripe[(m % self.stripe.len() as u64) as usize];
        let f = &mut self.frontier[plane as usize];
        let page = *f;
        *f = (*f + 1) % self.pages_per_block;
        TPage { plane, page }
    }

    fn location(&self, m: u64) -> Option<TPage> {
        let page = self.gtd[m as usize].page;
        (page != UNWRITTEN).then(|| TPage {
            plane: self.stripe[(m % self.stripe.len() as u64) as usize],
            page,
        })
    }

    /// The FTL needs the entry of `lpn` at `now`; `changes` when it is about to change it
    /// (a write or a move). `known` when the FTL already knows what the entry will hold (a
    /// GC move, MQSim's `Allocate_new_page_for_gc`): a miss then reads nothing.
    pub fn access(&mut self, lpn: u64, changes: bool, known: bool, now: u64) -> Access {
        let m = self.translation_page(lpn);
        let epoch = self.gtd[m as usize].epoch;
        if let Some(e) = self.entries.get_mut(&lpn) {
            self.stats.hits += 1;
            if changes {
                *e = epoch;
            }
            return Access::default();
        }
        self.stats.misses += 1;
        let mut access = Access::default();
        // A full cache evicts its least recently used entry. It is only looked at here: the
        // `push` below evicts it and reuses its node (a pop, then a put, freed the node and
        // allocated another on every miss).
        if self.entries.len() == self.entries.cap().get() {
            let (&old_lpn, &e) = self.entries.peek_lru().expect("a full cache has entries");
            let old_m = self.translation_page(old_lpn);
            if e == self.gtd[old_m as usize].epoch {
                access.flush = Some(self.write_back(old_m));
            }
        }
        if let (false, Some(t)) = (known, self.location(m)) {
            let until = self.gtd[m as usize].read_until;
            if until > now {
                access.wait_until = until;
                self.stats.shared_reads += 1;
            } else {
                access.fetch = Some(t);
                self.stats.fetch_reads += 1;
            }
        }
        // A write-back of page m just above cleaned its entries: read the epoch again.
        let epoch = self.gtd[m as usize].epoch;
        self.entries.push(lpn, if changes { epoch } else { CLEAN });
        access
    }

    /// The read [`Access::fetch`] asked for, of `lpn`'s translation page, ends at `end`.
    pub fn fetched(&mut self, lpn: u64, end: u64) {
        let m = self.translation_page(lpn);
        self.gtd[m as usize].read_until = end;
    }

    /// Writes translation page `m` back: its dirty cached entries become clean.
    fn write_back(&mut self, m: u64) -> Flush {
        let old = self.location(m);
        let new = self.next_page(m);
        let d = &mut self.gtd[m as usize];
        d.page = new.page;
        d.epoch += 1;
        self.stats.merge_reads += u64::from(old.is_some());
        self.stats.writes += 1;
        Flush { old, new }
    }

    /// Entries the cache holds.
    pub fn capacity(&self) -> usize {
        self.entries.cap().get()
    }

    /// The sizes the device gives.
    pub fn sizes(&self) -> EntrySizes {
        self.sizes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two entries per translation page (sizes given directly), two planes, blocks of 4 pages.
    fn cache(capacity: usize, written: impl FnMut(u64) -> bool) -> MappingCache {
        let sizes = EntrySizes {
            cmt_entry_bytes: 8,
            translation_entry_bytes: 4,
            entries_per_page: 2,
        };
        MappingCache::new(NonZeroUsize::new(capacity).unwrap(), 8, sizes, vec![0, 1], 4, written)
    }

    #[test]
    fn misses_read_written_translation_pages_and_dirty_evictions_write_them() {
        // Translation pages 0..4 (lpns 0-1, 2-3, 4-5, 6-7) on planes 0, 1, 0, 1; pages 0
        // and 1 are on flash (plane 0 page 0, plane 1 page 0), 2 and 3 were never written.
        let mut c = cache(2, |m| m < 2);
        let fetch = |plane, page| Access {
            fetch: Some(TPage { plane, page }),
            ..Access::default()
        };
        assert_eq!(c.access(0, false, false, 0), fetch(0, 0));
        assert_eq!(c.access(0, false, false, 0), Access::default()); // hit
        assert_eq!(c.access(3, true, false, 0), fetch(1, 0));
        // lpn 4's page was never written: nothing to read. Evicts clean lpn 0: no write.
        assert_eq!(c.access(4, true, false, 0), Access::default());
        // Evicts lpn 3 (dirty): page 1 is read (plane 1, page 0) and written to plane 1's
        // next page; lpn 1's page 0 is read.
        let a = c.access(1, false, false, 0);
        assert_eq!(
            a.flush,
            Some(Flush {
                old: Some(TPage { plane: 1, page: 0 }),
                new: TPage { plane: 1, page: 1 },
            })
        );
        assert_eq!(a.fetch, Some(TPage { plane: 0, page: 0 }));
        // Evicts lpn 4 (dirty, page 2 never written): written to plane 0's next page (1), no
        // merge read. A known entry (a GC move) reads nothing.
        let a = c.access(6, true, true, 0);
        assert_eq!(
            a,
            Access {
                flush: Some(Flush {
                    old: None,
                    new: TPage { plane: 0, page: 1 },
                }),
                ..Access::default()
            }
        );
        assert_eq!(
            c.stats,
            MappingCacheStats {
                hits: 1,
                misses: 5,
                fetch_reads: 3,
                shared_reads: 0,
                merge_reads: 1,
                writes: 2,
            }
        );
    }

    #[test]
    fn a_miss_on_a_page_being_read_waits_for_that_read() {
        let mut c = cache(4, |_| true);
        assert!(c.access(0, false, false, 0).fetch.is_some());
        c.fetched(0, 500);
        // lpn 1 shares translation page 0, whose read ends at 500.
        let a = c.access(1, false, false, 100);
        assert_eq!((a.fetch, a.wait_until), (None, 500));
        // After it ended, a miss reads again.
        c.access(2, false, false, 0); // another page, evicts nothing yet
        c.access(3, false, false, 0);
        let a = c.access(4, false, false, 600); // evicts lpn 0 (clean)
        assert_eq!(c.access(0, false, false, 600).fetch, Some(TPage { plane: 0, page: 0 }));
        assert_eq!(a.wait_until, 0);
        assert_eq!((c.stats.fetch_reads, c.stats.shared_reads), (5, 1));
    }

    #[test]
    fn a_write_back_cleans_every_dirty_entry_of_its_page() {
        // One translation page holds lpns 0 and 1; both dirty, then 0 is evicted.
        let mut c = cache(2, |_| false);
        c.access(0, true, false, 0);
        c.access(1, true, false, 0);
        let a = c.access(2, false, false, 0);
        assert!(a.flush.is_some());
        // lpn 1 went to flash with lpn 0: its eviction writes nothing.
        assert_eq!(c.access(3, false, false, 0).flush, None);
        assert_eq!(c.stats.writes, 1);
        // Changed again after the write-back, it is dirty again.
        c.access(3, true, false, 0);
        c.access(4, false, false, 0); // evicts 2 (clean)
        assert_eq!(c.access(5, false, false, 0).flush.map(|f| f.new.plane), Some(1));
    }
}
