//! Workloads: streaming trace readers and synthetic generators. Every source yields
//! [`Request`]s in arrival order with times rebased to start at 0, and reports bad input as
//! a [`NandError`](crate::NandError) naming the file and line.
//!
//! - [`format`]: the trace formats ([`TraceFormat`]), their time units ([`TimeUnit`]), the
//!   per-line parsers and format detection;
//! - [`reader`]: [`TraceReader`] (one file, constant memory);
//! - [`repeat`]: [`RepeatedTrace`] (a trace replayed back to back, parsed once when it fits);
//! - [`synthetic`]: the IOMeter/fio-like generator (`generator = "mix"`), with
//!   [`iometer`] (segments with the exact random ratio) and [`sensor`] (files written in
//!   rotation) built on it;
//! - [`stats`]: [`trace_info`] / [`TraceStats`];
//! - [`convert`](mod@convert): [`convert()`] to DiskSim ASCII or MSR CSV;
//! - [`background`]: [`Background`], a stream read on its own thread;
//! - [`flows`]: [`Flows`], several workloads (`[[workload.flows]]`) merged by arrival time.
//!
//! See `docs/workloads.md` for the formats and the `[workload]` keys.

use crate::error::{NandError, Result};
pub use crate::host::request::{Op, Request};
use crate::host::time_scale;
use serde::{Deserialize, Serialize};

mod amplify;
pub mod arrival;
pub mod background;
pub mod convert;
mod disksim_fast;
pub mod flows;
pub mod format;
pub mod fs_metadata;
pub mod iometer;
pub mod jesd219;
pub mod parse;
pub mod reader;
pub mod repeat;
pub mod sensor;
pub mod stats;
pub mod synthetic;
pub mod zoned;

#[cfg(test)]
mod tests;

pub use arrival::BurstConfig;
pub use background::Background;
pub use convert::{convert, convert_report, ConvertReport};
pub use flows::Flows;
pub use format::{detect_format, TimeUnit, TraceFormat};
pub use fs_metadata::{FsMetadata, FsMetadataConfig};
pub use iometer::Iometer;
pub use reader::{TraceOptions, TraceReader};
pub use repeat::RepeatedTrace;
pub use sensor::Sensor;
pub use stats::{trace_info, SizeBucket, TraceInfo, TraceStats};
pub use synthetic::Synthetic;
pub use zoned::Zone;

/// A stream of requests.
pub type RequestStream = Box<dyn Iterator<Item = Result<Request>> + Send>;

/// What the simulator tells a workload about the device.
#[derive(Debug, Clone, Copy)]
pub struct WorkloadContext {
    /// Logical (user-visible) capacity in bytes.
    pub logical_bytes: u64,
    /// Run seed.
    pub seed: u64,
}

/// Where requests come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum WorkloadKind {
    /// Replay a block trace file (`path`, `format`, ...).
    Trace,
    /// Generate requests (`requests`/`duration_s`, `read_fraction`, ...).
    #[default]
    Synthetic,
}

/// Which synthetic generator makes the requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Generator {
    /// Every request drawn on its own: op, size, random or sequential start ([`Synthetic`]).
    #[default]
    Mix,
    /// IOMeter: segments of `segment_requests` with the exact random ratio ([`Iometer`]).
    Iometer,
    /// Seed 004's sensor logger: files of `size_bytes` written in rotation ([`Sensor`]).
    Sensor,
    /// The JESD219 enterprise endurance workload: the mix generator with the standard's
    /// sizes, zones and alignment ([`jesd219`]).
    Jesd219,
}

impl Generator {
    fn is_mix(&self) -> bool {
        *self == Generator::Mix
    }
}

