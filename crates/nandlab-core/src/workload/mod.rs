//! Workloads: streaming trace readers and synthetic generators. Every source yields
//! [`Request`]s in arrival order with times rebased to start at 0, and reports bad input as
//! a [`NandError`](crate::NandError) naming the file and line.
//!
//! - `config.rs`: the `[workload]` keys ([`WorkloadConfig`]); `validate.rs` checks them;
//! - [`format`]: the trace formats ([`TraceFormat`]) and their time units ([`TimeUnit`]);
//!   [`trace_line`]: the per-line parsers; [`detect`]: format detection;
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

use crate::error::Result;
pub use crate::host::request::{Op, Request};

mod amplify;
pub mod arrival;
pub mod background;
mod config;
pub mod convert;
pub mod detect;
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
pub mod trace_line;
mod validate;
pub mod zoned;

#[cfg(test)]
mod tests;

pub use arrival::BurstConfig;
pub use background::Background;
pub use config::{AddressDistribution, Generator, SizeWeight, WorkloadConfig, WorkloadKind};
pub use convert::{convert, convert_report, ConvertReport};
pub use detect::detect_format;
pub use flows::Flows;
pub use format::{TimeUnit, TraceFormat};
pub use fs_metadata::{FsMetadata, FsMetadataConfig};
pub use iometer::Iometer;
pub use reader::{TraceOptions, TraceReader};
pub use repeat::RepeatedTrace;
pub use sensor::Sensor;
pub use stats::{trace_info, SizeBucket, TraceInfo, TraceStats};
pub use synthetic::Synthetic;
pub use validate::MAX_ZIPF_THETA;
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
