//! Per-block state: wear, valid pages, program time, and (for blocks
//! written during the run) per-page metadata. Pages that preconditioning filled are not
//! stored: their owner follows from the fill layout, so memory grows with the pages a
//! workload touches, not with capacity.

/// Lifecycle of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockStatus {
    /// Erased, in the free pool.
    Free,
    /// Being written (an active block of the FTL).
    Open,
    /// Every page programmed.
    Full,
}

/// What the FTL records for a page it programmed (the page's OOB view).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PageMeta {
    /// Logical page stored here.
    pub lpn: u64,
    /// Content tag: which version of the logical page's data this is (a stand-in for the
    /// bytes; codecs and content models derive the stored cell states from it).
    pub tag: u64,
    /// Program time (ns; negative for data older than the run).
    pub program_ns: i64,
    /// Codec tag bits kept in the OOB area (e.g. BitFlip's flip flags).
    pub oob_tags: u64,
}

/// State of one block.
#[derive(Debug, Clone)]
pub struct BlockState {
    /// P/E cycles so far.
    pub pe: u32,
    /// Valid pages.
    pub valid: u32,
    /// Pages programmed since the last erase (the write pointer).
    pub written: u32,
    /// Free, open or full.
    pub status: BlockStatus,
    /// True while the block still holds preconditioned data (owners implicit).
    pub implicit: bool,
    /// Time of the last program into the block.
    pub last_program_ns: i64,
}

impl BlockState {
    /// A free block with `pe` cycles of wear.
    pub fn new_free(pe: u32) -> Self {
        BlockState {
            pe,
            valid: 0,
            written: 0,
            status: BlockStatus::Free,
            implicit: false,
            last_program_ns: 0,
        }
    }
}

/// A bitmap with one bit per physical page of the device (1 = valid).
#[derive(Debug, Clone)]
pub struct ValidMap {
    words: Vec<u64>,
}

impl ValidMap {
    /// All pages invalid.
    pub fn new(pages: u64) -> Self {
        ValidMap {
            words: vec![0; pages.div_ceil(64) as usize],
        }
    }

    /// Is page `ppn` valid?
    #[inline]
    pub fn get(&self, ppn: u64) -> bool {
        self.words[(ppn >> 6) as usize] >> (ppn & 63) & 1 == 1
    }

    /// Sets page `ppn` valid or invalid.
    #[inline]
    pub fn set(&mut self, ppn: u64, valid: bool) {
        let w = &mut self.words[(ppn >> 6) as usize];
        if valid {
            *w |= 1 << (ppn & 63);
        } else {
            *w &= !(1 << (ppn & 63));
        }
    }

    /// Marks `count` pages from `start` valid (used by preconditioning).
    pub fn set_range(&mut self, start: u64, count: u64) {
        let end = start + count;
        let mut p = start;
        while p < end {
            if p.is_multiple_of(64) && end - p >= 64 {
                self.words[(p >> 6) as usize] = u64::MAX;
                p += 64;
            } else {
                self.set(p, true);
                p += 1;
            }
        }
    }

    /// Number of valid pages.
    pub fn count(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }
}
