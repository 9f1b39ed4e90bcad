//! The simulator configuration: one struct per TOML section, each validated with errors
//! that name the offending key. Unknown keys are errors, never silently ignored.

use crate::cache::CacheConfig;
use crate::codec::CodecConfig;
use crate::content::ContentConfig;
use crate::ecc::EccConfig;
use crate::error::{NandError, Result};
use crate::flash::scheduler::SchedulerConfig;
use crate::flash::{DeviceConfig, TimingConfig};
use crate::ftl::FtlConfig;
use crate::host::HostConfig;
use crate::reliability::{ReliabilityConfig, TvrConfig};
use crate::workload::WorkloadConfig;
use serde::{Deserialize, Serialize};

pub use crate::ftl::aging::{AgingConfig, Distribution};

mod retention;
pub use retention::STORAGE_C;

/// The `[output]` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OutputConfig {
    /// Keep one record per request (arrival, latency, size, op) for `.requests`.
    pub record_requests: bool,
    /// Window of the timeline of metrics over simulated time (ns); 0 = no timeline. Left
    /// out of the resolved config when 0, so configs without it keep their identity.
    #[serde(skip_serializing_if = "is_zero")]
    pub timeline_ns: u64,
    /// Time every host page read (the summary's `read_page` section; seed 001's Fig. 5).
    /// Off by default: one histogram record per page read was about 12 % of a replay's
    /// instructions. Left out of the resolved config when off, as `timeline_ns`.
    #[serde(skip_serializing_if = "is_false")]
    pub read_page_latency: bool,
    /// Keep every block's P/E cycles at the end (`pe_cycles.parquet`, the P/E distribution
    /// of `nandlab plot`). Off by default: a million blocks cost ~150 M instructions to
    /// write, 1 % of a DTRS ×10 run. Left out of the resolved config when off.
    #[serde(skip_serializing_if = "is_false")]
    pub pe_cycles: bool,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

impl Default for OutputConfig {
    fn default() -> Self {
        OutputConfig {
            record_requests: true,
            timeline_ns: 0,
            read_page_latency: false,
            pe_cycles: false,
        }
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
    /// The controller's DRAM data cache (off by default).
    pub cache: CacheConfig,
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
    /// The TVR device mode (seed 002 §5; off by default, and then left out of the
    /// resolved config).
    #[serde(skip_serializing_if = "TvrConfig::is_default")]
    pub tvr: TvrConfig,
    /// How background flash work is ordered against host work (`fifo` by default, and then
    /// left out of the resolved config).
    #[serde(skip_serializing_if = "SchedulerConfig::is_default")]
    pub scheduler: SchedulerConfig,
    /// What is recorded.
    pub output: OutputConfig,
}

impl SimConfig {
    /// Parses a TOML config; errors name the key (`config key `ftl.gc_policy`: ...`).
    pub fn from_toml_str(text: &str) -> Result<Self> {
        let de = toml::Deserializer::new(text);
        let cfg: Self =
            serde_path_to_error::deserialize(de).map_err(|e| path_error(e.path().to_string(), e.inner().message()))?;
        cfg.resolved()
    }

    /// Parses a JSON config (what the Python front end sends).
    pub fn from_json_str(text: &str) -> Result<Self> {
        let mut de = serde_json::Deserializer::from_str(text);
        let cfg: Self = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            // The JSON position means nothing to a person who wrote TOML: keep the key.
            let msg = e.inner().to_string();
            let msg = msg.split(" at line ").next().unwrap_or_default().to_string();
            path_error(e.path().to_string(), msg)
        })?;
        cfg.resolved()
    }

    /// The config with old key spellings folded into their new places, and BADR's
    /// exponents taken from the error model where the config leaves them out.
    fn resolved(mut self) -> Result<Self> {
        self.ftl.resolve_old_keys()?;
        if let crate::ftl::refresh_targets::RefreshTargetsConfig::Badr(b) = &mut self.ftl.refresh_targets {
            b.resolve_exponents(&self.reliability)?;
        }
        Ok(self)
    }

    /// The resolved config as JSON (recorded with every result).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("config is always serialisable")
    }
}

