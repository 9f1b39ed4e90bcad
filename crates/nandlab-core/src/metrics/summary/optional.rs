//! Sections a run has only when its config asks for the feature: DRAM data cache, cached
//! mapping table, critical pages, a scheduler that counts, P/E-dependent timing, a codec.

use serde::Serialize;

/// The DRAM data cache (`cache`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CacheSummary {
    pub read_hits: u64,
    pub read_misses: u64,
    pub write_hits: u64,
    pub write_misses: u64,
    pub writebacks: u64,
    /// Writes that waited for a writeback slot.
    pub writebacks_waited: u64,
}

/// Program/erase suspensions for reads (`host.suspend`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SuspendSummary {
    pub program_suspensions: u64,
    pub erase_suspensions: u64,
}

/// The cached mapping table (`ftl.mapping_cache`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct MappingCacheSummary {
    pub capacity_entries: usize,
    pub entry_bytes: u64,
    pub entries_per_translation_page: u64,
    pub hits: u64,
    pub misses: u64,
    pub hit_ratio: f64,
    /// Fetch and merge reads of translation pages.
    pub translation_reads: u64,
    pub translation_fetch_reads: u64,
    pub misses_sharing_a_read: u64,
    pub translation_merge_reads: u64,
    pub translation_writes: u64,
}

/// Reads of critical pages (`host.critical`), by page type.
#[derive(Debug, Clone, Serialize)]
pub struct CriticalSummary {
    pub reads_by_page_type: Vec<u64>,
    /// Host programs of critical pages, by page type (where each was stored).
    pub programs_by_page_type: Vec<u64>,
    pub uncorrectable_reads: u64,
    /// With a placement that keeps backup copies.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub backup: Option<CriticalBackup>,
}

/// Backup copies of critical pages.
#[derive(Debug, Clone, Serialize)]
pub struct CriticalBackup {
    pub backup_programs: u64,
    pub backup_reads: u64,
    pub backup_uncorrectable_reads: u64,
    /// `[primary's page type][backup's page type]`: critical reads whose page had a backup.
    pub backed_up_reads_by_page_types: Vec<Vec<u64>>,
}

/// A host scheduler's counters (`host.scheduler = "feedback"`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SchedulerSummary {
    /// Non-critical writes sent ahead of a held critical write (request feedback).
    pub feedbacks: u64,
    /// Critical writes sent with no non-critical write waiting (placement skipped pages).
    pub critical_writes_unfed: u64,
}

/// Program and erase times charged, when they depend on P/E or the device is scaled.
#[derive(Debug, Clone, Serialize)]
pub struct PeTimeSummary {
    /// `null` for a page type never programmed.
    pub program_ns_mean_by_page_type: Vec<Option<f64>>,
    pub programs_by_page_type: Vec<u64>,
    /// `null` when nothing was erased.
    pub erase_ns_mean: Option<f64>,
    pub erases: u64,
}

/// A data codec that transforms pages (`codec`; seed 000's BitFlip).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CodecSummary {
    pub kind: &'static str,
    pub unit_bytes: usize,
    pub units_per_page: usize,
    /// Tag bits per data bit.
    pub storage_overhead: f64,
    pub encode_ns_per_page: u64,
    pub pages_encoded: u64,
    pub units_encoded: u64,
    pub units_flipped: u64,
    /// Units flipped / units encoded (0 when none were).
    pub flipped_unit_share: f64,
}
