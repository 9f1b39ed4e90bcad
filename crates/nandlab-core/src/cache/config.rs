//! The `[cache]` section: the controller's DRAM data cache (write-back, LRU).

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// The `[cache]` section of a config. Off (`capacity_bytes = 0`) unless set: the paper
/// presets keep their papers' setting, none of which had a data cache.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CacheConfig {
    /// DRAM given to cached page data (bytes; 0 = no cache). MQSim's `Data_Cache_Capacity`.
    pub capacity_bytes: u64,
    /// Whether a read miss puts the page it read in the cache (clean). MQSim's caching
    /// modes: `false` is `WRITE_CACHE`, `true` is `READ_WRITE_CACHE`.
    pub read_allocate: bool,
    /// Latency of one DRAM access before data move (ns): MQSim's defaults tRCD + tCL =
    /// 13 + 13 ns (`Device_Parameter_Set.cpp`).
    pub dram_latency_ns: u64,
    /// DRAM transfer rate (MB/s): MQSim's `estimate_dram_access_time` at its defaults
    /// (800 MT/s, 1-byte bursts, two per transfer time) moves 1,600 MB/s.
    pub dram_mb_per_s: f64,
    /// Evicted pages being written back to flash at once before a host write that evicts
    /// another has to wait for one (0: one page per plane, MQSim's back-pressure depth).
    pub writeback_depth_pages: u32,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            capacity_bytes: 0,
            read_allocate: false,
            dram_latency_ns: 26,
            dram_mb_per_s: 1600.0,
            writeback_depth_pages: 0,
        }
    }
}

impl CacheConfig {
    /// Whether there is a cache.
    pub fn enabled(&self) -> bool {
        self.capacity_bytes > 0
    }

    /// Checks the values against the device: the cache holds at most as many pages as the
    /// host can address (more could never be used).
    pub fn validate(&self, page_bytes: u64, logical_pages: u64) -> Result<()> {
        // The DRAM timing is checked with the cache off too: a typo must not wait to be
        // found until the cache is switched on.
        // At least 1 MB/s (a 4 KiB page in 4 ms, slower than flash itself); slower rates
        // only come from typos, and 1e-300 made every DRAM access time overflow.
        if !(self.dram_mb_per_s.is_finite() && self.dram_mb_per_s >= 1.0) {
            return Err(NandError::config(
                "cache.dram_mb_per_s",
                format!("must be a finite rate of at least 1 MB/s, got {:?}", self.dram_mb_per_s),
            ));
        }
        if self.dram_latency_ns > 1_000_000_000 {
            return Err(NandError::config("cache.dram_latency_ns", "must be at most 1 s"));
        }
        if !self.enabled() {
            return Ok(());
        }
        if self.capacity_bytes < page_bytes {
            return Err(NandError::config(
                "cache.capacity_bytes",
                format!("holds less than one {page_bytes}-byte page (0 turns the cache off)"),
            ));
        }
        if self.capacity_bytes / page_bytes > logical_pages {
            return Err(NandError::config(
                "cache.capacity_bytes",
                format!(
                    "is larger than the device's logical capacity ({} bytes)",
                    logical_pages * page_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Time to move `bytes` to or from DRAM (ns).
    pub fn dram_ns(&self, bytes: u64) -> u64 {
        // MB/s = bytes per µs.
        self.dram_latency_ns + (bytes as f64 * 1000.0 / self.dram_mb_per_s).round() as u64
    }
}