/// How a synthetic workload picks random start addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AddressDistribution {
    /// Every aligned start address equally likely.
    #[default]
    Uniform,
    /// Zipf over aligned start addresses with exponent `zipf_theta`: the k-th address (from
    /// offset 0) is drawn with probability ∝ k^−θ, so the hottest data sits at low offsets.
    Zipf,
    /// The first `hot_fraction` of the start addresses receives `hot_access` of the random
    /// requests, uniformly; the rest receives the remainder, uniformly.
    Hotcold,
    /// Consecutive `zones` from offset 0, each receiving its `access` share of the random
    /// requests, uniformly inside it ([`zoned`]).
    Zoned,
}

/// One entry of a weighted request-size list.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeWeight {
    /// Request size in bytes (> 0).
    pub size_bytes: u64,
    /// Relative weight (≥ 0; the weights need not sum to 1).
    pub weight: f64,
}

/// The `[workload]` section of a config.
///
/// `kind = "trace"` replays `path`; `kind = "synthetic"` (the default, so a config without a
/// `[workload]` section runs a small demo of 10,000 random 4 KiB requests) generates
/// requests. Keys of the other kind are ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WorkloadConfig {
    /// `trace` or `synthetic` (default).
    pub kind: WorkloadKind,

    // ---- trace replay ----
    /// Trace file to replay (required for `kind = "trace"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Trace format: `auto` (default; detected from the header / first lines, then the
    /// extension), `disksim`, `msr`, `spc`, `systor`, `cloudphysics`, `alibaba`, `tencent`.
    pub format: TraceFormat,
    /// Unit of the trace's time field (`ns`, `us`, `ms`, `s`, `ticks100ns`); default: the
    /// format's own (disksim ns, msr ticks100ns, spc/systor/cloudphysics/tencent s, alibaba us).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_unit: Option<TimeUnit>,
    /// Read at most this many requests from the trace (after the `stream` filter; per copy
    /// when `repeat` > 1). Default: all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_requests: Option<u64>,
    /// Replay the trace this many times back to back (default 1); copy k is shifted by k ×
    /// (the trace's duration + its mean inter-arrival gap).
    pub repeat: u32,
    /// Keep only the requests of this device / disk / ASU / LUN / volume number. Default: all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<u32>,

    // ---- synthetic ----
    /// `mix` (default), `iometer`, `sensor` or `jesd219`.
    #[serde(skip_serializing_if = "Generator::is_mix")]
    pub generator: Generator,
    /// `iometer`: requests per segment, each with exactly `round(random_fraction · S)`
    /// random requests. Default 100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment_requests: Option<u64>,
    /// Number of requests. Default: 10,000 when `duration_s` is unset too, else unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requests: Option<u64>,
    /// Stop generating at this arrival time, in seconds (needs `iops` > 0). With
    /// `requests` set too, whichever limit comes first ends the workload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    /// Probability that a request is a read (0 … 1, default 0.7).
    pub read_fraction: f64,
    /// Probability that a request is a trim (0 … 1 − read_fraction, default 0); the rest
    /// are writes.
    pub trim_fraction: f64,
    /// Probability that a request starts at a random address (0 … 1, default 1); otherwise
    /// it starts where the previous request ended (rounded up to `alignment_bytes`),
    /// wrapping to offset 0 at the end of the footprint.
    pub random_fraction: f64,
    /// Request size in bytes (default 4096), used when `sizes` is empty.
    pub size_bytes: u64,
    /// Weighted request sizes, e.g. `[{size_bytes = 4096, weight = 3}, {size_bytes =
    /// 65536, weight = 1}]`; overrides `size_bytes` when not empty. Default: empty.
    pub sizes: Vec<SizeWeight>,
    /// Random start addresses are multiples of this many bytes (default 4096).
    pub alignment_bytes: u64,
    /// Mean arrival rate in requests per second: Poisson arrivals (exponential gaps). 0
    /// (default) puts every request at time 0, i.e. closed-loop replay by the host.
    pub iops: f64,
    /// Bursty arrivals at the mean `iops` (`[workload.bursts]`: `peak_to_mean`,
    /// `burst_requests`; an on/off Markov-modulated Poisson process, [`arrival`]). Default:
    /// none (Poisson).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bursts: Option<BurstConfig>,
    /// Random-address distribution: `uniform` (default), `zipf`, `hotcold`, `zoned`.
    pub address: AddressDistribution,
    /// Zipf exponent θ ≥ 0 for `address = "zipf"` (default 0.99, as in YCSB).
    pub zipf_theta: f64,
    /// Fraction of the footprint that is hot for `address = "hotcold"` (0 … 1 exclusive,
    /// default 0.2).
    pub hot_fraction: f64,
    /// Fraction of random requests that go to the hot part (0 … 1, default 0.8).
    pub hot_access: f64,
    /// Zones for `address = "zoned"`, from offset 0: `[{access = 0.5, space = 0.05}, ...]`
    /// (shares of the random requests and of the footprint, each summing to 1). Default:
    /// empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    /// Bytes of the logical space (from offset 0) the requests stay inside. Default: the
    /// whole logical capacity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footprint_bytes: Option<u64>,
    /// Each read request is issued this many times, the copies arriving with it (seed 003
    /// §IV-A amplifies LUN reads ×10, hm1 and ads ×3); any kind. Default 1.
    #[serde(skip_serializing_if = "is_one")]
    pub read_amplification: u32,
    /// A file system's metadata writes added after each data write, in a metadata region
    /// before the data (`[workload.fs_metadata]`, `fs_metadata.rs`); any kind. Default: off.
    #[serde(skip_serializing_if = "is_off")]
    pub fs_metadata: FsMetadataConfig,

    // ---- several flows ----
    /// Several I/O flows on one device (`[[workload.flows]]`), each a workload table of its
    /// own, merged by arrival time; flow `i` is request stream `i`. When set, no other
    /// `[workload]` key may be. Default: empty (one workload, this table).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<WorkloadConfig>,
    /// Only in a `[[workload.flows]]` entry: multiplies this flow's arrival times (> 0,
    /// default 1), before `host.time_scale` applies to all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_scale: Option<f64>,
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

