//! A file system's metadata writes beside the data (`[workload.fs_metadata]`): for each data
//! write of any trace or generator, the writes a file system issues to record it — the
//! journal record, the file's record (NTFS MFT file record / ext4 inode), the allocation
//! bitmap and the directory entry — as separate write requests flagged critical, in a
//! metadata region at the start of the logical space. The data is moved past that region,
//! so metadata and data never share a logical page (seed 004 §4.2: metadata sits at
//! "predefined locations with fixed logical addresses", "natural isolations from those of
//! the normal data"; §5.1: NTFS metadata in LPN 0-1023).
//!
//! Structure sizes (the on-disk formats' documentation):
//! - NTFS: a file record segment of the MFT is 1 KiB; records 0-15 are the metadata files
//!   ($MFT, $LogFile, $Bitmap, the root directory, ...), so user file k has record 16 + k
//!   (004 §4.2 quotes the 16 reserved records); `$Bitmap` holds one bit per cluster; a
//!   directory's `$I30` index keeps its entries in 4 KiB index records, an entry (16-byte
//!   header + 66-byte `$FILE_NAME` + the UTF-16 name; a 12-character name) 8-byte aligned
//!   = 112 bytes; `$LogFile` records go to its log pages, written ahead of the metadata
//!   they describe.
//! - ext4: an inode is 256 bytes (mke2fs's default `inode_size`); inodes 1-10 are reserved
//!   and the first ordinary file is inode 11 (`EXT4_GOOD_OLD_FIRST_INO`); the block bitmap
//!   holds one bit per block; a directory entry (`ext4_dir_entry_2`) is an 8-byte header +
//!   the name, 4-byte aligned = 20 bytes for a 12-character name; jbd2 journals a
//!   transaction as a descriptor block, the changed metadata blocks and a commit block.
//!
//! Each metadata write is one allocation unit (`cluster_bytes`; 004 §5.3: every NTFS
//! request is a multiple of the 8 KiB allocation unit), except ext4's journal write, which
//! carries the descriptor, the other changed blocks and the commit block. The data write
//! `offset` belongs to file `offset / file_bytes`. Region split (assumption: neither
//! format fixes where in the volume these live; a fresh volume keeps them together):
//! records the first half of the region, bitmap the next 1/16, directory the next 1/16,
//! journal the rest (3/8), each written cyclically within its part.
//!
//! With `flush_every = k` > 1 the metadata of k consecutive data writes goes out once,
//! after the k-th, each distinct metadata page once and one journal write (a lazy writer
//! flushing dirty metadata pages together). Reads and trims are moved past the region and
//! pass otherwise unchanged.

use super::RequestStream;
use crate::error::{NandError, Result};
use crate::host::{Op, Request};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Which file system's structures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// No metadata writes (the default).
    #[default]
    None,
    /// NTFS (MFT file record, `$Bitmap`, `$I30` index, `$LogFile`).
    Ntfs,
    /// ext4 (inode, block bitmap, directory block, jbd2 journal).
    Ext4,
}

/// A metadata structure a data write updates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Structure {
    /// The journal / log record (written first: write-ahead logging).
    Journal,
    /// The file's record (MFT file record / inode).
    Record,
    /// The allocation bitmap's page covering the data.
    Bitmap,
    /// The directory entry's index page.
    Directory,
}

/// The `[workload.fs_metadata]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FsMetadataConfig {
    /// `none` (default), `ntfs` or `ext4`.
    pub layout: Layout,
    /// Bytes of the metadata region at the start of the logical space (default 8 MiB: 004
    /// §5.1's LPN 0-1023 of 8 KiB pages).
    pub region_bytes: u64,
    /// Allocation unit: the size of a metadata write (default 8192, 004 §5.1).
    pub cluster_bytes: u64,
    /// Bytes per file: a data write at offset `o` belongs to file `o / file_bytes`
    /// (default 16384, 004 §5.2's sensor files).
    pub file_bytes: u64,
    /// The structures each data write updates (default all four; a write inside a
    /// preallocated file, as IOMeter's test file, changes no bitmap or directory).
    pub writes: Vec<Structure>,
    /// Data writes whose metadata go out together (default 1: after each).
    pub flush_every: u32,
}

