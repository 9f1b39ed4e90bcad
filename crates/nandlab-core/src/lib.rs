//! nandlab-core: a reliability-aware, trace-driven NAND-flash SSD simulator.
//!
//! Layers, from the host down (each module has one job):
//! - [`workload`]: trace readers and synthetic generators that yield [`host::Request`]s;
//! - [`host`]: host request queue, scheduler hook, open/closed-loop replay;
//! - [`cache`]: the controller's DRAM data cache (write-back, LRU);
//! - [`ftl`]: page-level mapping, allocation, garbage collection, wear leveling;
//! - [`flash`]: geometry, shared-page map, timing, per-block state, the back-end resources;
//! - [`content`], [`reliability`], [`ecc`]: what is stored, how it fails, how it is corrected;
//! - [`codec`]: data codecs applied before programming (seed 000's BitFlip);
//! - [`engine`]: discrete-event queue and seeded randomness;
//! - [`metrics`]: latency histograms, counters and the run summary;
//! - [`sim`]: the simulator that wires the layers together.

pub mod cache;
pub mod codec;
pub mod config;
pub mod content;
pub mod ecc;
pub mod engine;
pub mod error;
pub mod flash;
pub mod ftl;
pub mod host;
pub mod metrics;
mod registry;
pub mod reliability;
pub mod sim;
pub mod workload;

pub use config::SimConfig;
pub use error::{NandError, Result};
pub use sim::session::Session;
pub use sim::{SimOutput, Simulator};

/// Version of the simulator, recorded with every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
