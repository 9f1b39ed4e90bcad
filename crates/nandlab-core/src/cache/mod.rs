//! The controller's DRAM data cache: page-granular, write-back, least recently used out
//! (SSDsim's write buffer; MQSim's data cache in `WRITE_CACHE` or `READ_WRITE_CACHE` mode).
//! It only keeps the state (which logical pages are cached, dirty or clean, with the
//! content tag and attributes a write-back programs); the simulator charges DRAM time and
//! sends evicted dirty pages to flash.

mod config;
mod writeback;

use crate::flash::block::WriteAttrs;
pub use config::CacheConfig;
use lru::LruCache;
use std::num::NonZeroUsize;
pub use writeback::WritebackWindow;

/// A dirty page leaving the cache: what its write-back programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evicted {
    /// Logical page.
    pub lpn: u64,
    /// Content tag of its data.
    pub tag: u64,
    /// Its write attributes.
    pub attrs: WriteAttrs,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    dirty: bool,
    tag: u64,
    attrs: WriteAttrs,
}

/// Hit and miss counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Page reads served from the cache.
    pub read_hits: u64,
    /// Page reads that went to flash.
    pub read_misses: u64,
    /// Page writes to a page already cached.
    pub write_hits: u64,
    /// Page writes that took a new slot.
    pub write_misses: u64,
    /// Dirty pages evicted and written to flash.
    pub writebacks: u64,
}

/// The data cache.
pub struct DataCache {
    pages: LruCache<u64, Slot, rustc_hash::FxBuildHasher>,
    read_allocate: bool,
    /// Counters.
    pub stats: CacheStats,
}

impl DataCache {
    /// A cache of `capacity_pages` (≥ 1) pages.
    pub fn new(capacity_pages: NonZeroUsize, read_allocate: bool) -> Self {
        DataCache {
            pages: LruCache::with_hasher(capacity_pages, rustc_hash::FxBuildHasher),
            read_allocate,
            stats: CacheStats::default(),
        }
    }

    /// A host read of `lpn`: whether the cache holds it (and it becomes the most recently
    /// used). On a miss with read allocation the page is put in the cache clean, which may
    /// evict a dirty page.
    pub fn read(&mut self, lpn: u64) -> (bool, Option<Evicted>) {
        if self.pages.get(&lpn).is_some() {
            self.stats.read_hits += 1;
            return (true, None);
        }
        self.stats.read_misses += 1;
        if !self.read_allocate {
            return (false, None);
        }
        let clean = Slot {
            dirty: false,
            tag: 0,
            attrs: WriteAttrs::default(),
        };
        (false, self.insert(lpn, clean))
    }

    /// A host write of `lpn` (content `tag`, attributes `attrs`) into the cache; returns
    /// the dirty page it evicts, if any.
    pub fn write(&mut self, lpn: u64, tag: u64, attrs: WriteAttrs) -> Option<Evicted> {
        let slot = Slot {
            dirty: true,
            tag,
            attrs,
        };
        if let Some(s) = self.pages.get_mut(&lpn) {
            *s = slot;
            self.stats.write_hits += 1;
            return None;
        }
        self.stats.write_misses += 1;
        self.insert(lpn, slot)
    }

    /// Drops `lpn` (trimmed: its data need not be written back).
    pub fn trim(&mut self, lpn: u64) {
        self.pages.pop(&lpn);
    }

    fn insert(&mut self, lpn: u64, slot: Slot) -> Option<Evicted> {
        let (old, s) = self.pages.push(lpn, slot)?;
        (s.dirty && old != lpn).then(|| {
            self.stats.writebacks += 1;
            Evicted {
                lpn: old,
                tag: s.tag,
                attrs: s.attrs,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(pages: usize, read_allocate: bool) -> DataCache {
        DataCache::new(NonZeroUsize::new(pages).unwrap(), read_allocate)
    }

    #[test]
    fn least_recently_used_dirty_page_is_written_back() {
        let mut c = cache(2, false);
        let a = WriteAttrs::new(1, false);
        assert_eq!(c.write(10, 100, a), None);
        assert_eq!(c.write(11, 101, a), None);
        // A read hit makes 10 the most recent, so 11 is the one evicted by 12.
        assert_eq!(c.read(10), (true, None));
        assert_eq!(
            c.write(12, 102, a),
            Some(Evicted {
                lpn: 11,
                tag: 101,
                attrs: a
            })
        );
        // Rewriting a cached page evicts nothing and the write-back carries the new tag.
        assert_eq!(c.write(10, 200, a), None);
        assert_eq!(
            c.write(13, 103, a),
            Some(Evicted {
                lpn: 12,
                tag: 102,
                attrs: a
            })
        );
        assert_eq!(
            c.write(14, 104, a),
            Some(Evicted {
                lpn: 10,
                tag: 200,
                attrs: a
            })
        );
        assert_eq!(c.read(11), (false, None));
        let s = c.stats;
        assert_eq!(
            (s.read_hits, s.read_misses, s.write_hits, s.write_misses, s.writebacks),
            (1, 1, 1, 5, 3)
        );
    }

    #[test]
    fn clean_pages_leave_silently_and_trimmed_pages_are_never_written_back() {
        let mut c = cache(2, true);
        let a = WriteAttrs::default();
        assert_eq!(c.read(1), (false, None)); // allocated clean
        assert_eq!(c.write(2, 7, a), None);
        assert_eq!(c.write(3, 8, a), None); // evicts clean page 1: no write-back
        c.trim(2);
        assert_eq!(c.write(4, 9, a), None); // 2 was trimmed: its slot was free
        assert_eq!(
            c.write(5, 9, a),
            Some(Evicted {
                lpn: 3,
                tag: 8,
                attrs: a
            })
        );
        assert_eq!(c.stats.writebacks, 1);
    }
}
