//! How flash cells fail: threshold-voltage model, error models (page RBER), aging and
//! endurance estimates.

pub mod vth;

pub use vth::{LevelDist, RetentionParams, RtnParams, VthModel, VthParams};