fn path_error(path: String, msg: impl std::fmt::Display) -> NandError {
    // serde_path_to_error puts an unknown field at the end of the path already, except
    // inside a policy table (a tagged enum, read through a buffer): add it there.
    let msg = msg.to_string();
    let unknown = msg
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split('`').next())
        .filter(|field| !path.ends_with(field));
    let key = match (path.as_str(), unknown) {
        ("." | "", _) => "<root>".to_string(),
        (_, Some(field)) => format!("{path}.{field}"),
        _ => path,
    };
    // serde's "there are no fields" reads as if the table itself were unknown: it is a
    // policy without parameters, so the key is a typo (`[ftl.gc] victm = ...`).
    let msg = msg.lines().next().unwrap_or("").replace(
        ", there are no fields",
        ": the policy chosen here has no parameters (is the key misspelt?)",
    );
    NandError::config(key, msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ftl::victim::{VictimConfig, Weighted};
    use crate::ftl::wear::{StaticLeveling, WearLevelingConfig};

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
    fn policy_tables_name_their_keys() {
        let c = SimConfig::from_toml_str("[ftl.gc]\nvictim = \"weighted\"\nweight_valid = 0.25\n").unwrap();
        assert_eq!(c.ftl.gc, VictimConfig::Weighted(Weighted { weight_valid: 0.25 }));
        let e = SimConfig::from_toml_str("[ftl.gc]\nvictim = \"weighted\"\nweight_vald = 0.25\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("config key `ftl.gc.weight_vald`: unknown field"), "{e}");
        // A typo beside a policy without parameters (the README's example).
        let e = SimConfig::from_json_str(r#"{"ftl": {"gc": {"victim": "greedy", "victm": "greedy"}}}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "config key `ftl.gc.victm`: unknown field `victm`: the policy chosen here has no parameters (is the key misspelt?)"
        );
        let e = SimConfig::from_toml_str("[ftl.gc]\nvictim = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("config key `ftl.gc.victim`: unknown variant `random`"),
            "{e}"
        );
        let e = SimConfig::from_toml_str("[ftl.wear_leveling]\npolicy = \"static\"\nthreshold = 5\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("config key `ftl.wear_leveling.threshold`: unknown field"),
            "{e}"
        );
    }

    #[test]
    fn old_ftl_keys_map_to_the_policy_tables() {
        let old = "[ftl]\ngc_policy = \"weighted\"\ngc_weight_valid = 0.25\n\
                   wear_leveling = \"static\"\nwear_leveling_threshold = 7\n";
        let new = "[ftl.gc]\nvictim = \"weighted\"\nweight_valid = 0.25\n\
                   [ftl.wear_leveling]\npolicy = \"static\"\nthreshold_pe = 7\n";
        let (a, b) = (
            SimConfig::from_toml_str(old).unwrap(),
            SimConfig::from_toml_str(new).unwrap(),
        );
        assert_eq!(a, b);
        assert_eq!(
            b.ftl.wear_leveling,
            WearLevelingConfig::StaticLeveling(StaticLeveling { threshold_pe: 7 })
        );
        assert_eq!(a.to_json()["ftl"]["gc"]["victim"], "weighted");
        assert!(a.to_json()["ftl"].get("gc_policy").is_none());
        // An old key replaces the table (a `--set` on a preset written the new way).
        let both = "[ftl]\ngc_policy = \"greedy\"\n[ftl.gc]\nvictim = \"fifo\"\n";
        assert_eq!(SimConfig::from_toml_str(both).unwrap().ftl.gc, VictimConfig::default());
        let e = SimConfig::from_toml_str("[ftl]\nwear_leveling = \"dynamic\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("config key `ftl.wear_leveling`: unknown variant `dynamic`"),
            "{e}"
        );
    }

    #[test]
    fn round_trip_through_json() {
        let c = SimConfig::default();
        let back = SimConfig::from_json_str(&c.to_json().to_string()).unwrap();
        assert_eq!(c, back);
    }
}
