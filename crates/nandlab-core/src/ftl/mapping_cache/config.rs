//! The `[ftl.mapping_cache]` table: a cached mapping table (CMT) of limited size.

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// The `[ftl.mapping_cache]` table of a config. Off (`capacity_bytes = 0`) unless set: the
/// whole mapping table is then in DRAM (MQSim's `Ideal_Mapping_Table = true`), as in every
/// paper preset, none of whose papers modelled a CMT.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct MappingCacheConfig {
    /// DRAM given to cached mapping entries (bytes; 0 = the whole table in DRAM). MQSim's
    /// `CMT_Capacity` (its default 2 MiB).
    pub capacity_bytes: u64,
}

/// Sizes derived from the device, as MQSim derives them
/// (`Address_Mapping_Unit_Page_Level.cpp`, constructor): a CMT entry holds the logical and
/// the physical page number and a bit per sector, a translation-page (GTD-side) entry only
/// the physical page number and the sector bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntrySizes {
    /// Bytes of one cached entry: `ceil((2 log2 P + S) / 8)` for P physical pages and S
    /// sectors per page.
    pub cmt_entry_bytes: u64,
    /// Bytes of one entry in a translation page: `ceil((log2 P + S) / 8)`.
    pub translation_entry_bytes: u64,
    /// Entries one translation page holds: page size / translation entry bytes.
    pub entries_per_page: u64,
}

impl EntrySizes {
    /// The sizes for a device of `physical_pages` pages of `page_bytes` bytes.
    pub fn new(physical_pages: u64, page_bytes: u64) -> Self {
        // MQSim takes the real logarithm, then rounds the byte count up.
        let (p, s) = ((physical_pages as f64).log2(), (page_bytes / 512) as f64);
        let translation_entry_bytes = ((p + s) / 8.0).ceil() as u64;
        EntrySizes {
            cmt_entry_bytes: ((2.0 * p + s) / 8.0).ceil() as u64,
            translation_entry_bytes,
            entries_per_page: page_bytes / translation_entry_bytes,
        }
    }
}

impl MappingCacheConfig {
    /// Whether the mapping table is cached.
    pub fn enabled(&self) -> bool {
        self.capacity_bytes > 0
    }

    /// Entries the cache holds on a device with `sizes` and `logical_pages` logical pages;
    /// checks that it holds at least one and fewer than the whole table (a cache as large as
    /// the table is the table: leave it off).
    pub fn capacity_entries(&self, sizes: &EntrySizes, logical_pages: u64) -> Result<u64> {
        let entries = self.capacity_bytes / sizes.cmt_entry_bytes;
        if entries == 0 {
            return Err(NandError::config(
                "ftl.mapping_cache.capacity_bytes",
                format!(
                    "holds less than one {}-byte mapping entry (0 keeps the whole table in DRAM)",
                    sizes.cmt_entry_bytes
                ),
            ));
        }
        if entries >= logical_pages {
            return Err(NandError::config(
                "ftl.mapping_cache.capacity_bytes",
                format!(
                    "holds the whole mapping table ({logical_pages} entries of {} bytes): set 0 for a table kept \
                     whole in DRAM",
                    sizes.cmt_entry_bytes
                ),
            ));
        }
        Ok(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_sizes_follow_mqsims_formula() {
        // 2^26 pages of 4 KiB (8 sectors): CMT entry ceil((52 + 8) / 8) = 8 B, translation
        // entry ceil((26 + 8) / 8) = 5 B, 4096 / 5 = 819 per page.
        let s = EntrySizes::new(1 << 26, 4096);
        assert_eq!(
            (s.cmt_entry_bytes, s.translation_entry_bytes, s.entries_per_page),
            (8, 5, 819)
        );
        // MQSim's sample device: 8 x 4 x 2 x 2 x 2048 x 256 = 2^27 pages of 8 KiB (16
        // sectors): ceil(70 / 8) = 9 B, ceil(43 / 8) = 6 B, 8192 / 6 = 1365 per page.
        let s = EntrySizes::new(1 << 27, 8192);
        assert_eq!(
            (s.cmt_entry_bytes, s.translation_entry_bytes, s.entries_per_page),
            (9, 6, 1365)
        );
        // 768 pages of 4 KiB: log2 768 = 9.585; ceil(27.17 / 8) = 4 B, ceil(17.58 / 8) = 3 B,
        // 4096 / 3 = 1365 per page.
        let s = EntrySizes::new(768, 4096);
        assert_eq!(
            (s.cmt_entry_bytes, s.translation_entry_bytes, s.entries_per_page),
            (4, 3, 1365)
        );
    }

    #[test]
    fn capacity_is_checked_naming_the_key() {
        let s = EntrySizes::new(1 << 26, 4096);
        let c = |b| MappingCacheConfig { capacity_bytes: b };
        assert_eq!(c(2 << 20).capacity_entries(&s, 1 << 25).unwrap(), 262_144);
        for bad in [7, 8 << 25] {
            let e = c(bad).capacity_entries(&s, 1 << 25).unwrap_err().to_string();
            assert!(e.contains("ftl.mapping_cache.capacity_bytes"), "{e}");
        }
    }
}
