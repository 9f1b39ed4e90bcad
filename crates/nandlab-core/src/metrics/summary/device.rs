//! The device's side: flash operations, background work per cause, energy and the
//! simulation's own counters.

use serde::Serialize;

/// Flash operations and utilisation.
#[derive(Debug, Clone, Serialize)]
pub struct FlashSummary {
    /// Page reads of every cause (host, GC, wear leveling, refresh, read-modify-write).
    pub page_reads_incl_gc: u64,
    pub gc_page_reads: u64,
    pub rmw_page_reads: u64,
    pub soft_senses: u64,
    pub page_programs: u64,
    pub erases: u64,
    pub host_page_programs: u64,
    pub gc_page_moves: u64,
    pub gc_erases: u64,
    pub wl_page_moves: u64,
    pub wl_erases: u64,
    pub refresh_page_moves: u64,
    pub refresh_erases: u64,
    pub skipped_pages: u64,
    pub unmapped_reads: u64,
    pub trimmed_pages: u64,
    /// (Host + moved pages) / host pages programmed.
    pub write_amplification: f64,
    pub die_utilization: f64,
    pub channel_utilization: f64,
    pub by_cause: ByCause,
    /// With `ecc.interleave` on.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub interleave: Option<InterleaveSummary>,
    /// With `ftl.retire_pe_limit` set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retirement: Option<RetirementSummary>,
    /// With read refresh on (`[ftl.refresh] trigger`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_read_blocks: Option<HostReadBlocks>,
    /// With refresh urgency set (`scheduler.refresh_urgent_reads`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_wait: Option<RefreshWaitSummary>,
}

/// How long read refresh's page moves waited behind host work (`sim/tsu/refresh.rs`), in
/// host page reads of the refreshed block's die between the trigger and the move's read
/// (a bound on the block's own reads past the trigger had the host kept reading it there)
/// and in time.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct RefreshWaitSummary {
    /// The bound (`scheduler.refresh_urgent_reads`).
    pub refresh_urgent_reads: u32,
    /// Refresh page moves read.
    pub moves: u64,
    /// Times a die's queued refresh turned urgent.
    pub urgent_dies: u64,
    /// Most host page reads of its die any move's read waited after its trigger.
    pub reads_past_trigger_max: u64,
    /// Their mean over the moves.
    pub reads_past_trigger_mean: f64,
    /// Their sum (kept for the mean).
    #[serde(skip)]
    pub reads_past_trigger_sum: u64,
    /// Longest time from a trigger to when one of its moves' reads may start (ns): the die
    /// free of host work, or, urgent, the previous move done.
    pub wait_ns_max: u64,
}

/// What the host page reads met, read-weighted: their blocks' mean P/E and mean reads
/// since erase (the read included), the two inputs of the read-disturb error models. Where
/// a read-refresh policy puts hot pages shows here (seed 003: DR against Baseline per
/// workload, docs/read_refresh.md).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct HostReadBlocks {
    /// Mean P/E cycles of the block each host page read sensed.
    pub pe_mean: f64,
    /// Mean reads since erase of that block at the read.
    pub reads_mean: f64,
}

/// Retired blocks and every block's wear (`ftl.retire_pe_limit`, ftl/retire.rs).
#[derive(Debug, Clone, Serialize)]
pub struct RetirementSummary {
    /// The limit (P/E cycles).
    pub retire_pe_limit: u32,
    /// Blocks out of service at the end of the run (those retired before it included).
    pub retired_blocks: u64,
    /// Fewest spare blocks of any plane: blocks in service beyond its share of the logical
    /// space and GC's free blocks (the drive fails below 0).
    pub spare_blocks_min: i64,
    /// P/E cycles of every block, in block order (what `aging.initial_pe` takes back).
    pub pe_by_block: Vec<u32>,
}

/// Group rewrites of interleaved codewords (`ecc.interleave`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct InterleaveSummary {
    /// Pages programmed again because their group was partly rewritten.
    pub interleave_rewrite_pages: u64,
    /// Programmed host pages / host pages written.
    pub interleave_write_amplification: f64,
}

/// Background work per cause.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct ByCause {
    pub gc: CauseWork,
    pub wear_leveling: CauseWork,
    pub refresh: CauseWork,
    /// Hot pages moved to reliable chips on read (only under a placement that moves them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hot_read: Option<CauseWork>,
}

/// What one cause's background work cost.
#[derive(Debug, Default, Clone, Copy, Serialize)]
pub struct CauseWork {
    /// Pages read to be moved.
    pub page_reads: u64,
    /// Sensing operations (a read through the controller may sense several times).
    pub senses: u64,
    /// Reads through the controller that no ECC level decoded.
    pub uncorrectable_reads: u64,
    /// Pages programmed.
    pub page_programs: u64,
    /// Blocks erased.
    pub erases: u64,
    /// Array time of its operations (ns).
    pub die_busy_ns: u64,
    /// Channel time of its transfers (ns).
    pub channel_busy_ns: u64,
    /// Decoder time (ns).
    pub decode_busy_ns: u64,
    /// Energy of sensing, transfers, decoding and programs (µJ).
    pub energy_uj: f64,
}

/// Energy by component (µJ).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct EnergySummary {
    pub program: f64,
    pub sense: f64,
    pub transfer: f64,
    pub decode: f64,
    pub total: f64,
}

/// The simulation itself.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SimSummary {
    /// From the first arrival to the last completion (ns).
    pub simulated_ns: u64,
    pub events: u64,
    pub mapping_entries: usize,
    /// Wall-clock time of the replay (s): measures the machine, not the device.
    pub wall_s: f64,
    pub requests_per_s: f64,
}