fn is_off(v: &FsMetadataConfig) -> bool {
    !v.is_on()
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        WorkloadConfig {
            kind: WorkloadKind::Synthetic,
            path: None,
            format: TraceFormat::Auto,
            time_unit: None,
            max_requests: None,
            repeat: 1,
            stream: None,
            generator: Generator::Mix,
            segment_requests: None,
            requests: None,
            duration_s: None,
            read_fraction: 0.7,
            trim_fraction: 0.0,
            random_fraction: 1.0,
            size_bytes: 4096,
            sizes: Vec::new(),
            alignment_bytes: 4096,
            iops: 0.0,
            bursts: None,
            address: AddressDistribution::Uniform,
            zipf_theta: 0.99,
            hot_fraction: 0.2,
            hot_access: 0.8,
            zones: Vec::new(),
            footprint_bytes: None,
            read_amplification: 1,
            fs_metadata: FsMetadataConfig::default(),
            flows: Vec::new(),
            time_scale: None,
        }
    }
}

/// The largest Zipf exponent accepted. At θ = 10 the first address already takes
/// 1/ζ(10) = 99.9 % of the accesses (ζ(10) = 1.000995), so a larger θ is the same one-address
/// workload (YCSB's default is 0.99; web request traces measure 0.64–0.83, Breslau et al.,
/// INFOCOM 1999).
pub const MAX_ZIPF_THETA: f64 = 10.0;

fn check_fraction(key: &dyn Fn(&str) -> String, name: &str, v: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&v) {
        return Err(NandError::config(
            key(name),
            format!("must be between 0 and 1, got {v}"),
        ));
    }
    Ok(())
}

impl WorkloadConfig {
    /// The largest request size the synthetic generator can make (bytes).
    pub fn max_size_bytes(&self) -> u64 {
        if self.sizes.is_empty() {
            self.size_bytes
        } else {
            self.sizes
                .iter()
                .filter(|s| s.weight > 0.0)
                .map(|s| s.size_bytes)
                .max()
                .unwrap_or(0)
        }
    }

