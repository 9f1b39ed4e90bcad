//! The flash back end: geometry, page types, timing, per-block state and the timed
//! resources (dies, channels, decoders).

pub mod backend;
pub mod block;
mod build_ctx;
pub mod cell;
pub mod divisor;
pub mod geometry;
pub mod page_map;
pub mod pe_time;
pub mod scheduler;
pub mod timing;

pub use build_ctx::BuildCtx;
pub use cell::{CellType, PageType};
pub use geometry::{DeviceConfig, Geometry, Ppa};
pub use timing::{Timing, TimingConfig};
