//! Per-block state: wear, valid pages, and (for blocks written during the run) per-page
//! metadata. Pages that preconditioning filled are not stored: their owner follows from
//! the fill layout, so memory grows with the pages a workload touches, not with capacity.
//! Whether a page is valid is not stored either: it is when its owner still maps to it.

/// Lifecycle of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockStatus {
    /// Erased, in the free pool.
    Free,
    /// Being written (an active block of the FTL).
    Open,
    /// Every page programmed.
    Full,
    /// Worn out and out of service (`ftl.retire_pe_limit`; ftl/retire.rs).
    Retired,
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
    /// The write's attributes (stream, critical), carried along when the page moves.
    pub attrs: WriteAttrs,
}

/// Attributes of a host write, in one word kept with the page: bit 31 = critical, bit 30 =
/// backup (a redundant copy of a critical page, Meta-Cure), bits 0-29 = stream id (the
/// trace's device / volume number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WriteAttrs(pub u32);

impl WriteAttrs {
    const CRITICAL: u32 = 1 << 31;
    const BACKUP: u32 = 1 << 30;
    const STREAM: u32 = Self::BACKUP - 1;

    /// Attributes of a write on `stream` (its low 30 bits), critical or not.
    pub fn new(stream: u32, critical: bool) -> Self {
        WriteAttrs(stream & Self::STREAM | if critical { Self::CRITICAL } else { 0 })
    }

    /// The stream id.
    pub fn stream(self) -> u32 {
        self.0 & Self::STREAM
    }

    /// Whether a classifier marked the write critical.
    pub fn critical(self) -> bool {
        self.0 & Self::CRITICAL != 0
    }

    /// Whether the page is a backup copy of its logical page (not the one the mapping
    /// reads first).
    pub fn backup(self) -> bool {
        self.0 & Self::BACKUP != 0
    }

    /// The same attributes on a backup copy.
    pub fn as_backup(self) -> Self {
        WriteAttrs(self.0 | Self::BACKUP)
    }
}

/// State of one block (12 bytes: the device has one per block, so preconditioning a
/// large drive writes all of them).
#[derive(Debug, Clone)]
pub struct BlockState {
    /// P/E cycles so far.
    pub pe: u32,
    /// Valid pages.
    pub valid: u16,
    /// Pages programmed since the last erase (the write pointer).
    pub written: u16,
    /// Free, open or full.
    pub status: BlockStatus,
    /// True while the block still holds preconditioned data (owners implicit).
    pub implicit: bool,
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
        }
    }

    /// Whether emptying the block would free at least one page: it is full and not every
    /// page is valid (the blocks GC may pick from).
    pub fn reclaimable(&self, pages_per_block: u32) -> bool {
        self.status == BlockStatus::Full && u32::from(self.valid) < pages_per_block
    }
}
