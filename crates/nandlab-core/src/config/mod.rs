//! The simulator configuration: one struct per TOML section, each validated with errors
//! that name the offending key. Unknown keys are errors, never silently ignored.

use crate::codec::CodecConfig;
use crate::content::ContentConfig;
use crate::ecc::EccConfig;
use crate::error::{NandError, Result};
use crate::flash::{DeviceConfig, TimingConfig};
use crate::ftl::FtlConfig;
use crate::host::HostConfig;
use crate::reliability::ReliabilityConfig;
use crate::workload::WorkloadConfig;
use serde::{Deserialize, Serialize};

pub mod aging;
pub use aging::{AgingConfig, Distribution};

/// The `[output]` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OutputConfig {
    /// Keep one record per request (arrival, latency, size, op) for `.requests`.
    pub record_requests: bool,
}

impl Default for OutputConfig {
    fn default() -> Self {
        OutputConfig { record_requests: true }
    }
}

/// A whole simulation config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct SimConfig {
    /// Seed of every random stream of the run.
    pub seed: u64,
    /// Flash organisation.
    pub device: DeviceConfig,
    /// Flash and controller timing.
    pub timing: TimingConfig,
    /// Flash translation layer.
    pub ftl: FtlConfig,
    /// Host interface and replay mode.
    pub host: HostConfig,
    /// Initial wear and data age.
    pub aging: AgingConfig,
    /// What requests to replay.
    pub workload: WorkloadConfig,
    /// What the pages store.
    pub content: ContentConfig,
    /// How page data are encoded before programming (none by default).
    pub codec: CodecConfig,
    /// How the flash errs.
    pub reliability: ReliabilityConfig,
    /// How errors are corrected, and what retries cost.
    pub ecc: EccConfig,
    /// What is recorded.
    pub output: OutputConfig,
}

impl SimConfig {
    /// Parses a TOML config; errors name the key (`config key `ftl.gc_policy`: ...`).
    pub fn from_toml_str(text: &str) -> Result<Self> {
        let de = toml::Deserializer::new(text);
        serde_path_to_error::deserialize(de).map_err(|e| path_error(e.path().to_string(), e.inner().message()))
    }

    /// Parses a JSON config (what the Python front end sends).
    pub fn from_json_str(text: &str) -> Result<Self> {
        let mut de = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            // The JSON position means nothing to a person who wrote TOML: keep the key.
            let msg = e.inner().to_string();
            let msg = msg.split(" at line ").next().unwrap_or_default().to_string();
            path_error(e.path().to_string(), msg)
        })
    }

    /// The resolved config as JSON (recorded with every result).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("config is always serialisable")
    }
}

fn path_error(path: String, msg: impl std::fmt::Display) -> NandError {
    // serde_path_to_error puts an unknown field at the end of the path already.
    let key = if path == "." || path.is_empty() {
        "<root>".to_string()
    } else {
        path
    };
    let msg = msg.to_string();
    NandError::config(key, msg.lines().next().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_ill_typed_keys_are_named() {
        let e = SimConfig::from_toml_str("[device]\nchanels = 4\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("config key `device.chanels`: unknown field"), "{e}");
        let e = SimConfig::from_toml_str("[device]\nchannels = \"four\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("config key `device.channels`"), "{e}");
        let e = SimConfig::from_json_str(r#"{"ftl": {"gc_policy": "random"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ftl.gc_policy"), "{e}");
        assert!(!e.contains(" at line "), "{e}");
    }

    #[test]
    fn round_trip_through_json() {
        let c = SimConfig::default();
        let back = SimConfig::from_json_str(&c.to_json().to_string()).unwrap();
        assert_eq!(c, back);
    }
}