impl Default for FsMetadataConfig {
    fn default() -> Self {
        FsMetadataConfig {
            layout: Layout::None,
            region_bytes: 8 << 20,
            cluster_bytes: 8192,
            file_bytes: 16384,
            writes: vec![
                Structure::Journal,
                Structure::Record,
                Structure::Bitmap,
                Structure::Directory,
            ],
            flush_every: 1,
        }
    }
}

/// Record, directory-entry sizes and first record of a layout.
struct Sizes {
    record_bytes: u64,
    first_record: u64,
    dir_entry_bytes: u64,
}

impl FsMetadataConfig {
    /// Whether metadata writes are added.
    pub fn is_on(&self) -> bool {
        self.layout != Layout::None
    }

    fn sizes(&self) -> Sizes {
        match self.layout {
            Layout::Ext4 => Sizes {
                record_bytes: 256,
                first_record: 11,
                dir_entry_bytes: 20,
            },
            Layout::Ntfs | Layout::None => Sizes {
                record_bytes: 1024,
                first_record: 16,
                dir_entry_bytes: 112,
            },
        }
    }

    /// Checks the keys (`{at}.fs_metadata.KEY`) against the logical space.
    pub fn validate(&self, at: &str, logical_bytes: u64) -> Result<()> {
        if !self.is_on() {
            return Ok(());
        }
        let key = |k: &str| format!("{at}.fs_metadata.{k}");
        if self.cluster_bytes == 0 {
            return Err(NandError::config(key("cluster_bytes"), "must be at least 1 byte"));
        }
        if self.file_bytes == 0 {
            return Err(NandError::config(key("file_bytes"), "must be at least 1 byte"));
        }
        if self.flush_every == 0 {
            return Err(NandError::config(key("flush_every"), "must be at least 1"));
        }
        if self.writes.is_empty() {
            return Err(NandError::config(key("writes"), "name at least one structure"));
        }
        // Each of the four parts must hold at least one cluster: the smallest is 1/16.
        if self.region_bytes < 16 * self.cluster_bytes || !self.region_bytes.is_multiple_of(self.cluster_bytes) {
            return Err(NandError::config(
                key("region_bytes"),
                format!(
                    "must be a multiple of cluster_bytes ({}) and at least 16 of them, got {}",
                    self.cluster_bytes, self.region_bytes
                ),
            ));
        }
        if self.region_bytes >= logical_bytes {
            return Err(NandError::config(
                key("region_bytes"),
                format!(
                    "{} B leaves no room for data in the logical space of {logical_bytes} B",
                    self.region_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Byte range `[start, end)` of `s`'s part of the region.
    fn part(&self, s: Structure) -> (u64, u64) {
        let sixteenth = self.region_bytes / 16 / self.cluster_bytes * self.cluster_bytes;
        let (a, b) = match s {
            Structure::Record => (0, 8 * sixteenth),
            Structure::Bitmap => (8 * sixteenth, 9 * sixteenth),
            Structure::Directory => (9 * sixteenth, 10 * sixteenth),
            Structure::Journal => (10 * sixteenth, self.region_bytes),
        };
        (a, b)
    }

    /// The cluster-aligned offset of `s`'s page for the byte `byte` of its table, wrapped
    /// into its part.
    fn place(&self, s: Structure, byte: u64) -> u64 {
        let (a, b) = self.part(s);
        let clusters = (b - a) / self.cluster_bytes;
        a + (byte / self.cluster_bytes % clusters) * self.cluster_bytes
    }
}

/// A stream with the metadata writes of `cfg.layout` added after its data writes.
pub struct FsMetadata {
    inner: RequestStream,
    cfg: FsMetadataConfig,
    sizes: Sizes,
    out: VecDeque<Request>,
    /// Metadata pages (structure, offset) of the batch so far, and its data writes.
    dirty: Vec<(Structure, u64)>,
    in_batch: u32,
    /// Journal writes so far (the log is written cyclically).
    journal_seq: u64,
}

impl FsMetadata {
    /// Adds `cfg`'s metadata writes to `inner` (whose offsets lie in the logical space
    /// less `cfg.region_bytes`).
    pub fn new(inner: RequestStream, cfg: &FsMetadataConfig) -> Self {
        FsMetadata {
            inner,
            sizes: cfg.sizes(),
            cfg: cfg.clone(),
            out: VecDeque::new(),
            dirty: Vec::new(),
            in_batch: 0,
            journal_seq: 0,
        }
    }

    /// Notes the metadata pages data write `w` (offset before the move) dirties.
    fn dirty_for(&mut self, w: &Request) {
        let c = &self.cfg;
        let file = w.offset_bytes / c.file_bytes;
        for &s in &c.writes {
            let byte = match s {
                Structure::Journal => continue,
                Structure::Record => (self.sizes.first_record + file) * self.sizes.record_bytes,
                // One bit per cluster: the bitmap byte of the write's first cluster.
                Structure::Bitmap => w.offset_bytes / c.cluster_bytes / 8,
                Structure::Directory => file * self.sizes.dir_entry_bytes,
            };
            let page = (s, c.place(s, byte));
            if !self.dirty.contains(&page) {
                self.dirty.push(page);
            }
        }
    }

    /// Queues the batch's metadata writes at `arrival_ns`: the journal first (write-ahead
    /// logging), then each dirty page in structure order.
    fn flush(&mut self, arrival_ns: u64, stream: u32) {
        let c = &self.cfg;
        let meta = |offset: u64, size: u64| Request {
            critical: true,
            ..Request::new(arrival_ns, offset, size, Op::Write, stream)
        };
        self.dirty.sort();
        if c.writes.contains(&Structure::Journal) {
            // ext4's transaction: descriptor + the changed blocks + commit; NTFS: one log page.
            let blocks = match c.layout {
                Layout::Ext4 => 2 + self.dirty.len() as u64,
                _ => 1,
            };
            let (a, b) = c.part(Structure::Journal);
            let clusters = (b - a) / c.cluster_bytes;
            let blocks = blocks.min(clusters);
            // A transaction does not wrap around the log's end: it starts again at its head.
            let mut first = self.journal_seq % clusters;
            if first + blocks > clusters {
                first = 0;
                self.journal_seq += clusters - self.journal_seq % clusters;
            }
            self.out
                .push_back(meta(a + first * c.cluster_bytes, blocks * c.cluster_bytes));
            self.journal_seq += blocks;
        }
        for &(_, offset) in &self.dirty {
            self.out.push_back(meta(offset, c.cluster_bytes));
        }
        self.dirty.clear();
        self.in_batch = 0;
    }
}

impl Iterator for FsMetadata {
    type Item = Result<Request>;

    fn next(&mut self) -> Option<Result<Request>> {
        if let Some(r) = self.out.pop_front() {
            return Some(Ok(r));
        }
        let mut r = match self.inner.next()? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        if r.op == Op::Write {
            self.dirty_for(&r);
            self.in_batch += 1;
            if self.in_batch >= self.cfg.flush_every {
                self.flush(r.arrival_ns, r.stream);
            }
        }
        r.offset_bytes += self.cfg.region_bytes;
        Some(Ok(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIB: u64 = 1024;
    const MIB: u64 = 1 << 20;

    fn run(cfg: &FsMetadataConfig, reqs: Vec<Request>) -> Vec<Request> {
        FsMetadata::new(Box::new(reqs.into_iter().map(Ok)), cfg)
            .map(|r| r.unwrap())
            .collect()
    }

    fn ntfs() -> FsMetadataConfig {
        FsMetadataConfig {
            layout: Layout::Ntfs,
            ..FsMetadataConfig::default()
        }
    }

    /// (offset, size, critical) of each request.
    fn shape(reqs: &[Request]) -> Vec<(u64, u64, bool)> {
        reqs.iter()
            .map(|r| (r.offset_bytes, r.size_bytes, r.critical))
            .collect()
    }

    #[test]
    fn one_ntfs_file_write_by_hand() {
        // File 2 (16 KiB files): a 16 KiB write at 32 KiB, clusters 4-5 of the data. In an
        // 8 MiB region of 8 KiB clusters: records [0, 4 MiB), bitmap [4, 4.5), directory
        // [4.5, 5), journal [5, 8) MiB.
        let w = Request::new(7, 32 * KIB, 16 * KIB, Op::Write, 0);
        let out = run(&ntfs(), vec![w]);
        assert_eq!(
            shape(&out),
            vec![
                (8 * MIB + 32 * KIB, 16 * KIB, false), // the data, past the region
                (5 * MIB, 8 * KIB, true),              // $LogFile's first log page
                // MFT record 16 + 2 = 18: byte 18,432, cluster 2 of the record part.
                (16 * KIB, 8 * KIB, true),
                (4 * MIB, 8 * KIB, true), // $Bitmap: cluster 4's bit is in byte 0
                // $I30: entry 2 at byte 224, the directory part's first cluster.
                (4 * MIB + 512 * KIB, 8 * KIB, true),
            ]
        );
        assert!(out.iter().all(|r| r.arrival_ns == 7 && r.op == Op::Write));
    }

    #[test]
    fn ext4_journals_the_changed_blocks_between_descriptor_and_commit() {
        let cfg = FsMetadataConfig {
            layout: Layout::Ext4,
            ..FsMetadataConfig::default()
        };
        // File 100 at 1,600 KiB: inode 111 at byte 28,416 (cluster 3); bitmap byte 25
        // (cluster 0); directory byte 2,000 (cluster 0). Journal: descriptor + 3 + commit.
        let out = run(&cfg, vec![Request::new(0, 1600 * KIB, 16 * KIB, Op::Write, 0)]);
        assert_eq!(
            shape(&out)[1..],
            [
                (5 * MIB, 5 * 8 * KIB, true),
                (24 * KIB, 8 * KIB, true),
                (4 * MIB, 8 * KIB, true),
                (4 * MIB + 512 * KIB, 8 * KIB, true),
            ]
        );
    }

    #[test]
    fn a_batch_writes_each_dirty_page_once() {
        // Eight files 0-7 in one batch: records 16-23 fill cluster 2 exactly; one bitmap
        // page, one directory page, one journal page; reads pass, moved.
        let cfg = FsMetadataConfig {
            flush_every: 8,
            ..ntfs()
        };
        let mut reqs: Vec<Request> = (0..8)
            .map(|f| Request::new(f, f * 16 * KIB, 16 * KIB, Op::Write, 0))
            .collect();
        reqs.insert(3, Request::new(2, 0, 8 * KIB, Op::Read, 0));
        let out = run(&cfg, reqs);
        assert_eq!(out.len(), 9 + 4);
        assert_eq!(out[3].op, Op::Read);
        assert_eq!(out[3].offset_bytes, 8 * MIB);
        let meta: Vec<u64> = out.iter().filter(|r| r.critical).map(|r| r.offset_bytes).collect();
        assert_eq!(meta, vec![5 * MIB, 16 * KIB, 4 * MIB, 4 * MIB + 512 * KIB]);
        assert!(out.iter().filter(|r| r.critical).all(|r| r.arrival_ns == 7));
    }

    #[test]
    fn the_journal_wraps_within_its_part() {
        // A 16-cluster region: the journal part is clusters 10-15 (6); the 7th write goes
        // back to cluster 10.
        let cfg = FsMetadataConfig {
            region_bytes: 16 * 8 * KIB,
            writes: vec![Structure::Journal],
            ..ntfs()
        };
        let reqs = (0..7).map(|i| Request::new(i, 0, 8 * KIB, Op::Write, 0)).collect();
        let journal: Vec<u64> = run(&cfg, reqs)
            .iter()
            .filter(|r| r.critical)
            .map(|r| r.offset_bytes / (8 * KIB))
            .collect();
        assert_eq!(journal, vec![10, 11, 12, 13, 14, 15, 10]);
    }

    #[test]
    fn bad_keys_are_named() {
        let e = |c: FsMetadataConfig| c.validate("workload", 64 * MIB).unwrap_err().to_string();
        assert!(e(FsMetadataConfig {
            flush_every: 0,
            ..ntfs()
        })
        .contains("workload.fs_metadata.flush_every"));
        assert!(e(FsMetadataConfig {
            region_bytes: 64 * MIB,
            ..ntfs()
        })
        .contains("fs_metadata.region_bytes"));
        assert!(e(FsMetadataConfig {
            region_bytes: 8 * KIB,
            ..ntfs()
        })
        .contains("fs_metadata.region_bytes"));
        assert!(e(FsMetadataConfig {
            writes: vec![],
            ..ntfs()
        })
        .contains("fs_metadata.writes"));
        assert!(FsMetadataConfig::default().validate("workload", 1).is_ok());
    }
}
