//! Flash translation layer: page-level mapping, allocation, garbage collection, wear
//! leveling and TRIM.

pub mod config;
pub mod mapping;

pub use config::{FtlConfig, GcPolicy, WearLeveling};
