//! The `[workload]` section: where requests come from (a trace or a generator) and the
//! keys of each; they are checked in `validate.rs`.

use super::arrival::BurstConfig;
use super::format::{TimeUnit, TraceFormat};
use super::fs_metadata::FsMetadataConfig;
use super::reader::TraceOptions;
use super::zoned::Zone;
use super::WorkloadContext;
use serde::{Deserialize, Serialize};

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

    /// The device as the data sees it: the logical space past the metadata region when
    /// `fs_metadata` is on.
    pub(super) fn data_context(&self, ctx: &WorkloadContext) -> WorkloadContext {
        match self.fs_metadata.is_on() {
            true => WorkloadContext {
                logical_bytes: ctx.logical_bytes - self.fs_metadata.region_bytes,
                ..*ctx
            },
            false => *ctx,
        }
    }
}
