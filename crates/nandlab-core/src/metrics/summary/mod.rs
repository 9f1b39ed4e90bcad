//! The run summary's schema: every section and metric a run reports, as typed structs.
//! `summary.json` is [`Summary`] serialised; the Python front reads it by these names
//! (`python/nandlab/summary.py`), so renaming a field here renames a metric there.
//!
//! A section that a run does not have (no flows, no error model, no DRAM cache…) is absent
//! from the JSON, not `null`; a mean over nothing is `null`.

mod device;
mod optional;
mod reliability;
mod requests;
mod tvr;

pub use device::{
    ByCause, CauseWork, EnergySummary, FlashSummary, HostReadBlocks, InterleaveSummary, RefreshWaitSummary,
    RetirementSummary, SimSummary,
};
pub use optional::{
    CacheSummary, CodecSummary, CriticalBackup, CriticalSummary, MappingCacheSummary, PeTimeSummary, SchedulerSummary,
    SuspendSummary,
};
pub use reliability::{Endurance, FerExtrapolation, RberBin, ReadStatsSummary, ReliabilitySummary};
pub use requests::{FlowSummary, LatencySummary, RequestCounts};
pub use tvr::{
    LayoutSummary, MaxPe, ProgramSteps, RegionSummary, TermLayout, TvrModelSummary, TvrRegions, TvrSummary, TvrTerms,
};

use serde::Serialize;
use serde_json::Value;

/// A run's summary.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The core's version.
    pub version: &'static str,
    pub seed: u64,
    /// The resolved config (an open map: it echoes whatever the config holds).
    pub config: Value,
    pub requests: RequestCounts,
    pub read: LatencySummary,
    /// Each host page read, from its request's arrival to its data decoded (before the
    /// host interface): a page's own response time, where a request of several pages
    /// completes with its slowest. `bytes` counts whole pages. Only with
    /// `output.read_page_latency`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_page: Option<LatencySummary>,
    pub write: LatencySummary,
    /// Every request (reads, writes and trims).
    pub all: LatencySummary,
    pub flash: FlashSummary,
    pub energy_uj: EnergySummary,
    pub sim: SimSummary,
    /// Per flow (`workload.flows`), in config order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flows: Option<Vec<FlowSummary>>,
    /// Host page reads judged by the error model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reliability: Option<ReliabilitySummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping_cache: Option<MappingCacheSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheSummary>,
    /// Reads of critical pages (`host.critical`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical: Option<CriticalSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspend: Option<SuspendSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduler: Option<SchedulerSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pe_time: Option<PeTimeSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tvr: Option<TvrSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codec: Option<CodecSummary>,
}

impl Summary {
    /// The summary as a JSON value. Its objects keep their keys sorted (serde_json's map
    /// without `preserve_order`), as `summary.json` has always had them: the front's
    /// flattened tables take their column order from it.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a summary is always serialisable")
    }
}