    /// The trace-reading options these keys describe.
    pub fn trace_options(&self) -> TraceOptions {
        TraceOptions {
            time_unit: self.time_unit,
            max_requests: self.max_requests,
            stream: self.stream,
        }
    }

    /// Checks the keys of the selected kind, or of every flow; errors name the key
    /// (`workload.read_fraction`, `workload.flows[1].iops`).
    pub fn validate(&self, ctx: &WorkloadContext) -> Result<()> {
        if self.flows.is_empty() {
            if self.time_scale.is_some() {
                return Err(NandError::config(
                    "workload.time_scale",
                    "only a [[workload.flows]] entry has one (use host.time_scale)",
                ));
            }
            return self.validate_at("workload", ctx);
        }
        let own = WorkloadConfig {
            flows: Vec::new(),
            ..self.clone()
        };
        if let Some(k) = differing_key(&own, &WorkloadConfig::default()) {
            return Err(NandError::config(
                format!("workload.{k}"),
                "set it in each [[workload.flows]] entry: with workload.flows the [workload] table holds only them",
            ));
        }
        for (i, f) in self.flows.iter().enumerate() {
            let at = format!("workload.flows[{i}]");
            if !f.flows.is_empty() {
                return Err(NandError::config(format!("{at}.flows"), "a flow cannot hold flows"));
            }
            if let Some(t) = f.time_scale {
                time_scale::validate(&format!("{at}.time_scale"), t)?;
            }
            f.validate_at(&at, ctx)?;
        }
        Ok(())
    }

    /// Checks the keys of the selected kind, naming them `{at}.KEY`.
    fn validate_at(&self, at: &str, ctx: &WorkloadContext) -> Result<()> {
        let key = |k: &str| format!("{at}.{k}");
        if self.read_amplification == 0 {
            return Err(NandError::config(key("read_amplification"), "must be at least 1"));
        }
        self.check_unconditional(&key)?;
        self.fs_metadata.validate(at, ctx.logical_bytes)?;
        let ctx = &self.data_context(ctx);
        match self.kind {
            WorkloadKind::Trace => self.validate_trace(&key),
            WorkloadKind::Synthetic => self.check_synthetic(&key, ctx),
        }
    }

    /// Keys checked whatever the kind and address distribution, even where they are not
    /// used: a typo in them must not hide until the setting that reads them is switched on.
    fn check_unconditional(&self, key: &dyn Fn(&str) -> String) -> Result<()> {
        if self.repeat == 0 {
            return Err(NandError::config(key("repeat"), "must be at least 1"));
        }
        if !(0.0..=MAX_ZIPF_THETA).contains(&self.zipf_theta) {
            return Err(NandError::config(
                key("zipf_theta"),
                format!("must be between 0 and {MAX_ZIPF_THETA}, got {:?}", self.zipf_theta),
            ));
        }
        if !(self.hot_fraction > 0.0 && self.hot_fraction < 1.0) {
            return Err(NandError::config(
                key("hot_fraction"),
                format!("must lie strictly between 0 and 1, got {}", self.hot_fraction),
            ));
        }
        check_fraction(key, "hot_access", self.hot_access)?;
        zoned::validate(&self.zones, key)
    }

    fn validate_trace(&self, key: &dyn Fn(&str) -> String) -> Result<()> {
        match &self.path {
            Some(p) if !p.trim().is_empty() => {}
            _ => {
                return Err(NandError::config(
                    key("path"),
                    "required when workload.kind = \"trace\"",
                ))
            }
        }
        if self.max_requests == Some(0) {
            return Err(NandError::config(
                key("max_requests"),
                "must be at least 1 (leave it out to read all)",
            ));
        }
        Ok(())
    }

