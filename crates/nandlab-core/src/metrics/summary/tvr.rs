//! The `tvr` section (seed 002's TVR device mode): the two Vth layouts and what the reduced
//! one buys, then per-region counts when only part of the device is TVR.

use serde::Serialize;
use serde_json::Value;

/// The `tvr` section.
#[derive(Debug, Clone, Serialize)]
pub struct TvrSummary {
    #[serde(flatten)]
    pub model: TvrModelSummary,
    /// When only a region of the device is TVR (`tvr.region`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<TvrRegions>,
}

/// Both layouts, the distances Δ₀…Δ₅, ISPP steps, program speed-up (§5.3), Eq. 8's P/E
/// limits (§5.4) and the coupling reduction (Eq. 4).
#[derive(Debug, Clone, Serialize)]
pub struct TvrModelSummary {
    pub rber_limit: f64,
    pub standard: LayoutSummary,
    pub reduced: LayoutSummary,
    pub deltas_v: [f64; 6],
    pub program_steps_msb: ProgramSteps,
    pub program_steps_lsb: ProgramSteps,
    pub program_speedup: f64,
    pub err_limit_cell_errors: f64,
    pub max_pe_1e5: MaxPe,
    pub lifetime_gain: f64,
    pub coupling_reduction_cho_2v: f64,
    pub coupling_reduction_layouts: f64,
    pub pass_voltage_drop_v: f64,
    /// The `vth` model's Eq. 3/5 terms priced on both layouts, when configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<TvrTerms>,
}

/// Seed 002's coupling (Eq. 3) and read disturb (Eq. 5) on both layouts
/// (`reliability/tvr_terms.rs`).
#[derive(Debug, Clone, Serialize)]
pub struct TvrTerms {
    /// The configured terms' parameters, echoed as the config gives them (`null` if
    /// absent); typed in `reliability::interference`, which this module does not import.
    pub coupling: Value,
    pub read_disturb: Value,
    /// Reads of the block since its erase at which each list entry is priced.
    pub reads: [f64; 4],
    pub standard: TermLayout,
    pub reduced: TermLayout,
    pub pass_voltage_drop_v: f64,
    /// Eq. 5 at the lower V_pass, as a fraction of the standard layout's leakage.
    pub leakage_factor: Option<f64>,
}

/// One layout's page RBERs and erased-state rise at each of [`TvrTerms::reads`].
#[derive(Debug, Clone, Serialize)]
pub struct TermLayout {
    pub rber_msb_page: Vec<f64>,
    pub rber_lsb_page: Vec<f64>,
    pub erased_rise_v: Vec<f64>,
}

/// One Vth layout.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct LayoutSummary {
    pub means_v: [f64; 4],
    pub sigmas_v: [f64; 4],
    pub read_refs_v: [f64; 3],
    pub mean_vth_v: f64,
    pub rber_msb_page: f64,
    pub rber_lsb_page: f64,
}

/// ISPP steps of a page's program, standard layout (`before`) and reduced (`after`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ProgramSteps {
    pub before: u32,
    pub after: u32,
}

/// Eq. 8's P/E limit of each layout, in Eq. 9's P/E units.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct MaxPe {
    pub standard: f64,
    pub reduced: f64,
}

/// Counts per region (`tvr.regions`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct TvrRegions {
    pub retention_days: f64,
    pub standard: RegionSummary,
    pub tvr: RegionSummary,
}

/// One region's programs and host reads.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RegionSummary {
    pub programs: u64,
    /// `null` when nothing was programmed in it.
    pub program_ns_mean: Option<f64>,
    pub reads: u64,
    /// Over its judged reads; `null` when none were judged.
    pub rber_mean: Option<f64>,
    /// Reads of TVR data older than the retention budget.
    pub reads_at_risk: u64,
}
