//! How errors are corrected: BCH (binomial tail), LDPC as a ladder of sensing levels
//! (thresholds or FER curves), read strategies as plans of sensing/transfer/decode
//! attempts, their closed-form mean latency (seed 001 Eq. 1–4) and energy (§5.5).

pub mod bch;
pub mod binomial;
pub mod config;
pub mod draw;
pub mod fail_grid;
pub mod interleave;
pub mod ldpc;
pub mod plan;
pub mod read_energy;
pub mod read_latency;
pub mod strategy;

pub use bch::Bch;
pub use binomial::{any_fails, binomial_sf};
pub use config::{builtin_fer_table, EccConfig, LdpcMode, Scheme};
pub use draw::{expected_codeword_errors, ErrorDraw};
pub use fail_grid::{sample_needed_level, FailGrid, FailProbs};
pub use interleave::Interleave;
pub use ldpc::{
    bitflip_table1_latency_ns, FerCurves, FerPoint, LdpcLadder, LevelCapability, BITFLIP_TABLE1_THRESHOLDS,
};
pub use plan::{EccCode, ReadAttempt, ReadOutcome, ReadPlan, ReadPlanner, SoftTransfer};
pub use read_energy::{EnergyParams, ReadEnergy};
pub use read_latency::{
    idle_latency_ns, look_ahead_mean_latency_ns, needed_level_distribution, progressive_mean_latency_ns,
    two_step_mean_latency_ns, LatencyParams,
};
pub use strategy::{ReadContext, ReadStrategy, StrategyConfig};