    /// The device as the data sees it: the logical space past the metadata region when
    /// `fs_metadata` is on.
    fn data_context(&self, ctx: &WorkloadContext) -> WorkloadContext {
        match self.fs_metadata.is_on() {
            true => WorkloadContext {
                logical_bytes: ctx.logical_bytes - self.fs_metadata.region_bytes,
                ..*ctx
            },
            false => *ctx,
        }
    }

    /// Checks the synthetic keys of a `[workload]` table (the generators call it).
    fn validate_synthetic(&self, ctx: &WorkloadContext) -> Result<()> {
        let key = |k: &str| format!("workload.{k}");
        self.check_unconditional(&key)?;
        self.check_synthetic(&key, ctx)
    }

    fn check_synthetic(&self, key: &dyn Fn(&str) -> String, ctx: &WorkloadContext) -> Result<()> {
        match self.generator {
            Generator::Jesd219 => jesd219::applied(self, key)?.check_generated(key, ctx),
            _ => self.check_generated(key, ctx),
        }
    }

    /// The generator's keys as they will be used (after `jesd219` filled in its own).
    fn check_generated(&self, key: &dyn Fn(&str) -> String, ctx: &WorkloadContext) -> Result<()> {
        match (self.generator, self.segment_requests) {
            (Generator::Iometer, Some(0)) => {
                return Err(NandError::config(key("segment_requests"), "must be at least 1"))
            }
            (Generator::Mix | Generator::Sensor | Generator::Jesd219, Some(_)) => {
                return Err(NandError::config(
                    key("segment_requests"),
                    "only used with workload.generator = \"iometer\"",
                ))
            }
            _ => {}
        }
        match (self.address, self.zones.is_empty()) {
            (AddressDistribution::Zoned, true) => {
                return Err(NandError::config(
                    key("zones"),
                    "needed with workload.address = \"zoned\"",
                ))
            }
            (AddressDistribution::Uniform | AddressDistribution::Zipf | AddressDistribution::Hotcold, false) => {
                return Err(NandError::config(
                    key("zones"),
                    "only used with workload.address = \"zoned\"",
                ))
            }
            _ => {}
        }
        if self.generator == Generator::Sensor && !self.sizes.is_empty() {
            return Err(NandError::config(
                key("sizes"),
                "the sensor generator writes files of one size: set workload.size_bytes",
            ));
        }
        if self.requests == Some(0) {
            return Err(NandError::config(key("requests"), "must be at least 1"));
        }
        if let Some(d) = self.duration_s {
            if !(d.is_finite() && d > 0.0) {
                return Err(NandError::config(
                    key("duration_s"),
                    format!("must be a positive number of seconds, got {d}"),
                ));
            }
            if self.iops <= 0.0 {
                return Err(NandError::config(
                    key("duration_s"),
                    "needs workload.iops > 0 (with iops = 0 every request arrives at time 0)",
                ));
            }
        }
        check_fraction(key, "read_fraction", self.read_fraction)?;
        check_fraction(key, "trim_fraction", self.trim_fraction)?;
        if self.read_fraction + self.trim_fraction > 1.0 + 1e-12 {
            return Err(NandError::config(
                key("trim_fraction"),
                format!(
                    "read_fraction + trim_fraction = {} exceeds 1",
                    self.read_fraction + self.trim_fraction
                ),
            ));
        }
        check_fraction(key, "random_fraction", self.random_fraction)?;
        if self.sizes.is_empty() {
            if self.size_bytes == 0 {
                return Err(NandError::config(key("size_bytes"), "must be at least 1 byte"));
            }
        } else {
            for (i, s) in self.sizes.iter().enumerate() {
                if s.size_bytes == 0 {
                    return Err(NandError::config(
                        key(&format!("sizes[{i}].size_bytes")),
                        "must be at least 1 byte",
                    ));
                }
                if !(s.weight.is_finite() && s.weight >= 0.0) {
                    return Err(NandError::config(
                        key(&format!("sizes[{i}].weight")),
                        format!("must be a non-negative number, got {}", s.weight),
                    ));
                }
            }
            if self.sizes.iter().map(|s| s.weight).sum::<f64>() <= 0.0 {
                return Err(NandError::config(key("sizes"), "the weights sum to 0"));
            }
        }
        if self.alignment_bytes == 0 {
            return Err(NandError::config(key("alignment_bytes"), "must be at least 1 byte"));
        }
        if !(self.iops.is_finite() && self.iops >= 0.0) {
            return Err(NandError::config(
                key("iops"),
                format!("must be a non-negative rate, got {}", self.iops),
            ));
        }
        if let Some(b) = &self.bursts {
            b.validate(key, self.iops)?;
        }
        let footprint = self.footprint_bytes.unwrap_or(ctx.logical_bytes);
        if footprint < self.max_size_bytes() {
            let what = if self.footprint_bytes.is_some() {
                ""
            } else {
                " (the default, the logical capacity)"
            };
            return Err(NandError::config(
                key("footprint_bytes"),
                format!(
                    "{footprint} B{what} is smaller than the largest request ({} B)",
                    self.max_size_bytes()
                ),
            ));
        }
        if self.footprint_bytes.is_some() && footprint > ctx.logical_bytes {
            return Err(NandError::config(
                key("footprint_bytes"),
                format!(
                    "{footprint} B exceeds the device's logical capacity ({} B)",
                    ctx.logical_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// The first top-level key (in declaration order) whose value differs between `a` and `b`.
fn differing_key(a: &WorkloadConfig, b: &WorkloadConfig) -> Option<String> {
    let (a, b) = (serde_json::to_value(a).ok()?, serde_json::to_value(b).ok()?);
    let (a, b) = (a.as_object()?, b.as_object()?);
    a.keys().chain(b.keys()).find(|k| a.get(*k) != b.get(*k)).cloned()
}

/// Opens the request stream a config describes: its one workload, or its flows merged.
pub fn open(cfg: &WorkloadConfig, ctx: &WorkloadContext) -> Result<RequestStream> {
    cfg.validate(ctx)?;
    if cfg.flows.is_empty() {
        open_one(cfg, ctx)
    } else {
        Ok(Box::new(Flows::open(&cfg.flows, ctx)?))
    }
}

/// Opens one workload (validated) that has no flows, its reads amplified as it says.
fn open_one(cfg: &WorkloadConfig, ctx: &WorkloadContext) -> Result<RequestStream> {
    let stream = open_source(cfg, &cfg.data_context(ctx))?;
    let stream: RequestStream = match cfg.fs_metadata.is_on() {
        true => Box::new(FsMetadata::new(stream, &cfg.fs_metadata)),
        false => stream,
    };
    Ok(match cfg.read_amplification {
        1 => stream,
        k => Box::new(amplify::ReadAmplified::new(stream, k)),
    })
}

/// The requests of one workload's trace or generator.
fn open_source(cfg: &WorkloadConfig, ctx: &WorkloadContext) -> Result<RequestStream> {
    match cfg.kind {
        WorkloadKind::Synthetic => match cfg.generator {
            Generator::Mix | Generator::Jesd219 => Ok(Box::new(Synthetic::new(cfg, ctx)?)),
            Generator::Iometer => Ok(Box::new(Iometer::new(cfg, ctx)?)),
            Generator::Sensor => Ok(Box::new(Sensor::new(cfg, ctx)?)),
        },
        WorkloadKind::Trace => {
            let path = cfg.path.as_deref().unwrap_or_default();
            let opts = cfg.trace_options();
            if cfg.repeat > 1 {
                Ok(Box::new(RepeatedTrace::open(
                    path,
                    cfg.format,
                    &opts,
                    u64::from(cfg.repeat),
                )?))
            } else {
                Ok(Box::new(TraceReader::open(path, cfg.format, &opts)?))
            }
        }
    }
}
