//! How flash cells fail: the threshold-voltage model, error models giving per-state error
//! probabilities and page RBER, raw errors per codeword, chip/block variation, aging
//! (Arrhenius) and endurance estimates.

pub mod aging;
pub mod chip_profile;
pub mod config;
pub mod critical_pages;
pub mod empirical;
pub mod endurance;
pub mod interference;
pub mod ispp;
pub mod model;
pub mod nominal;
pub mod retention_uber;
pub mod term_stack;
pub mod terms;
pub mod tlc_3d;
pub mod tvr;
pub mod tvr_data;
pub mod tvr_mode;
pub mod tvr_region;
pub mod tvr_terms;
pub mod variation;
pub mod vth;
pub mod vth_errors;
mod vth_level;
mod vth_params;
pub mod vth_reliability;
mod vth_solve;
pub mod vth_table;

/// How `reliability.error_draw` turns an RBER into decoding outcomes (the ECC's side).
pub use crate::ecc::{expected_codeword_errors, ErrorDraw};
pub use aging::{arrhenius_factor, equivalent_retention_s, recovery_bake_s, retention_bake_s};
pub use chip_profile::ChipProfile;
pub use config::{LevelOrder, ModelKind, ReliabilityConfig};
pub use empirical::EmpiricalParams;
pub use endurance::{bitflip_log_reliability_ratio, bitflip_reliability_ratio, model_endurance_pe, pe_at_rber};
pub use model::{ErrorContext, ErrorModel, NoErrors, RBER_CAP};
pub use nominal::{NominalModel, BITFLIP_MLC_WEIGHTS};
pub use term_stack::TermStack;
pub use terms::{ErrorTerm, Needs, TermConfig};
pub use tvr_data::TvrData;
pub use tvr_mode::TvrConfig;
pub use variation::Variation;
pub use vth::{LevelDist, RetentionParams, RtnParams, VthModel, VthParams};
pub use vth_errors::VthErrorModel;
