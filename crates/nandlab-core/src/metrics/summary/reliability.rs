//! Host page reads judged by the error model: RBER, decoding levels, retries, failures and
//! the endurance the ECC allows.

use crate::ecc::{Scheme, StrategyConfig};
use serde::Serialize;

/// The `reliability` section.
#[derive(Debug, Clone, Serialize)]
pub struct ReliabilitySummary {
    #[serde(flatten)]
    pub reads: ReadStatsSummary,
    /// Mean raw bit errors over the judged reads (they are not drawn one by one).
    pub expected_raw_bit_errors: f64,
    /// The error model's name.
    pub model: &'static str,
    pub ecc: Scheme,
    #[serde(serialize_with = "crate::registry::name_if_bare")]
    pub strategy: StrategyConfig,
    /// When the ECC has a correctable-RBER limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endurance: Option<Endurance>,
}

/// What the judged reads met.
#[derive(Debug, Clone, Serialize)]
pub struct ReadStatsSummary {
    pub page_reads: u64,
    pub rber_mean: f64,
    pub rber_p50: f64,
    pub rber_p99: f64,
    pub rber_max: f64,
    /// Non-empty bins only, lowest first.
    pub rber_histogram: Vec<RberBin>,
    /// Reads decoded at each ECC level.
    pub decoded_at_level: Vec<u64>,
    pub mean_decoding_level: f64,
    pub mean_attempts: f64,
    pub retries: u64,
    pub uncorrectable_pages: u64,
    pub expected_uncorrectable_pages: f64,
    /// Present when the ECC reads a measured FER table: how much of what the reads met
    /// rests on its extrapolated tails (docs/ldpc.md §7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fer_extrapolation: Option<FerExtrapolation>,
}

/// The reads whose RBER lay below the FER table's measured range: their decoding levels
/// and uncorrectable probabilities come (in part) from a tail model, not a measurement.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct FerExtrapolation {
    /// The RBER below which some level's FER is extrapolated.
    pub measured_from_rber: f64,
    /// Judged reads below it.
    pub reads: u64,
    /// The part of `expected_uncorrectable_pages` those reads contributed: extrapolated.
    pub expected_uncorrectable_pages: f64,
}

/// One bin of the RBER histogram.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RberBin {
    /// The bin's lower edge.
    pub rber_from: f64,
    pub reads: u64,
}

/// The P/E count at which a fresh page of each type reaches the RBER the ECC's strongest
/// level can still correct.
#[derive(Debug, Clone, Serialize)]
pub struct Endurance {
    pub rber_limit: f64,
    /// `rber_limit` lies below the FER table's measured range (read off a tail model);
    /// false for closed forms (thresholds, BCH).
    pub rber_limit_extrapolated: bool,
    /// `null` where the limit is not reached by 10⁶ P/E cycles.
    pub pe_by_page_type: Vec<Option<f64>>,
}
